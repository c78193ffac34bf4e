"""Ground and solve one situation: the one place a clingo Control is made."""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

import clingo


class InconsistentSituation(Exception):
    """No model satisfies the situation together with the rules."""

    # the statements involved, as (line, column, statement as written); kb/conflict.py finds them
    located: tuple[tuple[int, int, str], ...] = ()

    def report(self, filename: object) -> str:
        """`FILE:LINE:COLUMN: inconsistent situation: ...` at the last statement
        involved, and a `note:` line at each of the others, as a compiler does."""
        from aslkb.parser.errors import located_note

        if not self.located:
            return f"{filename}: inconsistent situation: {self}"
        *others, (line, column, _) = self.located
        return "\n".join([f"{filename}:{line}:{column}: inconsistent situation: {self}",
                          *(located_note(str(filename), n, c, f"in conflict with it: {text}") for n, c, text in others)])


class Settings(NamedTuple):
    edition: str
    interpretations: tuple[str, ...]  # in force, sorted


# What the answers read of a model; the rest stays inside clingo.
SHOW_ANSWERS = "\n#show answer/2. #show undecided/2.\n"
SHOW_BOOKKEEPING = "\n#show _why/4. #show _agg/3. #show _looks/3. #show _blocked/3. #show _excluded/3.\n"


def solve(program: str, facts: Iterable[clingo.Symbol], settings: Settings) -> Sequence[clingo.Symbol]:
    """The answers and bookkeeping atoms of the single model of the program
    plus these facts and the interpretations in force."""
    return Grounding(program, [*facts, *in_force_facts(settings)], dice=False).solve()


def solve_all(program: str, facts: Iterable[clingo.Symbol], limit: int,
              every_atom: bool = False) -> Iterator[Sequence[clingo.Symbol]]:
    """The shown atoms (or every atom) of up to `limit` models.

    `program` is the knowledge base's own text (kb/program.py); the facts go in
    through clingo's backend as symbols, never as program text, so nothing a
    situation file says can become ASP source.
    """
    control = grounded(lambda c: c.add("base", [], program), facts, limit)
    with control.solve(yield_=True) as handle:
        for model in handle:
            yield model.symbols(atoms=True) if every_atom else model.symbols(shown=True)


def ground_statements(statements: Iterable, facts: Iterable[clingo.Symbol]) -> clingo.Control:
    """A grounded Control for statements built as clingo AST (never from text):
    the why-not diagnosis reads what its rules derive from the facts."""
    from clingo import ast

    def add(control: clingo.Control) -> None:
        with ast.ProgramBuilder(control) as builder:
            for statement in statements:
                builder.add(statement)

    return grounded(add, facts, 1)


def grounded(add_program, facts: Iterable[clingo.Symbol], limit: int) -> clingo.Control:
    control = clingo.Control(["--warn=none", f"--models={limit}"])
    add_program(control)
    with control.backend() as backend:
        for symbol in facts:
            backend.add_rule([backend.add_atom(symbol)])
    control.ground([("base", [])])
    return control


# The engine's own program (never situation text) beside the rules of one
# situation: a missing die takes each face once its roll is counted (an
# external that kb/odds.py switches on between solves), and the bookkeeping
# is shown only for the solves that cite rules.
_DICE = """
_face(1..6).
#external _counted(N, S) : roll_needed(N, S, _).
#external _explain.
_rolled(N, S) :- roll_needed(N, S, _), not _stated(N, S), _counted(N, S).
1 { _chosen(N, S, colored, F) : _face(F) } 1 :- _rolled(N, S), _two_dice(N).
1 { _chosen(N, S, white, F) : _face(F) } 1 :- _rolled(N, S), _two_dice(N).
1 { _chosen(N, S, dr, F) : _face(F) } 1 :- _rolled(N, S), not _two_dice(N).
roll(N, S, K, F) :- _chosen(N, S, K, F).
#show _chosen/4.
#show answer/2. #show undecided/2.
#show _why(I, H, P, N) : _why(I, H, P, N), _explain.
#show _agg(I, H, E) : _agg(I, H, E), _explain.
#show _looks(I, H, P) : _looks(I, H, P), _explain.
#show _blocked(I, H, N) : _blocked(I, H, N), _explain.
#show _excluded(I, H, N) : _excluded(I, H, N), _explain.
"""


class Grounding:
    """One situation's program, grounded once (multi-shot). Its ordinary
    answer is a solve with the dice as given; kb/odds.py counts missing rolls
    (externals) and enumerates their faces, and reads the rules behind a value
    from a solve under that value's dice (assumptions) on the same grounding."""

    def __init__(self, program: str, facts: Sequence[clingo.Symbol], dice: bool = True):
        """`dice=False`: the dice machinery left out (a few ms), for a
        situation whose answers are not expected to wait for a roll; ask()
        grounds again with it when one does."""
        self.dice = dice
        if not dice:
            self.control = grounded(lambda c: c.add("base", [], program + SHOW_ANSWERS + SHOW_BOOKKEEPING),
                                    facts, 1)
            return
        from aslkb.parser import catalog

        stated = {(f.arguments[0], f.arguments[1]) for f in facts if f.name == "roll"}
        extra = [clingo.Function("_stated", [name, subject]) for name, subject in stated]
        extra += [clingo.Function("_two_dice", [clingo.Function(name)])
                  for name in catalog.roll_names() if catalog.roll(name)["dice"] == "DR"]
        self.control = grounded(lambda c: c.add("base", [], program + _DICE), [*facts, *extra], 0)

    def solve(self, dice: Sequence[clingo.Symbol] = (), explain: bool = True) -> Sequence[clingo.Symbol]:
        """The answers (and with `explain` the bookkeeping atoms), with these
        `_chosen` dice (none: as given)."""
        if not self.dice:  # the bookkeeping is always shown
            with self.control.solve(yield_=True) as handle:
                for model in handle:
                    return model.symbols(shown=True)
            raise InconsistentSituation("no model satisfies the situation and the rules")
        self.control.assign_external(clingo.Function("_explain"), explain)
        try:
            with self.control.solve(assumptions=[(d, True) for d in dice], yield_=True) as handle:
                for model in handle:
                    return [a for a in model.symbols(shown=True) if a.name != "_chosen"]
        finally:
            self.control.assign_external(clingo.Function("_explain"), False)
        raise InconsistentSituation("no model satisfies the situation and the rules")

    def count(self, name: clingo.Symbol, subject: clingo.Symbol) -> None:
        """Let a missing roll take every face in the models that follow."""
        self.control.assign_external(clingo.Function("_counted", [name, subject]), True)

    def models(self) -> Iterator[Sequence[clingo.Symbol]]:
        """The answers and dice of every model (no bookkeeping)."""
        with self.control.solve(yield_=True) as handle:
            for model in handle:
                yield model.symbols(shown=True)


def in_force_facts(settings: Settings) -> list[clingo.Symbol]:
    """`interpretation(Name)` for each interpretation in force."""
    return [clingo.Function("interpretation", [clingo.Function(name)]) for name in settings.interpretations]
