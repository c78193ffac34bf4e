"""`aslkb check`: the `expect` lines of many files, their golden snapshots,
and a JUnit report."""
from __future__ import annotations

import argparse
import time

EXIT_OK, EXIT_FAILED, EXIT_INPUT = 0, 1, 2


def run_check(args: argparse.Namespace) -> int:
    from .check import Summary, check, situation_files
    from .golden import NotASnapshot, compare, read_snapshot, snapshot, snapshot_path, write_snapshot
    from .filecheck import UnreadableFile
    from .junit import CaseReport, write_junit
    from .render import failure_line

    summary = Summary()
    reports: list[CaseReport] = []
    changed = written = 0
    update = getattr(args, "update", False)
    options = dict(edition=args.edition, switch_on=tuple(args.interpretation), switch_off=tuple(args.without))
    started = time.perf_counter()
    paths = situation_files(args.paths)
    # golden snapshots and --update need the rules behind every answer: ordinary path
    fast = [] if update else [p for p in paths if not snapshot_path(p).exists()]
    for outcome in check(paths, fast=fast, **options):
        report = CaseReport(str(outcome.path), seconds=time.perf_counter() - started)
        started = time.perf_counter()
        reports.append(report)
        summary.outcomes.append(outcome)
        if outcome.error:
            print(outcome.error)
            report.error = outcome.error
            continue
        if outcome.result is None:  # every expectation held on the fast path
            report.expectations = outcome.held
            continue
        report.expectations = len(outcome.result.checked)
        for checked in outcome.result.failed:
            line = failure_line(outcome.path, checked)
            print(line)
            report.failures.append(line)
        if update:
            write_snapshot(outcome.path, outcome.result)
            written += 1
            stored = None
        else:
            try:
                stored = read_snapshot(outcome.path)
            except (NotASnapshot, UnreadableFile) as error:
                print(error)
                report.error = outcome.error = str(error)
                continue
        if stored is not None:
            for difference in compare(stored, snapshot(outcome.result)):
                line = difference.text(outcome.path)
                print(line)
                report.failures.append(line)
                changed += 1
        if args.verbose:
            print(f"{outcome.path}: {len(outcome.result.checked)} expectations")
    cases = len(summary.outcomes)
    print(f"{cases} files, {summary.errors} unreadable")
    print(f"{summary.passed} passed, {summary.failed} failed")
    if update:
        print(f"{written} golden snapshot{'s' if written != 1 else ''} written")
    elif changed:
        print(f"{changed} difference{'s' if changed != 1 else ''} from the golden snapshots "
              f"(aslkb check --update accepts them)")
    if getattr(args, "junit_xml", None):
        write_junit(reports, args.junit_xml)
    if summary.errors:
        return EXIT_INPUT
    return EXIT_FAILED if summary.failed or changed else EXIT_OK
