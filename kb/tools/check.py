"""Run the `expect` lines of many situation files (aslkb check)."""
from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from aslkb.base.errors import SituationError

from aslkb.parser import parse_file

from aslkb.base.errors import UsageError

from aslkb.api import (Result, knowledge_base, prepare_batches, process_ends_after, recall_selections, run, run_many,
                       runs_signature, settle, store_selections)
from aslkb.base import diskcache
from aslkb.base.errors import InconsistentSituation
from aslkb.base.errors import UnreadableFile
from aslkb.base.workers import follow_parent
from aslkb.render.text import expectation_json, failure_line


# a batch's verdict on one file: the expectations that held, the failures'
# report lines, every expectation as a JSON record if wanted (kb/render/text.py expectation_json)
Verdict = tuple[int, list[str], list[dict]]


@dataclass
class CaseOutcome:
    path: Path
    result: Result | None = None
    error: str | None = None  # the file could not be taken (exit status 2)
    held: int = 0  # expectations that held in a batch (kb/answers/batch.py), which keeps no Result
    failures: list[str] = field(default_factory=list)  # the batch's failed expectations, as report lines
    expectations: list[dict] = field(default_factory=list)  # the batch's expectations as JSON records (--json)


@dataclass
class Summary:
    """The totals of a check, counted as the outcomes go by (a check of
    10,000 files keeps none of them)."""
    files: int = 0
    passed: int = 0
    failed: int = 0
    errors: int = 0

    def add(self, outcome: CaseOutcome) -> None:
        self.files += 1
        self.errors += bool(outcome.error)
        if outcome.result:
            self.passed += len(outcome.result.checked) - len(outcome.result.failed)
            self.failed += len(outcome.result.failed)
        else:
            self.passed += outcome.held
            self.failed += len(outcome.failures)


@dataclass(frozen=True)
class Wanted:
    """What the caller reads of a batch's verdicts beyond the counts and the
    failures' lines: the rules behind each failure (the workers cite them),
    every expectation as a JSON record (--json)."""
    citations: bool = False
    records: bool = False


def situation_files(paths: Iterable[str]) -> list[Path]:
    return [path for _, path in found_files(paths)]


def found_files(paths: Iterable[str]) -> list[tuple[str, Path]]:
    """(the PATH argument, a situation file under it) for each file, in order."""
    found: list[tuple[str, Path]] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found += [(name, p) for p in sorted(p for p in path.rglob("*.sit") if not p.is_dir())]
        elif path.exists():  # a FIFO or a device is refused with its name when it is read
            found.append((name, path))
        else:
            raise UsageError(f"{name}: no such file or directory")
    return found


def check_file(path: Path, edition: str | None = None, switch_on: tuple[str, ...] = (),
               switch_off: tuple[str, ...] = ()) -> CaseOutcome:
    try:
        situation = parse_file(path)
        kb = knowledge_base()
        return CaseOutcome(path, run(situation, settle(situation, kb, edition, switch_on, switch_off), kb))
    except SituationError as error:
        return CaseOutcome(path, error=str(error))
    except InconsistentSituation as error:
        return CaseOutcome(path, error=error.report(path))
    except UsageError as error:
        return CaseOutcome(path, error=f"{path}: {error}")
    except UnreadableFile as error:
        return CaseOutcome(path, error=str(error))
    except OSError as error:
        return CaseOutcome(path, error=f"{path}: cannot read: {error.strerror or error}")


def check(paths: Iterable[Path], fast: Iterable[Path] = (), wanted: Wanted = Wanted(),
          **options) -> Iterator[CaseOutcome]:
    """Each file's outcome, in order. The files in `fast` are answered for
    their values, in batches (kb/answers/run.py), in blocks of files dealt
    to every core; a failure is reported from that answer, with the rules
    behind it, and every expectation as a record, only where `wanted` says. The others (a
    golden snapshot, --update) take the ordinary path, which cites rules."""
    paths = list(paths)
    fast = {str(p) for p in fast}
    blocks = _blocks([str(p) for p in paths if str(p) in fast], wanted, **options)
    verdicts: dict[str, Verdict | None] = {}
    for path in paths:
        while str(path) in fast and str(path) not in verdicts:
            verdicts.update(next(blocks, {str(path): None}))
        verdict = verdicts.pop(str(path), None)
        if verdict is None:  # not in a batch, or a file to report as the ordinary path does
            yield check_file(path, **options)
        else:
            yield CaseOutcome(path, held=verdict[0], failures=verdict[1], expectations=verdict[2])


BLOCK = 64  # files a worker takes at a time, at most: one chunk's worth (kb/answers/batch.py), parsed as it goes
SMALLEST = 25  # files of the last blocks, at least: a smaller chunk costs more a file
ROUND = 300  # files a worker answers, or a block more, before it makes way for a fresh one (memory, below)


def _split(paths: list[str], cores: int) -> list[list[str]]:
    """The files in blocks, in order. On one core, even blocks of at most
    BLOCK. On several, each block is a (2 x cores)th of the files still to
    deal, between SMALLEST and BLOCK files: the blocks dealt last are
    small, so no core waits long at the end for the other's last block
    (the files' costs are far from even: the dearest hundred of a corpus
    cost four times the cheapest), while the first are large (a chunk's
    fixed costs shared by many files)."""
    if cores < 2:
        count = -(-len(paths) // BLOCK)
        size = -(-len(paths) // count) if count else 1
        return [paths[i:i + size] for i in range(0, len(paths), size)]
    blocks, start = [], 0
    while start < len(paths):
        left = len(paths) - start
        size = min(max(-(-left // (2 * cores)), SMALLEST), BLOCK)
        if left - size < SMALLEST // 2 and left <= BLOCK:  # not a last block of a few files
            size = left
        blocks.append(paths[start:start + size])
        start += size
    return blocks


def _blocks(paths: list[str], wanted: Wanted, **options) -> Iterator[dict]:
    """The verdicts of the files, block by block, as they come: in forked
    workers (they inherit the loaded knowledge base) when there are
    several blocks and cores, each block to the next free worker."""
    cores = len(os.sched_getaffinity(0))
    blocks = _split(_dear_first(paths) if cores > 1 else paths, cores)
    workers = min(cores, len(blocks))
    if blocks:
        recall_selections(knowledge_base())  # read once here, inherited by the forked workers
    if workers < 2:
        for block in blocks:
            yield check_block(block, wanted, options)
        return
    prepare_batches(knowledge_base())  # loaded once here, inherited by the forked workers
    yield from _dealt(blocks, workers, wanted, options)


DEAR = "dear-files"  # the disk cache's kind for the files that left the batch in the last run


def _dear_first(paths: list[str]) -> list[str]:
    """The files the last run answered on the ordinary path (kept on disk
    by the workers: _keep_dear), dearest first, then the others in their
    order. A file the batch leaves costs as much as a few dozen it keeps
    (an open fact to name beside a die: up to 0.1 s); dealt last, it made
    one core finish a tenth of a second after the other. In the first
    block, the small blocks at the end even out what it costs."""
    dear = _load_dear()
    if not dear:
        return paths
    known = sorted((p for p in paths if p in dear), key=lambda p: -dear[p])
    return known + [p for p in paths if p not in dear] if known else paths


def _keep_dear(paths: list[str], costs: dict[str, float]) -> None:
    """What a block learnt for the next run's dealing: its files that took
    the ordinary path, with their CPU seconds there; the block's other
    files forgotten (a file changed, or the rules). Kept with the
    selections' signature, so a change of the rules starts again."""
    dear = _load_dear()
    before = dict(dear)
    for path in paths:
        dear.pop(path, None)
    dear.update((path, round(cost, 3)) for path, cost in costs.items())
    if dear != before and len(dear) <= 4096:
        diskcache.store(DEAR, runs_signature(knowledge_base()), dear)


def _load_dear() -> dict[str, float]:
    """What _keep_dear stored, path -> CPU seconds; what is not of that
    shape (a cache another version of this file wrote) is left out."""
    dear = diskcache.load(DEAR, runs_signature(knowledge_base()))
    if not isinstance(dear, dict):
        return {}
    return {path: cost for path, cost in dear.items()
            if isinstance(path, str) and isinstance(cost, (int, float)) and not isinstance(cost, bool)}


def _dealt(blocks: list[list[str]], workers: int, wanted: Wanted, options: dict) -> Iterator[dict]:
    """Each block to the next free worker, in order; the verdicts as each
    block is answered.

    clingo keeps every symbol a process has made until the process ends, so
    a worker's memory grows with the files it answers: each worker makes
    way for a fresh fork once it has answered ROUND files, which keeps a
    check's memory flat as the corpus grows (each worker an executor of
    its own, so that one replaced does not wait for the others: no core
    idle between rounds).

    Every worker ends with the command (kb/base/workers.py): it follows its
    parent, so it ends when the command does, however the command ends; and
    when the caller stops reading before the last block (an error, a closed
    pipe), the blocks still running are not waited for: their workers are killed."""
    # lazy: only a check dealt to workers needs these (about 10 ms to import)
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    context = multiprocessing.get_context("fork")
    todo = list(reversed(blocks))  # the next block last
    running: dict = {}  # future -> (its worker, its block)
    every: list = []  # each worker made, shut down at the end
    processes: set = set()  # their processes, killed if the caller stops early
    answered = False  # every block's verdicts handed over
    try:
        def hand(worker: list) -> None:  # worker: [its executor, the files it took]
            if not todo:
                return
            if worker[0] is None or worker[1] >= ROUND:
                if worker[0] is not None:
                    worker[0].shutdown(wait=False)
                    recall_selections(knowledge_base(), again=True)  # what the workers before it kept
                worker[:] = [ProcessPoolExecutor(1, mp_context=context, initializer=follow_parent), 0]
                every.append(worker[0])
            block = todo.pop()
            worker[1] += len(block)
            last = worker[1] >= ROUND or not todo  # the worker's last block: it ends after it
            started = set(multiprocessing.active_children())
            running[worker[0].submit(_last_block if last else check_block, block, wanted, options)] = (
                worker, block)
            processes.update(set(multiprocessing.active_children()) - started)  # the one it forked, if new

        for _ in range(workers):
            hand([None, 0])
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                verdicts = future.result()  # (a worker that died: its block is still running's)
                worker, _ = running.pop(future)
                hand(worker)
                yield verdicts
        answered = True
    except Exception:  # a worker could not start or died: the ordinary path takes the rest
        for future, (_, block) in list(running.items()):
            try:  # the other workers' blocks still come from them
                verdicts = future.result()
            except Exception:
                verdicts = dict.fromkeys(block)
            yield verdicts
        for block in reversed(todo):
            yield dict.fromkeys(block)
        answered = True
    finally:
        if not answered:
            for process in processes:
                process.kill()
        for executor in every:
            executor.shutdown(wait=True, cancel_futures=True)


def _last_block(paths: list[str], wanted: Wanted, options: dict) -> dict:
    """check_block in a worker that ends after it: its Controls are left
    for the end of the process (kb/answers/run.py); the memory is the
    worker's peak either way."""
    process_ends_after()
    return check_block(paths, wanted, options)


def check_block(paths: list[str], wanted: Wanted, options: dict) -> dict[str, Verdict | None]:
    """For each file: the expectations that held, the report lines of those
    that failed, and every expectation as a JSON record if wanted; None for a file to
    take the ordinary path (it does not parse, or it fails on the way: the
    caller reports it there)."""
    kb = knowledge_base()
    verdicts: dict[str, Verdict | None] = dict.fromkeys(paths)
    costs: dict[str, float] = {}  # the files answered beyond the batch, and their CPU seconds there

    def cases():  # parsed as the batches ask for them
        for path in paths:
            try:
                situation = parse_file(path)
                yield path, situation, settle(situation, kb, **options)
            except Exception:  # the caller reports it properly
                pass

    for path, result in run_many(cases(), kb, expectations_only=True, ordinary=costs):
        if isinstance(result, Exception):
            continue
        if result.failed and wanted.citations:  # the rules behind each failure, here in the worker
            started = time.process_time()
            try:
                result = run(result.situation, result.settings, kb)
            except Exception:
                continue
            costs[path] = costs.get(path, 0) + time.process_time() - started
        verdicts[path] = (len(result.checked) - len(result.failed),
                          [failure_line(path, checked) for checked in result.failed],
                          [expectation_json(checked, path) for checked in result.checked] if wanted.records else [])
    store_selections(kb)
    _keep_dear(paths, costs)
    return verdicts
