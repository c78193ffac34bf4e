"""Exact odds for answers that need a roll the situation does not give.

One solve of the situation's grounding (kb/engine.py) enumerates every face
of the missing dice one query depends on (kb/unknowns.py finds them in its
ground cone): a dr is one die, a DR a colored and a white die. A die is
chosen only where it is needed, so a Straying DR that only a colored 6 on the
Movement DR calls for is enumerated only under that 6, and each model weighs
(1/6)^(dice chosen in it). The weights of all models add up to exactly 1.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import clingo

from .ask import UsageError
from .engine import Grounding

#: Enumerating more models than this is refused: give some of the rolls.
# 20,000 combinations take about 4 s; the largest shipped case needs 8,856.
MODEL_LIMIT = 20_000


class TooManyRolls(UsageError):  # input the tool cannot take: exit status 2 with the message
    """More combinations of missing dice than MODEL_LIMIT."""


@dataclass(frozen=True)
class Outcome:
    """One combination of the missing dice and what the queries answer under it."""

    weight: Fraction
    dice: tuple[clingo.Symbol, ...]  # _chosen(Name, Subject, Die, Face) atoms
    answers: dict[clingo.Symbol, tuple[str, object]]  # query -> ("value", v) | ("undecided", reasons)


def outcomes(grounding: Grounding, queries: Iterable[clingo.Symbol],
             assumptions: Sequence[tuple[clingo.Symbol, bool]] = ()) -> list[Outcome]:
    """Every combination of the dice the grounding counts (kb/ask.py counts
    just those one query depends on: an attack's IFT DR does not multiply the
    odds of its Dust dr), under the assumptions (the open facts fixed)."""
    wanted = set(queries)
    found = []
    for atoms in grounding.models(assumptions):
        if len(found) == MODEL_LIMIT:
            raise TooManyRolls(f"more than {MODEL_LIMIT} combinations of missing dice; "
                               "give some of the rolls in the file")
        dice = tuple(a for a in atoms if a.name == "_chosen")
        answers: dict[clingo.Symbol, list] = {}
        for atom in atoms:
            if atom.name in ("answer", "undecided") and atom.arguments[0] in wanted:
                answers.setdefault(atom.arguments[0], []).append((atom.name, atom.arguments[1]))
        found.append(Outcome(Fraction(1, 6 ** len(dice)), dice, _settle_answers(answers)))
    total = sum(o.weight for o in found)
    if total != 1:  # the rules declared rolls inconsistently: never report wrong odds
        raise AssertionError(f"the odds of the roll combinations add up to {total}, not 1")
    return found


def _settle_answers(found: dict[clingo.Symbol, list]) -> dict[clingo.Symbol, tuple[str, object]]:
    """Per query: its value(s), or that it is undecided (undecided wins)."""
    settled = {}
    for query, items in found.items():
        reasons = tuple(sorted(str(v) for kind, v in items if kind == "undecided"))
        values = tuple(sorted((v for kind, v in items if kind == "answer"), key=str))
        settled[query] = ("undecided", reasons) if reasons else ("value", values)
    return settled
