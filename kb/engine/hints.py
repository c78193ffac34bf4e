"""What would decide an undecided answer, said as the user gives it.

kb/engine/unknowns.py finds the open facts and missing rolls an answer turns
on; here each becomes a hint (docs/answers.md "Undecided"):

- `add: STATEMENT`: one open fact, as the statement that states it (its
  template in rules/common/unknowns.lp, `%! open hex/2 add: hex {0} {1}`); a
  valued one once for its key, its value `N` (`add: scenario year N`);
- `one of: ...`: the open facts of one thing (`%! alternatives`): every
  value its declaration lists, whether a rule opened it or not (by day a
  unit neither Lax nor Stealthy is Normal), else the values opened; the
  words the statements share are said once, `one of: hex 3C2 open | woods`;
- `roll: NAME [SUBJECT] DICE`: a missing roll, its `roll` statement with
  the colon after the keyword (`roll: movement G1 colored N white N`).

A fact stated once in either direction (`%! symmetric`: a LOS, a range) is
one question whichever way round the rules read it: asked in the direction
they read it, or, read both ways, with the place the file names first first.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import clingo

from aslkb.base.record import Record
from aslkb.knowledge.declarations import (Alternatives, alternatives, declarations, open_templates,
                                          symmetric_signatures)
from aslkb.knowledge.patterns import term_text
from aslkb.parser import catalog

STATEMENT, ONE_OF, ROLL = "statement", "one_of", "roll"


class Hint(Record):
    """One thing to give that would decide an answer."""

    _fields = ("kind", "statements", "atoms")

    def __init__(self, kind: str, statements: tuple[str, ...], atoms: tuple[clingo.Symbol, ...] = ()):
        self.kind = kind  # STATEMENT, ONE_OF or ROLL
        self.statements = statements  # the statement; each alternative of a one_of; the roll statement
        self.atoms = atoms  # the open facts it asks for (none for a roll)

    @property
    def text(self) -> str:
        if self.kind == ROLL:
            return "roll: " + self.statements[0].removeprefix("roll ")
        if self.kind == ONE_OF:
            return "one of: " + shared_words_once(self.statements)
        return "add: " + self.statements[0]

    def to_json(self) -> dict:
        return {"kind": self.kind, "text": self.text, "statements": list(self.statements)}


def shared_words_once(statements: Sequence[str]) -> str:
    """Alternatives with the words they all begin and end with said once:
    `los G1 R1 clear | blocked | hindrance N`, `lax | normal on the line of unit S1`."""
    words = [s.split(" ") for s in statements]
    shortest = min(len(w) for w in words)
    head = 0
    while head < shortest - 1 and len({w[head] for w in words}) == 1:
        head += 1
    tail = 0
    while tail < shortest - head - 1 and len({w[-1 - tail] for w in words}) == 1:
        tail += 1
    middles = " | ".join(" ".join(w[head:len(w) - tail]) for w in words)
    return " ".join([*words[0][:head], middles, *words[0][len(words[0]) - tail:]])


def statement_text(atom: clingo.Symbol) -> str:
    """The statement that states an open fact: `move M G1 to HEX`."""
    template = open_templates().get(_signature(atom))
    if template is None:
        return term_text(atom)
    text, unnamed = template, ""
    for i, arg in enumerate(atom.arguments):
        if (f"{{{i}}}" in text and arg.type == clingo.SymbolType.Function and arg.name == "elsewhere"
                and len(arg.arguments) == 1):
            # a hex the file does not name, where a unit may be: named by the unit
            text = text.replace(f"{{{i}}}", "HEX")
            unnamed = f", HEX the hex of unit {term_text(arg.arguments[0])}"
        text = text.replace(f"{{{i}}}", term_text(arg))
    return f"{text}{unnamed}"


def roll_text(name: clingo.Symbol, subject: clingo.Symbol) -> str:
    """The statement that gives a missing roll: `roll movement G1 colored N white N`."""
    who = "" if str(subject) == "none" else f" {term_text(subject)}"
    dice = "colored N white N" if catalog.roll(name.name)["dice"] == "DR" else "N"
    return f"roll {name.name}{who} {dice}"


def hints(atoms: Sequence[clingo.Symbol], rolls: Sequence[tuple[clingo.Symbol, clingo.Symbol]] = (),
          named_at: Callable[[], Mapping[clingo.Symbol, int]] = dict) -> list[Hint]:
    """The hints for these open facts (gaps of the text excepted: they are
    said by their reason) and missing rolls, in the order of their first
    atom, the rolls last. `named_at()`: each id's first line in the file
    (unit and hex ids), read only where a LOS or range is read both ways
    round, to order its places (none known: by their ids)."""
    groups: dict[tuple, list[clingo.Symbol]] = {}
    for atom in atoms:
        groups.setdefault(_question(atom), []).append(atom)
    found = [_hint(key, group, _one_way(group, named_at)) for key, group in groups.items()]
    found += [Hint(ROLL, (roll_text(name, subject),)) for name, subject in rolls]
    once: dict[str, Hint] = {}  # each text once, where it first is
    for hint in found:
        once.setdefault(hint.text, hint)
    return list(once.values())


def _signature(atom: clingo.Symbol) -> str:
    return f"{atom.name}/{len(atom.arguments)}"


def _question(atom: clingo.Symbol) -> tuple:
    """What an open fact asks: the thing it is a value of, its key (every
    argument but the last, a symmetric fact's two places in either order)."""
    signature = _signature(atom)
    key = tuple(atom.arguments[:-1])
    if signature in symmetric_signatures():
        key = (frozenset(key[:2]), *key[2:])
    for number, declared in enumerate(alternatives()):
        if _one_of(atom, declared):
            return ("alternatives", number, key)
    if signature in {d.signature for d in declarations() if d.status == "open" and d.one}:
        return ("valued", signature, key)
    return ("fact", signature, key, atom.arguments[-1])


def _one_of(atom: clingo.Symbol, declared: Alternatives) -> bool:
    """Is the open fact a value of the declared thing: one of its words, or any
    value where it lists none, or of a further signature (its own statement)?"""
    first, *further = declared.signatures
    if _signature(atom) in further:
        return True
    value = atom.arguments[-1]
    word = value.name if value.type == clingo.SymbolType.Function and not value.arguments else None
    return _signature(atom) == first and (not declared.values or word in declared.values)


def _one_way(group: list[clingo.Symbol], named_at: Callable[[], Mapping[clingo.Symbol, int]]) -> list[clingo.Symbol]:
    """The atoms of one question, a symmetric one's all in one direction:
    the rules', or the file's where they read it both ways round."""
    symmetric = [a for a in group if _signature(a) in symmetric_signatures()]
    directions = list(dict.fromkeys(tuple(a.arguments[:2]) for a in symmetric))
    if len(directions) < 2:
        return group
    lines = named_at()
    first, second = sorted(directions[0], key=lambda place: (_first_line(place, lines), str(place)))
    return [clingo.Function(a.name, [first, second, *a.arguments[2:]])
            if a in symmetric and a.arguments[0] == second else a for a in group]


def _first_line(place: clingo.Symbol, lines: Mapping[clingo.Symbol, int]) -> float:
    """The first line of the file naming a place (`unit("G1")`, `hex("3A1")`) by its id."""
    if place.type == clingo.SymbolType.Function and len(place.arguments) == 1:
        return lines.get(place.arguments[0], float("inf"))
    return float("inf")


def _hint(question: tuple, group: list[clingo.Symbol], one_way: list[clingo.Symbol]) -> Hint:
    """The hint for one question's atoms (`group`), said from `one_way`, the same atoms in one direction."""
    if question[0] != "alternatives":
        return Hint(STATEMENT, (statement_text(one_way[0]),), tuple(group))
    declared = alternatives()[question[1]]
    key = one_way[0].arguments[:-1]
    name = declared.signatures[0].rsplit("/", 1)[0]
    if declared.values:
        options = [clingo.Function(name, [*key, clingo.Function(value)]) for value in declared.values]
    else:
        options = [a for a in one_way if _signature(a) == declared.signatures[0]]
    # a further signature adds its own statement, its value said by its template (`hindrance N`)
    options += [clingo.Function(signature.rsplit("/", 1)[0], [*key, clingo.Function("N")])
                for signature in declared.signatures[1:]]
    statements = tuple(dict.fromkeys(statement_text(option) for option in options))
    return Hint(ONE_OF if len(statements) > 1 else STATEMENT, statements, tuple(group))
