"""`aslkb check`: the `expect` lines of many files, their golden snapshots,
a JUnit report, and the whole run as one JSON object (--json)."""
from __future__ import annotations

import argparse
import re
import time
from contextlib import closing
from dataclasses import dataclass, field
import json

from aslkb.base.errors import NotASnapshot, UnreadableFile, UsageError
from aslkb.base.progress import Progress
from aslkb.base.terminal import escape_controls
from aslkb.render.text import expectation_json, failure_line
from aslkb.tools.check import Summary, Wanted, check, found_files
from aslkb.tools.golden import changes, read_snapshot, settings_change, snapshot, snapshot_path, write_snapshot
from aslkb.tools.junit import CaseReport, write_junit
from aslkb.tools.shard import in_shard

EXIT_OK, EXIT_FAILED, EXIT_INPUT = 0, 1, 2


@dataclass
class FileReport(CaseReport):
    """A file's part of the run: JUnit's case (failures: the lines the text
    report prints for it), and the JSON report's records."""
    checked: list[dict] = field(default_factory=list)  # each expectation (kb/render/text.py expectation_json)
    golden: list[dict] = field(default_factory=list)  # each difference from its golden snapshot
    written: bool = False  # its golden snapshot was written (--update)

    @property
    def status(self) -> str:
        return "error" if self.error else "failed" if self.failures else "passed"


def run_check(args: argparse.Namespace) -> int:
    update = getattr(args, "update", False)
    as_json = getattr(args, "json", False)
    shard = getattr(args, "shard", None)
    verbose = bool(getattr(args, "verbose", False))
    options = dict(edition=args.edition, switch_on=tuple(args.interpretation), switch_off=tuple(args.without))
    found = found_files(args.paths)
    if not found:  # "0 passed" would read as a pass: a typo in a folder name is an error
        raise UsageError(f"check: no situation files (*.sit) under {', '.join(args.paths)}")
    paths = in_shard(found, shard) if shard else [path for _, path in found]
    summary = Summary()
    junit = getattr(args, "junit_xml", None)
    reports: list[FileReport] = []  # every file's, kept only for --json and --junit-xml
    changed = written = 0
    settings: dict[str, int] = {}  # a change of the run's settings, said once: files it shows in
    # golden snapshots and --update need the rules behind every answer: ordinary path
    fast = [] if update else [p for p in paths if not snapshot_path(p).exists()]
    # --json gives the rules behind each failure, which the batches leave to the workers to cite
    outcomes = check(paths, fast=fast, wanted=Wanted(citations=verbose or as_json, records=as_json), **options)
    started = time.perf_counter()
    with closing(outcomes), Progress("check", len(paths), "files") as progress:  # closing: a run cut
        for outcome in outcomes:  # short (an error, a closed pipe) ends its workers at once
            report = _file_report(outcome, time.perf_counter() - started, update, settings, as_json)
            started = time.perf_counter()
            summary.add(outcome)
            changed += len(report.golden)
            written += report.written
            if as_json or junit:
                reports.append(report)
            shown = [report.error] if report.error else list(report.failures)
            if verbose and not report.error:
                shown.append(f"{outcome.path}: {report.expectations} expectations")
            if shown and not as_json:
                progress.clear()  # on a terminal, the lines take the progress line's place
                print(escape_controls("\n".join(shown)))  # file names and snapshots: their ESC shown, not obeyed
            progress.advance()
    if as_json:
        print(json.dumps(check_json(reports, summary, settings, shard, len(found)), indent=2))
    else:
        if shard:
            print(f"shard {shard}: {len(paths)} of {len(found)} files")
        print(f"{summary.files} files, {summary.errors} unreadable")
        print(f"{summary.passed} passed, {summary.failed} failed")
        if update:
            print(f"{written} golden snapshot{'s' if written != 1 else ''} written")
        for said, files in settings.items():
            print(f"golden snapshots: this run's settings differ from the snapshots' in {files} "
                  f"file{'s' if files != 1 else ''}: {escape_controls(said)}")
        if changed:
            print(f"{changed} answer{'s' if changed != 1 else ''} changed from the golden snapshots "
                  f"(aslkb check --update accepts them)")
    if junit:
        write_junit(reports, junit, **({"suite": f"aslkb check (shard {shard})",
                                                 "properties": {"shard": str(shard)}} if shard else {}))
    if summary.errors:
        return EXIT_INPUT
    return EXIT_FAILED if summary.failed or changed else EXIT_OK


def _file_report(outcome, seconds: float, update: bool, settings: dict[str, int], records: bool) -> FileReport:
    """What one file's outcome says: its error, or its failed expectations and
    golden differences as report lines and, if `records`, every expectation
    as a record; with --update, its snapshot written."""
    report = FileReport(str(outcome.path), seconds=seconds)
    if outcome.error:
        report.error = outcome.error
        return report
    if outcome.result is None:  # answered in a batch: its failures are report lines already
        report.expectations = outcome.held + len(outcome.failures)
        report.failures += outcome.failures
        report.checked = outcome.expectations
        return report
    result = outcome.result
    report.expectations = len(result.checked)
    if records:
        report.checked = [expectation_json(checked, outcome.path) for checked in result.checked]
    try:
        stored = None if update else read_snapshot(outcome.path)
    except (NotASnapshot, UnreadableFile) as error:  # this file's error; the others are still checked
        report.error = outcome.error = str(error)
        return report
    golden = []
    if stored is not None:
        now = snapshot(result)
        golden = changes(stored, now)
        if said := settings_change(stored, now):
            settings[said] = settings.get(said, 0) + 1
    failing = {checked.expect.line for checked in result.failed}
    covered = {line for change in golden for line in (change.line, *change.also)}
    for checked in result.failed:
        if checked.expect.line not in covered:  # else its change line below says it, once
            report.failures.append(failure_line(outcome.path, checked))
    for change in golden:
        fails = bool(failing & {change.line, *change.also})
        report.failures.append(change.text(outcome.path) + ("; the expect line fails" if fails else ""))
        report.golden.append({"file": str(outcome.path), **change.to_json(), "expect_fails": fails})
    if update:
        write_snapshot(outcome.path, result)
        report.written = True
    return report


def check_json(reports: list[FileReport], summary, settings: dict[str, int], shard, found: int) -> dict:
    """`aslkb check --json` (docs/regression.md): every file with its
    expectations and golden differences, the settings the snapshots were made
    under where they differ, the shard, and the totals of the text report."""
    return {
        "files": [{"file": report.path, "status": report.status, "error": _error_json(report),
                   "expectations": report.checked, "golden": report.golden} for report in reports],
        "settings": [{"change": said, "files": files} for said, files in settings.items()],
        "shard": {"index": shard.index, "count": shard.count, "files": found} if shard else None,
        "totals": {"files": len(reports), "unreadable": summary.errors, "passed": summary.passed,
                   "failed": summary.failed, "changed": sum(len(report.golden) for report in reports),
                   "written": sum(report.written for report in reports)},
    }


def _error_json(report: FileReport) -> dict | None:
    """A file's error as its text (FILE:LINE:COLUMN: message ...) and, where
    the text starts so, the line and column."""
    if not report.error:
        return None
    where = re.match(rf"{re.escape(report.path)}:(\d+):(\d+):", report.error)
    return {"text": report.error, "line": int(where[1]) if where else None,
            "column": int(where[2]) if where else None}
