"""`aslkb check`: the `expect` lines of many files, their golden snapshots,
and a JUnit report."""
from __future__ import annotations

import argparse
import time
from contextlib import closing

EXIT_OK, EXIT_FAILED, EXIT_INPUT = 0, 1, 2


def run_check(args: argparse.Namespace) -> int:
    from aslkb.tools.check import Summary, check, situation_files
    from aslkb.base.errors import UnreadableFile
    from aslkb.base.errors import NotASnapshot
    from aslkb.tools.golden import changes, read_snapshot, settings_change, snapshot, snapshot_path, write_snapshot
    from aslkb.tools.junit import CaseReport, write_junit
    from aslkb.render.text import failure_line

    summary = Summary()
    reports: list[CaseReport] = []
    changed = written = 0
    settings: dict[str, int] = {}  # a change of the run's settings, said once: files it shows in
    update = getattr(args, "update", False)
    options = dict(edition=args.edition, switch_on=tuple(args.interpretation), switch_off=tuple(args.without))
    started = time.perf_counter()
    paths = situation_files(args.paths)
    if not paths:  # "0 passed" would read as a pass: a typo in a folder name is an error
        from aslkb.base.errors import UsageError

        raise UsageError(f"check: no situation files (*.sit) under {', '.join(args.paths)}")
    # golden snapshots and --update need the rules behind every answer: ordinary path
    fast = [] if update else [p for p in paths if not snapshot_path(p).exists()]
    outcomes = check(paths, fast=fast, cite_failures=bool(getattr(args, "verbose", False)), **options)
    with closing(outcomes):  # a run cut short (an error, a closed pipe) ends its workers at once
        for outcome in outcomes:
            report = CaseReport(str(outcome.path), seconds=time.perf_counter() - started)
            started = time.perf_counter()
            reports.append(report)
            summary.outcomes.append(outcome)
            if outcome.error:
                print(outcome.error)
                report.error = outcome.error
                continue
            if outcome.result is None:  # answered in a batch: its failures are report lines already
                report.expectations = outcome.held + len(outcome.failures)
                for line in outcome.failures:
                    print(line)
                    report.failures.append(line)
                if args.verbose:
                    print(f"{outcome.path}: {report.expectations} expectations")
                continue
            report.expectations = len(outcome.result.checked)
            try:
                stored = None if update else read_snapshot(outcome.path)
            except (NotASnapshot, UnreadableFile) as error:  # this file's error; the others are still checked
                print(error)
                report.error = outcome.error = str(error)
                continue
            golden = []
            if stored is not None:
                now = snapshot(outcome.result)
                golden = changes(stored, now)
                if said := settings_change(stored, now):
                    settings[said] = settings.get(said, 0) + 1
            failing = {checked.expect.line for checked in outcome.result.failed}
            covered = {line for change in golden for line in (change.line, *change.also)}
            for checked in outcome.result.failed:
                if checked.expect.line not in covered:  # else its change line below says it, once
                    line = failure_line(outcome.path, checked)
                    print(line)
                    report.failures.append(line)
            for change in golden:
                line = change.text(outcome.path)
                if failing & {change.line, *change.also}:
                    line += "; the expect line fails"
                print(line)
                report.failures.append(line)
                changed += 1
            if update:
                write_snapshot(outcome.path, outcome.result)
                written += 1
            if args.verbose:
                print(f"{outcome.path}: {len(outcome.result.checked)} expectations")
    cases = len(summary.outcomes)
    print(f"{cases} files, {summary.errors} unreadable")
    print(f"{summary.passed} passed, {summary.failed} failed")
    if update:
        print(f"{written} golden snapshot{'s' if written != 1 else ''} written")
    for said, files in settings.items():
        print(f"golden snapshots: this run's settings differ from the snapshots' in {files} "
              f"file{'s' if files != 1 else ''}: {said}")
    if changed:
        print(f"{changed} answer{'s' if changed != 1 else ''} changed from the golden snapshots "
              f"(aslkb check --update accepts them)")
    if getattr(args, "junit_xml", None):
        write_junit(reports, args.junit_xml)
    if summary.errors:
        return EXIT_INPUT
    return EXIT_FAILED if summary.failed or changed else EXIT_OK
