"""The lexer for situation.lark: one regex splits a line into words, and
each word is read as the terminal the parser can take at that point.

That is what Lark's contextual lexer does (a keyword is a keyword only where
the grammar expects one, so a unit may be called `night`), but Lark compiles
a regex per parser state, about 10 ms per run for this grammar; this lexer
compiles a handful once per process. Its tokens are the statements' Words.
"""

from __future__ import annotations

import re
from typing import Iterator

from . import _situation_tables as tables
from .lalr import STATES, takes
from .statements import Word

# One match a word: the spaces and a comment before it are skipped by the match itself.
_PIECES = re.compile(r"""
    [ \t]* (?:\#[^\r\n]*)?
    (?: ([=,\[\]] | [^\s\#=,\[\]]+)   # 1: a word (or a punctuation mark)
      | (\r?\n)                      # 2: the end of a line
      | (.)                          # 3: a character no word takes
      | $ )
""", re.VERBOSE | re.DOTALL)
_WORD, _NEWLINE, _OTHER = 1, 2, 3

UNKNOWN = "UNKNOWN_WORD"  # a word no terminal matches: the parser reports it

# A word's shape: every ASCII letter an `a`, every digit a `0` (U1234 -> a0000).
_SHAPE = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "a" * 52 + "0" * 10)


def shapes_decide(patterns: list[re.Pattern]) -> bool:
    """Whether a word's shape decides which of these patterns it matches: they
    name letters and digits only by their whole classes (A-Za-z together,
    since a shape does not keep a letter's case; 0-9). Then a word that is no
    keyword need not be read anew for each unit's and hex's id."""
    return not any(re.search(r"[A-Za-z0-9]", re.sub(r"A-Za-z|0-9", "", rx.pattern)) for rx in patterns)


class WordLexer:
    def __init__(self) -> None:
        self.keywords: dict[str, list[str]] = {}  # "none" -> [SNOW, DUST, WIND, ...]
        self.patterns: list[tuple[str, re.Pattern]] = []  # ID, HEX, NUMBER, STRENGTH, DIE
        for name, words, regexp in tables.TERMINALS:
            if name in tables.IGNORE or name == "_NL":
                continue
            if words is None:
                self.patterns.append((name, re.compile(regexp)))
            else:
                for w in words:
                    self.keywords.setdefault(w, []).append(name)
        self.by_shape = shapes_decide([rx for _, rx in self.patterns])

    def read(self, word: str, state: int, stack: list[int]) -> tuple[str, bool]:
        """The word's terminal, and whether the state alone decided it.
        Keywords before patterns, as with Lark's own lexers: `not` after
        `expect` is the keyword, not a query called `not`."""
        accepts = STATES[state]
        # only the patterns the parser can take here are tried (most words are keywords)
        fitting = [name for name in self.keywords.get(word, ()) if name in accepts] + [
            name for name, rx in self.patterns if name in accepts and rx.fullmatch(word)]
        if len(fitting) > 1:
            # LALR merges states: after `range G1` the table also lists the
            # attack attributes that may follow an attack's target, so a unit
            # called `fp` would be read as the keyword. Keep the terminals the
            # parser still takes once it has made its reductions.
            return ([name for name in fitting if takes(stack, name)] or fitting)[0], False
        if fitting:
            return fitting[0], True
        candidates = self.keywords.get(word, []) + [name for name, rx in self.patterns if rx.fullmatch(word)]
        return (candidates[0] if candidates else UNKNOWN), True  # the parser reports it

    def lex(self, text: str, stack: list[int]) -> Iterator[Word]:
        """The words of `text`, each read against the parser's state as it
        stands when the parser asks for it (`stack`, which the parser keeps)."""
        line, line_start = 1, -1  # columns count from 1
        known: dict[tuple[int, str], str] = {}  # (state, word) -> its terminal, where the state alone decides
        shaped: dict[tuple[int, str], str] = {}  # (state, shape) -> the terminal of a word no keyword is
        keywords, by_shape = self.keywords, self.by_shape
        for m in _PIECES.finditer(text):
            kind = m.lastindex
            if kind == _WORD:
                value = m[1]
                state = stack[-1]
                if by_shape and value not in keywords:
                    kept, key = shaped, (state, value.translate(_SHAPE))
                else:
                    kept, key = known, (state, value)
                name = kept.get(key)
                if name is None:
                    name, alone = self.read(value, state, stack)
                    if alone:
                        kept[key] = name
                yield Word(value, line, m.start(1) - line_start, name)
            elif kind == _NEWLINE:
                yield Word(m[2], line, m.start(2) - line_start, "_NL")
                line, line_start = line + 1, m.end() - 1
            elif kind == _OTHER:
                yield Word(m[3], line, m.start(3) - line_start, UNKNOWN)
