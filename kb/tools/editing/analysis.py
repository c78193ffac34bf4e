"""What one version of a situation's text says, as plain data: its first
error, or the statements that conflict, or each query's answer and each
expectation's verdict. This is the part of the editing help that solves
(and may take long); the rest (kb/tools/editing/) reads it with the text.

An Analysis holds only strings, numbers and tuples, so that it crosses a
process boundary: the language server (kb/cli/lsp.py) makes it in a worker
process that is ended when it runs past its time (kb/web/workers.py), as
the playground does.
"""
from __future__ import annotations

from typing import NamedTuple

from aslkb.api import knowledge_base, run, settle
from aslkb.base.errors import InconsistentSituation, SituationError, UsageError
from aslkb.parser import parse
from aslkb.render.text import answer_text, distribution_text, expectation_text, value_text


class Located(NamedTuple):
    """A message at a place of the text; line and column 1-based, as the parser's."""

    line: int
    column: int
    message: str


class Hint(NamedTuple):
    """What would decide an undecided answer (kb/engine/hints.py): `add: ...`, `one of: ...`, `roll: ...`."""

    kind: str  # statement, one_of or roll
    text: str
    statements: tuple[str, ...]


class LineAnswer(NamedTuple):
    """The answer to the query of one `query` or `expect` line."""

    line: int  # the query name's line and column (1-based)
    column: int
    query: str  # as written: "drm A1 night_lv"
    value: str  # "1", "yes", "undecided", or the odds
    decided: bool
    report: tuple[str, ...]  # as `aslkb query` prints it: the answer, its rules and exceptions
    rules: tuple[str, ...]
    undecided: tuple[str, ...]  # the reasons, each hint's text among them
    hints: tuple[Hint, ...]


class Verdict(NamedTuple):
    """One `expect` line: held or not, and the answer it was held against."""

    line: int  # the word `expect`
    column: int
    passed: bool
    message: str  # as `aslkb query` says it: `expect Q = X, got Y [rules]`
    answer: LineAnswer


class Analysis(NamedTuple):
    error: Located | None = None  # input the tool cannot take (parse, interpretations, usage)
    notes: tuple[Located, ...] = ()  # the other statements the error involves
    conflict: tuple[Located, ...] = ()  # an inconsistent situation: each statement, the message at the last
    answers: tuple[LineAnswer, ...] = ()  # the `query` lines, in file order
    verdicts: tuple[Verdict, ...] = ()  # the `expect` lines, in file order
    warning: Located | None = None  # a file that asks nothing
    edition: str = ""
    interpretations: tuple[str, ...] = ()


def analyse(text: str, filename: str = "situation") -> Analysis:
    """Parse and answer the text as `aslkb query` would; every failure the input can cause is in the result."""
    try:
        situation = parse(text, filename)
        kb = knowledge_base()
        settings = settle(situation, kb)
    except SituationError as error:
        return _located_error(error)
    except UsageError as error:
        return Analysis(error=Located(1, 1, str(error)))
    return answered(situation, settings, kb)


def answered(situation, settings, kb) -> Analysis:
    """The Analysis of a parsed situation under settings already settled (the
    playground's edition and switches, kb/web/service.py): its answers and
    verdicts, or why there are none."""
    try:
        result = run(situation, settings, kb)
    except SituationError as error:
        return _located_error(error)
    except InconsistentSituation as error:
        return Analysis(conflict=_conflict(error))
    except UsageError as error:  # too many missing rolls for odds, and the like: the whole file's
        return Analysis(error=Located(1, 1, str(error)))
    answers = tuple(_line_answer(query.line, query.column, answer)
                    for query, answer in zip(situation.queries, result.answers))
    verdicts = tuple(Verdict(c.expect.line, c.expect.column, c.passed, expectation_text(c),
                             _line_answer(c.expect.query.line, c.expect.query.column, c.answer))
                     for c in result.checked)
    return Analysis(answers=answers, verdicts=verdicts, warning=_nothing_asked(situation),
                    edition=settings.edition, interpretations=settings.interpretations)


def _located_error(error: SituationError) -> Analysis:
    return Analysis(error=Located(error.line, error.column, error.message),
                    notes=tuple(Located(*note) for note in error.notes))


def work(job: tuple[str, str]) -> Analysis:
    """A worker's job (kb/web/workers.py): (text, filename) -> its Analysis."""
    text, filename = job
    return analyse(text, filename)


def warm() -> None:
    """Load the knowledge base before the first job needs it."""
    knowledge_base()


def _conflict(error: InconsistentSituation) -> tuple[Located, ...]:
    """Each conflicting statement, the whole message at the last (as the command line reports it)."""
    if not error.located:
        return (Located(1, 1, f"inconsistent situation: {error}"),)
    *others, (line, column, _) = error.located
    return (*(Located(n, c, f"in conflict with it: {said}") for n, c, said in others),
            Located(line, column, f"inconsistent situation: {error}"))


def _line_answer(line: int, column: int, answer) -> LineAnswer:
    if answer.distribution:
        value = distribution_text(answer.distribution)
    else:
        value = value_text(answer.value)
    return LineAnswer(line, column, answer.query, value, answer.value is not None or bool(answer.distribution),
                      tuple(answer_text(answer)), tuple(answer.rules), tuple(answer.undecided),
                      tuple(Hint(h.kind, h.text, tuple(h.statements)) for h in answer.hints))


def _nothing_asked(situation) -> Located | None:
    """The command line's warning for a file that asks nothing (kb/cli/main.py), for one that states something."""
    if situation.queries or situation.expects or not situation.facts[1:]:
        return None
    return Located(1, 1, "the situation asks nothing: it has no `query` or `expect` line; add e.g. "
                         "`query base_nvr` (the queries are in queries/catalog.toml)")
