"""Completion: the words that may come at the cursor.

The grammar says which terminals it takes after the words before the cursor
(the parser's own tables: parse the line up to the word being typed and
read what it expected at the end). A keyword terminal gives its words; an
id or a hex is read by where it stands: `attack A1 by ` takes a unit the
file defines, `query drm ` an attack (queries/catalog.toml's argument
kinds), `unit G1 german squad ` a strength of the counter data.
"""
from __future__ import annotations

from functools import cache
from typing import NamedTuple

from aslkb.api import knowledge_base, query_catalog
from aslkb.parser import catalog as rolls_and_sources, grammar
from aslkb.parser.lalr import UnexpectedToken
from aslkb.parser.messages import CATEGORIES

from .counters import strengths
from .source import HEX_ID, TOKEN, definitions, lines, named_hexes, words

KEYWORD, QUERY, ID, HEX, VALUE = "keyword", "query", "id", "hex", "value"


class Completion(NamedTuple):
    label: str
    kind: str  # keyword, query, id, hex or value
    detail: str  # what it is: "terrain", "unit (line 4)", "drm ATTACK [SOURCE]"
    documentation: str = ""


def completions(text: str, line: int, character: int) -> list[Completion]:
    """What may be written at (line, character), 0-based."""
    found = lines(text)
    if not 0 <= line < len(found):
        return []
    before = found[line][:character]
    if "#" in before:  # in a comment
        return []
    start = word_start(text, line, character)
    written = [w.text for w in words(before[:start], line)]
    expected = _expected(before[:start])
    if expected is None:
        return []
    return _unique([*_by_position(text, written), *_keywords(expected, written, text)])


def word_start(text: str, line: int, character: int) -> int:
    """Where the word being typed at (line, character) starts: the completions
    replace the text from there to the cursor (the client filters them by it)."""
    found = lines(text)
    before = found[line][:character] if 0 <= line < len(found) else ""
    start = len(before)
    while start > 0 and TOKEN.fullmatch(before[start - 1]):
        start -= 1
    return start


def _expected(prefix: str) -> set[str] | None:
    """The terminals the grammar takes after `prefix` (one line), or None where it cannot be read so far."""
    try:
        grammar.parser().parse(prefix)
    except UnexpectedToken as error:
        return error.expected if error.token.type == "$END" else None
    return {"STATEMENT"}  # nothing written yet: a statement starts here


def _keywords(expected: set[str], written: list[str], text: str) -> list[Completion]:
    if expected == {"STATEMENT"}:
        return [Completion(w, KEYWORD, "statement") for w in grammar.keywords("statement")]
    labels = _terminal_labels()
    found = []
    for terminal in sorted(expected):
        if terminal == "STRENGTH" and len(written) >= 4:
            found += [Completion(printed, VALUE, f"{written[2]} {written[3]}: {rank.replace('_', ' ')} "
                                                 "(counter data)") for printed, rank in strengths(written[2], written[3])]
        for word in grammar.words(terminal) or ():
            if word[0].isalpha():  # not `=`, `[`
                found.append(Completion(word, KEYWORD, labels.get(terminal, "keyword")))
    return found


@cache
def _terminal_labels() -> dict[str, str]:
    """Each keyword terminal's name for a reader: NATION -> nation, UNIT_FLAG -> unit attribute."""
    labels: dict[str, str] = {}
    for category, label in CATEGORIES.items():
        for terminal in (category,) if category.isupper() else grammar.first_terminals(category):
            labels.setdefault(terminal, label)
    return labels


def _by_position(text: str, written: list[str]) -> list[Completion]:
    """The ids, hexes and catalog names a position takes, by the statement and the word before it."""
    if not written:
        return []
    statement, previous, count = written[0], written[-1], len(written)
    if statement in ("query", "expect"):
        return _query_position(text, written[1:] if written[1:2] != ["not"] else written[2:])
    if statement == "unit":
        return _hexes(text) if previous == "at" else _ids(text, ("unit",)) if previous == "aboard" else []
    if statement == "fortification":
        return _hexes(text) if previous == "at" else []
    if statement == "attack":
        if previous in ("by", ",", "directed_by"):
            return _ids(text, ("unit",))
        return [*_ids(text, ("unit",)), *_hexes(text)] if previous == "at" else []
    if statement == "move":
        return _ids(text, ("unit",)) if count == 2 else _hexes(text) if previous == "to" else []
    if statement in ("los", "range"):
        return [*_ids(text, ("unit",)), *_hexes(text)] if count in (1, 2) else []
    if statement == "side" and count == 1:
        return [*_ids(text, ("unit",)), *(Completion(n, KEYWORD, "nation") for n in grammar.keywords("NATION"))]
    if statement == "hex" and count == 1:
        return _hexes(text)
    if statement == "roll":
        return _roll_position(text, written)
    if statement == "interpretation" and count == 1:
        return [Completion(name, KEYWORD, f"interpretation of {i.rule}" + (" (on by default)" if i.default else ""),
                           i.reason) for name, i in sorted(knowledge_base().interpretations.items())]
    return []


def _query_position(text: str, asked: list[str]) -> list[Completion]:
    """After `query` / `expect`: a query name, then its arguments by their kinds, then (expect) a value."""
    known = query_catalog()
    if not asked:
        return [Completion(name, QUERY, shape(name), spec.doc) for name, spec in known.items()]
    spec = known.get(asked[0])
    if spec is None:
        return []
    if "=" in asked:
        return [Completion(v, VALUE, spec.answer) for v in ("yes", "no", "undecided")] if spec.answer == "boolean" \
            else [Completion("undecided", VALUE, spec.answer)]
    position = len(asked) - 1
    if position >= len(spec.args):
        return []
    return _argument(text, spec.args[position].rstrip("?"))


def shape(name: str) -> str:
    """A query's argument shape, as `query --help` and the errors write it: `drm ATTACK [SOURCE]`."""
    return " ".join([name, *(f"[{k[:-1].upper()}]" if k.endswith("?") else k.upper()
                             for k in query_catalog()[name].args)])


def _argument(text: str, kind: str) -> list[Completion]:
    if kind in ("unit", "attack", "move", "fortification"):
        return _ids(text, (kind,))
    if kind == "attack_or_unit":
        return _ids(text, ("attack", "unit"))
    if kind == "hex":
        return _hexes(text)
    if kind == "target":
        return [*_ids(text, ("unit",)), *_hexes(text)]
    if kind == "nation":
        return [Completion(n, KEYWORD, "nation") for n in grammar.keywords("NATION")]
    if kind == "source":
        return [Completion(s, KEYWORD, "DRM source") for s in rolls_and_sources.drm_sources()]
    return []


def _roll_position(text: str, written: list[str]) -> list[Completion]:
    if len(written) == 1:
        return [Completion(name, KEYWORD, f"roll ({rolls_and_sources.roll(name)['dice']})")
                for name in rolls_and_sources.roll_names()]
    spec = rolls_and_sources.roll(written[1])
    if len(written) == 2 and spec is not None and spec["subject"] in ("unit", "attack"):
        return _ids(text, (spec["subject"],))
    return []


def _ids(text: str, kinds: tuple[str, ...]) -> list[Completion]:
    return [Completion(d.id, ID, f"{d.kind} (line {d.word.line + 1})", " ".join(w.text for w in d.words))
            for d in definitions(text).values() if d.kind in kinds]


def _hexes(text: str) -> list[Completion]:
    return [Completion(h, HEX, "hex") for h in named_hexes(text) if HEX_ID.fullmatch(h)]


def _unique(found: list[Completion]) -> list[Completion]:
    """Each label once, where it first comes (an id before a keyword of the same spelling)."""
    kept: dict[str, Completion] = {}
    for completion in found:
        kept.setdefault(completion.label, completion)
    return list(kept.values())
