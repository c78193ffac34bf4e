"""What the parser hands the engine: facts as clingo symbols, queries, expectations."""
# Annotations are evaluated, not strings (no `from __future__ import annotations`):
# typing.NamedTuple compiles each string annotation, which every cold run paid.

import enum
from typing import NamedTuple

import clingo


class _Undecided(enum.Enum):
    UNDECIDED = "undecided"

    def __repr__(self) -> str:
        return "UNDECIDED"


#: The expected value of `expect QUERY = undecided`.
UNDECIDED = _Undecided.UNDECIDED


class Distribution:
    """The expected value of `expect QUERY = yes 1/9, no 8/9`: each outcome
    (a value as above, or UNDECIDED) with its exact chance (a Fraction).
    Not a tuple (a list's expected value is one), not a dataclass (see Situation)."""

    __slots__ = ("outcomes",)

    def __init__(self, outcomes: tuple[tuple[object, object], ...]) -> None:
        self.outcomes = outcomes

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.outcomes == other.outcomes

    def __hash__(self) -> int:
        return hash((self.outcomes,))

    def __repr__(self) -> str:
        return f"Distribution(outcomes={self.outcomes!r})"


class Fact(NamedTuple):
    symbol: clingo.Symbol
    line: int  # where the file states it; 0 for a default (edition asl)
    column: int
    # the symbol's name and arguments, kept as the parser made them (reading
    # them back from the symbol calls into clingo): `check` tags them by case
    name: str = ""
    args: tuple[clingo.Symbol, ...] = ()


class Query(NamedTuple):
    name: str
    args: tuple[clingo.Symbol, ...]
    text: str  # as written after `query`, whitespace-normalised: "drm A1 night_lv"
    line: int  # where the query's name is written
    column: int
    symbol: clingo.Symbol  # Function(name, args), made once (asked for often)


class Expect(NamedTuple):
    query: Query
    # True/False, int, Fraction, str (a keyword or id), tuple[str, ...] (a list),
    # UNDECIDED, or a Distribution
    expected: object
    line: int  # where the word `expect` is written
    column: int


class Interpretation(NamedTuple):
    name: str
    on: bool
    line: int
    column: int


class Situation:
    """A parsed situation file. A plain class, not a dataclass (importing
    `dataclasses` costs a cold run about 5 ms): equal when every field but
    `text` is equal, unhashable, shown without `text`, as the dataclass was."""

    _FIELDS = ("filename", "edition", "edition_line", "interpretations", "facts", "queries", "expects", "derived")

    def __init__(self, filename: str, edition: str = "asl", edition_line: int = 0,
                 interpretations: list[Interpretation] | None = None, facts: list[Fact] | None = None,
                 queries: list[Query] | None = None, expects: list[Expect] | None = None,
                 derived: list[Fact] | None = None, text: str = "") -> None:
        self.filename = filename
        self.edition = edition
        self.edition_line = edition_line  # 0 when the file does not say
        self.interpretations = [] if interpretations is None else interpretations
        self.facts = [] if facts is None else facts
        self.queries = [] if queries is None else queries
        self.expects = [] if expects is None else expects
        # what the parser reads off the words themselves, not a statement: a hex
        # id's board, column and row (hex_id_parts); the engine adds these to the
        # facts, the printer and the line-based tools leave them out
        self.derived = [] if derived is None else derived
        # the text as parsed, for messages that quote a line (an inconsistent situation)
        self.text = text

    def _fields(self) -> tuple:
        return tuple(getattr(self, name) for name in self._FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self._FIELDS) + ")"
