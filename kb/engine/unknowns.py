"""What a situation leaves unknown, and whether an answer depends on it.

The unknowns of a situation are the missing dice (a roll a rule needs,
`roll_needed`, that the file does not give) and the open facts: the facts
rules/common/unknowns.lp declares open (`open(Atom)`: may hold or not when
the file does not state it), for just the atoms a reached rule looks at.
Every other fact is closed: absent unless stated.

An answer is decided when every completion of the unknowns gives it the same
value: clingo's brave consequences (true in some completion) and cautious
consequences (true in every one) of its `answer`/`undecided` atoms agree.
Otherwise it names the unknowns whose value changes it: the open atoms and
dice in its ground dependency cone that, fixed one at a time, change the set
of values it can take, each said as what a user adds (kb/engine/hints.py).
When only dice change it, kb/engine/odds.py gives its odds over those dice.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

import clingo

from aslkb.base.record import Record
from aslkb.engine.solve import Grounding
from aslkb.knowledge.declarations import declarations, open_signatures


def gap_reason(atom: clingo.Symbol) -> clingo.Symbol | None:
    """The reason of a gap the rule text leaves open (`gap(Key, Reason)`,
    `gap(Key, Reason, Value)`, rules/common/unknowns.lp), None for a fact:
    a gap is not the user's to give, it is said as its reason."""
    return atom.arguments[1] if atom.name == "gap" and len(atom.arguments) in (2, 3) else None


class Values(Record):
    """What one query's atoms are over the completions of the unknowns."""

    _fields = ("brave", "cautious")

    def __init__(self, brave: set[clingo.Symbol] | None = None, cautious: set[clingo.Symbol] | None = None):
        self.brave = set() if brave is None else brave
        self.cautious = set() if cautious is None else cautious

    @property
    def decided(self) -> bool:
        """The same value in every completion (undecided wins over any answer)."""
        brave_undecided = {a for a in self.brave if a.name == "undecided"}
        cautious_undecided = {a for a in self.cautious if a.name == "undecided"}
        if brave_undecided:
            return brave_undecided == cautious_undecided
        return self.brave == self.cautious


def values(grounding: Grounding, queries: Iterable[clingo.Symbol],
           assumptions: Sequence[tuple[clingo.Symbol, bool]] = ()) -> dict[clingo.Symbol, Values] | None:
    """Each query's brave and cautious answer atoms (None: no completion)."""
    wanted = set(queries)
    found = {q: Values() for q in wanted}
    # no choice in the ground program (no unknown at all): its one model is every completion
    modes = ("brave", "cautious") if grounding.unknown_atoms() else ("auto",)
    for mode in modes:
        atoms = grounding.consequences(mode, assumptions)
        if atoms is None:
            return None
        for atom in atoms:
            if atom.name in ("answer", "undecided") and len(atom.arguments) == 2 and atom.arguments[0] in wanted:
                for side in (("brave", "cautious") if mode == "auto" else (mode,)):
                    getattr(found[atom.arguments[0]], side).add(atom)
    return found


class Unknowns(Record):
    """The unknowns a query's value can depend on, from its ground cone."""

    _fields = ("open_atoms", "rolls")

    def __init__(self, open_atoms: list[clingo.Symbol], rolls: set[tuple[clingo.Symbol, clingo.Symbol]]):
        self.open_atoms = open_atoms  # open facts (choice atoms of the declarations)
        self.rolls = rolls  # (name, subject) of missing dice


def unknowns_of(grounding: Grounding, query: clingo.Symbol) -> Unknowns:
    """The open atoms and missing rolls in the ground dependency cone of the
    query's answer and undecided atoms."""
    grounding = grounding.observed()
    symbols = grounding.symbols()
    heads = [literal for literal, symbol in symbols.items()
             if symbol.name in ("answer", "undecided") and len(symbol.arguments) == 2
             and symbol.arguments[0] == query]
    cone = grounding.rules.cone(heads)
    open_names = open_signatures()
    open_atoms, rolls = [], set()
    for literal in cone:
        symbol = symbols.get(literal)
        if symbol is None:
            continue
        if symbol.name == "_counted" and len(symbol.arguments) == 2:
            rolls.add((symbol.arguments[0], symbol.arguments[1]))
        elif (symbol.name, len(symbol.arguments)) in open_names and grounding.may_open(symbol):
            open_atoms.append(symbol)
    return Unknowns(sorted(open_atoms), rolls)


def _possible(grounding: Grounding, query: clingo.Symbol,
              assumptions: Sequence[tuple[clingo.Symbol, bool]]) -> frozenset | None:
    found = values(grounding, [query], assumptions)
    return None if found is None else frozenset(found[query].brave)


def mattering(grounding: Grounding, query: clingo.Symbol, unknowns: Unknowns,
              within: Sequence[tuple[clingo.Symbol, bool]] = ()) -> list[clingo.Symbol]:
    """The open atoms whose value, fixed one way then the other, changes the
    values the query can take. An atom no completion lets go one of the ways
    (a range the hex ids of one board fix, an atom opened only where another
    open fact rules it out) is not unknown, and is never named. `within`:
    judged under these assumptions too (the gaps of the text set aside)."""
    found = []
    fixed = {atom for atom, _ in within}
    for atom in unknowns.open_atoms:
        if atom in fixed:
            continue
        held = _possible(grounding, query, [*within, (atom, True)])
        missing = _possible(grounding, query, [*within, (atom, False)])
        if held is not None and missing is not None and held != missing:
            found.append(atom)
    return found


def rolls_mattering(grounding: Grounding, query: clingo.Symbol, unknowns: Unknowns) -> list[tuple]:
    """The missing rolls one of whose dice, fixed to each face, changes the
    values the query can take."""
    found = []
    for name, subject in sorted(unknowns.rolls):
        for die in ("colored", "white", "dr"):
            faces = [clingo.Function("_chosen", [name, subject, clingo.Function(die), clingo.Number(f)])
                     for f in range(1, 7)]
            if grounding.literal(faces[0]) is None:
                continue
            seen = {_possible(grounding, query, [(face, True)]) for face in faces}
            if len(seen - {None}) > 1:
                found.append((name, subject))
                break
    return found


def closed_completion(grounding: Grounding) -> list[tuple[clingo.Symbol, bool]]:
    """Every open fact fixed as in one completion, absent where the
    declarations allow it (a valued one takes one of its values): the
    completion that explains an answer every completion gives alike, and
    that the odds of a roll are counted in."""
    one = {d.signature for d in declarations() if d.status == "open" and d.one}
    atoms = [a for a in grounding.unknown_atoms() if a.name != "_chosen"]
    if not atoms:
        return []
    absent = [(a, False) for a in atoms if f"{a.name}/{len(a.arguments)}" not in one]
    # a valued fact keeps its first value and loses the others: fixed alike
    # under every face of the dice, even where only some faces open it (the
    # month E1.11 asks for only under a colored dr whose row it changes)
    kept: dict[tuple, clingo.Symbol] = {}
    for atom in sorted(a for a in atoms if f"{a.name}/{len(a.arguments)}" in one):
        kept.setdefault((atom.name, *atom.arguments[:-1]), atom)
    kept_atoms = set(kept.values())  # a set: a list scanned per atom made a large FG quadratic
    others = [(a, False) for a in atoms if f"{a.name}/{len(a.arguments)}" in one and a not in kept_atoms]
    if grounding.completion(absent + others, atoms) is not None:
        return absent + others
    return grounding.completion(absent, atoms) or grounding.completion([], atoms) or []
