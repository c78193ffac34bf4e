"""Building clingo symbols for the facts of docs/design.md section 1.

Everything goes through clingo's API, so no text from a file is ever read as
ASP: an id is always a clingo.String, a keyword a constant.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Union

from clingo import Function, Number, Symbol

if TYPE_CHECKING:
    from fractions import Fraction

Numeric = Union[int, "Fraction"]


# A symbol costs a few calls through clingo's C API: the keywords and small
# numbers every file repeats are made once (a 5,000-unit file makes ~100,000).
@lru_cache(maxsize=1024)
def const(name: str) -> Symbol:
    return Function(name)


@lru_cache(maxsize=1024)
def integer(n: int) -> Symbol:
    return Number(n)


def number(text: str) -> Numeric:
    """`3` -> 3, `-1` -> -1, `2.5` -> Fraction(5, 2)."""
    if "." not in text:
        return int(text)
    from fractions import Fraction  # rare: its import costs more than a parse

    return Fraction(text)


def number_symbol(value: Numeric) -> Symbol:
    """An integer, or frac(N,D) in lowest terms for a decimal (2.0 is just 2)."""
    if not isinstance(value, int):  # a Fraction
        if value.denominator != 1:
            return Function("frac", [Number(value.numerator), Number(value.denominator)])
        value = value.numerator
    return integer(value)


def unit_place(uid: Symbol) -> Symbol:
    """unit("G1"), given the id's String."""
    return Function("unit", [uid])


def hex_place(hex_id: Symbol) -> Symbol:
    """hex("3R6"), given the hex id's String."""
    return Function("hex", [hex_id])


@lru_cache(maxsize=1024)
def squad_strength(fp: int, range_: int, morale: int) -> Symbol:
    return Function("squad", [integer(fp), integer(range_), integer(morale)])


@lru_cache(maxsize=1024)
def leader_strength(morale: int, modifier: int) -> Symbol:
    return Function("leader", [integer(morale), integer(modifier)])


def fact(name: str, *args: Symbol) -> Symbol:
    return Function(name, list(args))
