"""The annotations of a rule file, read in one place.

A rule file is plain ASP; what it says about itself is in comments:

- `%@ E1.7 note`, `%@ E1.7 EXC: note`, `%@ SL 49.23 note`, `%@ DEF note`:
  the citation of the statements after it, up to the next blank line or the
  next `%@` line; other comments do not interrupt it (docs/design.md §2);
- `%! key value`: header lines, e.g. an interpretation's `rule`, `default`,
  `reason` and `excludes` (§4), an invariant's `invariant`, `rule`, `says`
  and `edition`, and the declarations of rules/common/unknowns.lp,
  `%! open move/3 add: move M {1} to HEX` and `%! closed hex/2: reason` (§3),
  `%! alternatives unit_attr/2: lax normal stealthy` and `%! symmetric los/3`
  (how an answer asks for an open fact, kb/engine/hints.py);
- `%! status E1.41 not encoded: reason`, `%! status E1.8 EX encoded`: a
  paragraph's (or its EX's) coverage status, standing in the file whose path
  is the paragraph's id or a parent's, under the paragraph's heading (§2);
  the coverage matrix reads it (`Annotations.status_notes`);
- `%table nvr_modifier/3 key 1,2 covers none,scattered * none,half`: a dice
  table the lint checks for gaps and doubles (kb/tools/lintchecks.py);
- a query program's opening comment: its note.

They are read from the comments of clingo's AST (`from_comments`): the parse
that gives a file's statements gives each comment with its line, so a
statement is tied to the `%@` above it by its own line (`citation_at`).
kb/knowledge/program.py reads each file of the knowledge base once and keeps
its Annotations in the knowledge base's disk cache
(`KnowledgeBase.annotations(path)`); a file outside it (rules/invariants/) is
read with `read_file`. Nothing else in aslkb reads these comments.
"""
# Annotations are evaluated, not strings (no `from __future__ import annotations`):
# typing.NamedTuple compiles each string annotation, which every cold run paid.

import re
from collections.abc import Iterable
from typing import NamedTuple

from aslkb.knowledge.headers import Alternatives, Declaration, Interpretation  # what a run reads of the headers

# The patterns are strings, compiled by `re` (and cached) when first used: a
# run that loads the knowledge base from its cache uses one of them at most.
# A citation: "%@ E1.7 note", "%@ E1.7 EXC: note", "%@ SL 49.23 note", "%@ DEF note".
_CITATION = (r"^%@\s*(?P<id>SL\s+\d+(?:\.\d+)*|[A-Z]\d+(?:\.\d+)*|DEF)"
             r"(?P<exc>\s+EXC\b)?\s*:?\s*(?P<note>.*)$")
_RULE_ID = r"^(SL \d+(\.\d+)*|[A-Z]\d+(\.\d+)*)$"
_HEADER = r"^%!\s*(?P<key>[a-z]+)\s*(?P<value>.*)$"
# the value of `%! open move/3 add: TEMPLATE`, `%! open scenario/2 one add: ...`, `%! closed hex/2: reason`
_DECLARATION = r"^(?P<signature>\w+/\d+)\s*(?P<one>one\s+)?(?:add:\s*(?P<add>.*?)|:\s*(?P<reason>.*?))\s*$"
# the value of `%! alternatives los/3 los_hindrance/3: clear blocked`, `%! alternatives hex/2`,
# `%! symmetric los/3 range/3`
_SIGNATURES = r"^(?P<signatures>\w+/\d+(?:\s+\w+/\d+)*)\s*(?::\s*(?P<values>.*?))?\s*$"
_TABLE = (r"^%table\s+(?P<pred>[a-z_][A-Za-z0-9_]*)/(?P<arity>\d+)\s+key\s+(?P<key>\d+(?:\s*,\s*\d+)*)"
          r"\s+covers\s+(?P<covers>.+?)\s*$")
# the value of `%! status E1.41 not encoded: reason` and `%! status E1.8 EX encoded`
_STATUS = (r"^(?P<id>SL\s+\d+(?:\.\d+)+|[A-Z]\d+(?:\.\d+)+)(?P<ex>\s+EX\b)?\s+"
           r"(?P<status>partly encoded|not encoded|out of scope|encoded|interpretation|undecided|noted)"
           r"(?:\s*:\s*(?P<reason>.*?))?\s*$")
STATUSES = ("encoded", "partly encoded", "interpretation", "undecided", "out of scope", "not encoded", "noted")
_RANGE = r"(-?\d+)\s*\.\.\s*(-?\d+)"
_NUMBER = r"-?\d+"


def is_rule_id(text: str) -> bool:
    """A rule paragraph's id: E1.7, A12.122, SL 49.23 (not DEF)."""
    return re.match(_RULE_ID, text) is not None


class Citation(NamedTuple):
    rule_id: str  # "E1.7", "SL 49.23", "DEF", or "?" when the line names no rule id
    exception: bool
    note: str
    line: int  # the line of the %@ comment
    last: int  # the last line it covers (before the next blank line or %@ line)


class Header(NamedTuple):
    key: str  # `%! rule E1.11` -> "rule"
    value: str  # -> "E1.11"
    line: int


class Table(NamedTuple):
    predicate: str
    arity: int
    keys: tuple[int, ...]  # the arguments (1-based) that pick a row
    domains: tuple[tuple[object, ...], ...]  # the values each key argument takes
    line: int


class StatusNote(NamedTuple):
    rule_id: str  # "E1.41", "SL 49.22"; the whole value when the line is malformed
    example: bool  # the note of the paragraph's EX (`%! status E1.8 EX encoded`)
    status: str  # one of STATUSES; "" when the line does not read `ID [EX] STATUS[: reason]`
    reason: str
    line: int


class Annotations(NamedTuple):
    citations: tuple[Citation, ...] = ()
    headers: tuple[Header, ...] = ()
    tables: tuple[Table, ...] = ()
    opening: str = ""  # the opening comment's lines joined (a query program's note)

    def citation_at(self, line: int) -> Citation | None:
        """The citation in force on a line: a statement's, by the line it starts on."""
        for citation in self.citations:
            if citation.line <= line <= citation.last:
                return citation
            if citation.line > line:
                break
        return None

    def header(self, key: str, default: str = "") -> str:
        """The `%! key` line's value (the last one's, if the key is repeated)."""
        return next((h.value for h in reversed(self.headers) if h.key == key), default)

    def values(self, key: str) -> list[str]:
        """Every `%! key` line's value, in file order."""
        return [h.value for h in self.headers if h.key == key]

    @property
    def declarations(self) -> tuple[Declaration, ...]:
        """The `%! open` and `%! closed` lines (rules/common/unknowns.lp)."""
        found = []
        for h in self.headers:
            if h.key in ("open", "closed") and (m := re.match(_DECLARATION, h.value)):
                text = m["add"] if h.key == "open" else m["reason"] or ""
                found.append(Declaration(h.key, m["signature"], text, bool(m["one"])))
        return tuple(found)

    @property
    def alternatives(self) -> tuple[Alternatives, ...]:
        """The `%! alternatives` lines (rules/common/unknowns.lp)."""
        return tuple(Alternatives(tuple(m["signatures"].split()), tuple((m["values"] or "").split()))
                     for h in self.headers if h.key == "alternatives" and (m := re.match(_SIGNATURES, h.value)))

    @property
    def symmetric(self) -> tuple[str, ...]:
        """The signatures of the `%! symmetric` lines: stated once, either way round."""
        return tuple(signature for h in self.headers
                     if h.key == "symmetric" and (m := re.match(_SIGNATURES, h.value))
                     for signature in m["signatures"].split())

    @property
    def status_notes(self) -> tuple[StatusNote, ...]:
        """The `%! status` lines: each paragraph's coverage note, where it stands."""
        found = []
        for h in self.headers:
            if h.key != "status":
                continue
            if m := re.match(_STATUS, h.value):
                found.append(StatusNote(re.sub(r"\s+", " ", m["id"]), bool(m["ex"]), m["status"],
                                        m["reason"] or "", h.line))
            else:
                found.append(StatusNote(h.value, False, "", "", h.line))
        return tuple(found)

    def interpretation(self, name: str, path: str) -> Interpretation:
        """An interpretation file's header (docs/design.md §4)."""
        return Interpretation(name, path, rule=self.header("rule"), default=self.header("default") == "on",
                              reason=" ".join(self.values("reason")),
                              excludes=[n for v in self.values("excludes") for n in v.split()])

    def data(self) -> tuple:
        """Plain tuples, for the disk cache (marshal)."""
        return (tuple(tuple(c) for c in self.citations), tuple(tuple(h) for h in self.headers),
                tuple(tuple(t) for t in self.tables), self.opening)

    @classmethod
    def from_data(cls, data: tuple) -> "Annotations":
        citations, headers, tables, opening = data
        return cls(tuple(Citation(*c) for c in citations), tuple(Header(*h) for h in headers),
                   tuple(Table(*t) for t in tables), opening)


def from_comments(text: str, comments: Iterable) -> Annotations:
    """The annotations of a file: its text, and the comments (clingo AST
    Comment nodes) that clingo's parse of it gave. A comment counts when it
    stands first on its line; one after a statement on the same line is a
    remark, not an annotation."""
    lines = text.splitlines()
    leading = []  # (line, value) of the comments that start their line
    for comment in comments:
        begin = comment.location.begin
        source = lines[begin.line - 1] if begin.line <= len(lines) else ""
        if begin.column - 1 == len(source) - len(source.lstrip()):
            leading.append((begin.line, comment.value.strip()))
    cited_lines = {number for number, value in leading if value.startswith("%@")}
    citations, headers, tables = [], [], []
    for number, value in leading:
        if value.startswith("%@"):
            last = number
            while last < len(lines) and lines[last].strip() and last + 1 not in cited_lines:
                last += 1
            match = re.match(_CITATION, value)
            citations.append(Citation(match["id"], bool(match["exc"]), match["note"].strip(), number, last)
                             if match else Citation("?", False, value[2:].strip(), number, last))
        elif match := re.match(_HEADER, value):
            headers.append(Header(match["key"], match["value"].strip(), number))
        elif match := re.match(_TABLE, value):
            tables.append(Table(match["pred"], int(match["arity"]), tuple(int(k) for k in match["key"].split(",")),
                                tuple(_domain(d) for d in match["covers"].split("*")), number))
    return Annotations(tuple(citations), tuple(headers), tuple(tables), _opening(leading))


def _opening(leading: list[tuple[int, str]]) -> str:
    """The comment lines the file opens with, up to the first annotation or other line."""
    found = []
    for expected, (number, value) in enumerate(leading, start=1):
        if number != expected or value.startswith(("%@", "%!")):
            break
        found.append(value.lstrip("% ").strip())
    return " ".join(found)


def _domain(text: str) -> tuple[object, ...]:
    """`1..7` -> (1, ..., 7); `none,half,full` -> ("none", "half", "full")."""
    text = text.strip()
    if m := re.fullmatch(_RANGE, text):
        return tuple(range(int(m[1]), int(m[2]) + 1))
    return tuple(int(v) if re.fullmatch(_NUMBER, v) else v for v in (w.strip() for w in text.split(",")) if v)


def read_text(text: str, path: str = "<string>") -> Annotations:
    """The annotations of a program text, parsed with clingo (RuleFileError
    naming `path` on a syntax error, an #include or a #script)."""
    from clingo.ast import ASTType  # clingo's AST is loaded only when a text is read

    from aslkb.knowledge.reify import parse_program  # lazy: clingo.ast, about 3 ms to import, only where this runs

    comments: list = []
    parse_program(text, path, lambda s: comments.append(s) if s.ast_type == ASTType.Comment else None)
    return from_comments(text, comments)


def read_file(path: str, shown: str | None = None) -> Annotations:
    """The annotations of a file outside the knowledge base (e.g. rules/invariants/)."""
    with open(path, encoding="utf-8") as handle:
        return read_text(handle.read(), shown or path)
