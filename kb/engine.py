"""Ground and solve one situation: the one place a clingo Control is made."""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import clingo


class InconsistentSituation(Exception):
    """No model satisfies the situation together with the rules."""


@dataclass(frozen=True)
class Settings:
    edition: str
    interpretations: tuple[str, ...]  # in force, sorted


# What the answers read of a model; the rest stays inside clingo.
SHOW_ANSWERS = "\n#show answer/2. #show undecided/2.\n"
SHOW_BOOKKEEPING = "\n#show _why/4. #show _agg/3. #show _looks/3. #show _blocked/3.\n"


def solve(program: str, facts: Iterable[clingo.Symbol], settings: Settings) -> Sequence[clingo.Symbol]:
    """The answers and bookkeeping atoms of the single model of the program
    plus these facts and the interpretations in force."""
    for atoms in solve_all(program + SHOW_ANSWERS + SHOW_BOOKKEEPING, [*facts, *in_force_facts(settings)], 1):
        return atoms
    raise InconsistentSituation("no model satisfies the situation and the rules")


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


def in_force_facts(settings: Settings) -> list[clingo.Symbol]:
    """`interpretation(Name)` for each interpretation in force."""
    return [clingo.Function("interpretation", [clingo.Function(name)]) for name in settings.interpretations]
