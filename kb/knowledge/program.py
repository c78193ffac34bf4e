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
from aslkb.knowledge.annotations import Annotations, Interpretation, from_comments
from aslkb.knowledge.patterns import NEEDED, QUERY, symbol_pattern
from aslkb.knowledge.rulefiles import EDITIONS, relative, rule_files

if TYPE_CHECKING:
    from clingo import Symbol


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



# Rules in rules/ that give answers themselves (e.g. "SL 49 not encoded").
_ANSWERING = {"answer/2", "undecided/2"}


class Selection(NamedTuple):
    """The program for one situation: what its queries can reach."""

    text: str
    rules: frozenset[int]  # the rules the queries reach (a why-not names those that did not fire)
    statements: tuple[int, ...] = ()  # the pieces in the text, in file order

    @property
    def plain(self) -> str:
        """The text without the bookkeeping (kb/knowledge/reify.py): values, no citations."""
        return "\n".join(line for line in self.text.split("\n") if not line.startswith(BOOKKEEPING))


# The heads of the bookkeeping statements kb/knowledge/reify.py adds (one line each).
BOOKKEEPING = ("_why(", "_blocked(", "_looks(", "_agg(", "_excluded(")


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
            self._data[k] == other._data[k] for k in ("text", "path_range", "span", "heads", "body", "rule"))

    def piece(self, i: int) -> Piece:
        data = self._data
        rule, heads = data["rule"][i], data["heads"][i]
        return Piece(self.text(i), heads[0][0] if heads else "",
                     tuple(sorted({name for name, _, _ in data["body"][i]})), None if rule < 0 else rule)

    def text(self, i: int) -> str:
        span = self._data["span"]
        return self._data["text"][span[2 * i]:span[2 * i + 1]]


class KnowledgeBase:
    """The transformed rule files as plain data (one text, integer arrays),
    cheap to load from the disk cache; objects are made only where used."""

    def __init__(self, data: dict, signature: str = ""):
        self.data = data
        self.signature = signature  # of the files it was made from (files_signature), when it came from them
        self.rules = RuleTable(data["rules"])
        self.pieces = PieceTable(data)
        self.parts: dict[str, list[str]] = data["parts"]
        self.interpretations = {name: Interpretation(**i) for name, i in data["interpretations"].items()}
        self.uncited: list[tuple[str, int]] = [tuple(u) for u in data["uncited"]]
        self._by_head: dict[str, list[int]] = {}
        self._indexes: dict[tuple, tuple] = {}
        self._needed: dict[int, list] = {}
        self._statement_of: dict[int, int] = {}  # rule number -> its statement (head_can_be)
        self._annotations: dict[str, Annotations] = {}

    def annotations(self, path: str) -> Annotations:
        """A file's annotations (kb/knowledge/annotations.py), as read when the
        knowledge base was built: path as in the repository, rules/asl/E1/E1.7.lp."""
        if path not in self._annotations:
            self._annotations[path] = Annotations.from_data(self.data["annotations"][path])
        return self._annotations[path]

    def rules_deriving(self, signature: str) -> list[int]:
        """The numbers of the rules (not query programs) whose head is name/arity."""
        if not self._by_head:
            for number, row in enumerate(self.data["rules"]):
                if row[5] != "queries":
                    self._by_head.setdefault(row[7], []).append(number)
        return self._by_head.get(signature, [])

    def head_can_be(self, number: int, signature: str, pattern: tuple) -> bool:
        """Can rule `number`'s head be an atom name/arity with these argument
        patterns (its constants and functors; numbers and strings unchecked)?"""
        if not self._statement_of:
            self._statement_of = {rule: i for i, rule in enumerate(self.data["rule"]) if rule >= 0}
        heads = self.data["heads"][self._statement_of[number]]
        return any(name == signature and _unify_args(args, pattern, {}) for name, args in heads)

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
        """
        always, by_predicate, reading = self._index(edition, tuple(sorted(interpretations)))
        data = self.data
        asked: dict[str, list] = {}  # query name -> the patterns asked ("" for any)
        for query in queries:
            if isinstance(query, str):
                asked.setdefault(query, []).append("")
            else:
                asked.setdefault(query.name, []).append(symbol_pattern(query))
        chosen: list[int] = []
        chosen_set: set[int] = set()
        wanted: list[tuple[str, tuple]] = []
        seen: set[tuple[str, tuple]] = set()

        reached: set[tuple] = set()

        def reach(i: int, binding: dict) -> None:
            key = (i, *sorted(binding.items()))
            if key in reached:  # the same statement under the same binding demands the same
                return
            reached.add(key)
            bindings = [binding]
            for _, args, kind in data["body"][i]:
                if kind == QUERY:  # query(T): only the queries asked are facts
                    bindings = [b for bound in bindings for b in _query_bindings(args[0], asked, bound)]
            if not bindings:
                return
            if i not in chosen_set:
                chosen_set.add(i)
                chosen.append(i)
            for bound in bindings:
                for name, args, kind in data["body"][i]:
                    if kind != QUERY:
                        demand = (name, tuple(_bind(a, bound, _DEPTH) for a in args) if bound else
                                  tuple(_open(a) for a in args))
                        if demand not in seen:
                            wanted.append(demand)

        for i in always:
            reach(i, {})
        for name in sorted(asked):
            first, end = data["path_range"].get(f"queries/{name}.lp", (0, 0))
            for i in range(first, end):
                reach(i, {})
        while wanted:
            demand = wanted.pop()
            name, args = demand
            if demand in seen or (name, ("",) * len(args)) in seen:
                continue
            seen.add(demand)
            heads, by_first = by_predicate.get(name, (b"", {}))
            if first := _first(args):  # the first argument fixed: its functor's heads
                heads = by_first.get(first, b"") + by_first.get("", b"")
            for code in _codes(heads):  # statement * 8 + which alternative of its head
                i = code >> 3
                binding: dict = {}
                if all(_unify(h, a, binding) for h, a in zip(data["heads"][i][code & 7][1], args)):
                    reach(i, binding)
        rules = data["rule"]
        considered = frozenset(rules[i] for i in chosen if rules[i] >= 0)  # why-not names these
        if facts is not None and not any(data["opaque"][i] for i in chosen):
            chosen = self._can_fire(chosen, facts, reading)
        chosen.sort()  # file order: a selection reads like the rule files
        return Selection("\n".join(self.pieces.text(i) for i in chosen), considered, tuple(chosen))

    def whole(self, edition: str, interpretations: list[str]) -> Selection:
        """Every statement of the edition, the interpretations in force and
        the query programs, unselected: what select() must answer alike
        (tests/test_seam.py holds it to that over the shipped cases)."""
        paths = [*self.parts["common"], *self.parts[edition],
                 *(self.interpretations[name].path for name in sorted(interpretations)), *self.parts["queries"]]
        chosen = sorted(i for path in paths for i in range(*self.data["path_range"][path]))
        rules = self.data["rule"]
        return Selection("\n".join(self.pieces.text(i) for i in chosen),
                         frozenset(rules[i] for i in chosen if rules[i] >= 0), tuple(chosen))

    def _can_fire(self, chosen: list[int], facts: Iterable[Symbol], reading: tuple[dict, dict]) -> list[int]:
        """The chosen statements whose positive conditions can all be met, and
        what they can derive: from the facts up (semi-naive), each rule that
        can fire adding its head with the variables its conditions bind
        (`dr_colored(N, S, V) :- roll(N, S, colored, V)` gives dr_colored for
        the rolls there are, not for any roll)."""
        data = self.data
        available = _Patterns()
        events: list[tuple[str, tuple]] = []

        def add(name: str, pattern: tuple) -> None:
            if available.add(name, pattern):
                events.append((name, pattern))

        for fact in facts:
            pattern = symbol_pattern(fact)
            if pattern:
                add(f"{pattern[0]}/{len(pattern[1])}", pattern[1])
        needed = {i: self.needed(i) for i in chosen}
        alive: set[int] = set()
        for i in chosen:
            if not needed[i]:
                alive.add(i)
                self._derive(i, {}, add)
        derived: set[tuple] = set()  # (statement, its binding): each derives once
        every, by_first = reading  # each condition as statement * 32 + its index in needed(statement)
        while events:
            name, pattern = events.pop()
            first = _first(pattern)
            codes = by_first.get(f"{name}|{first}", b"") + by_first.get(f"{name}|", b"") if first \
                else every.get(name, b"")
            for code in _codes(codes):
                i, k = code >> 5, code & 31
                if i not in needed:
                    continue
                binding: dict = {}
                if not _unify_args(needed[i][k][1], pattern, binding):
                    continue
                for bound in _joins(needed[i], k, binding, available):
                    alive.add(i)
                    key = (i, *sorted(bound.items()))
                    if key not in derived:
                        derived.add(key)
                        self._derive(i, bound, add)
        return [i for i in chosen if i in alive]

    def needed(self, i: int) -> list[tuple[str, tuple]]:
        """The positive conditions of statement i (name/arity, argument patterns)."""
        found = self._needed.get(i)
        if found is None:
            found = self._needed[i] = [(name, args) for name, args, kind in self.data["body"][i] if kind == NEEDED]
        return found

    def _derive(self, i: int, binding: dict, add) -> None:
        for name, args in self.data["heads"][i]:
            add(name, tuple(_bind(a, binding, _DEPTH) for a in args))

    def _index(self, edition: str, interpretations: tuple[str, ...]):
        """For the files of an edition: the statements always considered
        (constraints, rules that answer directly), and the others by the
        predicate of their head, with the head's argument patterns."""
        if (edition, interpretations) not in self._indexes:
            data = self.data
            stored = data.get("indexes", {}).get(_index_key(edition, interpretations))
            if stored is not None:
                self._indexes[(edition, interpretations)] = stored
                return stored
            paths = [*self.parts["common"], *self.parts[edition]]
            paths += [self.interpretations[name].path for name in interpretations]
            always: list[int] = []
            # name/arity -> (its heads, its heads by the functor of their first
            # argument, "" where that is open), each as statement * 8 + which
            # alternative of the head (integers: cheap to store and to read)
            by_predicate: dict[str, tuple[list, dict[str, list]]] = {}
            for path in paths:
                first, end = data["path_range"][path]
                for i in range(first, end):
                    heads = data["heads"][i]
                    if not heads or heads[0][0] in _ANSWERING:
                        always.append(i)
                    else:
                        assert len(heads) <= 8, "a head pools more than 8 alternatives"
                        for j, (name, args) in enumerate(heads):
                            every, by_first = by_predicate.setdefault(name, ([], {}))
                            every.append(i * 8 + j)
                            by_first.setdefault(_first(args), []).append(i * 8 + j)
            # every positive condition, as statement * 32 + its index in needed(statement),
            # by name/arity and by "name/arity|functor of the first argument"
            reading: tuple[dict, dict] = ({}, {})
            for path in [*paths, *self.parts["queries"]]:
                first, end = data["path_range"][path]
                for i in range(first, end):
                    conditions = self.needed(i)
                    assert len(conditions) <= 32, "a rule with more than 32 positive conditions"
                    for k, (name, args) in enumerate(conditions):
                        reading[0].setdefault(name, []).append(i * 32 + k)
                        reading[1].setdefault(f"{name}|{_first(args)}", []).append(i * 32 + k)
            # stored as bytes of 32-bit integers: marshal reads them at once
            by_predicate = {name: (_packed(every), {k: _packed(v) for k, v in by_first.items()})
                            for name, (every, by_first) in by_predicate.items()}
            reading = ({k: _packed(v) for k, v in reading[0].items()}, {k: _packed(v) for k, v in reading[1].items()})
            self._indexes[(edition, interpretations)] = (always, by_predicate, reading)
        return self._indexes[(edition, interpretations)]


def _explained_heads(statements: list, body_patterns) -> set[str]:
    """The predicates (name/arity) an answer's derivation can reach: answer/2
    and undecided/2, and whatever a rule deriving one of them reads, under
    `not` and in aggregates too (an explanation walks those back)."""
    by_head: dict[str, list] = {}
    for statement, info in statements:
        if info.head:
            by_head.setdefault(info.head, []).append(statement)
    reached, waiting = {"answer/2", "undecided/2"}, ["answer/2", "undecided/2"]
    while waiting:
        for statement in by_head.get(waiting.pop(), []):
            for name, _, _ in body_patterns(statement):
                if name not in reached:
                    reached.add(name)
                    waiting.append(name)
    return reached


def _packed(codes: list[int]) -> bytes:
    from array import array

    return array("i", codes).tobytes()


def _codes(packed: bytes):
    """The integers of _packed (the machine's byte order: the cache is per machine)."""
    return memoryview(packed).cast("i")


_DEPTH = 4  # patterns are cut below this depth, so that demands stay finitely many


def _unify(template, pattern, binding: dict) -> bool:
    """Can a term of this template (a rule's, with "$X" variables) be a term of
    this pattern (what is demanded, "" for anything)? Binds the variables."""
    if pattern == "" or template == "":
        return True
    if isinstance(template, str):  # a variable
        bound = binding.setdefault(template, pattern)
        return bound == pattern or _unify(bound, pattern, {})
    return (isinstance(pattern, tuple) and template[0] == pattern[0] and len(template[1]) == len(pattern[1])
            and all(_unify(t, p, binding) for t, p in zip(template[1], pattern[1])))


def _with_unknowns(heads: list) -> list:
    """The heads, and what kb/engine/solve.py's unknowns may give from them: for a
    roll a rule needs (`roll_needed(N, S, R)`) the `roll(N, S, Die, Face)`
    of its dice, for a fact declared open (`open(move(...))`,
    rules/common/unknowns.lp) the fact itself. A rule reading a roll or the
    fact reaches the rule that may make it true."""
    return heads + [("roll/4", (args[0], args[1], "", "")) for name, args in heads if name == "roll_needed/3"] \
        + [(f"{args[0][0]}/{len(args[0][1])}", args[0][1]) for name, args in heads
           if name == "open/1" and isinstance(args[0], tuple)]


def _unify_args(templates: tuple, pattern: tuple, binding: dict) -> bool:
    """Can an atom with these argument templates be one of this pattern? Binds the variables."""
    return len(templates) == len(pattern) and all(_unify(t, p, binding) for t, p in zip(templates, pattern))


_JOINS = 64  # bindings followed per new atom pattern; beyond, the variables are left open


class _Patterns:
    """The argument patterns available, by name/arity and by the functor of the
    first argument, for the lookups of _can_fire."""

    def __init__(self) -> None:
        self.every: dict[str, list[tuple]] = {}
        self.by_first: dict[tuple[str, str], list[tuple]] = {}
        self.seen: set[tuple[str, tuple]] = set()

    def add(self, name: str, pattern: tuple) -> bool:
        """File a pattern; False when it was there already."""
        if (name, pattern) in self.seen:
            return False
        self.seen.add((name, pattern))
        self.every.setdefault(name, []).append(pattern)
        self.by_first.setdefault((name, _first(pattern)), []).append(pattern)
        return True

    def matching(self, name: str, pattern: tuple) -> list[tuple]:
        """The patterns filed that can meet this one."""
        first = _first(pattern)
        if not first:
            return self.every.get(name, [])
        return self.by_first.get((name, first), []) + self.by_first.get((name, ""), [])


def _first(pattern: tuple) -> str:
    """The functor of a pattern's first argument, "" when it is open or a variable."""
    return pattern[0][0] if pattern and isinstance(pattern[0], tuple) else ""


def _joins(conditions: list, fixed: int, binding: dict, available: _Patterns) -> list[dict]:
    """The bindings under which every condition meets an available pattern,
    condition `fixed` already bound by `binding`; [] when one cannot be met."""
    found = [binding]
    for k, (name, args) in enumerate(conditions):
        if k == fixed:
            continue
        grown = []
        for bound in found:
            for pattern in available.matching(name, args):
                extended = dict(bound)
                if _unify_args(args, pattern, extended):
                    grown.append(extended)
        if not grown:
            return []
        found = grown if len(grown) <= _JOINS else [binding]  # too many: met, and left open
    return found


def _open(template):
    """A head's argument as a pattern: its variables open."""
    if isinstance(template, str):
        return "" if template[:1] == "$" else template
    return (template[0], tuple(_open(t) for t in template[1]))


def _bind(template, binding: dict, depth: int):
    """A body template as a pattern: its bound variables replaced by what they
    were bound to, the rest left open."""
    if template == "" or depth == 0:
        return ""
    if isinstance(template, str):
        return _cut(binding.get(template, ""), depth)
    return (template[0], tuple(_bind(t, binding, depth - 1) for t in template[1]))


def _cut(pattern, depth: int):
    if pattern == "" or depth > 0 and not pattern[1]:
        return pattern
    if depth == 0:
        return ""
    return (pattern[0], tuple(_cut(p, depth - 1) for p in pattern[1]))


def _query_bindings(template, asked: dict[str, list], binding: dict) -> list[dict]:
    """The bindings under which a `query(T)` condition meets a query asked."""
    if isinstance(template, tuple):
        candidates = asked.get(template[0], [])
    elif template:  # query(Q): any query
        candidates = [pattern for patterns in asked.values() for pattern in patterns]
    else:
        return []
    found = []
    for pattern in candidates:
        bound = dict(binding)
        if _unify(template, pattern, bound):
            found.append(bound)
    return found


def files_signature(files: dict[str, list[str]]) -> str:
    """Changes when a rule file, or the code that transforms them, changes.

    A digest of the files' names, sizes and modification times."""
    from aslkb.base.diskcache import fingerprint

    here = os.path.dirname(__file__)
    code = [os.path.join(here, name) for name in ("program.py", "reify.py", "patterns.py", "annotations.py")]
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
    from aslkb.base import diskcache

    files = rule_files()
    signature = files_signature(files)
    data = diskcache.load("kb", signature)
    if not isinstance(data, dict):
        data = build(files).data
        diskcache.store("kb", signature, data)
    return KnowledgeBase(data, signature)


def build(files: dict[str, list[str]], root: str | os.PathLike | None = None) -> KnowledgeBase:
    """Transform every file (see kb/knowledge/reify.py); raises RuleFileError on a bad file.

    `root` is the folder that holds rules/ and queries/ (default: installed).
    Two passes: the first reads every statement and its citation, so that the
    second knows which predicates exception (EXC) rules derive.
    """
    from clingo.ast import ASTType  # clingo.ast is needed only on a cache miss

    from aslkb.knowledge.reify import body_patterns, head_patterns, head_signature, opaque_head, parse_file, reify

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
    texts: list[str] = []
    shared: dict = {}  # equal patterns as one object: marshal writes it once, and reads it once
    data: dict = {"path_range": {}, "span": [], "heads": [], "body": [], "opaque": [], "rule": [],
                  "parts": {part: [] for part in files}}
    offset = 0
    for part, rel, statements in read:
        first = len(data["rule"])
        for statement, info in statements:
            if info is None:
                text, heads, body = str(statement), [], []
            else:
                body = [_shared(b, shared) for b in body_patterns(statement)]
                # a rule no answer's derivation can reach (an `open(...)` declaration and
                # what only it reads, a roll_needed) is cited by nothing: no records
                text = "\n".join(str(s) for s in reify(statement, info.number, exception_heads)) \
                    if info.head in explained else str(statement)
                heads = [_shared(h, shared) for h in _with_unknowns(head_patterns(statement))]
            texts.append(text)
            data["span"] += [offset, offset + len(text)]
            offset += len(text) + 1
            data["heads"].append(heads)
            data["body"].append(body)
            data["opaque"].append(statement.ast_type == ASTType.Rule and opaque_head(statement))
            data["rule"].append(info.number if info else -1)
        data["path_range"][rel] = (first, len(data["rule"]))
        data["parts"][part].append(rel)
    data.update(
        text="\n".join(texts),
        rules=[(r.path, r.line, r.rule_id, r.exception, r.note, r.part, r.interpretation, r.head) for r in rules],
        interpretations={name: i._asdict() for name, i in interpretations.items()},
        annotations={rel: notes.data() for rel, notes in annotations.items()},
        uncited=uncited,
    )
    # the indexes of the default settings, computed once here rather than by every run
    built = KnowledgeBase(data)
    defaults = tuple(sorted(name for name, i in interpretations.items() if i.default))
    data["indexes"] = {_index_key(edition, defaults): built._index(edition, defaults)
                       for edition in data["parts"] if edition in EDITIONS}
    return KnowledgeBase(data)


def _index_key(edition: str, interpretations: tuple[str, ...]) -> str:
    return f"{edition}|{','.join(interpretations)}"


def _shared(value, shared: dict):
    """The value, its equal parts made one object (see marshal's references)."""
    if isinstance(value, tuple):
        value = tuple(_shared(v, shared) for v in value)
    return shared.setdefault(value, value) if isinstance(value, (tuple, str)) else value

