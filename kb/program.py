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
import tempfile
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

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
    head: str  # the predicate it derives (name/arity), "" for a constraint
    needs: tuple[str, ...]  # the predicates its body reads
    rule: int | None  # its RuleInfo number


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

    def select(self, edition: str, interpretations: list[str], queries: list[str]) -> Selection:
        """The statements that the asked queries can depend on, and nothing else.

        Grounding only what a query reaches keeps a run proportional to the
        question, however many chapters the knowledge base grows by.
        """
        paths = [*self.parts["common"], *self.parts[edition]]
        paths += [self.interpretations[name].path for name in sorted(interpretations)]
        candidates = [piece for path in paths for piece in self.pieces[path]]
        chosen = [piece for name in sorted(set(queries)) for piece in self.pieces.get(f"queries/{name}.lp", ())]
        by_head: dict[str, list[Piece]] = {}
        for piece in candidates:
            if piece.head:
                by_head.setdefault(piece.head, []).append(piece)
            else:
                chosen.append(piece)  # a constraint always applies
        wanted = [need for piece in chosen for need in piece.needs]
        seen: set[str] = set()
        while wanted:
            signature = wanted.pop()
            if signature in seen:
                continue
            seen.add(signature)
            for piece in by_head.get(signature, ()):
                chosen.append(piece)
                wanted.extend(piece.needs)
        return Selection("\n".join(piece.text for piece in chosen),
                         frozenset(piece.rule for piece in chosen if piece.rule is not None))


def _signature(files: dict[str, list[Path]]) -> str:
    """Changes when a rule file, or the code that transforms them, changes."""
    digest = hashlib.sha256(__version__.encode())
    here = Path(__file__).parent
    for part, paths in {"code": [here / "program.py", here / "reify.py"], **files}.items():
        for path in paths:
            stat = path.stat()
            digest.update(f"{part}\0{path}\0{stat.st_mtime_ns}\0{stat.st_size}\0".encode())
    return digest.hexdigest()[:24]


def _cache_dir() -> Path:
    configured = os.environ.get("ASLKB_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "aslkb"


@cache
def knowledge_base() -> KnowledgeBase:
    """The transformed knowledge base, from the disk cache when it is current."""
    files = rule_files()
    cache_file = _cache_dir() / f"kb-{_signature(files)}.json"
    try:
        return _from_json(json.loads(cache_file.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    kb = build(files)
    _write_atomically(cache_file, json.dumps(_to_json(kb)))
    return kb


def build(files: dict[str, list[Path]], root: Path | None = None) -> KnowledgeBase:
    """Transform every file (see kb/reify.py); raises RuleFileError on a bad file.

    `root` is the folder that holds rules/ and queries/ (default: installed).
    Two passes: the first reads every statement and its citation, so that the
    second knows which predicates exception (EXC) rules derive.
    """
    from clingo.ast import ASTType  # clingo.ast is needed only on a cache miss

    from .reify import body_signatures, head_signature, parse_file, reify

    read: list[tuple[str, str, list]] = []  # (part, path, [(statement, info or None)])
    rules: list[RuleInfo] = []
    interpretations: dict[str, Interpretation] = {}
    uncited: list[tuple[str, int]] = []
    for part, paths in files.items():
        for path in paths:
            rel = relative(path, root)
            text = path.read_text(encoding="utf-8")
            interpretation = path.stem if part == "interpretations" else None
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
                head, needs = info.head, tuple(sorted(body_signatures(statement)))
            pieces[rel].append(Piece(text, head, needs, info.number if info else None))
        parts[part].append(rel)
    return KnowledgeBase(rules, pieces, parts, interpretations, uncited)


def _first_comment(text: str) -> str:
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("%") and not stripped.startswith(("%@", "%!")):
            return stripped.lstrip("% ").strip()
        if stripped and not stripped.startswith("%"):
            break
    return ""


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


def _write_atomically(path: Path, text: str) -> None:
    """Write the cache; a read-only home or a race only costs a rebuild next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".kb-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError:
        pass
