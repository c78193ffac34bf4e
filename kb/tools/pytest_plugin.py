"""pytest collects situation files (*.sit) that have `expect` lines as tests.

Each file is one test item; a failure lists every failed expectation with its
line (and the line's text), the expected and actual answers and the chain of
rules behind the actual one; where the file has a golden snapshot
(FILE.sit.golden.json, `aslkb check --update`), every difference from it too.

The plugin ships with the package (the `pytest11` entry point `aslkb`), so
that `pip install aslkb` and `pytest` in any folder collect its `.sit` files.
Options: --aslkb-edition, --aslkb-interpretation NAME, --aslkb-without NAME.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from aslkb.base.errors import NotASnapshot, UnreadableFile
from aslkb.base.filecheck import read_regular
from aslkb.render.text import chain_text, failure_line
from aslkb.tools.check import check_file
from aslkb.tools.golden import changes, read_snapshot, settings_change, snapshot


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("aslkb", "aslkb situation files (*.sit)")
    group.addoption("--aslkb-edition", choices=("asl", "sl4"), default=None,
                    help="answer every situation file under this edition (default: the file's own)")
    group.addoption("--aslkb-interpretation", action="append", default=[], metavar="NAME",
                    help="switch on a named interpretation for every situation file (repeatable)")
    group.addoption("--aslkb-without", action="append", default=[], metavar="NAME",
                    help="switch off an interpretation for every situation file (repeatable)")


def pytest_collect_file(parent: pytest.Collector, file_path: Path):
    if file_path.suffix == ".sit" and _has_expectations(file_path):
        return SituationFile.from_parent(parent, path=file_path)
    return None


def _has_expectations(path: Path) -> bool:
    try:
        text = read_regular(path).decode("utf-8", errors="replace")
    except UnreadableFile:  # a FIFO, a device, a huge file: collected, so that its refusal is reported
        return True
    return any(line.lstrip().startswith("expect") for line in text.splitlines())


class SituationFile(pytest.File):
    def collect(self):
        yield SituationCase.from_parent(self, name=self.path.name)


class CaseFailed(Exception):
    pass


class SituationCase(pytest.Item):
    def runtest(self) -> None:
        option = self.config.getoption
        outcome = check_file(self.path, edition=option("aslkb_edition"),
                             switch_on=tuple(option("aslkb_interpretation")),
                             switch_off=tuple(option("aslkb_without")))
        if outcome.error:
            raise CaseFailed(outcome.error)
        text = outcome.result.situation.text.splitlines()
        try:
            stored = read_snapshot(self.path)
        except (NotASnapshot, UnreadableFile) as error:
            raise CaseFailed(str(error)) from None
        golden = changes(stored, snapshot(outcome.result)) if stored is not None else []
        where = self.shown_path()
        report = []
        for checked in outcome.result.failed:  # each failure's FILE:LINE header, snapshot or not
            number = checked.expect.line
            report.append(failure_line(where, checked))
            if 0 < number <= len(text):
                report.append(f"    {number:>4} | {text[number - 1].strip()}")
            if chain := chain_text(checked.answer):
                report.append(f"    because: {chain}")
        report += [change.text(where) for change in golden]
        if golden and (said := settings_change(stored, snapshot(outcome.result))):
            report.append(f"    (this run's settings differ from the snapshot's: {said})")
        if report:
            raise CaseFailed("\n".join(report))

    def shown_path(self) -> Path:
        """The file as the user named it: relative to the folder pytest was
        started in when it lies below it (as pytest's own report does)."""
        try:
            return self.path.relative_to(self.config.invocation_params.dir)
        except ValueError:
            return self.path

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, 0, f"situation {self.path.name}"
