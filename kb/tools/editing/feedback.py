"""What the editor shows unasked, from a text and its Analysis: diagnostics
(errors, conflicts, failing expectations, undecided answers as hints),
inlay hints (each query's answer at the end of its line) and code actions
(the "did you mean" fixes, the statements that would decide an answer)."""
from __future__ import annotations

import re
from typing import NamedTuple

from aslkb.parser import grammar

from .analysis import Analysis, LineAnswer, Located
from .source import WORD, first_asking_line, lines, statement_end, words

ERROR, WARNING, INFORMATION, HINT = "error", "warning", "information", "hint"


class Span(NamedTuple):
    """Part of one line: 0-based line, first character, one past the last."""

    line: int
    start: int
    end: int


class Related(NamedTuple):
    span: Span
    message: str


class Diagnostic(NamedTuple):
    span: Span
    severity: str  # error, warning, information or hint
    message: str
    related: tuple[Related, ...] = ()


class InlayHint(NamedTuple):
    line: int  # 0-based
    character: int  # where it is shown: after the statement
    label: str
    tooltip: str


class Edit(NamedTuple):
    span: Span  # replaced (an empty span inserts)
    text: str
    snippet: str  # the same text as a snippet, placeholders to fill in (${1:N}); "" when it has none


class Action(NamedTuple):
    title: str
    edits: tuple[Edit, ...]
    diagnostic: Diagnostic | None  # the diagnostic it fixes
    preferred: bool = False


# --- diagnostics --------------------------------------------------------------

def diagnostics(text: str, analysis: Analysis) -> list[Diagnostic]:
    """Every problem of the text, and each undecided answer as a hint naming what would decide it."""
    found: list[Diagnostic] = []
    if analysis.error is not None:
        found.append(Diagnostic(located_span(text, analysis.error), ERROR, analysis.error.message,
                                tuple(Related(located_span(text, n), n.message) for n in analysis.notes)))
        # each statement involved is underlined too, as a note (rust-analyzer shows related lines so)
        found += [Diagnostic(located_span(text, n), INFORMATION, n.message) for n in analysis.notes]
    if analysis.conflict:
        *others, last = analysis.conflict
        found.append(Diagnostic(located_span(text, last), ERROR, last.message,
                                tuple(Related(located_span(text, o), o.message) for o in others)))
        found += [Diagnostic(located_span(text, o), INFORMATION, o.message,
                             (Related(located_span(text, last), last.message),)) for o in others]
    for verdict in analysis.verdicts:
        if not verdict.passed:
            found.append(Diagnostic(statement_span(text, verdict.line, verdict.column), ERROR, verdict.message))
    for answer in analysis.answers:
        if answer.undecided:
            found.append(Diagnostic(statement_span(text, answer.line, answer.column), HINT, _undecided_text(answer)))
    if analysis.warning is not None:
        found.append(Diagnostic(located_span(text, analysis.warning), WARNING, analysis.warning.message))
    return found


def _undecided_text(answer: LineAnswer) -> str:
    if answer.decided:  # odds: the share no dice decide
        return f"{answer.query} = {answer.value}; undecided: {'; '.join(answer.undecided)}"
    return f"{answer.query} = undecided: {'; '.join(answer.undecided)}"


def located_span(text: str, where: Located) -> Span:
    """The word at a 1-based line and column (a place past the line's end: its end)."""
    found = lines(text)
    line = min(max(where.line - 1, 0), len(found) - 1)
    start = min(max(where.column - 1, 0), len(found[line].rstrip("\r")))
    match = WORD.match(found[line], start)
    return Span(line, start, match.end() if match else start)


def statement_span(text: str, line: int, column: int) -> Span:
    """From a 1-based line and column to the end of the line's statement."""
    start = located_span(text, Located(line, column, "")).start
    return Span(line - 1, start, max(start, statement_end(text, line - 1)))


# --- inlay hints --------------------------------------------------------------

def inlay_hints(text: str, analysis: Analysis) -> list[InlayHint]:
    """Each `query` line's answer after its statement: `= 4`, `= undecided`."""
    return [InlayHint(a.line - 1, statement_end(text, a.line - 1), f"= {a.value}", "\n".join(a.report))
            for a in analysis.answers]


# --- code actions -------------------------------------------------------------

# "(did you mean 'woods'?)", "did you mean 'base_nvr' or 'nvr'?", "did you mean unit R2?",
# "did you mean night_red or night_blue?": the parser's and settle()'s suggestions
_DID_YOU_MEAN = re.compile(r"did you mean (.+?)\?")
_PLACEHOLDER = re.compile(r"\b(?:[A-Z]+|N)\b(?![0-9])")  # N, HEX, M, PHASE: a word of capitals and no digit
_ON_THE_LINE = re.compile(r"(?P<words>.+) on the line of (?:unit|attack|move) (?P<id>\S+)")


def suggestions(message: str) -> list[str]:
    """The replacements a message suggests, best first."""
    found = _DID_YOU_MEAN.search(message)
    if found is None:
        return []
    return [choice.strip().strip("'").removeprefix("unit ").strip("'") for choice in found[1].split(" or ")]


def code_actions(text: str, analysis: Analysis, first_line: int, last_line: int) -> list[Action]:
    """The fixes for the lines first_line..last_line (0-based): replace a
    misspelt word with what the error suggests; add a statement that would
    decide an undecided answer, its placeholders left to fill in."""
    actions: list[Action] = []
    if analysis.error is not None and first_line <= analysis.error.line - 1 <= last_line:
        span = located_span(text, analysis.error)
        problem = Diagnostic(span, ERROR, analysis.error.message)
        for number, choice in enumerate(suggestions(analysis.error.message)):
            actions.append(Action(f"Replace '{_shown(text, span)}' with '{choice}'", (Edit(span, choice, ""),),
                                  problem, preferred=number == 0))
    undecided = [a for a in analysis.answers if a.undecided] + [
        v.answer for v in analysis.verdicts if not v.passed and v.answer.undecided]
    offered: set[str] = set()  # a statement once, though a query and an expect line both miss it
    for answer in undecided:
        if first_line <= answer.line - 1 <= last_line:
            problem = Diagnostic(statement_span(text, answer.line, answer.column), HINT, _undecided_text(answer))
            for statement in dict.fromkeys(s for hint in answer.hints for s in hint.statements):
                edit = adding(text, statement)
                if edit is not None and statement not in offered:
                    offered.add(statement)
                    actions.append(Action(f"Add the missing fact: {statement}", (edit,), problem))
    return actions


def _shown(text: str, span: Span) -> str:
    return lines(text)[span.line][span.start:span.end]


def adding(text: str, statement: str) -> Edit | None:
    """The edit that gives a hint's statement: a line of its own before the
    first query, or words at the end of the line it names (`broken on the
    line of unit G1`); None for a hint that is no statement of the language."""
    on_the_line = _ON_THE_LINE.fullmatch(statement)
    if on_the_line is not None:
        line = _defining_line(text, on_the_line["id"])
        if line is None:
            return None
        said = " " + on_the_line["words"]
        if said.startswith(" its strength"):  # `its strength (FP-range-morale)`: a value to write, not a word
            return None
        end = statement_end(text, line)
        return Edit(Span(line, end, end), said, _snippet(said))
    if statement.split(" ", 1)[0] not in grammar.keywords("statement"):
        return None
    line = first_asking_line(text)
    said = statement + "\n"
    if line >= len(lines(text)) or (line == len(lines(text)) - 1 and not lines(text)[line]):
        line = len(lines(text)) - 1
        said = ("" if text.endswith("\n") or not text else "\n") + said
        end = len(lines(text)[line])
        return Edit(Span(line, end, end), said, _snippet(said))
    return Edit(Span(line, 0, 0), said, _snippet(said))


def _defining_line(text: str, name: str) -> int | None:
    for number, line in enumerate(lines(text)):
        said = words(line, number)
        if len(said) >= 2 and said[1].text == name and said[0].text in ("unit", "attack", "move", "fortification"):
            return number
    return None


def _snippet(said: str) -> str:
    """The text with each placeholder a tab stop: `scenario nvr ${1:N}`; "" when it has none."""
    count = 0

    def stop(match: re.Match) -> str:
        nonlocal count
        count += 1
        return f"${{{count}:{match[0]}}}"

    escaped = said.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")
    snippet = _PLACEHOLDER.sub(stop, escaped)
    return snippet if count else ""
