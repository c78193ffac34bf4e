"""Ground and solve one situation: the one place a clingo Control is made."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import clingo

from .program import KnowledgeBase, knowledge_base


class InconsistentSituation(Exception):
    """No model satisfies the situation together with the rules."""


@dataclass(frozen=True)
class Settings:
    edition: str
    interpretations: tuple[str, ...]  # in force, sorted


def solve(facts: Iterable[clingo.Symbol], settings: Settings,
          kb: KnowledgeBase | None = None) -> Sequence[clingo.Symbol]:
    """The atoms of the single model of the rules plus these facts.

    Facts go in through clingo's backend as symbols, never as program text, so
    nothing a situation file says can become ASP source.
    """
    kb = kb or knowledge_base()
    control = clingo.Control(["--warn=none"])
    control.add("base", [], kb.program_for(settings.edition, list(settings.interpretations)))
    with control.backend() as backend:
        for symbol in facts:
            backend.add_rule([backend.add_atom(symbol)])
        for name in settings.interpretations:
            backend.add_rule([backend.add_atom(clingo.Function("interpretation", [clingo.Function(name)]))])
    control.ground([("base", [])])
    with control.solve(yield_=True) as handle:
        for model in handle:
            return model.symbols(atoms=True)
    raise InconsistentSituation("no model satisfies the situation and the rules")
