"""The vocabulary shared by the transformation of the rules (reify.py), the
program that selects them (program.py) and the reading of a model
(kb/answers/read.py), and how a term reads to a player (term_text): here,
below all of them, so none imports another for it."""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clingo import Symbol

# Directives that make clingo read another file or run code. They are looked
# for in the whole text, comments and strings included: telling a comment from
# code as clingo does is its lexer's job ("%" inside a string is no comment),
# and no rule needs to write these words (reify.py refuses them in a rule file,
# program.py in the knowledge base's text read back from the disk cache).
DIRECTIVE = re.compile(r"#\s*(include|script)\b", re.IGNORECASE)
# The same over UTF-8 bytes, as a cached knowledge base holds its text: read
# as it is, not decoded first (decoding it cost a cold load 1 ms). Its
# letters and spaces are ASCII alone, which is all clingo reads as a
# directive (`#include` to the letter: `# include`, `#INCLUDE` are lexer errors).
_DIRECTIVE_BYTES = re.compile(DIRECTIVE.pattern.encode(), re.IGNORECASE)


def holds_directive(texts: Iterable) -> bool:
    """Whether any program text read back from the disk cache (str, or UTF-8
    bytes) holds an #include or #script, which no rule file may: nothing from
    a cache may run as program source but what the shipped rules made."""
    return any(DIRECTIVE.search(text) if isinstance(text, str)
               else isinstance(text, bytes) and _DIRECTIVE_BYTES.search(text) for text in texts)

ANY = "_any"  # stands for any value in a bookkeeping pattern (reify.py)

# How a rule's body reads an atom (reify.py body_patterns).
QUERY, NEEDED, READ = "query", "needed", "read"


def symbol_pattern(symbol: Symbol):
    """A ground term as a pattern (see kb/knowledge/selection.py): numbers and strings left open."""
    if symbol.type.name == "Function" and symbol.name:
        return (symbol.name, tuple(symbol_pattern(a) for a in symbol.arguments))
    return ""


# What symbol_pattern leaves open, in a symbol's text: strings, numbers, #inf and #sup.
_OPEN_TEXT = re.compile(r'"(?:[^"\\]|\\.)*"|(?<![\w\'])-?\d+|#inf|#sup')
_SHAPES: dict[str, tuple[str, tuple] | None] = {}  # a fact's text with those taken out -> its pattern


def fact_patterns(facts: Iterable[Symbol]) -> list[tuple[str, tuple]]:
    """(name/arity, argument patterns) of each fact, as symbol_pattern reads
    it, each once, in the order of the facts: the facts' texts with what it
    leaves open taken out, each distinct shape read once. A situation of
    thousands of units has a few dozen shapes: clingo's symbol API, called
    for every argument of every fact, cost more than all the rest of the
    selection."""
    found = {}
    for shape in dict.fromkeys(_OPEN_TEXT.sub("", "\n".join(map(str, facts))).split("\n")):
        if shape not in _SHAPES:
            if len(_SHAPES) >= 4096:  # a long-lived process (the web service) reading many kinds of fact
                _SHAPES.clear()
            pattern = shape_pattern(shape)
            _SHAPES[shape] = (f"{pattern[0]}/{len(pattern[1])}", pattern[1]) if pattern else None
        if _SHAPES[shape] is not None:
            found[_SHAPES[shape]] = None
    return list(found)


def open_text(text: str) -> str:
    """A symbol's text with what symbol_pattern leaves open taken out: one
    shape for every attack's `drm("A1", dust, _any)`."""
    return _OPEN_TEXT.sub("", text)


def shape_pattern(shape: str):
    """symbol_pattern of a symbol, from its text with the open parts taken out:
    `hex(,woods)` is ("hex", ("", ("woods", ()))); a tuple is open."""
    position = 0

    def term():
        nonlocal position
        if shape.startswith("-", position):  # a classically negated function: its name alone counts
            position += 1
        if shape.startswith("(", position):  # a tuple: open
            depth = 0
            while True:
                depth += {"(": 1, ")": -1}.get(shape[position], 0)
                position += 1
                if depth == 0:
                    return ""
        start = position
        while position < len(shape) and shape[position] not in "(),":
            position += 1
        name = shape[start:position]
        if not shape.startswith("(", position):
            return (name, ()) if name else ""
        arguments = []
        while shape[position] != ")":  # at "(" or ","
            position += 1
            arguments.append(term())
        position += 1
        return (name, tuple(arguments))

    return term()


def term_text(symbol: Symbol) -> str:
    """A term as a player writes it: unit("G1") as G1, scenario(nvr) as `scenario nvr`."""
    if symbol.type.name == "String":
        return symbol.string
    if symbol.type.name == "Function":
        if symbol.name in ("unit", "hex") and len(symbol.arguments) == 1:
            return term_text(symbol.arguments[0])
        if symbol.name == "" or symbol.arguments:
            parts = [symbol.name] if symbol.name else []
            parts += [term_text(arg) for arg in symbol.arguments if str(arg) != "none"]
            return " ".join(parts)
    return str(symbol)
