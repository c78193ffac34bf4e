"""The knowledge base as clingo will run it: every file transformed once.

Each rule file is parsed with clingo's AST, its statements numbered and
annotated with their citations, and the bookkeeping rules of kb/reify.py
added. The result (program text per file plus rule metadata) is cached on
disk, keyed by the files' sizes and modification times, so that a run only
pays for clingo reading text it has already checked.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, field
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


@dataclass
class KnowledgeBase:
    rules: list[RuleInfo]
    pieces: dict[str, list[Piece]]  # path -> its statements, in file order
    parts: dict[str, list[str]]  # part -> paths, in load order
    interpretations: dict[str, Interpretation]
    uncited: list[tuple[str, int]]  # statements of rules/ without a citation
    _by_head: dict[str, list[int]] = field(default_factory=dict, repr=False)

    def rules_deriving(self, signature: str) -> list[int]:
        """The numbers of the rules (not query programs) whose head is name/arity."""
        if not self._by_head:
            for rule in self.rules:
                if rule.part != "queries":
                    self._by_head.setdefault(rule.head, []).append(rule.number)
        return self._by_head.get(signature, [])

    def select(self, edition: str, interpretations: list[str], queries: list[str]) -> Selection:
        """The statements that the asked queries can depend on, and nothing else.

        Grounding only what a query reaches keeps a run proportional to the
        question, however many chapters the knowledge base grows by.
        """
        paths = [*self.parts["common"], *self.parts[edition]]
        paths += [self.interpretations[name].path for name in sorted(interpretations)]
        chosen = [piece for name in sorted(set(queries)) for piece in self.pieces.get(f"queries/{name}.lp", ())]
        exact: dict[str, list[Piece]] = {}  # "unknown/2|san/1" -> pieces deriving exactly that
        by_predicate: dict[str, list[Piece]] = {}  # "unknown/2" -> every piece deriving it
        for piece in (piece for path in paths for piece in self.pieces[path]):
            predicate = piece.head.split("|")[0]
            if not piece.head or predicate in _ANSWERING:
                chosen.append(piece)  # constraints, and rules that answer directly
            else:
                exact.setdefault(piece.head, []).append(piece)
                by_predicate.setdefault(predicate, []).append(piece)
        chosen_set = set(chosen)
        wanted = [need for piece in chosen for need in piece.needs]
        seen: set[str] = set()
        while wanted:
            key = wanted.pop()
            if key in seen:
                continue
            seen.add(key)
            predicate, refined, _ = key.partition("|")
            # a refined need reaches the rules for that refinement and those
            # whose head leaves it open; a plain need reaches them all
            reached = exact.get(key, []) + exact.get(predicate, []) if refined else by_predicate.get(key, [])
            for piece in reached:
                if piece not in chosen_set:
                    chosen_set.add(piece)
                    chosen.append(piece)
                    wanted.extend(piece.needs)
        return Selection("\n".join(piece.text for piece in chosen),
                         frozenset(piece.rule for piece in chosen if piece.rule is not None))


def _signature(files: dict[str, list[str]]) -> str:
    """Changes when a rule file, or the code that transforms them, changes."""
    digest = hashlib.sha256(__version__.encode())
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
    """The transformed knowledge base, from the disk cache when it is current."""
    files = rule_files()
    cache_file = os.path.join(_cache_dir(), f"kb-{_signature(files)}.json")
    try:
        with open(cache_file, encoding="utf-8") as handle:
            return _from_json(json.load(handle))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    kb = build(files)
    _write_atomically(cache_file, json.dumps(_to_json(kb)))
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
    pieces: dict[str, list[Piece]] = {}
    parts: dict[str, list[str]] = {part: [] for part in files}
    for part, rel, statements in read:
        pieces[rel] = []
        for statement, info in statements:
            if info is None:
                text, head, needs = str(statement), "", ()
            else:
                text = "\n".join(str(s) for s in reify(statement, info.number, exception_heads))
                head, needs = head_key(statement), tuple(sorted(body_keys(statement)))
            pieces[rel].append(Piece(text, head, needs, info.number if info else None))
        parts[part].append(rel)
    return KnowledgeBase(rules, pieces, parts, interpretations, uncited)


def _first_comment(text: str) -> str:
    """A query program's opening comment, joined into one line."""
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("%") or stripped.startswith(("%@", "%!")):
            break
        lines.append(stripped.lstrip("% ").strip())
    return " ".join(lines)


def _to_json(kb: KnowledgeBase) -> dict:
    return {
        "rules": [asdict(rule) for rule in kb.rules],
        "pieces": {path: [asdict(piece) for piece in pieces] for path, pieces in kb.pieces.items()},
        "parts": kb.parts,
        "interpretations": {name: asdict(i) for name, i in kb.interpretations.items()},
        "uncited": kb.uncited,
    }


def _from_json(data: dict) -> KnowledgeBase:
    return KnowledgeBase(
        rules=[RuleInfo(**rule) for rule in data["rules"]],
        pieces={path: [Piece(p["text"], p["head"], tuple(p["needs"]), p["rule"]) for p in pieces]
                for path, pieces in data["pieces"].items()},
        parts=data["parts"],
        interpretations={n: Interpretation(**i) for n, i in data["interpretations"].items()},
        uncited=[tuple(u) for u in data["uncited"]],
    )


def _write_atomically(path: str, text: str) -> None:
    """Write the cache; a read-only home or a race only costs a rebuild next time."""
    import tempfile  # only on a cache miss

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".kb-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError:
        pass
