"""Ground and solve one situation: the one place a clingo Control is made."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import clingo



class InconsistentSituation(Exception):
    """No model satisfies the situation together with the rules."""


# What the answers read of a model; the rest stays inside clingo.
_SHOWN = """
#show answer/2. #show undecided/2.
#show _why/4. #show _agg/3. #show _looks/3. #show _blocked/3.
"""


@dataclass(frozen=True)
class Settings:
    edition: str
    interpretations: tuple[str, ...]  # in force, sorted


def solve(program: str, facts: Iterable[clingo.Symbol], settings: Settings) -> Sequence[clingo.Symbol]:
    """The atoms of the single model of the program plus these facts.

    `program` is the knowledge base's own text (kb/program.py); the facts go in
    through clingo's backend as symbols, never as program text, so nothing a
    situation file says can become ASP source.
    """
    control = clingo.Control(["--warn=none"])
    control.add("base", [], program + _SHOWN)
    with control.backend() as backend:
        for symbol in facts:
            backend.add_rule([backend.add_atom(symbol)])
        for name in settings.interpretations:
            backend.add_rule([backend.add_atom(clingo.Function("interpretation", [clingo.Function(name)]))])
    control.ground([("base", [])])
    with control.solve(yield_=True) as handle:
        for model in handle:
            return model.symbols(shown=True)
    raise InconsistentSituation("no model satisfies the situation and the rules")
