"""Run a corpus of situation files against one knowledge base.

Shared by `aslkb impact` (two knowledge bases, or two sets of
interpretations), `aslkb rules`/`aslkb coverage` (which cases test a rule)
and the lint (conflicts, queries with no case).
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from aslkb.base.errors import UsageError

from aslkb.answers.ask import Result, settle
from aslkb.answers.run import run
from aslkb.knowledge.program import KnowledgeBase, knowledge_base

DEFAULT_CORPUS = "tests/cases"


@dataclass
class Run:
    path: Path
    result: Result | None
    error: str | None = None


def default_corpus() -> list[str]:
    """tests/cases of the current folder, when there is one."""
    return [DEFAULT_CORPUS] if os.path.isdir(DEFAULT_CORPUS) else []


def run_corpus(paths: Iterable[str], kb: KnowledgeBase | None = None, edition: str | None = None,
               switch_on: tuple[str, ...] = (), switch_off: tuple[str, ...] = ()) -> Iterator[Run]:
    from aslkb.base.errors import SituationError
    from aslkb.parser import parse_file

    from aslkb.tools.check import situation_files
    from aslkb.base.errors import InconsistentSituation

    kb = kb or knowledge_base()
    for path in situation_files(paths):
        try:
            situation = parse_file(path)
            on = tuple(n for n in switch_on if n in kb.interpretations)
            off = tuple(n for n in switch_off if n in kb.interpretations)
            yield Run(path, run(situation, settle(situation, kb, edition, on, off), kb))
        except (SituationError, InconsistentSituation, UsageError, OSError) as error:
            yield Run(path, None, f"{path}: {error}")


def answers_of(result: Result) -> list[tuple[int, str, object]]:
    """(line, label, answer) of every `query` and `expect` line, in file order."""
    rows = [(q.line, f"query {q.text}", a) for q, a in zip(result.situation.queries, result.answers)]
    rows += [(c.expect.line, f"expect {c.expect.query.text}", c.answer) for c in result.checked]
    return sorted(rows, key=lambda row: row[0])
