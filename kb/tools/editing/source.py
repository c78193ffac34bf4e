"""A situation's text read line by line, as an editor needs it while the file
is being written: its words with their columns, the ids it defines and the
hexes it names. Nothing here needs the file to parse: a line with an error
still defines its id, so completion and go-to-definition keep working.

Positions are 0-based (line, character), as in the Language Server Protocol;
characters are Python's (code points): the server converts them.
"""
from __future__ import annotations

import re
from typing import NamedTuple

# A word as the lexer splits it (parser/lexer.py): at spaces, at `#` (a comment
# runs to the end of the line) and at the punctuation = , [ ].
WORD = re.compile(r"[^\s#=,\[\]]+")
# A word under the cursor anywhere, comments included (a rule id in a comment: E1.7, SL 49.23).
TOKEN = re.compile(r"[A-Za-z0-9_.+\-]+")
HEX_ID = re.compile(r"[0-9]*[A-Z]{1,2}[0-9]+")  # as parser/validate.py's
# A rule id as the knowledge base cites it: a letter and a dotted number (E1.7, A12.122),
# or SL and a dotted number (SL 49.23); a hex id (T7, 3R6) has no dot.
RULE_ID = re.compile(r"\b(SL ?[0-9]+(?:\.[0-9]+)+|[A-H][0-9]+(?:\.[0-9]+)+)\b")
DEFINING = ("unit", "attack", "move", "fortification")  # the statements that define an id


class Word(NamedTuple):
    text: str
    line: int  # 0-based
    start: int  # 0-based, the first character
    end: int  # one past the last character


class Definition(NamedTuple):
    """An id the file defines: `unit G1 ...` defines G1 as a unit."""

    id: str
    kind: str  # unit, attack, move or fortification
    word: Word  # where the id is written
    words: tuple[Word, ...]  # the words of its statement


def lines(text: str) -> list[str]:
    return text.removeprefix("\ufeff").split("\n")


def code(line: str) -> str:
    """The line without its comment and line end."""
    return line.split("#", 1)[0].rstrip("\r")


def words(line: str, number: int) -> list[Word]:
    """The words of one line's statement (its comment left out)."""
    return [Word(m[0], number, m.start(), m.end()) for m in WORD.finditer(code(line))]


def statements(text: str) -> list[list[Word]]:
    """The words of every line, in order (a line without a statement: [])."""
    return [words(line, number) for number, line in enumerate(lines(text))]


def token_at(text: str, line: int, character: int) -> Word | None:
    """The word under the cursor (or just before it), comments included."""
    return _match_at(TOKEN, text, line, character)


def rule_id_at(text: str, line: int, character: int) -> Word | None:
    """The rule id under the cursor (`E1.7`, `SL 49.23`), comments included."""
    return _match_at(RULE_ID, text, line, character)


def _match_at(pattern, text: str, line: int, character: int) -> Word | None:
    """The pattern's match on this line that the cursor is in or just after."""
    found = lines(text)
    if not 0 <= line < len(found):
        return None
    for m in pattern.finditer(found[line]):
        if m.start() <= character <= m.end():
            return Word(m[0], line, m.start(), m.end())
    return None
    for m in RULE_ID.finditer(found[line]):
        if m.start() <= character <= m.end():
            return Word(m[0], line, m.start(), m.end())
    return None


def definitions(text: str) -> dict[str, Definition]:
    """Each id the file defines, at its first definition."""
    found: dict[str, Definition] = {}
    for said in statements(text):
        if len(said) >= 2 and said[0].text in DEFINING:
            found.setdefault(said[1].text, Definition(said[1].text, said[0].text, said[1], tuple(said)))
    return found


def stated_hexes(text: str) -> list[str]:
    """The hex ids of the file's `hex` lines, in order."""
    return list(dict.fromkeys(said[1].text for said in statements(text)
                              if len(said) >= 2 and said[0].text == "hex" and HEX_ID.fullmatch(said[1].text)))


def named_hexes(text: str) -> list[str]:
    """Every hex id the file names with its board number (3R6), or states with a `hex` line."""
    named = [w.text for said in statements(text) for w in said[1:]
             if HEX_ID.fullmatch(w.text) and w.text[0].isdigit()]
    return list(dict.fromkeys([*stated_hexes(text), *named]))


def mentions(text: str, name: str) -> list[Word]:
    """Every word of the file's statements that is `name`."""
    return [w for said in statements(text) for w in said if w.text == name]


def statement_end(text: str, line: int) -> int:
    """The character just after a line's statement (before its comment and trailing spaces)."""
    found = lines(text)
    return len(code(found[line]).rstrip()) if 0 <= line < len(found) else 0


def first_asking_line(text: str) -> int:
    """The first `query` or `expect` line (where a missing statement goes), else the line after the last."""
    every = statements(text)
    for number, said in enumerate(every):
        if said and said[0].text in ("query", "expect"):
            return number
    last = max((number for number, said in enumerate(every) if said), default=-1)
    return last + 1
