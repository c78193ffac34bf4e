"""What the parser hands the engine: facts as clingo symbols, queries, expectations."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import NamedTuple

import clingo


class _Undecided(enum.Enum):
    UNDECIDED = "undecided"

    def __repr__(self) -> str:
        return "UNDECIDED"


#: The expected value of `expect QUERY = undecided`.
UNDECIDED = _Undecided.UNDECIDED


@dataclass(frozen=True)
class Distribution:
    """The expected value of `expect QUERY = yes 1/9, no 8/9`: each outcome
    (a value as above, or UNDECIDED) with its exact chance (a Fraction)."""

    outcomes: tuple[tuple[object, object], ...]


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


@dataclass
class Situation:
    filename: str
    edition: str = "asl"
    edition_line: int = 0  # 0 when the file does not say
    interpretations: list[Interpretation] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    queries: list[Query] = field(default_factory=list)
    expects: list[Expect] = field(default_factory=list)
    # what the parser reads off the words themselves, not a statement: a hex
    # id's board, column and row (hex_id_parts); the engine adds these to the
    # facts, the printer and the line-based tools leave them out
    derived: list[Fact] = field(default_factory=list)
    # the text as parsed, for messages that quote a line (an inconsistent situation)
    text: str = field(default="", repr=False, compare=False)
