"""The Lark parser for situation.lark, loaded once per process from the
stand-alone tables Lark generated for it (parser/generate.py), and the keyword
lists the grammar defines (for error messages and query argument checks)."""

from __future__ import annotations

import os
from functools import cache

from ._situation_parser import Lark, Lark_StandAlone
from .lexer import WordLexer, terminal_words
from .transform import ToStatements

GRAMMAR = os.path.join(os.path.dirname(__file__), "situation.lark")


@cache
def parser() -> Lark:
    loaded = Lark_StandAlone(transformer=ToStatements())
    frontend = loaded.parser
    frontend.lexer = WordLexer(frontend.lexer_conf)  # in place of the generated basic lexer
    return loaded


@cache
def first_terminals(rule: str) -> tuple[str, ...]:
    """The terminals a rule can start with: unit_attr -> (UNIT_FLAG, UNIT_NUMBER)."""
    found: dict[str, None] = {}

    def walk(name: str, seen: frozenset[str]) -> None:
        for r in parser().rules:
            if r.origin.name == name and r.expansion:
                first = r.expansion[0]
                if first.is_term:
                    found.setdefault(first.name)
                elif first.name not in seen:
                    walk(first.name, seen | {first.name})

    walk(rule, frozenset({rule}))
    return tuple(found)


def words(terminal: str) -> list[str] | None:
    """The keywords a terminal stands for (sorted), or None for a pattern (ID, NUMBER)."""
    found = terminal_words(parser().get_terminal(terminal))
    return sorted(found) if found is not None else None


@cache
def keywords(rule_or_terminal: str) -> tuple[str, ...]:
    """The keywords a rule can start with, or a terminal stands for:
    keywords("NATION") -> ("allied_minor", "american", ...)."""
    if rule_or_terminal.isupper():
        return tuple(words(rule_or_terminal) or ())
    return tuple(sorted(w for t in first_terminals(rule_or_terminal) for w in words(t) or ()))
