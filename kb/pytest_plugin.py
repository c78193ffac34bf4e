"""pytest collects situation files (*.sit) that have `expect` lines as tests.

Each file is one test item; a failure lists every failed expectation with its
line, the expected and actual answers and the rules behind the actual one.
"""
from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collect_file(parent: pytest.Collector, file_path: Path):
    if file_path.suffix == ".sit" and _has_expectations(file_path):
        return SituationFile.from_parent(parent, path=file_path)
    return None


def _has_expectations(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return any(line.lstrip().startswith("expect") for line in text.splitlines())


class SituationFile(pytest.File):
    def collect(self):
        yield SituationCase.from_parent(self, name=self.path.name)


class CaseFailed(Exception):
    pass


class SituationCase(pytest.Item):
    def runtest(self) -> None:
        from .check import check_file
        from .render import failure_line

        outcome = check_file(self.path)
        if outcome.error:
            raise CaseFailed(outcome.error)
        failed = outcome.result.failed
        if failed:
            raise CaseFailed("\n".join(failure_line(self.path, c) for c in failed))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, 0, f"situation {self.path.name}"
