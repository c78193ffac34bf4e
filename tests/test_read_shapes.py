"""kb/answers/read.py reads the shape of an absent pattern (which rules could
have derived it) from the pattern's text: it must be the shape clingo's
symbol API gives, for every kind of term."""
from __future__ import annotations

import clingo
from clingo import Function as F, Number as N, String as S, SymbolType

from aslkb.answers.read import _is_function, _opened, listed_text
from aslkb.knowledge.patterns import ANY, open_text, shape_pattern


def _by_symbol(symbol: clingo.Symbol):
    """A term's pattern read through the symbol API (`_any`, numbers, strings, tuples open)."""
    if symbol.type == SymbolType.Function and symbol.name and symbol.name != ANY:
        return (symbol.name, tuple(_by_symbol(a) for a in symbol.arguments))
    return ""


PATTERNS = [
    F("drm", [S("A1"), F("dust"), F(ANY)]),
    F("night_lv_exempt_firer", [S("A12"), F(ANY)]),
    F("same_building_nvr_applies", [S("U7"), F("unit", [S("U7")])]),
    F("illumination_source", [F(ANY), F(ANY), F(ANY)]),
    F("snow_base_nvr_limits"),
    F("f", [N(-3), N(12), S('a "quoted", (odd) string\\'), F("g", [F(ANY, [N(1)]), F("h2")])]),
    F("f", [F("", [N(1), F("x")]), F("y'")]),
    F("f", [F("g", [F("x")], False)]),
    F("f", [clingo.Infimum, clingo.Supremum]),
    F("g", [S("x")], False),
]


def test_a_patterns_shape_read_from_its_text_is_the_symbol_apis():
    for pattern in PATTERNS:
        name, arguments = shape_pattern(open_text(str(pattern)))
        assert (name, len(arguments)) == (pattern.name, len(pattern.arguments)), pattern
        assert tuple(_opened(a) for a in arguments) == tuple(_by_symbol(a) for a in pattern.arguments), pattern


def test_a_function_is_told_from_its_text():
    for symbol in [*PATTERNS, N(3), N(-3), S("x"), S("-1"), clingo.Infimum, clingo.Supremum, F("", [N(1), N(2)])]:
        assert _is_function(str(symbol)) == (symbol.type == SymbolType.Function), symbol


def test_a_rules_instances_are_ordered_by_their_atoms_repr():
    """listed_text is str() of a list of symbols, read with fewer calls into clingo."""
    for symbols in [PATTERNS, [], [N(3), N(-3), S("x"), S("it's \"odd\"\n"), clingo.Infimum, clingo.Supremum],
                    [F("", [N(1), F("x", [], False)]), F("f", [F("", [])])]]:
        assert listed_text(symbols) == str(symbols), symbols
