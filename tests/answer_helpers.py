"""Helpers shared by the tests that ask a situation written inline."""
from __future__ import annotations

from aslkb.answers.ask import ask, settle
from aslkb.knowledge.program import knowledge_base
from aslkb.parser import parse


def answers(text: str) -> dict[str, object]:
    """The answers to a situation's queries, by query text."""
    situation = parse(text)
    kb = knowledge_base()
    return {a.query: a for a in ask(situation, settle(situation, kb), kb).answers}
