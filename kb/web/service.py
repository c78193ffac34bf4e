"""One API request answered with the project's own functions: the JSON of
`aslkb query --json`, `explain --json`, `odds --json` and `diff --json`, and
the editor's completion and hover from kb/tools/editing/, the module the
language server (`aslkb lsp`) answers from too.

Runs inside a worker process (workers.py): a request is a plain dict, the
reply is (HTTP status, JSON-able body). Every failure a request can cause
becomes a 4xx reply here; a situation error carries its line and column.

A situation over the playground's size limits (MAX_STATEMENTS, MAX_UNITS,
MAX_FIRERS) is refused with 413 after it is parsed and before anything is
grounded, so that no request holds a worker for long: the shipped examples
and cases need at most 80 statements, 29 units and 4 firers in one attack.
A hover solves the text as /api/answer does, so the same limits hold for it;
a completion solves nothing (it reads the text line by line: at most 0.15 s
for a body of the largest size, 256 KB), so the text need not parse.
"""
from __future__ import annotations

from aslkb.base.errors import InconsistentSituation, SituationError, UsageError

from aslkb import api
from aslkb.api import knowledge_base, run, settle
from aslkb.parser import QueryLineError, parse, parse_asking
from aslkb.render.text import odds_json, result_json
from aslkb.render.tree import explanation_json
from aslkb.tools.diff import diff as diff_editions, diff_json
from aslkb.tools import editing
from aslkb.tools.editing.source import lines

FILENAME = "situation"  # the name errors give the text: situation:LINE:COLUMN
EDITIONS = (None, "asl", "sl4")
MAX_STATEMENTS = 2000  # lines holding a statement; 25 times what the largest shipped case has
MAX_UNITS = 500  # 17 times the most units of a shipped case
MAX_FIRERS = 12  # firers in one attack (a Fire Group), 3 times the most of a shipped case


class BadRequest(Exception):
    """A request the API cannot take (400), with the field at fault."""


class TooLarge(SituationError):
    """A situation over the playground's size limits (413), located at its
    first statement past the limit."""


def handle(job: tuple[str, dict]) -> tuple[int, dict]:
    """Answer one request: (kind, request) -> (status, body)."""
    kind, request = job
    try:
        return 200, _KINDS[kind](request)
    except TooLarge as error:
        return 413, _located(error)
    except SituationError as error:
        return 400, _located(error)
    except (BadRequest, UsageError) as error:
        return 400, {"error": str(error)}
    except InconsistentSituation as error:  # with the lines that conflict, when they are known
        return 422, {"error": f"inconsistent situation: {error}",
                     "lines": [number for number, _ in getattr(error, "lines", [])]}


def _located(error: SituationError) -> dict:
    return {"error": error.message, "line": error.line, "column": error.column, "where": str(error)}


def warm() -> None:
    """Load the knowledge base before the first request needs it."""
    knowledge_base()


def answer(request: dict) -> dict:
    """`aslkb query --json`."""
    situation, settings, kb = _settled(request)
    return result_json(run(situation, settings, kb))


def explain(request: dict) -> dict:
    """`aslkb explain --json TEXT QUERY`."""
    situation, settings, kb = _settled(request)
    asked = _one_query(request)
    _, explanation = api.explain(asked, settings, kb, full=bool(request.get("full")))
    return explanation_json(explanation)


def odds(request: dict) -> dict:
    """`aslkb odds --json TEXT QUERY`: the exact odds of the query's values
    over the faces of every roll the text does not give."""
    _, settings, kb = _settled(request)
    [found] = run(_one_query(request), settings, kb).answers
    return odds_json(found)


def diff(request: dict) -> dict:
    """`aslkb diff --json`, and each edition's whole answer (`query --json`)
    for the page's side-by-side view."""
    situation = _situation(request)
    on, off = _names(request, "interpretation"), _names(request, "without")
    result = diff_editions(situation, knowledge_base(), on, off)
    return {**diff_json(result),
            "results": {edition: result_json(r) for edition, r in result.results.items()}}


def complete(request: dict) -> dict:
    """What may be written at the request's line and column: the language
    server's completions, and the column where the word they replace starts."""
    text, line, character = _position(request)
    start = editing.word_start(text, line, character)
    return {"line": line + 1, "column": start + 1,
            "completions": [c._asdict() for c in editing.completions(text, line, character)]}


def hover(request: dict) -> dict:
    """The language server's hover at the request's line and column, as
    Markdown (null: nothing to say), with the answers of the edition and
    interpretations the request names. A text that does not parse (being
    written) is not answered, and its rule ids and ids still have their hover."""
    text, line, character = _position(request)
    try:
        situation, settings, kb = _settled(request)
    except TooLarge:
        raise
    except SituationError:
        found = None
    else:
        found = editing.answered(situation, settings, kb)
    return {"markdown": editing.hover(text, line, character, found)}


def _position(request: dict) -> tuple[str, int, int]:
    """The request's text, and its `line` and `column` (1-based, as an error
    reply's; a column counts characters) as the editing module's 0-based line
    and character; BadRequest where they are not a place in the text."""
    text = request.get("text")
    if not isinstance(text, str):
        raise BadRequest("'text' must be the situation's text (a string)")
    every = lines(text)
    line = _whole_number(request, "line", 1, len(every), "a line of the text")
    column = _whole_number(request, "column", 1, len(every[line - 1]) + 1, f"a column of line {line}")
    return text, line - 1, column - 1


def _whole_number(request: dict, field: str, low: int, high: int, what: str) -> int:
    value = request.get(field)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(f"'{field}' must be {what}: a whole number from {low} to {high:,}")
    return value


def interpretations(_request: dict) -> dict:
    """Every named interpretation: its rule, default and reason (the lint's list)."""
    known = knowledge_base().interpretations
    return {"interpretations": [
        {"name": name, "rule": i.rule, "default": i.default, "reason": i.reason, "excludes": list(i.excludes)}
        for name, i in sorted(known.items())]}


def _situation(request: dict):
    text = request.get("text")
    if not isinstance(text, str):
        raise BadRequest("'text' must be the situation's text (a string)")
    situation = parse(text, FILENAME)
    refuse_too_large(situation)
    return situation


def refuse_too_large(situation) -> None:
    """TooLarge at the first statement past one of the playground's limits."""
    lines = sorted({f.line for f in situation.facts if f.line} | {q.line for q in situation.queries}
                   | {e.line for e in situation.expects} | {i.line for i in situation.interpretations})
    if len(lines) > MAX_STATEMENTS:
        raise TooLarge(FILENAME, lines[MAX_STATEMENTS], 1, f"statement {MAX_STATEMENTS + 1:,}: the playground "
                       f"answers at most {MAX_STATEMENTS:,} statements (aslkb query on your own machine has no such "
                       "limit)")
    units = [f for f in situation.facts if f.name == "unit"]
    if len(units) > MAX_UNITS:
        unit = units[MAX_UNITS]
        raise TooLarge(FILENAME, unit.line, unit.column, f"unit {MAX_UNITS + 1:,}: the playground answers at most "
                       f"{MAX_UNITS:,} units (aslkb query on your own machine has no such limit)")
    firers: dict[str, list] = {}
    for fact in situation.facts:
        if fact.name == "attack_by":
            firers.setdefault(fact.args[0].string, []).append(fact)
    for attack, found in firers.items():
        if len(found) > MAX_FIRERS:
            firer = found[MAX_FIRERS]
            raise TooLarge(FILENAME, firer.line, firer.column,
                           f"firer {MAX_FIRERS + 1} of attack {attack}: the playground answers at most "
                           f"{MAX_FIRERS} firers in one attack (aslkb query on your own machine has no such limit)")


def _settled(request: dict):
    """The situation and its settings; the request's own fields are checked before its text."""
    edition = request.get("edition")
    if edition not in EDITIONS:
        raise BadRequest("'edition' must be \"asl\", \"sl4\" or null (the situation's own)")
    switch_on, switch_off = _names(request, "interpretation"), _names(request, "without")
    situation = _situation(request)
    kb = knowledge_base()
    settings = settle(situation, kb, edition, switch_on, switch_off)
    return situation, settings, kb


def _names(request: dict, field: str) -> tuple[str, ...]:
    names = request.get(field, [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise BadRequest(f"'{field}' must be a list of interpretation names")
    return tuple(names)


def _one_query(request: dict):
    """The situation asking only the request's `query` (as after `query` in a
    file, e.g. "drm A1 night_lv"), read as a line of the text itself so that
    its ids resolve there; as `aslkb explain FILE QUERY` does."""
    written = request.get("query")
    if not isinstance(written, str) or not written.strip() or "\n" in written:
        raise BadRequest("'query' must be one query, as after `query` in a file (e.g. \"base_nvr\")")
    try:
        return parse_asking(request["text"], written, FILENAME)
    except QueryLineError as error:
        raise BadRequest(f"query '{written}': {error}") from None


_KINDS = {"answer": answer, "explain": explain, "odds": odds, "diff": diff, "interpretations": interpretations,
          "complete": complete, "hover": hover}
