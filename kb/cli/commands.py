"""The `aslkb` commands for regression work: lint (in full), rules, coverage,
impact and invariants. kb/cli/main.py adds them to its parser."""
from __future__ import annotations

import argparse
import json
import os
import re
import sys

from aslkb.base.atomicwrite import write_text
from aslkb.base.errors import UsageError, WriteFailed
from aslkb.base.progress import Progress
from aslkb.base.terminal import escape_controls
from aslkb.api import knowledge_base

EXIT_OK, EXIT_FAILED, EXIT_INPUT = 0, 1, 2


# --- lint -------------------------------------------------------------------

_WHERE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):\s*(?P<message>.*)$")


def no_default_corpus(reads: str) -> str:
    """Why a command that reads the project's cases by default read none."""
    return (f"{reads} tests/cases of the current folder (an aslkb checkout's own cases), and there is "
            f"none here: give the cases, --cases PATH")


def cases_or_note(named: list[str] | None, command: str) -> list[str]:
    """The cases `rules` and `coverage` read: those named, else tests/cases;
    with neither, a note on stderr, so that `0 cases` is not taken for untested."""
    from aslkb.tools.corpus import default_corpus  # lazy: only this command needs it (the others' cold start)

    corpus = named or default_corpus()
    if not corpus:
        print(f"aslkb {command}: no cases read, so every rule shows 0 cases: "
              + no_default_corpus("without --cases it reads"), file=sys.stderr)
    return corpus


def run_lint(args: argparse.Namespace) -> int:
    from aslkb.tools.lint import lint  # lazy: only this command needs it (the others' cold start)
    from aslkb.tools.lintchecks import run_checks  # lazy: only this command needs it (the others' cold start)
    from aslkb.tools.corpus import default_corpus  # lazy: only this command needs it (the others' cold start)

    # the case-based checks solve every case: minutes on a large corpus, so
    # they run when asked (--cases PATH, or --cases with no path for tests/cases)
    # a folder named with --cases PATH is judged by what it asks (conflicts);
    # the project's own corpus (--cases alone) must also ask every query
    named = [p for p in args.cases or [] if p]
    corpus = [] if args.no_cases or args.cases is None else (named or default_corpus())
    if args.cases is not None and not args.no_cases and not corpus:
        raise UsageError(no_default_corpus("lint --cases with no PATH checks"))
    problems, notes = lint()
    with Progress("lint") as progress:
        findings = run_checks(knowledge_base(), corpus=corpus, every_query=not named,
                              track=progress.over) if not problems else []
    failing = len(problems) + sum(1 for f in findings if f.fails)
    if args.json:
        data = {"problems": [], "findings": [f.to_json() for f in findings], "notes": notes, "corpus": corpus,
                "failures": failing}
        for problem in problems:
            m = _WHERE.match(problem)
            data["problems"].append({"file": m["file"], "line": int(m["line"]), "message": m["message"]}
                                    if m else {"file": "", "line": 0, "message": problem})
        print(json.dumps(data, indent=2))
    else:
        for line in [*notes, *problems, *(finding.text() for finding in findings)]:
            print(escape_controls(line))  # they name files and quote what they hold
        known = sum(1 for f in findings if f.waived_by)
        warnings = sum(1 for f in findings if f.warning)
        also = [f"{known} known damage mended by an interpretation" if known else "",
                f"{warnings} warning{'s' if warnings != 1 else ''}" if warnings else "",
                f"cases checked: {', '.join(corpus)}" if corpus else "no cases checked (give --cases [PATH])"]
        print("lint: " + "; ".join(a for a in also if a))
        print(f"lint: {failing} problem{'s' if failing != 1 else ''}")  # the last line, as before
    return EXIT_FAILED if failing else EXIT_OK


def add_lint_options(lint: argparse.ArgumentParser) -> None:
    lint.add_argument("--json", action="store_true", help="print the findings as one JSON object")
    lint.add_argument("--cases", action="append", metavar="PATH", nargs="?", const="",
                      help="also solve these cases and report conflicts (a single-valued query given two "
                           "values, with the rule behind each); a folder is judged by what it asks. With no "
                           "PATH: tests/cases of the current folder, which must also ask every query of the "
                           "catalog (repeatable)")
    lint.add_argument("--no-cases", action="store_true",
                      help="skip the checks that solve cases (the default; it wins over --cases): only the "
                           "knowledge base's own files are checked, in seconds")


# --- rules and coverage -----------------------------------------------------

def resolve_rule_id(written: str, known: list[str]) -> str:
    """The rule id a user means: as written (`E1.7`, `SL 49.23`), in any case
    (`e1.7`), with or without SL's space (`SL49.23`), or its number alone
    where one id has it (`1.7` is E1.7, `49.23` SL 49.23); otherwise a usage
    error that names the nearest ids."""
    from difflib import get_close_matches  # lazy: only this command needs it (the others' cold start)

    text = " ".join(written.split())
    folded = {re.sub(r"\s+", "", i).upper(): i for i in known}
    key = re.sub(r"\s+", "", text).upper()
    if key in folded:
        return folded[key]
    by_number = [i for i in known if re.sub(r"^(SL\s*|[A-Z]+)", "", i) == key]
    if len(by_number) == 1:
        return by_number[0]
    near = by_number or [folded[k] for k in get_close_matches(key, list(folded), n=3, cutoff=0.75)]
    hint = f"; did you mean {' or '.join(near)}?" if near else ""
    raise UsageError(f"rule {text}: the knowledge base does not cite it and the source text has no "
                     f"such paragraph{hint}")


def run_rules(args: argparse.Namespace) -> int:
    from aslkb.tools.coverage import RuleFacts, add_cases, cases_testing, rule_facts, rule_text  # lazy: only this command needs it (the others' cold start)
    from aslkb.tools.sourcetext import paragraphs  # lazy: only this command needs it (the others' cold start)

    facts = rule_facts(knowledge_base())
    by_id = {p.rule_id: p for p in paragraphs()}
    if args.id:
        chosen = [resolve_rule_id(" ".join(args.id), [*by_id, *sorted(set(facts) - set(by_id))])]
    else:
        order = list(by_id) + sorted(set(facts) - set(by_id))
        chosen = [i for i in order if i in facts]
    # the cases that test a rule: for one id, those that can reach it; for the
    # list, every case, only when asked (--cases): solving a corpus with
    # citations the first time takes a minute
    with_cases = bool(args.id) or args.cases is not None
    if with_cases:
        corpus = cases_or_note([p for p in args.cases or [] if p], "rules")
        with Progress("rules") as progress:
            add_cases(facts, cases_testing(corpus, set(chosen) if args.id else None, track=progress.over))
    if args.json:
        entries = [facts[i].to_json() if i in facts else {"rule": i} for i in chosen]
        if not with_cases:
            for entry in entries:
                entry.pop("cases", None)
        print(json.dumps(entries, indent=2))
        return EXIT_OK
    if args.id:
        print(rule_text(facts.get(chosen[0], RuleFacts(chosen[0])), by_id.get(chosen[0])))
        return EXIT_OK
    for rule_id in chosen:
        entry = facts[rule_id]
        cases = f"{len(entry.cases):3} cases  " if with_cases else ""
        print(f"{rule_id:10} {len(entry.citations):3} statements  {len(entry.queries):2} queries  "
              f"{cases}{', '.join(entry.interpretations)}".rstrip())
    return EXIT_OK


def run_coverage(args: argparse.Namespace) -> int:
    from aslkb.tools.coverage import markdown, matrix, rule_facts  # lazy: only this command needs it (the others' cold start)
    listed = None  # the shipped paragraph list (kb/tools/paragraphs.py)
    if args.source:  # read only: the matrix of this run is made from the folder's paragraphs
        from aslkb.tools.sourcetext import extracted, write_module  # lazy: only this option needs it

        listed, referenced = extracted(args.source)
        print(f"{len(listed)} paragraphs from {escape_controls(args.source)}", file=sys.stderr)
        if args.paragraphs_out:
            write_module(listed, args.paragraphs_out, referenced)
            print(f"{escape_controls(args.paragraphs_out)}: the paragraph list written", file=sys.stderr)
    elif args.paragraphs_out:
        raise UsageError("--paragraphs-out writes the paragraphs --source DIR reads: give --source too")
    from aslkb.tools.coverage import cases_testing  # lazy: only this command needs it (the others' cold start)

    with Progress("coverage") as progress:
        tested = cases_testing(cases_or_note(args.cases, "coverage"), track=progress.over)
    rows = matrix(rule_facts(knowledge_base(), tested), listed)
    if args.json:
        from aslkb.tools.coverage import matrix_json  # lazy: only this command needs it (the others' cold start)

        text = json.dumps(matrix_json(rows), indent=2) + "\n"
    else:
        text = markdown(rows)
    if args.output in (None, "-"):
        print(text, end="")
    else:
        try:
            os.makedirs(os.path.dirname(args.output) or ".", exist_ok=True)
        except (OSError, ValueError) as error:
            raise WriteFailed(args.output, getattr(error, "strerror", None) or str(error)) from None

        write_text(args.output, text)
        missing = sum(1 for r in rows if r.status == "not encoded" and r.detail == "no reason given")
        print(f"{escape_controls(args.output)}: {len(rows)} paragraphs, {missing} not encoded with no reason given")
    return EXIT_OK


# --- impact -----------------------------------------------------------------

def run_impact(args: argparse.Namespace) -> int:
    from aslkb.tools.impact import impact_against, impact_settings, impact_text  # lazy: only this command needs it (the others' cold start)

    if args.against:
        with Progress("impact") as progress:
            changes, label = impact_against(args.paths, args.against, args.edition, track=progress.over)
    else:
        if not args.interpretation and not args.without:
            raise UsageError("impact needs --interpretation NAME, --without NAME or --against GIT-REV")
        with Progress("impact") as progress:
            changes, label = impact_settings(args.paths, args.edition, tuple(args.interpretation),
                                             tuple(args.without), track=progress.over)
    if args.json:
        print(json.dumps({"comparison": label, "changes": [c.to_json() for c in changes]}, indent=2))
    else:
        print(escape_controls(impact_text(changes, label)))  # the cases' names, and what their answers hold
    return EXIT_OK


# --- invariants -------------------------------------------------------------

def run_invariants(args: argparse.Namespace) -> int:
    from aslkb.tools.invariants import check_invariants, report_text  # lazy: only this command needs it (the others' cold start)

    with Progress("invariants") as progress:
        reports = check_invariants(names=args.name or None, switch_on=tuple(args.interpretation),
                                   switch_off=tuple(args.without), track=progress.over)
    if args.json:
        print(json.dumps([r.to_json() for r in reports], indent=2))
    else:
        print(report_text(reports))
    return EXIT_FAILED if any(r.counterexample or r.vacuous for r in reports) else EXIT_OK


def add_commands(commands, with_rule_options, with_interpretations, with_timeout) -> None:
    rules = commands.add_parser("rules", help="what the knowledge base knows of a rule id",
                                description="For a rule id (E1.7, A12.122, SL 49.23): the files and lines that "
                                            "cite it, the interpretations on it, the queries that use it and "
                                            "the cases that test it (a case tests a rule when the rule is "
                                            "behind one of its answers). Without an id, one line per rule id (with "
                                            "--cases, how many cases test each).")
    rules.add_argument("id", nargs="*", metavar="ID", help="a rule id, e.g. E1.7 or SL 49.23")
    rules.add_argument("--cases", action="append", metavar="PATH", nargs="?", const="",
                       help="the cases that test a rule are those of PATH (default: tests/cases when the "
                            "current folder has one; repeatable). An id's cases are always shown (only the "
                            "cases that can reach it are solved); the list has its cases column only with "
                            "--cases [PATH], since it solves every case (the first time: a minute for "
                            "tests/cases; then the answers are kept)")
    rules.add_argument("--json", action="store_true", help="print JSON")
    with_timeout(rules)  # it solves the cases it has not seen
    rules.set_defaults(run=run_rules)

    coverage = commands.add_parser("coverage", help="the coverage matrix of the source text",
                                   description="Every rule paragraph of the source text with its status "
                                               "(encoded, interpretation, undecided, out of scope, not encoded) "
                                               "and the number of cases that test it, one table per section.")
    coverage.add_argument("-o", "--output", metavar="OUT",
                          help="write the matrix to OUT (default: print it; the project's own is "
                               "docs/coverage.md: aslkb coverage -o docs/coverage.md)")
    coverage.add_argument("--json", action="store_true",
                          help="the matrix as JSON: one object per paragraph and the counts per section")
    coverage.add_argument("--cases", action="append", metavar="PATH",
                          help="the cases (default: tests/cases when the current folder has one)")
    coverage.add_argument("--source", metavar="DIR",
                          help="read the paragraph ids from the source text files in DIR, for this run "
                               "(read only; the shipped list is kb/tools/paragraphs.py)")
    coverage.add_argument("--paragraphs-out", metavar="FILE",
                          help="with --source: write the paragraph list read there to FILE, as Python "
                               "(the project's own: --paragraphs-out kb/tools/paragraphs.py)")
    with_timeout(coverage)
    coverage.set_defaults(run=run_coverage)

    impact = commands.add_parser("impact", help="the cases whose answers change under an interpretation or "
                                                "another revision of the rules",
                                 description="Run the cases under PATH twice, as they are and with "
                                             "--interpretation/--without (or with the rule files of GIT-REV "
                                             "for --against), and list every answer that changes, with the "
                                             "old and new answers and the rules behind each.")
    impact.add_argument("paths", nargs="+", metavar="PATH", help="situation files or folders")
    impact.add_argument("--against", metavar="GIT-REV", help="compare with the rules and queries of this revision")
    impact.add_argument("--json", action="store_true", help="print JSON")
    with_rule_options(impact)
    impact.set_defaults(run=run_impact)

    invariants = commands.add_parser("invariants", help="check the properties of rules/invariants/ over "
                                                        "every situation of a bounded space",
                                     description="Each rules/invariants/NAME.lp generates a bounded space of "
                                                 "situations by choice rules and states a property as "
                                                 "`violation(...)`; report a counterexample situation for each "
                                                 "property that fails.")
    invariants.add_argument("name", nargs="*", metavar="NAME", help="only these invariants")
    invariants.add_argument("--json", action="store_true", help="print JSON")
    with_interpretations(invariants)  # no --edition: each invariant names its own (`%! edition`)
    with_timeout(invariants)
    invariants.set_defaults(run=run_invariants)
