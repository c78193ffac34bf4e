"""Exact odds for answers that need a roll the situation does not give.

One grounding, and one solve, enumerate every face of every missing die that a rule needs
(`roll_needed`): a dr is one die, a DR a colored and a white die. A die is
chosen only where it is needed, so a Straying DR that only a colored 6 on the
Movement DR calls for is enumerated only under that 6, and each model weighs
(1/6)^(dice chosen in it). The weights of all models add up to exactly 1.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import clingo

from aslkb.parser import catalog

from .ask import UsageError
from .engine import grounded

# The engine's own program (never situation text): a missing die takes each
# face once its roll is counted (an external, switched on between solves), and
# the bookkeeping is shown only for the solves that cite rules.
_ENUMERATE = """
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
"""

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


class Dice:
    """One situation's program grounded once with every missing die free to
    take each face; the enumeration and the examples are solves of it
    (multi-shot: the externals and assumptions change, the grounding stays)."""

    def __init__(self, program: str, facts: Sequence[clingo.Symbol]):
        stated = {(f.arguments[0], f.arguments[1]) for f in facts if f.name == "roll"}
        extra = [clingo.Function("_stated", [name, subject]) for name, subject in stated]
        extra += [clingo.Function("_two_dice", [clingo.Function(name)])
                  for name in catalog.roll_names() if catalog.roll(name)["dice"] == "DR"]
        self.control = grounded(lambda c: c.add("base", [], program + _ENUMERATE), [*facts, *extra], 0)

    def outcomes(self, queries: Iterable[clingo.Symbol]) -> list[Outcome]:
        """Every combination of the dice the queries need and the situation does not give.

        Only the rolls the queries' answers name are counted (an attack's IFT DR
        does not multiply the odds of its Dust dr), and a roll that becomes needed
        under some faces of another (the Straying DR under a colored 6) is added
        and the count made again, until no answer waits for an uncounted roll.
        """
        queries = list(queries)
        counted: set[tuple[clingo.Symbol, clingo.Symbol]] = set()
        while True:
            outcomes, named = self._enumerate(queries, counted)
            if named <= counted:
                return outcomes
            for name, subject in named - counted:
                self.control.assign_external(clingo.Function("_counted", [name, subject]), True)
            counted |= named

    def example(self, dice: tuple[clingo.Symbol, ...]) -> Sequence[clingo.Symbol]:
        """The answers and bookkeeping atoms under one combination of the dice."""
        self.control.assign_external(clingo.Function("_explain"), True)
        try:
            with self.control.solve(assumptions=[(d, True) for d in dice], yield_=True) as handle:
                for model in handle:
                    return [a for a in model.symbols(shown=True) if a.name != "_chosen"]
        finally:
            self.control.assign_external(clingo.Function("_explain"), False)
        raise AssertionError("a combination of dice the enumeration found has no model")

    def _enumerate(self, queries: list[clingo.Symbol], counted: set[tuple[clingo.Symbol, clingo.Symbol]]):
        """The outcomes when the `counted` rolls take every face, and the rolls the
        queries' answers still name as missing."""
        wanted = set(queries)
        named: set[tuple[clingo.Symbol, clingo.Symbol]] = set()
        outcomes = []
        with self.control.solve(yield_=True) as handle:
            for model in handle:
                if len(outcomes) == MODEL_LIMIT:
                    raise TooManyRolls(f"more than {MODEL_LIMIT} combinations of missing dice; "
                                       "give some of the rolls in the file")
                atoms = model.symbols(shown=True)
                dice = tuple(a for a in atoms if a.name == "_chosen")
                answers: dict[clingo.Symbol, list] = {}
                for atom in atoms:
                    if atom.name in ("answer", "undecided") and atom.arguments[0] in wanted:
                        answers.setdefault(atom.arguments[0], []).append((atom.name, atom.arguments[1]))
                        reason = atom.arguments[1]
                        if atom.name == "undecided" and reason.type == clingo.SymbolType.Function \
                                and reason.name == "needs_roll":
                            named.add((reason.arguments[0], reason.arguments[1]))
                outcomes.append(Outcome(Fraction(1, 6 ** len(dice)), dice, _settle_answers(answers)))
        total = sum(o.weight for o in outcomes)
        if total != 1:  # the rules declared rolls inconsistently: never report wrong odds
            raise AssertionError(f"the odds of the roll combinations add up to {total}, not 1")
        return outcomes, named


def _settle_answers(found: dict[clingo.Symbol, list]) -> dict[clingo.Symbol, tuple[str, object]]:
    """Per query: its value(s), or that it is undecided (undecided wins)."""
    settled = {}
    for query, items in found.items():
        reasons = tuple(sorted(str(v) for kind, v in items if kind == "undecided"))
        values = tuple(sorted((v for kind, v in items if kind == "answer"), key=str))
        settled[query] = ("undecided", reasons) if reasons else ("value", values)
    return settled
