"""An optimising search over a program an authors' tool builds from the
shipped rule files (aslkb diverge's scenes, kb/tools/diverge.py): grounded
once, then asked for its best model again and again, with parts added as the
search learns (a witness found) and assumptions that narrow one question (the
smallest situation of one kind). The tools never ground or solve a program of
their own: this and kb/engine/solve.py do."""
from __future__ import annotations

from collections.abc import Callable, Sequence

import clingo
from clingo import ast

from aslkb.base.errors import RuleFileError, clingo_said
from aslkb.engine.solve import new_control


class OptimalSearch:
    """One grounded optimisation program: `build(add)` hands it its statements
    (clingo AST, from the rule files and the tool's own files); `name` says
    which in an error."""

    def __init__(self, name: str, options: Sequence[str], build: Callable[[Callable[[ast.AST], None]], None]):
        logged: list[str] = []
        self._control = new_control("--opt-mode=opt", *options,
                                    logger=lambda _code, message: logged.append(message.strip()))
        with ast.ProgramBuilder(self._control) as builder:
            build(builder.add)
        try:
            self._control.ground([("base", [])])
        except RuntimeError:  # an unsafe or malformed rule of the tool's files: clingo said where
            # (the tool's file, the domain, is the one a grounding error is about)
            raise RuleFileError(f"{name}: cannot ground the domain: {clingo_said(logged, name, 'error')}") from None
        self.models = 0  # models seen, optimal or on the way there

    def best(self, assumptions: Sequence[tuple[clingo.Symbol, bool]] = ()) \
            -> tuple[list[int], Sequence[clingo.Symbol]] | None:
        """The cost and atoms of an optimal model under these assumptions, or None."""
        found = None
        with self._control.solve(assumptions=list(assumptions), yield_=True) as handle:
            for model in handle:
                self.models += 1
                found = (list(model.cost), model.symbols(atoms=True))
        return found

    def add(self, part: str, program: str) -> None:
        """Add a part (the tool's own rules, never situation text) and ground it."""
        self._control.add(part, [], program)
        self._control.ground([(part, [])])

    def atoms(self, predicate: str, arity: int) -> list[clingo.Symbol]:
        """The ground atoms of one predicate (those an assumption may fix)."""
        return [atom.symbol for atom in self._control.symbolic_atoms.by_signature(predicate, arity)]
