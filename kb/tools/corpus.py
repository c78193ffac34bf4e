"""Run a corpus of situation files against one knowledge base.

Shared by `aslkb impact` (two knowledge bases, or two sets of
interpretations), `aslkb rules`/`aslkb coverage` (which cases test a rule)
and the lint (conflicts, queries with no case).

Each function that solves many cases takes `track`, an iterator wrapper the
command lends it to count the cases as they are solved
(kb/base/progress.py: `Progress.over`); this layer never prints.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from aslkb.base.errors import InconsistentSituation, SituationError, UsageError
from aslkb.base.progress import Track, untracked

from aslkb.api import VARIES, KnowledgeBase, Result, knowledge_base, run, run_many, settle
from aslkb.parser import parse_file
from aslkb.tools.check import situation_files

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
               switch_on: tuple[str, ...] = (), switch_off: tuple[str, ...] = (),
               track: Track = untracked, unit: str = "cases solved") -> Iterator[Run]:
    """Each case's Run, with the rules behind every answer, in file order
    (`unit`: what the progress line counts)."""
    kb = kb or knowledge_base()
    files = situation_files(paths)
    for path in track(files, len(files), unit):
        try:
            situation = parse_file(path)
            yield Run(path, run(situation, settle(situation, kb, edition, *_known(kb, switch_on, switch_off)), kb))
        except (SituationError, InconsistentSituation, UsageError, OSError) as error:
            yield Run(path, None, f"{path}: {error}")


def _known(kb: KnowledgeBase, switch_on: tuple[str, ...], switch_off: tuple[str, ...]) -> tuple[tuple, tuple]:
    """The switches this knowledge base has (another revision's may lack one)."""
    return (tuple(n for n in switch_on if n in kb.interpretations),
            tuple(n for n in switch_off if n in kb.interpretations))


def run_corpus_values(paths: Iterable[str], kb: KnowledgeBase | None = None, edition: str | None = None,
                      switch_on: tuple[str, ...] = (), switch_off: tuple[str, ...] = (),
                      track: Track = untracked, unit: str = "cases answered") -> list[Run]:
    """Each case's Run as run_corpus gives it, in file order, but without the
    rules behind the answers: the values, odds and undecided reasons only,
    answered in batches (kb/answers/run.py: several times faster than one by
    one with citations). An `expect ... = undecided` the batch answers only
    as "it varies" is asked again on the ordinary path, which names what it
    varies with, so the reasons are those run_corpus gives."""
    kb = kb or knowledge_base()
    on, off = _known(kb, switch_on, switch_off)
    files = situation_files(paths)
    runs: dict[Path, Run] = {}

    def cases():
        for path in files:
            try:
                situation = parse_file(path)
                yield path, situation, settle(situation, kb, edition, on, off)
            except (SituationError, UsageError, OSError) as error:
                runs[path] = Run(path, None, f"{path}: {error}")

    # the batch keeps what it makes of a knowledge base on disk under the
    # checkout's signature: one built from another revision (impact
    # --against) has none, and takes the ordinary path
    answered = run_many(cases(), kb) if kb.signature else (
        (path, _values(situation, settings, kb)) for path, situation, settings in cases())
    for path, result in track(answered, len(files), unit):
        if isinstance(result, Result) and any(VARIES in answer.undecided for _, _, answer in answers_of(result)):
            result = _values(result.situation, result.settings, kb)
        if isinstance(result, (SituationError, InconsistentSituation, UsageError, OSError)):
            runs[path] = Run(path, None, f"{path}: {result}")
        elif isinstance(result, Exception):
            raise result
        else:
            runs[path] = Run(path, result)
    return [runs[path] for path in files]


def _values(situation, settings, kb: KnowledgeBase) -> Result | Exception:
    """One situation on the ordinary path, values only (the exception that stopped it, as run_many gives it)."""
    try:
        return run(situation, settings, kb, cite=False)
    except Exception as error:
        return error


def reachable_rules(path: Path, kb: KnowledgeBase | None = None) -> set[str]:
    """The rule ids a case's answers can cite: those of the rules its
    questions reach (KnowledgeBase.select, as the ordinary path selects them
    before the facts prune them; an answer cites no other). Nothing for a
    file that cannot be run."""
    kb = kb or knowledge_base()
    try:
        situation = parse_file(path)
        settings = settle(situation, kb)
    except (SituationError, UsageError, OSError):
        return set()
    asked = list(dict.fromkeys([*(q.symbol for q in situation.queries), *(e.query.symbol for e in situation.expects)]))
    selection = kb.select(settings.edition, list(settings.interpretations), asked)
    return {kb.rules[number].rule_id for number in selection.rules}


def answers_of(result: Result) -> list[tuple[int, str, object]]:
    """(line, label, answer) of every `query` and `expect` line, in file order."""
    rows = [(q.line, f"query {q.text}", a) for q, a in zip(result.situation.queries, result.answers)]
    rows += [(c.expect.line, f"expect {c.expect.query.text}", c.answer) for c in result.checked]
    return sorted(rows, key=lambda row: row[0])
