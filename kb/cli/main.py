"""The `aslkb` command: query, check, odds, explain, diff, diverge, lint, serve, completion.

What `aslkb query` needs is imported at the top. The other commands import
the tools, renderers and checks only they use inside their own functions, so
that a cold `aslkb query` never loads them (the cold start is measured by
benchmarks/bench.py). tests/test_layers.py still reads these imports, so
laziness hides no edge of the layer graph."""
from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import TYPE_CHECKING

from aslkb import __version__
from aslkb.api import (explain, hashable_value, knowledge_base, process_ends_after, refuse_unknown_interpretations, run,
                       settle)
from aslkb.base.atomicwrite import write_text
from aslkb.base.errors import (InconsistentSituation, NotASnapshot, RuleFileError, SituationError, UnreadableFile,
                               UsageError, WriteFailed)
from aslkb.base.interrupt import install, stopping, wait_forever
from aslkb.base.limits import MAX_SCENE_BOUND, positive_seconds, scene_bound, start_watchdog
from aslkb.base.root import describe
from aslkb.base.terminal import escape_controls
from aslkb.cli.completion import complete, completes, shell_code
from aslkb.parser import STDIN, QueryLineError, parse_asking, parse_file, parse_stdin
from aslkb.render.colour import WHEN, plain, styler
from aslkb.render.text import (chart_rows, distribution_text, odds_json, result_json, result_text,
                              value_text)

if TYPE_CHECKING:
    from aslkb.render.colour import Style

EXIT_OK, EXIT_FAILED, EXIT_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130


def main(argv: list[str] | None = None, ends_process: bool = False) -> int:
    """Run the command; `ends_process`: the process ends right after (entry())."""
    argv = sys.argv[1:] if argv is None else argv
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = _parser(command if command in (*_COMMANDS, *_MORE) else None)
    if "_ARGCOMPLETE" in os.environ:  # the shell asks for completions (kb/cli/completion.py)
        complete(parser)  # prints them and ends the process
    args = parser.parse_args(argv)
    if ends_process and args.run is _query and len(args.files) == 1:
        # one situation, a few controls, then os._exit; several files would hold every file's
        process_ends_after()
    watchdog = None
    if getattr(args, "timeout", None):  # --timeout: the whole command, grounding included
        watchdog = start_watchdog(args.timeout)
    try:
        if names := [*getattr(args, "interpretation", []), *getattr(args, "without", [])]:
            _refuse_unknown_interpretations(names)  # before any file is read: once, not once per file
        return args.run(args)
    except KeyboardInterrupt:  # in-process callers; the `aslkb` program ends in kb/base/interrupt.py
        print("aslkb: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `aslkb ... | head`: the reader has all it wants
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as error:  # every known failure is handled below; this is the last word
        if args.debug:
            raise
        return _report(error, _styler(args, sys.stderr))
    finally:
        if watchdog is not None:
            watchdog.cancel()


def entry() -> None:
    """The `aslkb` program (pyproject.toml's console script, and `python -m
    aslkb`): main(), its output flushed, then the process ends with its
    status at once. Python's teardown of the modules a run imported, and of clingo's
    objects, costs a cold query about 10 ms, and nothing is left to clean:
    files are closed where they are written, workers joined where they run."""
    # A run makes many objects that live to its end (the knowledge base's data,
    # a situation's facts and symbols) and few reference cycles: with the default
    # thresholds the collector walks those survivors again and again, measured
    # at a fifth of a 5,000-unit query's CPU. It still runs, rarely.
    gc.set_threshold(50_000, 20, 20)
    install()
    code = main(ends_process=True)
    if stopping():  # Ctrl-C's cleanup runs in another thread: it ends the process with 130
        wait_forever()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):  # a reader that has gone, a closed stream
            pass
    os._exit(code)


def _styler(args, stream) -> Style:
    """The colour of what the command writes to `stream` (--color, NO_COLOR: kb/render/colour.py)."""
    return styler(getattr(args, "color", "auto"), stream)


def _report(error: Exception, style: Style | None = None) -> int:
    """The message of a failure on stderr; its exit status."""
    print(_error_text(error, style), file=sys.stderr)
    return EXIT_INPUT


def _error_text(error: Exception, style: Style | None = None) -> str:
    """The message of a failure, its file names and quoted text escaped
    (kb/base/terminal.py) before aslkb's own colour is added."""
    style = style or plain
    if isinstance(error, SituationError):
        where = f"{error.filename}:{error.line}:{error.column}:"
        return style(escape_controls(where), "where") + escape_controls(str(error)[len(where):])  # and its notes
    if isinstance(error, (UnreadableFile, NotASnapshot)):
        return escape_controls(str(error))
    if isinstance(error, (UsageError, RuleFileError, WriteFailed)):
        return f"aslkb: {style('error:', 'error')} {escape_controls(str(error))}"
    if isinstance(error, InconsistentSituation):
        return escape_controls(error.report(getattr(error, "filename", None) or "aslkb"))
    if isinstance(error, OSError):  # the file's name when the error has one, never an empty ": "
        where = f"{error.filename}: " if error.filename else ""
        return f"aslkb: {style('error:', 'error')} {escape_controls(where + str(error.strerror or error))}"
    return (f"aslkb: {style('internal error:', 'error')} {escape_controls(f'{type(error).__name__}: {error}')} "
            "(rerun with --debug for details)")


def _refuse_unknown_interpretations(names: list[str]) -> None:
    refuse_unknown_interpretations(names, knowledge_base().interpretations)


def _query(args: argparse.Namespace) -> int:
    """Each FILE answered in turn (`-`: standard input). One file prints as it
    always has; several each under a `==> FILE <==` header, or with --json as
    one array of {"file": ..., ...} objects. A file that cannot be taken is
    reported where it comes and the others are still answered (as ruff does);
    the exit status is the worst of them: 2, else 1, else 0 (docs/cli.md)."""
    if args.files.count("-") > 1:
        raise UsageError("standard input (`-`) can be read only once; give `-` once")
    out, err = _styler(args, sys.stdout), _styler(args, sys.stderr)
    if len(args.files) == 1:  # its failure is main()'s to report
        return _print_answers(args, _answer_file(args.files[0], args, err), out)
    worst, found = EXIT_OK, []
    for number, path in enumerate(args.files):
        name = _shown_name(path)
        if not args.json:
            print(("\n" if number else "") + out(f"==> {escape_controls(name)} <==", "where"), flush=True)
        try:
            result = _answer_file(path, args, err)
        except (SituationError, UnreadableFile, InconsistentSituation, UsageError) as error:
            worst = max(worst, _report(error, err))
            found.append({"file": name, "error": _error_text(error)})
            continue
        if args.json:
            found.append({"file": name, **result_json(result)})
            worst = max(worst, EXIT_FAILED if result.failed else EXIT_OK)
        else:
            worst = max(worst, _print_answers(args, result, out))
        sys.stdout.flush()  # before the next file's messages on stderr
    if args.json:
        import json  # lazy: not on `aslkb query`'s path (its cold start)

        print(json.dumps(found, indent=2))
    return worst


def _shown_name(path: str) -> str:
    return STDIN if path == "-" else path


def _answer_file(path: str, args: argparse.Namespace, err: Style):
    """The answers to one file's queries and expectations."""
    situation = _read_situation(path)
    kb = knowledge_base()
    result = run(situation, settle(situation, kb, args.edition, tuple(args.interpretation), tuple(args.without)), kb)
    _warn_if_nothing_asked(situation, err)  # after the answers: an inconsistent file gets its error alone
    return result


def _print_answers(args: argparse.Namespace, result, out: Style) -> int:
    if args.json:
        import json  # only here: its import is not free

        print(json.dumps(result_json(result), indent=2))
    else:
        print(result_text(result, args.explain, out))
    return EXIT_FAILED if result.failed else EXIT_OK


def _read_situation(path: str):
    """The situation FILE names; `-` reads it from standard input."""
    return parse_stdin() if path == "-" else parse_file(path)


def _warn_if_nothing_asked(situation, err: Style) -> None:
    """An empty file, or one that asks nothing, answers nothing: say so on
    stderr. A warning, not an error (exit status 0): the file is valid, and an
    editor that runs aslkb on every save meets it while it is being written."""
    if situation.queries or situation.expects:
        return
    if not any(line.split("#", 1)[0].strip() for line in situation.text.splitlines()):
        what = "the situation is empty: it states nothing and asks nothing"
    else:
        what = "the situation asks nothing: it has no `query` or `expect` line"
    where = escape_controls(f"{situation.filename}:1:1:")
    print(f"{err(where, 'where')} {err('warning:', 'warning')} {what}; add e.g. "
          "`query base_nvr` (aslkb query --help; the queries are in queries/catalog.toml)", file=sys.stderr)


def _check(args: argparse.Namespace) -> int:
    from aslkb.tools.regress import run_check  # expect lines, golden snapshots, JUnit XML

    return run_check(args)


def _odds(args: argparse.Namespace) -> int:
    import json  # lazy: not on `aslkb query`'s path (its cold start)
    from fractions import Fraction  # lazy: not on `aslkb query`'s path (its cold start)

    situation, asked = _one_query(args.file, args.query)
    kb = knowledge_base()
    settings = settle(situation, kb, args.edition, tuple(args.interpretation), tuple(args.without))
    [answer] = run(asked, settings, kb).answers
    out = _styler(args, sys.stdout)
    if answer.distribution:
        chances = dict(answer.distribution)
    elif answer.value is not None:
        chances = {hashable_value(answer.value): Fraction(1)}
    else:  # no odds: what would decide it
        print(json.dumps(odds_json(answer), indent=2) if args.json else
              f"{out(f'{answer.query} =', 'answer')} {out('undecided', 'undecided')}: {'; '.join(answer.undecided)}")
        return EXIT_OK
    shown = chart_rows(chances)
    if args.json:
        print(json.dumps(odds_json(answer), indent=2))
    else:
        width = max(len(label) for label, _ in shown)
        print(out(answer.query, "answer"))
        for label, chance in shown:
            fraction = f"{chance.numerator}/{chance.denominator}"
            print(f"  {label:<{width}}  {fraction:>7}  {float(chance):6.1%}  {'#' * round(40 * chance)}")
        if answer.undecided:
            print(f"  {out('undecided', 'undecided')}: {'; '.join(answer.undecided)}")
        print(f"  rules: {', '.join(answer.rules)}")
    if args.plot:
        from aslkb.render.plot import write_chart  # lazy: not on `aslkb query`'s path (its cold start)

        try:
            write_chart(args.plot, answer.query, shown)
        except ValueError as error:
            raise UsageError(str(error)) from None
    return EXIT_OK


def _one_query(path: str, words: list[str]):
    """The file, and the file asking only the query written on the command line.

    The query is read as a `query` line of the file itself, so its ids resolve
    there; an error in it is reported as the command line's."""
    situation = _read_situation(path)  # its own errors point into the file
    written = " ".join(words)
    if "\n" in written or "\r" in written:  # it would add statements to the situation (the web API refuses it too)
        raise UsageError(f"query {written.splitlines()[0]!r}...: a query argument is one line; a line break "
                         "in it would add statements to the file")
    try:
        asked = parse_asking(situation.text, written, situation.filename)
    except QueryLineError as error:
        raise UsageError(f"query '{written}': {error}") from None
    return situation, asked


def _explain(args: argparse.Namespace) -> int:
    import json  # lazy: not on `aslkb query`'s path (its cold start)

    from aslkb.render.tree import dot, explanation_json, text_tree  # lazy: not on `aslkb query`'s path (its cold start)

    situation, asked = _one_query(args.file, args.query)
    kb = knowledge_base()
    settings = settle(situation, kb, args.edition, tuple(args.interpretation), tuple(args.without))
    answer, explanation = explain(asked, settings, kb, full=args.full)
    if answer.distribution:
        value = distribution_text(answer.distribution)
    elif answer.value is None:
        value = "undecided: " + "; ".join(answer.undecided)
    else:
        value = value_text(answer.value)
    if args.json:
        print(json.dumps(explanation_json(explanation), indent=2))
    else:
        print(text_tree(explanation, value))
    if args.dot:
        write_text(args.dot, dot(explanation, value))
    if args.svg:
        from aslkb.render.picture import explanation_svg  # drawn in Python: no Graphviz needed

        write_text(args.svg, explanation_svg(explanation, value, full=args.full,
                                             statements=situation.text.splitlines()))
    return EXIT_OK


def _lint(args: argparse.Namespace) -> int:
    from aslkb.cli.commands import run_lint  # citations (kb/tools/lint.py), then tables, exceptions, ids, cases

    return run_lint(args)


def _diff(args: argparse.Namespace) -> int:
    import json  # lazy: not on `aslkb query`'s path (its cold start)

    from aslkb.tools.diff import diff, diff_json, diff_text  # lazy: not on `aslkb query`'s path (its cold start)

    result = diff(parse_file(args.file), switch_on=tuple(args.interpretation), switch_off=tuple(args.without))
    print(json.dumps(diff_json(result), indent=2) if args.json else diff_text(result))
    return EXIT_FAILED if result.failed else EXIT_OK


def _diverge(args: argparse.Namespace) -> int:
    import json  # lazy: not on `aslkb query`'s path (its cold start)

    from aslkb.tools.diverge import group, search, search_json, summary_text, write_report, write_witnesses  # lazy: not on `aslkb query`'s path (its cold start)
    from aslkb.tools.guide import report_markdown  # lazy: not on `aslkb query`'s path (its cold start)

    constants = {name: value for name, value in
                 (("max_nvr", args.max_nvr), ("max_range", args.max_range), ("max_light", args.max_light))
                 if value is not None}
    from aslkb.base.progress import Progress  # lazy: not on `aslkb query`'s path (its cold start)

    on, off = tuple(args.interpretation), tuple(args.without)
    with Progress("diverge") as progress:
        result = search(constants, on, off, domain=args.domain, limit=args.limit, track=progress.over)
        findings = group(result, on, off, track=progress.over)
    if args.examples:
        write_witnesses(findings, args.examples)
    if args.report:
        command = "aslkb diverge" + (f" --examples {args.examples}" if args.examples else "") + f" --report {args.report}"
        write_report(args.report, report_markdown(result, findings, command, args.examples, args.report))
    print(json.dumps(search_json(result, findings), indent=2) if args.json else summary_text(result, findings))
    return EXIT_OK


def _serve(args: argparse.Namespace) -> int:
    if args.workers < 1 or not 0 <= args.port <= 65535:
        print("aslkb: error: --workers must be at least 1 and --port between 0 and 65535", file=sys.stderr)
        return EXIT_INPUT
    # said before the import: the server's modules take seconds to load on a cold, busy machine
    print(f"aslkb serve: starting {args.workers} worker{'s' if args.workers != 1 else ''}...", file=sys.stderr,
          flush=True)
    try:
        from aslkb.web.server import serve  # lazy: not on `aslkb query`'s path (its cold start)
    except ImportError as error:  # waitress comes with the `web` extra
        print(f"aslkb: error: `aslkb serve` needs the web extra ({error.name or error} is missing); "
              'install it with: pip install "aslkb[web]" (from a checkout: pip install ".[web]")', file=sys.stderr)
        return EXIT_INPUT
    serve(args.host, args.port, args.workers, args.solve_timeout)
    return EXIT_OK


def _lsp(args: argparse.Namespace) -> int:
    try:
        from aslkb.cli.lsp import serve  # lazy: not on `aslkb query`'s path (its cold start)
    except ImportError as error:  # pygls comes with the `editor` extra
        print(f"aslkb: error: `aslkb lsp` needs the editor extra ({error.name or error} is missing); "
              "install it with: pip install 'aslkb[editor]' (from a checkout: pip install '.[editor]')",
              file=sys.stderr)
        return EXIT_INPUT
    serve(args.solve_timeout)
    return EXIT_OK


def _completion(args: argparse.Namespace) -> int:
    print(shell_code(args.shell), end="")
    return EXIT_OK


def _argparse_classes():
    """argparse's parser and the --version action as aslkb's command line
    uses them, made only where argparse is imported."""
    class _Version(argparse.Action):
        """--version: the version and the copy of rules/ and queries/ read (kb/base/root.py),
        worked out only when asked."""

        def __call__(self, parser, namespace, values, option_string=None):
            print(f"aslkb {__version__}; {describe()}")
            parser.exit()

    class _Parser(argparse.ArgumentParser):
        """argparse's parser, its help as wide as the terminal without importing
        shutil for it (argparse makes a formatter for every option it adds: about
        2 ms of a cold run). Subcommands' parsers are of the same class."""

        def _get_formatter(self) -> argparse.HelpFormatter:
            return self.formatter_class(prog=self.prog, width=_terminal_width() - 2)

    return _Parser, _Version


def _terminal_width() -> int:
    """As shutil.get_terminal_size: $COLUMNS, else the terminal's, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns


_COMMANDS = ("query", "check", "odds", "explain", "diff", "diverge", "lint", "serve", "lsp", "completion")
_MORE = ("rules", "coverage", "impact", "invariants")  # kb/cli/commands.py


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line; with `only`, just that command's part (building every
    command's options costs a cold run a few ms)."""
    _Parser, _Version = _argparse_classes()

    def wanted(command: str) -> bool:
        return only is None or only == command

    parser = _Parser(
        prog="aslkb",
        description="Answer questions about Advanced Squad Leader / Squad Leader situations, citing the rules. "
                    "The rules and queries are read from the aslkb checkout the current folder is in, else from "
                    "the installed package (aslkb --version says which).",
        epilog="exit status: 0 done (every expectation held), 1 an expectation or a check failed, "
               "2 input that cannot be taken (a message names the file, line and column), "
               "130 interrupted (Ctrl-C), 143 terminated (SIGTERM)",
    )
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks for internal errors")
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="print the version and which copy of the knowledge base is read: the checkout "
                             "the current folder is in, else the installed one")
    parser.add_argument("--color", choices=WHEN, default="auto",
                        help="colour the output: auto (the default) on a terminal unless NO_COLOR is set, "
                             "always, or never (docs/cli.md)")
    parser.set_defaults(run=lambda _args: parser.print_help() or EXIT_INPUT, debug=False)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    def with_interpretations(command: argparse.ArgumentParser, which: str = "") -> None:
        completes(command.add_argument("--interpretation", action="append", default=[], metavar="NAME",
                                       help=f"switch on a named interpretation{which} (repeatable)"),
                  "interpretation")
        completes(command.add_argument("--without", action="append", default=[], metavar="NAME",
                                       help="switch off an interpretation that is on by default (repeatable)"),
                  "default_interpretation")

    def with_debug(command: argparse.ArgumentParser) -> None:  # --debug after the command, too
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)

    def with_timeout(command: argparse.ArgumentParser) -> None:  # every command that solves
        command.add_argument("--timeout", type=positive_seconds, metavar="SECONDS",
                             help="give up after SECONDS with a message (exit status 2); default: no limit")

    def with_rule_options(command: argparse.ArgumentParser) -> None:
        command.add_argument("--edition", choices=("asl", "sl4"),
                             help="answer under this edition (default: the file's `edition`, else asl)")
        with_interpretations(command)
        with_timeout(command)
        with_debug(command)

    def with_one_query(command: argparse.ArgumentParser) -> None:
        completes(command.add_argument("file", metavar="FILE",
                                       help="a situation file (.sit); - reads it from standard input"), "situation")
        completes(command.add_argument("query", nargs="+", metavar="QUERY",
                                       help="the query and its arguments, as after `query` in a file"), "query")

    if wanted("query"):
        query = commands.add_parser("query", help="answer the queries of situation files",
                                    description="Answer each `query` line of each FILE with the rules behind it, "
                                                "and check its `expect` lines. Several files are answered in "
                                                "turn, each under a `==> FILE <==` header; the exit status is "
                                                "the worst of them.")
        completes(query.add_argument("files", nargs="+", metavar="FILE",
                                     help="a situation file (.sit); - reads one from standard input"), "situation")
        query.add_argument("--json", action="store_true",
                           help="print one JSON object (with several files, an array of them, each with its "
                                "\"file\")")
        query.add_argument("--explain", action="store_true",
                           help="under each answer, the chain of rules behind it (aslkb explain shows the whole tree)")
        with_rule_options(query)
        query.set_defaults(run=_query)

    if wanted("check"):
        check = commands.add_parser("check", help="run the expect lines of situation files",
                                    description="Run the `expect` lines of every .sit file under the PATHs; "
                                                "exit 1 if one fails, 2 if a file cannot be read.")
        check.add_argument("paths", nargs="+", metavar="PATH", help="situation files or folders")
        check.add_argument("-v", "--verbose", action="store_true",
                           help="list every file checked, and cite the rules behind each failure")
        check.add_argument("--update", action="store_true",
                           help="write each file's answers to its golden snapshot FILE.sit.golden.json "
                                "(later runs report every difference)")
        check.add_argument("--junit-xml", metavar="OUT", help="also write the results as JUnit XML to OUT")
        check.add_argument("--json", action="store_true",
                           help="print one JSON object: every file, every expectation, the golden differences "
                                "and the totals (docs/regression.md)")
        from aslkb.tools.shard import shard_option  # lazy: not on `aslkb query`'s path (its cold start)

        check.add_argument("--shard", type=shard_option, metavar="K/N",
                           help="check only the K-th of N shards of the files (for N CI jobs; the same files on "
                                "every machine), e.g. --shard 2/4")
        with_rule_options(check)
        check.set_defaults(run=_check)

    if wanted("odds"):
        odds = commands.add_parser("odds", help="the exact odds of a query's answers when rolls are not given",
                                   description="Answer one QUERY about FILE (written as after `query`, e.g. "
                                               "`strays G1`) as exact odds over every face of the dice the file "
                                               "does not give; print them as a table.")
        with_one_query(odds)
        odds.add_argument("--plot", metavar="OUT", help="also draw a bar chart to OUT (.svg, or .png with matplotlib)")
        odds.add_argument("--json", action="store_true", help="print one JSON object")
        with_rule_options(odds)
        odds.set_defaults(run=_odds)

    if wanted("explain"):
        explain = commands.add_parser("explain", help="why (and why not) a query's answer",
                                      description="Explain one QUERY about FILE (written as after `query`): the "
                                                  "rules that gave the answer and what each used, down to the "
                                                  "file's own statements, the exceptions considered, and for "
                                                  "each rule that could have given another answer the "
                                                  "condition that failed.")
        with_one_query(explain)
        explain.add_argument("--json", action="store_true", help="print the explanation as nested JSON")
        explain.add_argument("--full", action="store_true",
                             help="every derivation and every vocabulary (DEF) step, not the compact tree; "
                                  "with --svg, every fact in the picture, not only the rules")
        explain.add_argument("--svg", metavar="OUT",
                             help="draw it as an SVG picture (no other program needed): the rules, exceptions "
                                  "and interpretations and the file's own statements, at most 1600 px wide")
        explain.add_argument("--dot", metavar="OUT",
                             help="also export the whole tree as a Graphviz DOT file (render it with `dot -Tsvg`)")
        with_rule_options(explain)
        explain.set_defaults(run=_explain)

    if wanted("diff"):
        diff = commands.add_parser("diff", help="the queries whose answers differ between ASL and SL 4th edition",
                                   description="Answer FILE's queries under both editions (asl and sl4) and print "
                                               "each query whose answer differs, with both values and both rule "
                                               "chains. Exit 1 if FILE's expect lines fail under its own edition.")
        diff.add_argument("file", metavar="FILE", help="a situation file (.sit)")
        diff.add_argument("--json", action="store_true", help="print one JSON object")
        with_interpretations(diff)
        with_timeout(diff)
        with_debug(diff)
        diff.set_defaults(run=_diff)

    if wanted("diverge"):
        diverge = commands.add_parser("diverge", help="search situations where ASL and SL 4th edition disagree",
                                      description="One answer-set search over both editions' rules together "
                                                  "(predicates renamed asl_/sl4_) and the situations of "
                                                  "rules/diverge/scenes/, each answer checked with `aslkb diff`: "
                                                  "every difference once (as rules/diverge/differences.toml words "
                                                  "it), with its smallest witness; then the questions only one "
                                                  "edition decides. Prints them and the search time; writes files "
                                                  "only where --examples and --report say.")
        diverge.add_argument("--max-nvr", type=scene_bound, metavar="N",
                             help=f"largest stated NVR (default 4, at most {MAX_SCENE_BOUND})")
        diverge.add_argument("--max-range", type=scene_bound, metavar="N",
                             help=f"largest range between the two units (default 4, at most {MAX_SCENE_BOUND})")
        diverge.add_argument("--max-light", type=scene_bound, metavar="N",
                             help=f"largest range from the Starshell/Blaze to either unit (default 4, at most "
                                  f"{MAX_SCENE_BOUND})")
        diverge.add_argument("--domain", metavar="FILE",
                             help="one domain program in place of the scenes of rules/diverge/scenes/ (same conventions)")
        diverge.add_argument("--limit", type=int, default=200, metavar="N",
                             help="stop after N search witnesses (default 200)")
        diverge.add_argument("--examples", metavar="DIR",
                             help="write each difference's witness to DIR/NN-NAME.sit, replacing the witnesses an "
                                  "earlier run wrote there (default: write nothing; the project keeps its own in "
                                  "examples/divergences)")
        diverge.add_argument("--report", metavar="OUT.md",
                             help="also write the report for humans to OUT.md (the project's is "
                                  "docs/sl4-vs-asl.md); the same rules give the same report")
        diverge.add_argument("--json", action="store_true", help="print one JSON object")
        with_interpretations(diverge, " for both editions")
        with_timeout(diverge)
        with_debug(diverge)
        diverge.set_defaults(run=_diverge)

    if wanted("lint"):
        lint = commands.add_parser("lint", help="check the knowledge base's own files",
                                   description="Check that every rule carries a citation, that interpretations "
                                               "are documented and that every query has a program; list the "
                                               "interpretations.")
        with_debug(lint)
        with_timeout(lint)
        from aslkb.cli.commands import add_lint_options  # lazy: not on `aslkb query`'s path (its cold start)

        add_lint_options(lint)
        lint.set_defaults(run=_lint)
    if wanted("serve"):
        serve = commands.add_parser("serve", help="the web playground: edit a situation, see cited answers",
                                    description="Serve the playground page and its JSON API (docs/playground.md) "
                                                "until Ctrl-C. Needs the web extra: pip install \".[web]\".")
        serve.add_argument("--host", default="127.0.0.1",
                           help="the address to listen on (default 127.0.0.1: this machine only)")
        serve.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0 picks a free one)")
        serve.add_argument("--workers", type=int, default=2, metavar="N",
                           help="worker processes that answer, each one request at a time (default 2)")
        serve.add_argument("--timeout", type=positive_seconds, default=20.0, metavar="SECONDS", dest="solve_timeout",
                           help="give up on one answer after SECONDS (default 20); the server goes on")
        with_debug(serve)
        serve.set_defaults(run=_serve)

    if wanted("lsp"):
        lsp = commands.add_parser("lsp", help="a language server for editors: diagnostics, completion, hover",
                                  description="Serve the Language Server Protocol on standard input and output "
                                              "until the editor ends the session: diagnostics as you type, "
                                              "completion, hover, inlay hints, code actions and go to "
                                              "definition for .sit files (docs/editor.md). Needs the editor "
                                              "extra: pip install 'aslkb[editor]'.")
        lsp.add_argument("--timeout", type=positive_seconds, default=20.0, metavar="SECONDS", dest="solve_timeout",
                         help="give up on the answers to one text of a document after SECONDS (default 20, as "
                              "the playground); a note at its line 1 says so")
        with_debug(lsp)
        lsp.set_defaults(run=_lsp)

    if wanted("completion"):
        completion = commands.add_parser("completion", help="print the shell code that completes aslkb's commands",
                                         description="Print the code that makes SHELL complete aslkb's commands, "
                                                     "options, files, query and interpretation names; for bash "
                                                     "add `eval \"$(aslkb completion bash)\"` to ~/.bashrc "
                                                     "(docs/cli.md: zsh and fish).")
        completion.add_argument("shell", choices=("bash", "zsh", "fish"), metavar="SHELL",
                                help="bash, zsh or fish")
        with_debug(completion)
        completion.set_defaults(run=_completion)

    if only is None or only in _MORE:
        from aslkb.cli.commands import add_commands  # lazy: not on `aslkb query`'s path (its cold start)

        add_commands(commands, with_rule_options, with_interpretations, with_timeout)  # rules, coverage, ...
    for command in commands.choices.values():  # --color after the command too, as --debug
        command.add_argument("--color", choices=WHEN, default=argparse.SUPPRESS,
                             help="colour the output: auto (the default: on a terminal, unless NO_COLOR is set), "
                                  "always or never")
    return parser


if __name__ == "__main__":
    sys.exit(main())
