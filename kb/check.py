"""Run the `expect` lines of many situation files (aslkb check)."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from aslkb.parser import SituationError, parse_file

from .ask import Result, UsageError, ask, settle
from .engine import InconsistentSituation
from .filecheck import UnreadableFile
from .program import knowledge_base


@dataclass
class CaseOutcome:
    path: Path
    result: Result | None = None
    error: str | None = None  # the file could not be taken (exit status 2)
    held: int = 0  # expectations that held on the fast path (kb/batch.py), which keeps no Result


@dataclass
class Summary:
    outcomes: list[CaseOutcome] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(len(o.result.checked) - len(o.result.failed) if o.result else o.held for o in self.outcomes)

    @property
    def failed(self) -> int:
        return sum(len(o.result.failed) for o in self.outcomes if o.result)

    @property
    def errors(self) -> int:
        return sum(1 for o in self.outcomes if o.error)


def situation_files(paths: Iterable[str]) -> list[Path]:
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found += sorted(p for p in path.rglob("*.sit") if not p.is_dir())
        elif path.exists():  # a FIFO or a device is refused with its name when it is read
            found.append(path)
        else:
            raise UsageError(f"{name}: no such file or directory")
    return found


def check_file(path: Path, edition: str | None = None, switch_on: tuple[str, ...] = (),
               switch_off: tuple[str, ...] = ()) -> CaseOutcome:
    try:
        situation = parse_file(path)
        kb = knowledge_base()
        return CaseOutcome(path, ask(situation, settle(situation, kb, edition, switch_on, switch_off), kb))
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


def check(paths: Iterable[Path], fast: Iterable[Path] = (), **options) -> Iterator[CaseOutcome]:
    """Each file's outcome, in order. The files in `fast` are first answered
    together (kb/batch.py); those whose expectations all hold there need no
    more, the others (and the rest) take the ordinary path, which cites rules."""
    from .batch import parallel_fast_check

    paths = list(paths)
    held = parallel_fast_check([str(p) for p in fast], **options) if fast else {}
    for path in paths:
        count = held.get(str(path))
        yield CaseOutcome(path, held=count) if count is not None else check_file(path, **options)
