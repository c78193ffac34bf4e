"""The statements of a situation file as written, before ids are resolved.

The transformer builds these from the parse; validate.py turns them into
facts. Every word keeps its position so that a later check can point at it.
NamedTuples rather than dataclasses: they are as plain and cost a fifth of
the import time, which every run pays. The annotations are evaluated (no
`from __future__ import annotations`): typing.NamedTuple compiles a string
annotation into a ForwardRef, which doubled this module's import time.
"""

from typing import NamedTuple, Optional, Union


class Word(NamedTuple):
    text: str
    line: int
    column: int
    type: str  # the grammar terminal: ID, HEX, NUMBER, DIE, STRENGTH or a keyword's


class Attr(NamedTuple):
    """`level 1`, `broken`, `san russian 3`: an attribute word and its values."""

    name: Word
    values: tuple[Word, ...] = ()


class Edition(NamedTuple):
    name: Word


class InterpretationLine(NamedTuple):
    name: Word
    switch: Optional[Word]  # `on`, `off` or not written (on)


class Scenario(NamedTuple):
    attrs: tuple[Attr, ...]


class SideLine(NamedTuple):
    """`side G1 allied` or `side french axis`: a unit's or a nationality's side."""

    subject: Word  # a unit id, or a nationality
    side: Word  # axis or allied


class Hex(NamedTuple):
    hex: Word
    terrain: Word
    attrs: tuple[Attr, ...]


class Unit(NamedTuple):
    id: Word
    nation: Word
    kind: Word
    strength: Optional[Word]
    at: Optional[Word]
    attrs: tuple[Attr, ...]


class Fortification(NamedTuple):
    id: Word
    nation: Word
    kind: Word
    at: Word
    attrs: tuple[Attr, ...]


class Los(NamedTuple):
    a: Word
    b: Word
    state: Attr  # clear, blocked or hindrance N


class Range(NamedTuple):
    a: Word
    b: Word
    n: Word


class Attack(NamedTuple):
    id: Word
    firers: tuple[Word, ...]
    target: Word
    attrs: tuple[Attr, ...]  # an attack kind is Attr(name=`kind`, values=(mg,))


class Move(NamedTuple):
    id: Word
    unit: Word
    to: Word
    attrs: tuple[Attr, ...]


class Roll(NamedTuple):
    name: Word
    subject: Optional[Word]
    dice: tuple[Word, ...]  # (colored, white) for a DR, (die,) for a dr


class WindChange(NamedTuple):
    """`wind_change 3 heavy_wind gusts`: the Wind after the Nth Wind Change DR."""

    n: Word
    force: Word
    gusts: Optional[Word]


class Phase(NamedTuple):
    """`phase movement german`: the phase the questions are asked in, and its phasing nationality."""

    phase: Word
    nation: Optional[Word]  # not written: the phasing side is not stated


class Call(NamedTuple):
    """A query as written: NAME [ARG...]."""

    name: Word
    args: tuple[Word, ...]


class QueryLine(NamedTuple):
    call: Call


class Value(NamedTuple):
    """What follows `=` in an expect line."""

    kind: str  # number, id, yes, no, undecided, list or distribution
    word: Word  # the value, `[` for a list, the first outcome's value for a distribution
    items: tuple = ()  # a list's ids (Words); a distribution's value (a Word, or a list's Value), chance, ...


class ExpectLine(NamedTuple):
    keyword: Word  # `expect`
    call: Call
    value: Optional[Value]  # None for `expect Q` and `expect not Q`
    negated: bool = False


Statement = Union[Edition, InterpretationLine, Scenario, SideLine, Hex, Unit, Fortification, Los, Range,
                  Attack, Move, Roll, QueryLine, ExpectLine, WindChange, Phase]
