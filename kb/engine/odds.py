"""Exact odds for answers that need a roll the situation does not give.

One solve of the situation's grounding (kb/engine/solve.py) enumerates every face
of the missing dice one query depends on (kb/engine/unknowns.py finds them in its
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

from aslkb.base.errors import TooManyRolls, UnalignedDice
from aslkb.engine.solve import Grounding

#: Enumerating more models than this is refused: give some of the rolls.
# 20,000 combinations take about 4 s; the largest shipped case needs 8,856.
MODEL_LIMIT = 20_000


@dataclass(frozen=True)
class Outcome:
    """One combination of the missing dice and what the queries answer under it."""

    weight: Fraction
    dice: tuple[clingo.Symbol, ...]  # _chosen(Name, Subject, Die, Face) atoms
    answers: dict[clingo.Symbol, tuple[str, object]]  # query -> ("value", v) | ("undecided", reasons)


def outcomes(grounding: Grounding, queries: Iterable[clingo.Symbol],
             assumptions: Sequence[tuple[clingo.Symbol, bool]] = ()) -> list[Outcome]:
    """Every combination of the dice the grounding counts (kb/answers/ask.py counts
    just those one query depends on: an attack's IFT DR does not multiply the
    odds of its Dust dr), under the assumptions (the open facts fixed). What
    the assumptions leave open (a gap of the text) may give a query several
    values under the same dice: undecided under them. Raises UnalignedDice
    when what is left open changes which dice are rolled."""
    models = grounding.models(assumptions)
    try:
        return tally(models, queries)
    finally:  # the solve ends here, not when the traceback lets go of it: the caller updates the program next
        models.close()


def tally(models: Iterable[Sequence[clingo.Symbol]], queries: Iterable[clingo.Symbol]) -> list[Outcome]:
    """The outcomes of these models (each its `_chosen`, `answer` and
    `undecided` atoms, untagged): outcomes() for one situation's grounding,
    and kb/engine/batch.py for a situation of a chunk."""
    wanted = set(queries)
    found: dict[tuple, dict] = {}  # the dice -> each query's answer under them
    models_seen = 0
    for atoms in models:
        models_seen += 1
        if models_seen > MODEL_LIMIT:
            raise TooManyRolls(f"more than {MODEL_LIMIT} combinations of missing dice; "
                               "give some of the rolls in the file")
        dice = tuple(sorted(a for a in atoms if a.name == "_chosen"))
        answers: dict[clingo.Symbol, list] = {}
        for atom in atoms:
            if atom.name in ("answer", "undecided") and atom.arguments[0] in wanted:
                answers.setdefault(atom.arguments[0], []).append((atom.name, atom.arguments[1]))
        settled = _settle_answers(answers)
        if dice not in found:
            found[dice] = settled
        else:  # the same dice in another completion of what the assumptions leave open (a gap)
            seen = found[dice]
            for query in wanted:
                if seen.get(query) != settled.get(query):
                    seen[query] = ("undecided", ())
    total = sum(Fraction(1, 6 ** len(dice)) for dice in found)
    if total != 1:
        if models_seen > len(found):  # what was left open changes which dice are rolled
            raise UnalignedDice("the dice rolled differ between the completions of a gap")
        # the rules declared rolls inconsistently: never report wrong odds
        raise AssertionError(f"the odds of the roll combinations add up to {total}, not 1")
    return [Outcome(Fraction(1, 6 ** len(dice)), dice, answers) for dice, answers in found.items()]


def _settle_answers(found: dict[clingo.Symbol, list]) -> dict[clingo.Symbol, tuple[str, object]]:
    """Per query: its value(s), or that it is undecided (undecided wins)."""
    settled = {}
    for query, items in found.items():
        reasons = tuple(sorted(str(v) for kind, v in items if kind == "undecided"))
        values = tuple(sorted((v for kind, v in items if kind == "answer"), key=str))
        settled[query] = ("undecided", reasons) if reasons else ("value", values)
    return settled
