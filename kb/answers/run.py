"""The one way to run a situation (issue 16): `aslkb query`, `check`,
`explain`, the pytest plugin and the web service all call run() or
run_many(), and the speed machinery stands behind them.

- One situation, or a run that cites rules, takes the ordinary path
  (kb/answers/ask.py): the rules a situation's questions reach
  (KnowledgeBase.select), grounded once with the unknowns.
- Many situations answered for their values alone (check) are solved in
  chunks of one grounding each, whatever their editions and
  interpretations (kb/engine/batch.py grounds and solves them, giving
  atoms; kb/answers/batch.py reads them); the situations a batch
  cannot answer (open facts to name, odds beside a gap or an open fact, an
  inconsistent chunk) fall back to the ordinary path, one by one.
- `whole` grounds every rule of the edition instead of the selection: the
  selection is only a speed-up, and tests/test_seam.py proves that over the
  shipped cases.

The cases are streamed: a chunk is solved as soon as it is full, so a caller
that reads files lazily never holds more than a chunk of situations.
"""
from __future__ import annotations

import time
from collections.abc import Hashable, Iterable, Iterator

from aslkb.parser import Situation

from aslkb.answers.ask import Result, ask
from aslkb.engine.solve import Settings, keep_controls
from aslkb.knowledge.program import KnowledgeBase, knowledge_base


def run(situation: Situation, settings: Settings, kb: KnowledgeBase | None = None, cite: bool = True,
        whole: bool = False) -> Result:
    """One situation's answers, with the rules behind them unless `cite` is off."""
    return ask(situation, settings, kb or knowledge_base(), cite=cite, whole=whole)


def run_many(cases: Iterable[tuple[Hashable, Situation, Settings]], kb: KnowledgeBase | None = None,
             cite: bool = False, whole: bool = False, expectations_only: bool = False,
             ordinary: dict | None = None) -> Iterator[tuple[Hashable, Result | Exception]]:
    """(key, Result) for each (key, situation, settings), or (key, the
    exception that stopped it); in an order of their own (a chunk is
    answered when it is full). Without `cite`, values only, in batches.

    `expectations_only` (check, which neither prints nor compares a `query`
    line's answer): a batch leaves the `query` lines unanswered (the
    Result's `answers` may be empty), so an answer that varies there does
    not send the file to the ordinary path to name its unknowns. Their
    query facts stay: the expectations are answered in the same situation.

    `ordinary`: where given, the key of each situation a batch left to the
    ordinary path, with the CPU seconds it took there (check deals the
    files that were dear in its last run first: kb/tools/check.py)."""
    from aslkb.answers.batch import CHUNK  # lazy: not on `aslkb query`'s path (its cold start)

    kb = kb or knowledge_base()
    if cite:
        for key, situation, settings in cases:
            yield key, _ordinary(situation, settings, kb, cite, whole)
        return
    group: list = []  # of any editions and interpretations: each situation grounds its own rules
    for key, situation, settings in cases:
        group.append((key, situation, settings))
        if len(group) == CHUNK:
            yield from _batch(group, kb, whole, expectations_only, ordinary)
            group = []
    if group:
        yield from _batch(group, kb, whole, expectations_only, ordinary)


def _batch(group: list, kb: KnowledgeBase, whole: bool, expectations_only: bool,
           ordinary: dict | None = None) -> Iterator[tuple[Hashable, Result | Exception]]:
    from aslkb.answers.batch import answer_chunk  # lazy: not on `aslkb query`'s path (its cold start)

    if len(group) == 1:  # a batch of one costs more than the ordinary path
        results = [None]
    else:
        results = answer_chunk([(situation, settings) for _, situation, settings in group], kb, whole,
                               expectations_only)
    for (key, situation, settings), result in zip(group, results):
        if result is None:
            started = time.process_time()
            result = _ordinary(situation, settings, kb, False, whole)
            if ordinary is not None:
                ordinary[key] = time.process_time() - started
        yield key, result


def _ordinary(situation: Situation, settings: Settings, kb: KnowledgeBase, cite: bool,
              whole: bool = False) -> Result | Exception:
    try:
        return ask(situation, settings, kb, cite=cite, whole=whole)
    except Exception as error:  # inconsistent, too many rolls: the caller reports it
        return error


# What a run of many situations (check) keeps between its processes and its
# runs: the batch's own business, asked for here so that callers see only
# this seam.

def recall_selections(kb: KnowledgeBase, again: bool = False) -> None:
    """Read the selections earlier runs stored for this knowledge base, before
    workers fork so that they inherit them (`again`: before a fresh worker
    forks, what the workers before it stored)."""
    from aslkb.answers.batch import remember_selections  # lazy: not on `aslkb query`'s path (its cold start)

    remember_selections(kb, again=again)


def store_selections(kb: KnowledgeBase) -> None:
    """Store the selections this process made, for the next worker and run."""
    from aslkb.answers.batch import keep_selections  # lazy: not on `aslkb query`'s path (its cold start)

    keep_selections(kb)


def prepare_batches(kb: KnowledgeBase) -> None:
    """Load what every batch grounds (the tagged rules and unknowns) once,
    before workers fork: each inherits it instead of loading it again."""
    from aslkb.engine.batch import tagged_statements, tagged_unknowns  # lazy: not on `aslkb query`'s path

    tagged_statements(kb)
    tagged_unknowns(), tagged_unknowns(counted=True)


def runs_signature(kb: KnowledgeBase) -> str:
    """The disk cache's name for what runs of many situations keep of this
    knowledge base (check files its dear files under it too)."""
    from aslkb.engine.batch import cache_signature  # lazy: not on `aslkb query`'s path (its cold start)

    return cache_signature(kb)


def process_ends_after() -> None:
    """This process ends after its last run (a worker multiprocessing ends
    with os._exit): its clingo Controls are left for the end to free, which
    frees nothing (freeing a chunk's ground program costs about a tenth of
    grounding it)."""
    keep_controls()
