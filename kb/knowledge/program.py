"""The knowledge base as clingo will run it: every file transformed once.

Each rule file is parsed with clingo's AST, its statements numbered and
annotated with their citations, and the bookkeeping rules of kb/knowledge/reify.py
added. The result (program text per file plus rule metadata) is cached on
disk, keyed by the files' sizes and modification times, so that a run only
pays for clingo reading text it has already checked.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from aslkb import __version__
from aslkb.base import diskcache
from aslkb.base.diskcache import fingerprint
from aslkb.knowledge.demand import RECORDS_DEMAND
from aslkb.knowledge.headers import Alternatives, Declaration, Interpretation
from aslkb.knowledge.patterns import QUERY, fact_patterns, holds_directive, symbol_pattern
from aslkb.knowledge.rulefiles import relative, rule_files
from aslkb.knowledge.selection import can_fire, compile_statement, reached, rule_index, unify_args

if TYPE_CHECKING:
    from clingo import Symbol

    from aslkb.knowledge.annotations import Annotations


class RuleInfo(NamedTuple):
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


class Piece(NamedTuple):
    """One statement of a file as clingo runs it, with its bookkeeping rules."""

    text: str
    head: str  # name/arity of what it derives, "" for a constraint
    needs: tuple[str, ...]  # name/arity of what its body reads
    rule: int | None  # its RuleInfo number



class Selection(NamedTuple):
    """The program for one situation: what its queries can reach."""

    text: str  # with every record (`aslkb explain` reads them all)
    rules: frozenset[int]  # the rules the queries reach (a why-not names those that did not fire)
    statements: tuple[int, ...]  # the pieces in the text, in file order
    cited: str  # with only the records a demand can reach (KnowledgeBase._selection): ask.py's

    @property
    def plain(self) -> str:
        """The text without the bookkeeping (kb/knowledge/reify.py): values, no citations."""
        return "\n".join(line for line in self.cited.split("\n") if not line.startswith(BOOKKEEPING))


# The heads of the bookkeeping statements kb/knowledge/reify.py adds (one line each).
BOOKKEEPING = ("_why(", "_blocked(", "_looks(", "_agg(", "_excluded(")


class RuleTable(Sequence):
    """kb.rules: a RuleInfo per rule number, made only when asked for."""

    def __init__(self, rows: list):
        self._rows = rows  # RuleInfo's fields after its number, as plain tuples (the disk cache)
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
            self._data[k] == other._data[k] for k in ("text", "path_range", "span", "heads", "body", "rule"))

    def piece(self, i: int) -> Piece:
        data = self._data
        rule, heads = data["rule"][i], data["heads"][i]
        return Piece(self.text(i), heads[0][0] if heads else "",
                     tuple(sorted({name for name, _, _ in data["body"][i]})), None if rule < 0 else rule)

    def text(self, i: int) -> str:
        begin, end = self._data["span"][i]
        return self._data["text"][begin:end].decode()


class KnowledgeBase:
    """The transformed rule files as plain data (one UTF-8 text, integer arrays),
    cheap to load from the disk cache; objects are made only where used.
    The rules deriving each predicate, and each rule's statement, are stored
    with it (rules_deriving and head_can_be)."""

    def __init__(self, data: dict, signature: str = ""):
        self.data = data
        self.signature = signature  # of the files it was made from (files_signature), when it came from them
        self.rules = RuleTable(data["rules"])
        self.pieces = PieceTable(data)
        self.parts: dict[str, list[str]] = data["parts"]
        self.interpretations = {name: Interpretation(**i) for name, i in data["interpretations"].items()}
        self.uncited: list[tuple[str, int]] = [tuple(u) for u in data["uncited"]]
        self._by_head: dict[str, list[int]] = {}
        self._masks: dict[tuple, bytearray] = {}
        self._reached: dict[tuple, tuple] = {}  # select()'s memos
        self._alive: dict[tuple, tuple] = {}
        self._undemanded_of: dict[tuple, frozenset[int]] = {}
        self._annotations: dict[str, Annotations] = {}

    def annotations(self, path: str) -> Annotations:
        """A file's annotations (kb/knowledge/annotations.py), as read when the
        knowledge base was built: path as in the repository, rules/asl/E1/E1.7.lp."""
        if path not in self._annotations:
            from aslkb.knowledge.annotations import Annotations  # a query reads none: see declarations()

            if "annotations" not in self.data:  # kept in a cache file of their own (knowledge_base())
                self.data["annotations"] = _stored_annotations(self.signature)
            self._annotations[path] = Annotations.from_data(self.data["annotations"][path])
        return self._annotations[path]

    def declarations(self, path: str) -> tuple[Declaration, ...]:
        """A file's `%! open` and `%! closed` declarations (its annotations'
        `declarations`), read when the knowledge base was built: a run needs
        these alone of the annotations (kb/knowledge/declarations.py)."""
        return tuple(Declaration(*d) for d in self.data["declarations"].get(path, ()))

    def alternatives(self, path: str) -> tuple[Alternatives, ...]:
        """A file's `%! alternatives` lines, read when the knowledge base was built."""
        return tuple(Alternatives(*a) for a in self.data["alternatives"].get(path, ()))

    def symmetric(self, path: str) -> tuple[str, ...]:
        """The signatures of a file's `%! symmetric` lines, read when the knowledge base was built."""
        return tuple(self.data["symmetric"].get(path, ()))

    def rules_deriving(self, signature: str) -> list[int]:
        """The numbers of the rules (not query programs) whose head is name/arity."""
        if signature not in self._by_head:
            self._by_head[signature] = self.data["deriving"].get(signature, [])
        return self._by_head[signature]

    def head_can_be(self, number: int, signature: str, pattern: tuple) -> bool:
        """Can rule `number`'s head be an atom name/arity with these argument
        patterns (its constants and functors; numbers and strings unchecked)?"""
        i = self.data["statement_of"][number]
        return any(name == signature and unify_args(args, pattern, [None] * self.data["slots"][i])
                   for name, args in self.data["heads"][i])

    def forget_selections(self) -> None:
        """Empty select()'s memos (benchmarks/bench.py: a question asked anew)."""
        self._reached.clear()
        self._alive.clear()
        self._undemanded_of.clear()

    def select(self, edition: str, interpretations: list[str], queries: Sequence[Symbol | str],
               facts: Iterable[Symbol] | None = None) -> Selection:
        """The statements that the asked queries can depend on, and nothing else.

        `queries` are the query terms asked (`drm("A1", night_lv)`), or query
        names where any term of the name may be asked. A rule is reached by
        what a reached body reads, argument by argument: asking for the Night
        LV DRM reaches `drm(A, night_lv, V)` and `drm(A, K, V)` (with K bound
        to night_lv in what its body reads), not `drm(A, dust, V)`; a rule
        with a `query(T)` condition no asked query meets is never reached.
        Grounding only what a question reaches keeps a run proportional to
        the question, however many chapters the knowledge base grows by.

        Given the situation's `facts`, the rules that cannot fire are left out
        too: a rule one of whose positive conditions no fact, and no rule that
        can fire, gives (an attack's rules in a situation without attacks).
        kb/knowledge/selection.py does both passes.
        """
        data = self.data
        asked: dict[str, dict] = {}  # query name -> the patterns asked ("" for any), each once
        for query in queries:
            if isinstance(query, str):
                asked.setdefault(query, {})[""] = None
            else:
                asked.setdefault(query.name, {})[symbol_pattern(query)] = None
        interpretations = tuple(sorted(interpretations))
        # memos keyed by exactly what each pass reads, in the order it reads it (in
        # this process only: a cold run stays cold): diverge's many situations ask
        # the same queries, often of facts of the same shapes
        key = (edition, interpretations, tuple((name, tuple(patterns)) for name, patterns in asked.items()))
        if key not in self._reached:
            starts = [i for name in sorted(asked) for i in range(*data["path_range"].get(f"queries/{name}.lp", (0, 0)))]
            chosen = reached(data, self._in_force(edition, interpretations), asked, starts)
            rules = data["rule"]
            considered = frozenset(rules[i] for i in chosen if rules[i] >= 0)  # why-not names these
            _remember(self._reached, key, (tuple(chosen), considered))
        chosen, considered = self._reached[key]
        if facts is not None and not any(data["opaque"][i] for i in chosen):
            patterns = fact_patterns(facts)
            key = (key, tuple(patterns))
            if key not in self._alive:
                alive = can_fire(chosen, patterns, data["heads"], data["body"], data["slots"], data["head_slots"])
                _remember(self._alive, key, tuple(i for i in chosen if i in alive))
            chosen = self._alive[key]
        return self._selection(sorted(chosen), considered)  # file order: a selection reads like the rule files

    def whole(self, edition: str, interpretations: list[str]) -> Selection:
        """Every statement of the edition, the interpretations in force and
        the query programs, unselected: what select() must answer alike
        (tests/test_seam.py holds it to that over the shipped cases)."""
        paths = [*self.parts["common"], *self.parts[edition],
                 *(self.interpretations[name].path for name in sorted(interpretations)), *self.parts["queries"]]
        chosen = sorted(i for path in paths for i in range(*self.data["path_range"][path]))
        rules = self.data["rule"]
        return self._selection(chosen, frozenset(rules[i] for i in chosen if rules[i] >= 0))

    def _selection(self, chosen: list[int], considered: frozenset[int]) -> Selection:
        """These statements' program with every record, and with the records
        a citing model can show: a record whose head no demand reaches is
        never shown, and costs the grounder about what its rule does."""
        text, spans, records = self.data["text"], self.data["span"], self.data["records"]
        whole = [text[spans[i][0]:spans[i][1]] for i in chosen]
        cited, undemanded = whole.copy(), self._undemanded(chosen)
        for k, i in enumerate(chosen):
            if i in undemanded:  # the rule's line and its `_blocked` records, not the records between
                (begin, end), (rule_end, blocked) = spans[i], records[i]
                cited[k] = text[begin:rule_end] + text[blocked:end]
        return Selection(b"\n".join(whole).decode(), considered, tuple(chosen), b"\n".join(cited).decode())

    def records(self, selection: Selection) -> str:
        """A selection's records as a part grounded after its values, for the
        asked cone alone (kb/knowledge/targeted.py): made only for a situation
        that takes that path (kb/answers/ask.py citing_program). A statement
        no demand reaches keeps its `_blocked` records, as in `cited`."""
        chosen = list(selection.statements)
        targeted, undemanded = self.data["targeted"], self._undemanded(chosen)
        records = b"\n".join(part for i in chosen if targeted[i] is not None
                              for part in (targeted[i][1:] if i in undemanded else targeted[i]) if part)
        return records.decode() + RECORDS_DEMAND

    def _undemanded(self, chosen: list[int]) -> frozenset[int]:
        """The statements among these whose head the demand of a citing program
        (kb/knowledge/demand.py) never reaches, so that no record of theirs
        is shown: it starts at answer/2 and undecided/2 and the exception
        atoms of every `_blocked` record, and follows what a demanded
        record used, counted or looked for (reify.demand_follows), not what
        it needed absent."""
        key = tuple(chosen)
        if key not in self._undemanded_of:
            data = self.data
            follows_of, always_of, rules = data["follows"], data["always"], data["rule"]
            follows: dict[str, list[tuple]] = {}
            reached = {"answer/2", "undecided/2"}
            for i in chosen:
                if follows_of[i] is not None:  # a statement with records
                    follows.setdefault(self.rules[rules[i]].head, []).append(follows_of[i])
                    reached.update(always_of[i])
            reached = _closure(reached, lambda name: (n for names in follows.get(name, ()) for n in names))
            _remember(self._undemanded_of, key, frozenset(
                i for i in chosen if follows_of[i] is not None and self.rules[rules[i]].head not in reached))
        return self._undemanded_of[key]

    def _in_force(self, edition: str, interpretations: tuple[str, ...]) -> bytearray:
        """1 for each statement of the edition and the interpretations in force."""
        key = (edition, interpretations)
        if key not in self._masks:
            mask = bytearray(len(self.data["rule"]))
            paths = [*self.parts["common"], *self.parts[edition],
                     *(self.interpretations[name].path for name in interpretations)]
            for path in paths:
                first, end = self.data["path_range"][path]
                mask[first:end] = b"\x01" * (end - first)
            self._masks[key] = mask
        return self._masks[key]


def _explained_heads(statements: list, body_patterns) -> set[str]:
    """The predicates (name/arity) an answer's derivation can reach: answer/2
    and undecided/2, and whatever a rule deriving one of them reads, under
    `not` and in aggregates too (an explanation walks those back)."""
    by_head: dict[str, list] = {}
    for statement, info in statements:
        if info.head:
            by_head.setdefault(info.head, []).append(statement)
    return _closure({"answer/2", "undecided/2"},
                    lambda head: (name for statement in by_head.get(head, []) for name, _, _ in body_patterns(statement)))


def _closure(start: set[str], successors) -> set[str]:
    """The predicates reached from `start` through `successors(name)`."""
    reached, waiting = set(start), list(start)
    while waiting:
        for name in successors(waiting.pop()):
            if name not in reached:
                reached.add(name)
                waiting.append(name)
    return reached


_MEMO = 64  # selections a memo keeps (the newest)


def _remember(memo: dict, key, value) -> None:
    if len(memo) >= _MEMO:
        del memo[next(iter(memo))]
    memo[key] = value


def _with_unknowns(heads: list) -> list:
    """The heads, and what kb/engine/solve.py's unknowns may give from them: for a
    roll a rule needs (`roll_needed(N, S, R)`) the `roll(N, S, Die, Face)`
    of its dice, for a fact declared open (`open(move(...))`,
    rules/common/unknowns.lp) the fact itself. A rule reading a roll or the
    fact reaches the rule that may make it true."""
    return heads + [("roll/4", (args[0], args[1], "", "")) for name, args in heads if name == "roll_needed/3"] \
        + [(f"{args[0][0]}/{len(args[0][1])}", args[0][1]) for name, args in heads
           if name == "open/1" and isinstance(args[0], tuple)]


def files_signature(files: dict[str, list[str]]) -> str:
    """Changes when a rule file, or the code that transforms them, changes.

    A digest of the files' names, sizes and modification times."""
    here = os.path.dirname(__file__)
    code = [os.path.join(here, name)
            for name in ("program.py", "selection.py", "reify.py", "targeted.py", "demand.py", "patterns.py",
                         "annotations.py", "headers.py", "asking.py")]
    listing = [f"{__version__} {sys.version}"]  # marshal is per Python version
    for part, paths in {"code": code, **files}.items():
        for path in paths:
            stat = os.stat(path)
            listing.append(f"{part}\0{path}\0{stat.st_mtime_ns}\0{stat.st_size}")
    data = "\n".join(listing).encode()
    return f"{fingerprint(data)}{len(listing):x}"


@cache
def knowledge_base() -> KnowledgeBase:
    """The transformed knowledge base, from the disk cache when it is current.

    The cache is marshal data (plain lists, one text): loading it costs a few
    ms however large the knowledge base grows."""
    files = rule_files()
    signature = files_signature(files)
    data = diskcache.load("kb", signature)
    # its program text, the rules and the records part, joined (one search of
    # the bytes is quicker than one a part, and than decoding them first)
    if isinstance(data, dict) and holds_directive([b"\n".join(
            [data["text"], *(part for parts in data.get("targeted", ()) if parts for part in parts)])]):
        # a forged entry made with this user's key (a synced or shared home): its
        # program text is checked again as the rule files were (about 0.6 ms)
        diskcache.warn(f"the cached knowledge base {signature} holds an #include or #script: it is "
                       "rebuilt from the rule files")
        data = None
    if not isinstance(data, dict):
        data = build(files).data
        _store(signature, data)
    return KnowledgeBase(data, signature)


def _store(signature: str, data: dict) -> None:
    """The knowledge base in the cache, its files' annotations in a file of
    their own ("notes"): only the authors' checks read them (lint, coverage),
    and a query no longer unmarshals and digests them (about 0.4 ms)."""
    diskcache.store("kb", signature, {key: value for key, value in data.items() if key != "annotations"})
    diskcache.store("notes", signature, data["annotations"])


def _stored_annotations(signature: str) -> dict:
    """The annotations stored beside the knowledge base of this signature;
    if that file is gone, the knowledge base built again (and both stored)."""
    notes = diskcache.load("notes", signature)
    if not isinstance(notes, dict):
        files = rule_files()
        data = build(files).data
        _store(files_signature(files), data)
        notes = data["annotations"]
    return notes


def build(files: dict[str, list[str]], root: str | os.PathLike | None = None) -> KnowledgeBase:
    """Transform every file (see kb/knowledge/reify.py); raises RuleFileError on a bad file.

    `root` is the folder that holds rules/ and queries/ (default: installed).
    Two passes: the first reads every statement and its citation, so that the
    second knows which predicates exception (EXC) rules derive.
    """
    # lazy: clingo.ast and the transformation are needed only on a cache miss (about 3 ms to import)
    from clingo.ast import ASTType

    from aslkb.knowledge.annotations import from_comments
    from aslkb.knowledge.asking import bound_by_question
    from aslkb.knowledge.reify import (body_patterns, demand_follows, head_patterns, head_signature, opaque_head,
                                       parse_file, reify)
    from aslkb.knowledge.targeted import recorded_heads, targeted

    read: list[tuple[str, str, list]] = []  # (part, path, [(statement, info or None)])
    rules: list[RuleInfo] = []
    interpretations: dict[str, Interpretation] = {}
    annotations: dict[str, Annotations] = {}
    uncited: list[tuple[str, int]] = []
    for part, paths in files.items():
        for path in paths:
            rel = relative(path, root)
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            comments: list = []
            parsed = parse_file(text, rel, comments)
            notes = annotations[rel] = from_comments(text, comments)
            stem = os.path.splitext(os.path.basename(path))[0]
            interpretation = stem if part == "interpretations" else None
            if interpretation:
                interpretations[interpretation] = notes.interpretation(interpretation, rel)
            statements = []
            for statement in parsed:
                info = None
                if statement.ast_type == ASTType.Rule:
                    if part != "queries":  # a query program states its own `query(Q)`
                        statement = bound_by_question(statement)
                    line = statement.location.begin.line
                    citation = notes.citation_at(line)
                    if part == "queries":
                        rule_id, exception, note = "query", False, notes.opening
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
    explained = _explained_heads([(statement, info) for _, _, statements in read for statement, info in statements
                                  if info is not None], body_patterns)
    texts: list[bytes] = []  # each statement's text, UTF-8
    spans: list[tuple[int, int]] = []  # where each begins and ends in their text
    shared: dict = {}  # equal patterns as one object: marshal writes it once, and reads it once
    data: dict = {"path_range": {}, "heads": [], "body": [], "slots": [], "head_slots": [], "opaque": [],
                  "rule": [], "parts": {part: [] for part in files}, "follows": [], "always": [],
                  "asking": {}}
    # where a statement's rule ends and its `_blocked` records begin (statements with records only)
    records: list[tuple[int, int] | None] = []
    reified: dict[int, list] = {}  # statement number -> its rule and records (the records part's source)
    offset = 0
    for part, rel, statements in read:
        first = len(data["rule"])
        for statement, info in statements:
            records.append(None)
            data["follows"].append(None)
            data["always"].append(None)
            if info is None:
                text, heads, body, slots, in_head = str(statement), [], [], 0, 0
            elif info.head not in explained:
                # a rule no answer's derivation can reach (an `open(...)` declaration and
                # what only it reads, a roll_needed) is cited by nothing: no records
                text = str(statement)
            else:
                reified[len(records) - 1] = list(reify(statement, info.number, exception_heads))
                lines = [str(s) for s in reified[len(records) - 1]]
                text = "\n".join(lines)
                # where no demand reaches its head, a citing program keeps the rule and
                # its `_blocked` records, the last lines (KnowledgeBase._selection)
                kept = [str(s) for s in reify(statement, info.number, exception_heads, demanded=False)]
                tail = len(lines) - len(kept) + 1
                assert lines[0] == kept[0] and lines[tail:] == kept[1:], "reify's `_blocked` records come last"
                follows, always = demand_follows(statement, exception_heads)
                records[-1] = (offset + len(lines[0].encode()), offset + len("\n".join(lines[:tail]).encode()))
                data["follows"][-1] = _shared(tuple(sorted(follows)), shared)
                data["always"][-1] = _shared(tuple(sorted(always)), shared)
            if info is not None:
                heads, body, slots, in_head = compile_statement(_with_unknowns(head_patterns(statement)),
                                                                body_patterns(statement))
            texts.append(text.encode())
            spans.append((offset, offset + len(texts[-1])))
            offset += len(texts[-1]) + 1
            data["heads"].append([_shared(h, shared) for h in heads])
            data["body"].append([_shared(b, shared) for b in body])
            if any(kind == QUERY for _, _, kind in body):  # the `query(T)` conditions (selection.reached)
                data["asking"][len(data["rule"])] = tuple(_shared(args[0], shared) for _, args, kind in body
                                                          if kind == QUERY)
            data["slots"].append(slots)
            data["head_slots"].append(in_head)
            data["opaque"].append(statement.ast_type == ASTType.Rule and opaque_head(statement))
            data["rule"].append(info.number if info else -1)
        data["path_range"][rel] = (first, len(data["rule"]))
        data["parts"][part].append(rel)
    data.update(
        # bytes: marshal reads them at once (a text with a few non-ASCII characters it decodes whole)
        text=b"\n".join(texts),
        span=spans,
        rules=[(r.path, r.line, r.rule_id, r.exception, r.note, r.part, r.interpretation, r.head) for r in rules],
        interpretations={name: i._asdict() for name, i in interpretations.items()},
        annotations={rel: notes.data() for rel, notes in annotations.items()},
        declarations={rel: [tuple(d) for d in notes.declarations] for rel, notes in annotations.items()
                      if notes.declarations},
        alternatives={rel: [tuple(a) for a in notes.alternatives] for rel, notes in annotations.items()
                      if notes.alternatives},
        symmetric={rel: notes.symmetric for rel, notes in annotations.items() if notes.symmetric},
        uncited=uncited,
    )
    deriving: dict[str, list[int]] = {}  # name/arity -> the rules (not query programs) deriving it
    for rule in rules:
        if rule.part != "queries":
            deriving.setdefault(rule.head, []).append(rule.number)
    data["deriving"] = deriving
    statement_of = [0] * len(rules)  # rule number -> its statement (head_can_be)
    for i, number in enumerate(data["rule"]):
        if number >= 0:
            statement_of[number] = i
    data["statement_of"] = statement_of
    data["records"] = records
    # each statement's records rewritten to be grounded after the values (kb/knowledge/targeted.py)
    recorded = recorded_heads(s for statements in reified.values() for s in statements)
    # (its demanded records, its `_blocked` records), UTF-8
    data["targeted"] = [tuple(text.encode() for text in targeted(reified[i], i, recorded)) if i in reified else None
                        for i in range(len(records))]
    # the index of the rules by their heads, computed once here rather than by every run
    data["index"] = rule_index(data, [path for part, paths in data["parts"].items() if part != "queries"
                                      for path in paths])
    return KnowledgeBase(data)


def _shared(value, shared: dict):
    """The value, its equal parts made one object (see marshal's references)."""
    if isinstance(value, tuple):
        value = tuple(_shared(v, shared) for v in value)
    return shared.setdefault(value, value) if isinstance(value, (tuple, str)) else value

