"""The Lark lexer for situation.lark: one regex splits a line into words, and
each word is read as the terminal the parser can take at that point.

That is what Lark's contextual lexer does (a keyword is a keyword only where
the grammar expects one, so a unit may be called `night`), but Lark compiles
a regex per parser state, about 10 ms per run for this grammar; this lexer
compiles a handful once per process.
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

from ._situation_parser import Lexer, LexerState, Shift, TerminalDef, Token

_PIECES = re.compile(r"""
      (?P<space>[ \t]+)
    | (?P<comment>\#[^\r\n]*)
    | (?P<newline>\r?\n)
    | (?P<punctuation>[=,\[\]])
    | (?P<word>[^\s\#=,\[\]]+)
    | (?P<other>.)
""", re.VERBOSE | re.DOTALL)

# Lark compiles `WEATHER: "clear" | "rain"` to the regex (?:clear|rain).
_ALTERNATIVES = re.compile(r"\(\?:([a-z0-9_]+(?:\|[a-z0-9_]+)*)\)")

UNKNOWN = "UNKNOWN_WORD"  # a word no terminal matches: the parser reports it


def terminal_words(t: TerminalDef) -> Optional[list[str]]:
    """The words a keyword terminal stands for, or None for a pattern (ID, NUMBER)."""
    if t.pattern.type == "str":
        return [t.pattern.value]
    m = _ALTERNATIVES.fullmatch(t.pattern.value)
    return m[1].split("|") if m else None


class WordLexer(Lexer):
    __future_interface__ = 2  # lex() gets the parser state

    def __init__(self, conf) -> None:
        self.keywords: dict[str, list[str]] = {}  # "none" -> [SNOW, DUST, WIND, ...]
        self.patterns: list[tuple[str, re.Pattern]] = []  # ID, HEX, NUMBER, STRENGTH, DIE
        for t in conf.terminals:
            if t.name in conf.ignore or t.name == "_NL":
                continue
            words = terminal_words(t)
            if words is None:
                self.patterns.append((t.name, re.compile(t.pattern.to_regexp())))
            else:
                for w in words:
                    self.keywords.setdefault(w, []).append(t.name)

    def terminal(self, word: str, accepts, parser_state=None) -> str:
        """Keywords before patterns, as with Lark's own lexers: `not` after
        `expect` is the keyword, not a query called `not`."""
        # only the patterns the parser can take here are tried (most words are keywords)
        fitting = [name for name in self.keywords.get(word, ()) if name in accepts] + [
            name for name, rx in self.patterns if name in accepts and rx.fullmatch(word)]
        if len(fitting) > 1 and parser_state is not None:
            # LALR merges states: after `range G1` the table also lists the
            # attack attributes that may follow an attack's target, so a unit
            # called `fp` would be read as the keyword. Keep the terminals the
            # parser still takes once it has made its reductions.
            fitting = [name for name in fitting if _takes(parser_state, name)] or fitting
        if fitting:
            return fitting[0]
        candidates = self.keywords.get(word, []) + [name for name, rx in self.patterns if rx.fullmatch(word)]
        return candidates[0] if candidates else UNKNOWN  # the parser reports it

    def lex(self, lexer_state: LexerState, parser_state) -> Iterator[Token]:
        text = lexer_state.text.text
        states = parser_state.parse_conf.parse_table.states
        line, line_start = 1, 0
        for m in _PIECES.finditer(text):
            kind, value, start = m.lastgroup, m.group(), m.start()
            if kind in ("space", "comment"):
                continue
            column = start - line_start + 1
            if kind == "newline":
                yield Token("_NL", value, start, line, column, line + 1, 1, m.end())
                line, line_start = line + 1, m.end()
                continue
            accepts = states[parser_state.position]
            name = UNKNOWN if kind == "other" else self.terminal(value, accepts, parser_state)
            yield Token(name, value, start, line, column, line, column + len(value), m.end())


def _takes(parser_state, terminal: str) -> bool:
    """Would the parser shift `terminal` next, after the reductions it calls for?
    (Lark's ParserState.feed_token, without building anything.)"""
    states = parser_state.parse_conf.parse_table.states
    stack = list(parser_state.state_stack)
    while True:
        action = states[stack[-1]].get(terminal)
        if action is None:
            return False
        kind, arg = action
        if kind == Shift:
            return True
        if arg.expansion:
            del stack[-len(arg.expansion):]
        stack.append(states[stack[-1]][arg.origin.name][1])
