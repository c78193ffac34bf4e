"""The parser for situation.lark, made once per process from the tables Lark
generated for it (parser/generate.py, parser/lalr.py), and the keyword lists
the grammar defines (for error messages and query argument checks)."""

from __future__ import annotations

import os
from functools import cache
from typing import NamedTuple

from . import _situation_tables as tables
from . import lalr
from .lexer import WordLexer
from .transform import ToStatements

GRAMMAR = os.path.join(os.path.dirname(__file__), "situation.lark")


class Terminal(NamedTuple):
    name: str
    words: tuple[str, ...] | None  # the keywords it stands for; None for a pattern (ID, NUMBER)
    regexp: str


class Rule(NamedTuple):
    origin: str
    expansion: tuple[str, ...]  # terminals are upper case (ID, NATION), rules lower case


class Parser:
    """situation.lark's parser: text -> the statements of parser/statements.py."""

    def __init__(self) -> None:
        self.lexer = WordLexer()
        self.reductions = lalr.reductions(ToStatements())
        self.terminals = [Terminal(*t) for t in tables.TERMINALS]
        self.rules = [Rule(r[0], r[1]) for r in tables.RULES]

    def parse(self, text: str) -> list:
        """Raises lalr.UnexpectedToken at the first word the grammar does not take."""
        stack = [lalr.START]
        return lalr.parse(self.lexer.lex(text, stack), stack, self.reductions)

    def get_terminal(self, name: str) -> Terminal:
        return next(t for t in self.terminals if t.name == name)


@cache
def parser() -> Parser:
    return Parser()


@cache
def first_terminals(rule: str) -> tuple[str, ...]:
    """The terminals a rule can start with: unit_attr -> (UNIT_FLAG, UNIT_NUMBER)."""
    found: dict[str, None] = {}

    def walk(name: str, seen: frozenset[str]) -> None:
        for r in parser().rules:
            if r.origin == name and r.expansion:
                first = r.expansion[0]
                if first.isupper():
                    found.setdefault(first)
                elif first not in seen:
                    walk(first, seen | {first})

    walk(rule, frozenset({rule}))
    return tuple(found)


def words(terminal: str) -> list[str] | None:
    """The keywords a terminal stands for (sorted), or None for a pattern (ID, NUMBER)."""
    found = parser().get_terminal(terminal).words
    return sorted(found) if found is not None else None


@cache
def keywords(rule_or_terminal: str) -> tuple[str, ...]:
    """The keywords a rule can start with, or a terminal stands for:
    keywords("NATION") -> ("allied_minor", "american", ...)."""
    if rule_or_terminal.isupper():
        return tuple(words(rule_or_terminal) or ())
    return tuple(sorted(w for t in first_terminals(rule_or_terminal) for w in words(t) or ()))
