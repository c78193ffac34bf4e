"""Parse errors -> SituationError at the offending token, in the language's
own words: what was found, what the grammar expected there."""

from __future__ import annotations

import re

from . import grammar
from .lalr import UnexpectedToken
from aslkb.base.errors import SituationError

# Grammar rules and terminals whose keywords an error message names as one
# group. The words themselves are read from the grammar.
CATEGORIES = {
    "statement": "statement",
    "scenario_attr": "scenario attribute",
    "hex_attr": "hex attribute",
    "unit_attr": "unit attribute",
    "attack_attr": "attack attribute",
    "move_attr": "move attribute",
    "NATION": "nation",
    "UNIT_KIND": "unit kind",
    "TERRAIN": "terrain",
    "NIGHT_CLASS": "night class",
}

TERMINALS = {
    "ID": "an id",
    "HEX": "a hex id",
    "NUMBER": "a number",
    "STRENGTH": "a unit strength (like 4-6-7 or 8-1)",
    "DIE": "a die value (1 to 6)",
    "_NL": "end of line",
    "$END": "end of file",
}

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


# A line that asks a query, up to the query's name: `query NAME`, `expect [not] NAME`.
_ASKING = re.compile(r"[ \t]*(?:query|expect(?:[ \t]+not)?)[ \t]+([A-Za-z][A-Za-z0-9_]*)")


def syntax_error(e: UnexpectedToken, text: str, filename: str) -> SituationError:
    unknown = _unknown_query(e, text, filename)
    if unknown is not None:
        return unknown
    expected = e.expected
    token = e.token
    found = token.text
    if token.type == "_NL":
        got = "end of line"
    else:
        got = f"'{found}'" if found.isprintable() else f"character U+{ord(found[0]):04X}"

    groups = _groups(expected)
    wanted = _describe(expected, groups)
    if groups and _WORD.fullmatch(found):
        label = CATEGORIES[groups[0]]
        message = f"unknown {label} '{found}'{_did_you_mean(found, groups)}; expected {wanted}"
    else:
        before = text.splitlines()[e.line - 1][: e.column - 1].split()
        after = f" after '{before[-1]}'" if before else ""
        message = f"expected {wanted}{after}, got {got}"
    return SituationError(filename, e.line, e.column, message)


def _unknown_query(e: UnexpectedToken, text: str, filename: str) -> SituationError | None:
    """`query no_such 1`: the grammar stops at `1` (an argument is an id or a
    hex), but the line's first problem is the name, which no query has."""
    from . import catalog, validate

    asking = _ASKING.match(text.splitlines()[e.line - 1]) if e.line <= text.count("\n") else None
    if asking is None or asking.end(1) >= e.column or catalog.query(asking[1]) is not None:
        return None
    return SituationError(filename, e.line, asking.start(1) + 1, validate.unknown_query(asking[1]))


def _first(category: str) -> set[str]:
    return {category} if category.isupper() else set(grammar.first_terminals(category))


def _groups(expected: set[str]) -> list[str]:
    """The keyword groups (CATEGORIES) wholly expected here, largest first."""
    found = sorted((c for c in CATEGORIES if _first(c) <= expected),
                   key=lambda c: -len(grammar.keywords(c)))
    kept: list[str] = []
    for c in found:
        if not any(_first(c) <= _first(k) for k in kept):
            kept.append(c)
    return kept


def _describe(expected: set[str], groups: list[str]) -> str:
    rest = expected - {t for c in groups for t in _first(c)} - {"$END"}
    if groups:
        rest.discard("_NL")  # attributes and statements may always end the line
    order = {t.name: i for i, t in enumerate(grammar.parser().terminals)}
    parts = [_say(t) for t in sorted(rest, key=lambda t: (t == "_NL", order.get(t, 0)))]
    parts += [f"{_a(CATEGORIES[c])} ({', '.join(grammar.keywords(c))})" for c in groups]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def _say(terminal: str) -> str:
    words = grammar.words(terminal)
    if words is None:
        return TERMINALS.get(terminal, terminal)
    return f"'{words[0]}'" if len(words) == 1 else "one of " + ", ".join(words)


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeio" else "a ") + noun  # a unit, an attack


def _did_you_mean(word: str, groups: list[str]) -> str:
    import difflib  # only on this error path: it costs import time

    candidates = [k for c in groups for k in grammar.keywords(c)]
    close = difflib.get_close_matches(word, candidates, n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""
