"""Hover and go-to-definition: what the word under the cursor is.

- A rule id (`E1.7`, `SL 49.23`, in a comment too): what `aslkb rules ID`
  says of it (its cases left out: finding them solves a corpus); its
  definition is the rule file that holds it, at its first citation there.
- A `query` or `expect` line: its answer, with its rules and exceptions, as
  `aslkb query` prints it; the query name's definition is its program,
  queries/NAME.lp.
- An id the file defines: its statement and the lines that name it; for a
  unit, its Class from the counter data. Its definition is its statement.
"""
from __future__ import annotations

import os
import re
from functools import cache
from typing import NamedTuple

from aslkb.base.root import kb_root
from aslkb.api import knowledge_base, query_catalog
from aslkb.tools.coverage import RuleFacts, rule_facts, rule_text
from aslkb.tools.sourcetext import paragraphs

from .analysis import Analysis, LineAnswer
from .counters import class_of
from .source import HEX_ID, definitions, lines, mentions, rule_id_at, statements, token_at, words


class Location(NamedTuple):
    """Where a definition is: `path` None for the document itself, else a file of the knowledge base."""

    path: str | None
    line: int  # 0-based
    start: int
    end: int


def hover(text: str, line: int, character: int, analysis: Analysis | None = None) -> str | None:
    """Markdown for the word at (line, character), 0-based; None where there is nothing to say."""
    rule = rule_id_at(text, line, character)
    if rule is not None:
        return rule_hover(rule.text)
    parts = []
    answer = _answer_on(line, analysis)
    if answer is not None:
        parts.append(_answer_markdown(*answer))
    word = token_at(text, line, character)
    if word is not None and (about := _id_hover(text, word.text, line)):
        parts.append(about)
    return "\n\n".join(parts) or None


def _answer_on(line: int, analysis: Analysis | None) -> tuple[LineAnswer, str] | None:
    """The answer of the `query` or `expect` line `line` (0-based), and an expectation's verdict."""
    if analysis is None:
        return None
    for answer in analysis.answers:
        if answer.line - 1 == line:
            return answer, ""
    for verdict in analysis.verdicts:
        if verdict.line - 1 == line:
            return verdict.answer, ("holds: " if verdict.passed else "fails: ") + verdict.message
    return None


def _answer_markdown(answer: LineAnswer, verdict: str) -> str:
    said = "\n".join(answer.report)
    return f"```\n{said}\n```" + (f"\n\n{verdict}" if verdict else "")


@cache
def _rules() -> tuple[dict[str, RuleFacts], dict]:
    return rule_facts(knowledge_base()), {p.rule_id: p for p in paragraphs()}


def known_rule(written: str) -> str | None:
    """The rule id as the knowledge base writes it (`SL49.23` is `SL 49.23`), or None."""
    facts, by_id = _rules()
    rule_id = re.sub(r"^SL ?", "SL ", written)
    return rule_id if rule_id in facts or rule_id in by_id else None


def rule_hover(written: str) -> str | None:
    """What `aslkb rules ID` says of a rule id, its cases left out."""
    rule_id = known_rule(written)
    if rule_id is None:
        return None
    facts, by_id = _rules()
    said = rule_text(facts.get(rule_id, RuleFacts(rule_id)), by_id.get(rule_id), with_cases=False)
    return f"```\n{said}\n```\n\nthe cases that test it: `aslkb rules {rule_id}`"


def _id_hover(text: str, name: str, line: int) -> str | None:
    """What the file says of an id it defines (a unit: and the counter data), or of a hex it states."""
    defined = definitions(text).get(name)
    if defined is None:
        return _hex_hover(text, name) if HEX_ID.fullmatch(name) else None
    said = " ".join(w.text for w in defined.words)
    parts = [f"**{defined.kind} {name}**, line {defined.word.line + 1}: `{said}`"]
    if defined.kind == "unit":
        parts.append(_counter(defined.words))
    others = sorted({w.line for w in mentions(text, name)} - {defined.word.line, line})
    if others:
        every = lines(text)
        parts.append("named on " + ", ".join(f"line {n + 1} (`{' '.join(w.text for w in words(every[n], n))}`)"
                                              for n in others))
    return "\n\n".join(p for p in parts if p)


def _counter(said: tuple) -> str:
    """The unit's Class by the counter data, from its nationality, kind and printed strength."""
    if len(said) < 4:
        return ""
    nation, kind = said[2].text, said[3].text
    strength = said[4].text if len(said) > 4 and re.fullmatch(r"[0-9]+-[0-9]+-[0-9]+", said[4].text) else None
    if strength is None:
        return "counter data: no strength stated, so no counter is named"
    rank = class_of(nation, kind, strength)
    if rank is None:
        return f"counter data: no {nation} {kind} {strength} counter (its Class is as its attributes state)"
    return f"counter data: a {nation} {kind} {strength} is **{rank.replace('_', ' ')}** (rules/common/counters.lp)"


def _hex_hover(text: str, name: str) -> str | None:
    for said in statements(text):
        if len(said) >= 2 and said[0].text == "hex" and said[1].text == name:
            return f"**hex {name}**, line {said[0].line + 1}: `{' '.join(w.text for w in said)}`"
    return None


def definition(text: str, line: int, character: int) -> list[Location]:
    """Where the word at (line, character) is defined: an id at its
    statement, a hex at its `hex` line, a rule id in its rule file, a query
    name in its program."""
    rule = rule_id_at(text, line, character)
    if rule is not None:
        return rule_locations(rule.text)
    word = token_at(text, line, character)
    if word is None:
        return []
    defined = definitions(text).get(word.text)
    if defined is not None:
        return [Location(None, defined.word.line, defined.word.start, defined.word.end)]
    said = statements(text)[line]
    named = [w for w in said[1:3] if w.text != "not"]  # `expect not NAME`
    if said and said[0].text in ("query", "expect") and named and named[0].start == word.start \
            and word.text in query_catalog():
        return [Location(os.path.join(kb_root(), "queries", f"{word.text}.lp"), 0, 0, 0)]
    for stated in statements(text):
        if len(stated) >= 2 and stated[0].text == "hex" and stated[1].text == word.text:
            return [Location(None, stated[1].line, stated[1].start, stated[1].end)]
    return []


def rule_locations(written: str) -> list[Location]:
    """The rule file and line of a rule id: its first citation in the file
    named after it, else its first citation, else its status note."""
    rule_id = known_rule(written)
    if rule_id is None:
        return []
    facts, _ = _rules()
    entry = facts.get(rule_id, RuleFacts(rule_id))
    places = [c.split(" ", 1)[0] for c in entry.citations] + [where for _, _, where in entry.notes]
    own = [p for p in places if os.path.basename(p.rsplit(":", 1)[0]) == f"{rule_id.removeprefix('SL ')}.lp"]
    for place in own or places:
        path, _, number = place.rpartition(":")
        if number.isdigit():
            return [Location(os.path.join(kb_root(), path), int(number) - 1, 0, 0)]
    return []
