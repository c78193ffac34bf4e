"""Building clingo symbols for the facts of docs/design.md section 1.

Everything goes through clingo's API, so no text from a file is ever read as
ASP: an id is always a clingo.String, a keyword a constant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

from clingo import Function, Number, String, Symbol

if TYPE_CHECKING:
    from fractions import Fraction

Numeric = Union[int, "Fraction"]


def const(name: str) -> Symbol:
    return Function(name)


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
    return Number(value)


def unit_place(uid: str) -> Symbol:
    return Function("unit", [String(uid)])


def hex_place(hex_id: str) -> Symbol:
    return Function("hex", [String(hex_id)])


def squad_strength(fp: int, range_: int, morale: int) -> Symbol:
    return Function("squad", [Number(fp), Number(range_), Number(morale)])


def leader_strength(morale: int, modifier: int) -> Symbol:
    return Function("leader", [Number(morale), Number(modifier)])


def fact(name: str, *args: Symbol) -> Symbol:
    return Function(name, list(args))
