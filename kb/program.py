"""The knowledge base as clingo will run it: every file transformed once.

Each rule file is parsed with clingo's AST, its statements numbered and
annotated with their citations, and the bookkeeping rules of kb/reify.py
added. The result (program text per file plus rule metadata) is cached on
disk, keyed by the files' sizes and modification times, so that a run only
pays for clingo reading text it has already checked.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import cache

from . import __version__
from .rulefiles import (
    Interpretation,
    citation_by_line,
    read_interpretation,
    relative,
    rule_files,
)


@dataclass(frozen=True)
class RuleInfo:
    """One statement of the knowledge base that can derive something."""

    number: int
    path: str  # as in the repository: rules/asl/E1/E1.7.lp
    line: int
    rule_id: str  # "E1.7", "SL 49.23", "DEF", or "query" for a query program
    exception: bool
    note: str
    part: str  # "common", an edition, "interpretations" or "queries"
    interpretation: str | None
    head: str  # predicate name/arity of the head, e.g. "drm/3"

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Piece:
    """One statement of a file as clingo runs it, with its bookkeeping rules."""

    text: str
    head: str  # the dependency key of what it derives (kb/reify.py), "" for a constraint
    needs: tuple[str, ...]  # the dependency keys of what its body reads
    rule: int | None  # its RuleInfo number


# Rules in rules/ that give answers themselves (e.g. "SL 49 not encoded").
_ANSWERING = {"answer/2", "undecided/2"}


@dataclass(frozen=True)
class Selection:
    """The program for one situation: what its queries can reach."""

    text: str
    rules: frozenset[int]


class RuleTable(Sequence):
    """kb.rules: a RuleInfo per rule number, made only when asked for."""

    def __init__(self, rows: list):
        self._rows = rows  # (path, line, rule_id, exception, note, part, interpretation, head)
        self._made: dict[int, RuleInfo] = {}

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, number):
        if isinstance(number, slice):
            return [self[n] for n in range(*number.indices(len(self)))]
        if number not in self._made:
            self._made[number] = RuleInfo(number, *self._rows[number])
        return self._made[number]

    def __eq__(self, other) -> bool:
        return isinstance(other, RuleTable) and self._rows == other._rows

    def row(self, number: int) -> tuple:
        return self._rows[number]


class PieceTable(Mapping):
    """kb.pieces: path -> its statements (Piece), made only when asked for."""

    def __init__(self, data: dict):
        self._data = data

    def __getitem__(self, path: str) -> list[Piece]:
        first, end = self._data["path_range"][path]
        return [self.piece(i) for i in range(first, end)]

    def __iter__(self):
        return iter(self._data["path_range"])

    def __len__(self) -> int:
        return len(self._data["path_range"])

    def __eq__(self, other) -> bool:
        return isinstance(other, PieceTable) and all(
            self._data[k] == other._data[k] for k in ("text", "path_range", "span", "head", "needs", "rule", "keys"))

    def piece(self, i: int) -> Piece:
        data, keys = self._data, self._data["keys"]
        rule = data["rule"][i]
        return Piece(self.text(i), keys[data["head"][i]] if data["head"][i] >= 0 else "",
                     tuple(keys[k] for k in data["needs"][i]), None if rule < 0 else rule)

    def text(self, i: int) -> str:
        span = self._data["span"]
        return self._data["text"][span[2 * i]:span[2 * i + 1]]


class KnowledgeBase:
    """The transformed rule files as plain data (one text, integer arrays),
    cheap to load from the disk cache; objects are made only where used."""

    def __init__(self, data: dict):
        self.data = data
        self.rules = RuleTable(data["rules"])
        self.pieces = PieceTable(data)
        self.parts: dict[str, list[str]] = data["parts"]
        self.interpretations = {name: Interpretation(**i) for name, i in data["interpretations"].items()}
        self.uncited: list[tuple[str, int]] = [tuple(u) for u in data["uncited"]]
        self._by_head: dict[str, list[int]] = {}
        self._indexes: dict[tuple, tuple] = {}

    def rules_deriving(self, signature: str) -> list[int]:
        """The numbers of the rules (not query programs) whose head is name/arity."""
        if not self._by_head:
            for number, row in enumerate(self.data["rules"]):
                if row[5] != "queries":
                    self._by_head.setdefault(row[7], []).append(number)
        return self._by_head.get(signature, [])

    def select(self, edition: str, interpretations: list[str], queries: list[str]) -> Selection:
        """The statements that the asked queries can depend on, and nothing else.

        Grounding only what a query reaches keeps a run proportional to the
        question, however many chapters the knowledge base grows by.
        """
        always, exact, by_predicate = self._index(edition, tuple(sorted(interpretations)))
        data, ranges = self.data, self.data["path_range"]
        chosen = list(always)
        for name in sorted(set(queries)):
            first, end = ranges.get(f"queries/{name}.lp", (0, 0))
            chosen.extend(range(first, end))
        chosen_set = set(chosen)
        wanted = [need for i in chosen for need in data["needs"][i]]
        seen: set[int] = set()
        while wanted:
            key = wanted.pop()
            if key in seen:
                continue
            seen.add(key)
            # a plain need ("unknown/2") reaches every rule for the predicate; a
            # refined one ("unknown/2|san/1") the rules for that refinement and
            # those whose head leaves it open
            predicate = data["predicate_of"][key]
            if predicate == key:
                reached = by_predicate.get(key, ())
            else:
                reached = exact.get(key, []) + exact.get(predicate, [])
            for i in reached:
                if i not in chosen_set:
                    chosen_set.add(i)
                    chosen.append(i)
                    wanted.extend(data["needs"][i])
        rules = data["rule"]
        return Selection("\n".join(self.pieces.text(i) for i in chosen),
                         frozenset(rules[i] for i in chosen if rules[i] >= 0))

    def _index(self, edition: str, interpretations: tuple[str, ...]):
        """For the files of an edition: the statements always loaded, and the
        others by the dependency key of their head (exact, and by predicate)."""
        if (edition, interpretations) not in self._indexes:
            data, keys = self.data, self.data["keys"]
            paths = [*self.parts["common"], *self.parts[edition]]
            paths += [self.interpretations[name].path for name in interpretations]
            always: list[int] = []
            exact: dict[int, list[int]] = {}
            by_predicate: dict[int, list[int]] = {}
            for path in paths:
                first, end = data["path_range"][path]
                for i in range(first, end):
                    head = data["head"][i]
                    if head < 0 or keys[data["predicate_of"][head]] in _ANSWERING:
                        always.append(i)  # constraints, and rules that answer directly
                    else:
                        exact.setdefault(head, []).append(i)
                        by_predicate.setdefault(data["predicate_of"][head], []).append(i)
            self._indexes[(edition, interpretations)] = (always, exact, by_predicate)
        return self._indexes[(edition, interpretations)]


def _signature(files: dict[str, list[str]]) -> str:
    """Changes when a rule file, or the code that transforms them, changes."""
    digest = hashlib.sha256(f"{__version__} {sys.version}".encode())  # marshal is per Python version
    here = os.path.dirname(__file__)
    code = [os.path.join(here, "program.py"), os.path.join(here, "reify.py")]
    for part, paths in {"code": code, **files}.items():
        for path in paths:
            stat = os.stat(path)
            digest.update(f"{part}\0{path}\0{stat.st_mtime_ns}\0{stat.st_size}\0".encode())
    return digest.hexdigest()[:24]


def _cache_dir() -> str:
    configured = os.environ.get("ASLKB_CACHE_DIR")
    if configured:
        return configured
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "aslkb")


@cache
def knowledge_base() -> KnowledgeBase:
    """The transformed knowledge base, from the disk cache when it is current.

    The cache is marshal data (plain lists, one text): loading it costs a few
    ms however large the knowledge base grows."""
    files = rule_files()
    cache_file = os.path.join(_cache_dir(), f"kb-{_signature(files)}.marshal")
    try:
        with open(cache_file, "rb") as handle:
            return KnowledgeBase(marshal.loads(handle.read()))  # load(file) is ~5x slower
    except (OSError, ValueError, EOFError, KeyError, TypeError):
        pass
    kb = build(files)
    _write_atomically(cache_file, marshal.dumps(kb.data))
    return kb


def build(files: dict[str, list[str]], root: str | os.PathLike | None = None) -> KnowledgeBase:
    """Transform every file (see kb/reify.py); raises RuleFileError on a bad file.

    `root` is the folder that holds rules/ and queries/ (default: installed).
    Two passes: the first reads every statement and its citation, so that the
    second knows which predicates exception (EXC) rules derive.
    """
    from clingo.ast import ASTType  # clingo.ast is needed only on a cache miss

    from .reify import body_keys, head_key, head_signature, parse_file, reify

    read: list[tuple[str, str, list]] = []  # (part, path, [(statement, info or None)])
    rules: list[RuleInfo] = []
    interpretations: dict[str, Interpretation] = {}
    uncited: list[tuple[str, int]] = []
    for part, paths in files.items():
        for path in paths:
            rel = relative(path, root)
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            stem = os.path.splitext(os.path.basename(path))[0]
            interpretation = stem if part == "interpretations" else None
            if interpretation:
                interpretations[interpretation] = read_interpretation(interpretation, rel, text)
            citations = citation_by_line(text)
            query_note = _first_comment(text) if part == "queries" else ""
            statements = []
            for statement in parse_file(text, rel):
                info = None
                if statement.ast_type == ASTType.Rule:
                    line = statement.location.begin.line
                    citation = citations[line - 1] if line - 1 < len(citations) else None
                    if part == "queries":
                        rule_id, exception, note = "query", False, query_note
                    elif citation is None:
                        uncited.append((rel, line))
                        rule_id, exception, note = "", False, ""
                    else:
                        rule_id, exception, note = citation.rule_id, citation.exception, citation.note
                    info = RuleInfo(len(rules), rel, line, rule_id, exception, note, part,
                                    interpretation, head_signature(statement))
                    rules.append(info)
                statements.append((statement, info))
            read.append((part, rel, statements))

    exception_heads = frozenset(rule.head for rule in rules if rule.exception and rule.head)
    texts: list[str] = []
    keys: dict[str, int] = {}  # dependency keys, interned

    def key(text: str) -> int:
        return keys.setdefault(text, len(keys))

    data: dict = {"path_range": {}, "span": [], "head": [], "needs": [], "rule": [],
                  "parts": {part: [] for part in files}}
    offset = 0
    for part, rel, statements in read:
        first = len(data["rule"])
        for statement, info in statements:
            if info is None:
                text, head, needs = str(statement), -1, ()
            else:
                text = "\n".join(str(s) for s in reify(statement, info.number, exception_heads))
                head = key(head_key(statement)) if head_key(statement) else -1
                needs = tuple(key(k) for k in sorted(body_keys(statement)))
            texts.append(text)
            data["span"] += [offset, offset + len(text)]
            offset += len(text) + 1
            data["head"].append(head)
            data["needs"].append(needs)
            data["rule"].append(info.number if info else -1)
        data["path_range"][rel] = (first, len(data["rule"]))
        data["parts"][part].append(rel)
    predicate_of: list[int] = []
    while len(predicate_of) < len(keys):  # interning a bare predicate may add a key
        predicate_of.append(key(list(keys)[len(predicate_of)].split("|")[0]))
    data.update(
        text="\n".join(texts),
        predicate_of=predicate_of,
        rules=[(r.path, r.line, r.rule_id, r.exception, r.note, r.part, r.interpretation, r.head) for r in rules],
        interpretations={name: asdict(i) for name, i in interpretations.items()},
        uncited=uncited,
    )
    data["keys"] = list(keys)
    return KnowledgeBase(data)


def _first_comment(text: str) -> str:
    """A query program's opening comment, joined into one line."""
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("%") or stripped.startswith(("%@", "%!")):
            break
        lines.append(stripped.lstrip("% ").strip())
    return " ".join(lines)


def _write_atomically(path: str, blob: bytes) -> None:
    """Write the cache; a read-only home or a race only costs a rebuild next time."""
    import tempfile  # only on a cache miss

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".kb-", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(blob)
        os.replace(tmp, path)
    except OSError:
        pass
