"""The lint's checks of the encoding and of the text (beyond citations).

- **tables**: a dice table declared with a `%table` line must cover every
  value of its roll exactly once;
- **conflicts**: over the cases, a single-valued query that gets two values,
  with the rule behind each;
- **exceptions**: an EXC statement must have a base rule: a rule (not EXC)
  that reads its head under `not`, or one of the same rule id deriving the
  same predicate (an exception that overrides the value directly);
- **rule ids**: every cited id must be a paragraph of the source text, or an
  id the text refers to ("(11.2)"), or cite a statement that says the rule is
  not in the source text (`not_in_source`);
- **queries**: every query of the catalog is asked by some case of the
  project's own corpus (`--cases` with no PATH); a folder named with
  `--cases PATH` is judged by what it asks, not by what it does not;
- **unknowns**: no rule file under rules/asl or rules/sl4 writes its own
  bookkeeping of what is unknown (a `needs_fact`/`needs_roll` reason, an
  `*_undetermined` predicate, a test of a roll being given): the engine
  derives it from the open facts of rules/common/unknowns.lp
  (kb/engine/unknowns.py). Honest reasons that are not about a missing fact
  (`not_in_source`, `not_encoded`, `damaged`, `not_applicable`, `conflict`)
  stay. The allow-list of the migration (UNMIGRATED) is empty and only
  shrinks: a listed file that is clean is a finding too. Nor does a rule
  file relay another answer's unknown (a body reading `unknown/2`, or an
  `unknown(Q, R)` head whose reason R is a variable): where the text leaves
  a value open, the file opens a gap (`open(gap(Key, Reason))`) and the
  engine finds the answers that turn on it (allow-list RELAYING, shrinking).

A table declaration, beside the table or in rules/invariants/tables.lp:

    %table nvr_table/3 key 1 covers 1..7
    %table nvr_modifier/3 key 1,2 covers none,scattered,overcast * none,half,full

`key` lists the argument positions (from 1) that pick a row; `covers` gives
the values each must take (`A..B` or a comma list), one domain per key,
joined by `*`. The check grounds the table's facts (ranges like `1..2`
included) and counts the rows of each key.

**Known damage.** A finding on a rule that an interpretation cites (its
`%! rule`) is reported, marked "known damage", and does not fail the lint
when switching that interpretation on mends it (the table check is run
again with the interpretation's facts added); an interpretation that cites
the rule but does not mend it leaves the finding a problem.
"""
from __future__ import annotations

import itertools
import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import clingo

from aslkb.answers.ask import query_facts, settle
from aslkb.answers.read import Derivations
from aslkb.base.errors import InconsistentSituation, SituationError, UsageError
from aslkb.base.progress import Track, untracked
from aslkb.engine.solve import ground_atoms, solve
from aslkb.knowledge.annotations import read_file
from aslkb.knowledge.catalog import query_catalog
from aslkb.knowledge.program import KnowledgeBase
from aslkb.knowledge.rulefiles import kb_root
from aslkb.tools.check import situation_files
from aslkb.tools.sourcetext import known_ids, referenced_ids

@dataclass
class Finding:
    path: str
    line: int
    rule: str
    check: str
    message: str
    waived_by: list[str] = field(default_factory=list)  # interpretations that mend known damage
    warning: bool = False  # worth a look, not a failure

    @property
    def fails(self) -> bool:
        return not self.waived_by and not self.warning

    def text(self) -> str:
        rule = f" [{self.rule}]" if self.rule else ""
        tail = f" (known damage, mended by interpretation {', '.join(self.waived_by)}: not a failure)" \
            if self.waived_by else ""
        kind = "warning: " if self.warning else ""
        return f"{self.path}:{self.line}:{rule} {kind}{self.check}: {self.message}{tail}"

    def to_json(self) -> dict:
        return {"file": self.path, "line": self.line, "rule": self.rule, "check": self.check,
                "message": self.message, "known_damage": bool(self.waived_by), "waived_by": self.waived_by,
                "warning": self.warning, "fails": self.fails}


@dataclass(frozen=True)
class TableDeclaration:
    predicate: str
    arity: int
    keys: tuple[int, ...]
    domains: tuple[tuple[object, ...], ...]
    path: str
    line: int


def table_declarations(kb: KnowledgeBase, root: str) -> list[TableDeclaration]:
    """The `%table` lines of every file under rules/: the knowledge base's as
    it read them, the others' (rules/invariants/tables.lp) read here."""
    found = []
    loaded = {p for paths in kb.parts.values() for p in paths}
    rules = os.path.join(root, "rules")
    for folder, _dirs, names in sorted(os.walk(rules)):
        for name in sorted(names):
            if not name.endswith(".lp"):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            notes = kb.annotations(rel) if rel in loaded else read_file(path, rel)
            found += [TableDeclaration(t.predicate, t.arity, t.keys, t.domains, rel, t.line) for t in notes.tables]
    return found


def _table_facts(root: str, paths: list[str], predicate: str, arity: int) -> list[tuple[str, int, str]]:
    """(path, line, ASP text) of each fact of predicate/arity in these files."""
    from clingo.ast import ASTType  # lazy: clingo.ast, about 3 ms to import, only where this runs

    from aslkb.knowledge.reify import head_signature, parse_file  # lazy: clingo.ast, about 3 ms to import, only where this runs

    found = []
    for rel in paths:
        with open(os.path.join(root, rel), encoding="utf-8") as handle:
            text = handle.read()
        for statement in parse_file(text, rel):
            if statement.ast_type == ASTType.Rule and not statement.body \
                    and head_signature(statement) == f"{predicate}/{arity}":
                found.append((rel, statement.location.begin.line, str(statement)))
    return found


def _rows(facts: list[str], predicate: str, arity: int) -> list[tuple]:
    return [tuple(_python(a) for a in atom.arguments) for atom in ground_atoms("\n".join(facts), predicate, arity)]


def _python(symbol) -> object:
    if symbol.type == clingo.SymbolType.Number:
        return symbol.number
    if symbol.type == clingo.SymbolType.String:
        return symbol.string
    return str(symbol)


def _table_problems(rows: list[tuple], table: TableDeclaration) -> tuple[list, list]:
    """(gaps, doubles): key values with no row, with more than one."""
    counts = Counter(tuple(row[k - 1] for k in table.keys) for row in rows)
    expected = list(itertools.product(*table.domains))
    gaps = [key for key in expected if counts[key] == 0]
    doubles = [(key, counts[key]) for key in expected if counts[key] > 1]
    return gaps, doubles


def check_tables(kb: KnowledgeBase, root: str) -> list[Finding]:
    findings = []
    base_paths = [p for part in ("common", "asl", "sl4") for p in kb.parts.get(part, [])]
    rule_at = {(r.path, r.line): r for r in kb.rules}
    for table in table_declarations(kb, root):
        facts = _table_facts(root, base_paths, table.predicate, table.arity)
        if not facts:
            findings.append(Finding(table.path, table.line, "", "table",
                                    f"declared table {table.predicate}/{table.arity} has no facts"))
            continue
        where_path, where_line = facts[0][0], facts[0][1]
        rule = rule_at.get((where_path, where_line))
        rule_id = rule.rule_id if rule else ""
        rows = _rows([f for _, _, f in facts], table.predicate, table.arity)
        gaps, doubles = _table_problems(rows, table)
        if not gaps and not doubles:
            continue
        show = lambda key: ",".join(map(str, key))  # noqa: E731
        parts = []
        if gaps:
            parts.append("no row for " + "; ".join(show(k) for k in gaps))
        if doubles:
            parts.append("; ".join(f"{n} rows for {show(k)}" for k, n in doubles))
        finding = Finding(where_path, where_line, rule_id, "table",
                          f"{table.predicate}/{table.arity} (declared {table.path}:{table.line}) covers "
                          f"{' x '.join(_range_text(d) for d in table.domains)} by argument "
                          f"{','.join(map(str, table.keys))}: {'; '.join(parts)}")
        for name, interp in sorted(kb.interpretations.items()):
            if interp.rule != rule_id:
                continue
            extra = _table_facts(root, [interp.path], table.predicate, table.arity)
            if not extra:
                continue
            mended_gaps, mended_doubles = _table_problems(
                _rows([f for _, _, f in facts + extra], table.predicate, table.arity), table)
            if not mended_gaps and not mended_doubles:
                finding.waived_by.append(name)
        findings.append(finding)
    return findings


def _range_text(domain: tuple) -> str:
    if domain and all(isinstance(v, int) for v in domain) and list(domain) == list(range(domain[0], domain[-1] + 1)):
        return f"{domain[0]}..{domain[-1]}"
    return "{" + ",".join(map(str, domain)) + "}"


def check_exceptions(kb: KnowledgeBase, root: str) -> list[Finding]:
    """EXC statements with no base rule.

    An exception is attached to a base rule when what it derives is read under
    `not` by a rule that is not an exception, or is also derived by one (an
    exception that gives another value), or is read by an exception that is
    itself attached (`night_lv_exempt_kind` feeds `night_lv_exempt`)."""
    from clingo.ast import ASTType, Sign  # lazy: clingo.ast, about 3 ms to import, only where this runs

    from aslkb.knowledge.reify import body_predicates, head_signature, parse_file  # lazy: clingo.ast, about 3 ms to import, only where this runs

    attached_heads: set[str] = set()  # read under `not`, or derived, by a non-EXC rule
    exceptions: list[tuple] = []  # (info, predicates its body reads)
    by_place = {(r.path, r.line): r for r in kb.rules}
    for paths in kb.parts.values():
        for rel in paths:
            with open(os.path.join(root, rel), encoding="utf-8") as handle:
                text = handle.read()
            for statement in parse_file(text, rel):
                if statement.ast_type != ASTType.Rule:
                    continue
                info = by_place.get((rel, statement.location.begin.line))
                if info is None:
                    continue
                reads = body_predicates(statement)
                if info.exception:
                    exceptions.append((info, reads))
                    continue
                attached_heads.add(head_signature(statement))
                for literal in statement.body:
                    if literal.ast_type == ASTType.Literal and literal.sign != Sign.NoSign \
                            and literal.atom.ast_type == ASTType.SymbolicAtom:
                        term = literal.atom.symbol
                        attached_heads.add(f"{term.name}/{len(term.arguments)}" if term.ast_type == ASTType.Function
                                           else f"{term}/0")
    attached: set[int] = set()
    changed = True
    while changed:
        changed = False
        for info, reads in exceptions:
            if info.number not in attached and info.head in attached_heads:
                attached.add(info.number)
                attached_heads |= reads  # what an attached exception reads is attached too
                changed = True
    based = {r.rule_id for r in kb.rules if not r.exception and r.rule_id not in ("", "?", "DEF", "query")}
    findings = []
    for info, _reads in exceptions:
        if not info.head or info.number in attached:
            continue
        family = [b for b in based if b == info.rule_id or info.rule_id.startswith(b + ".")]
        if family:  # the rule has base statements, but none this exception stops
            findings.append(Finding(info.path, info.line, info.rule_id, "exception",
                                    f"exception derives {info.head}, which no rule reads under `not` and no "
                                    f"rule that is not an exception derives: which base rule does it except "
                                    f"from?", warning=True))
        else:
            findings.append(Finding(info.path, info.line, info.rule_id, "exception",
                                    f"exception derives {info.head}, and no statement that is not an "
                                    f"exception cites {info.rule_id} (or a paragraph above it): it has no "
                                    f"base rule"))
    return findings


def check_rule_ids(kb: KnowledgeBase, root: str) -> list[Finding]:
    known = known_ids() | referenced_ids()
    findings = []
    seen: set[tuple[str, str]] = set()
    for rule in kb.rules:
        if rule.rule_id in ("", "?", "DEF", "query") or rule.rule_id in known:
            continue
        if (rule.path, rule.rule_id) in seen:
            continue
        text = "\n".join(p.text for p in kb.pieces.get(rule.path, []) if p.rule == rule.number)
        if "not_in_source" in text or "not in the source" in rule.note:
            continue
        seen.add((rule.path, rule.rule_id))
        findings.append(Finding(rule.path, rule.line, rule.rule_id, "rule id",
                                f"cites {rule.rule_id}, which is no paragraph of the source text "
                                f"and which the text does not refer to"))
    for name, interp in sorted(kb.interpretations.items()):
        if interp.rule and interp.rule not in known:
            findings.append(Finding(interp.path, 1, interp.rule, "rule id",
                                    f"interpretation {name} names {interp.rule}, which is no paragraph of the "
                                    f"source text"))
    return findings


def check_corpus(kb: KnowledgeBase, corpus: list[str], every_query: bool = True,
                 track: Track = untracked) -> list[Finding]:
    """Conflicts over the cases, and (every_query) catalog queries no case asks;
    `track`: the command's progress over the cases (kb/tools/corpus.py)."""
    from aslkb.parser import parse_file  # here: elsewhere in this module parse_file is reify's

    catalog = query_catalog()
    asked: set[str] = set()
    findings = []
    reported: set[tuple] = set()
    files = situation_files(corpus)
    for path in track(files, len(files), "cases"):
        try:
            situation = parse_file(path)
            settings = settle(situation, kb)
        except (SituationError, UsageError, OSError):
            continue
        queries = {}
        for query in [*situation.queries, *(e.query for e in situation.expects)]:
            queries.setdefault(query.symbol, query)
            asked.add(query.name)
        if not queries:
            continue
        facts = query_facts(situation, settings, list(queries))
        selection = kb.select(settings.edition, list(settings.interpretations), list(queries))
        try:
            d = Derivations(solve(selection.text, facts, settings), kb, selection.rules)
        except InconsistentSituation:
            continue
        for symbol, query in queries.items():
            values = d.answers.get(symbol, [])
            if len(values) < 2 or catalog[query.name].answer == "list" or d.undecided.get(symbol):
                continue
            behind = []
            for value in values:
                steps = d.explain(clingo.Function("answer", [symbol, value]))
                cited = [s.rule for s in steps if s.rule.rule_id not in ("DEF", "query", "", "?")]
                rule = cited[0] if cited else (steps[0].rule if steps else None)
                behind.append((value, rule))
            key = tuple(sorted(r.where for _, r in behind if r))
            if key in reported:
                continue
            reported.add(key)
            first = behind[0][1]
            message = "; ".join(f"{v} from {r.rule_id} ({r.where})" if r else f"{v}" for v, r in behind)
            findings.append(Finding(first.path if first else str(path), first.line if first else query.line,
                                    " / ".join(dict.fromkeys(r.rule_id for _, r in behind if r)), "conflict",
                                    f"{path}:{query.line}: {query.text} gets {len(values)} values: {message}"))
    for name in sorted(set(catalog) - asked) if every_query else ():
        findings.append(Finding(f"queries/{name}.lp", 1, "", "query", f"query {name} has no case under "
                                f"{', '.join(corpus)}"))
    return findings


def _edition_rule_texts(kb: KnowledgeBase, root: str) -> Iterator[tuple[str, str]]:
    """(path, text) of each rule file of an edition (rules/asl/, rules/sl4/), by path."""
    for rel in sorted(kb.data["path_range"]):
        if rel.startswith(("rules/asl/", "rules/sl4/")):
            with open(os.path.join(root, rel), encoding="utf-8") as handle:
                yield rel, handle.read()


# What a rule file writes when it keeps its own bookkeeping of unknowns.
_BOOKKEEPING = re.compile(r"\bneeds_fact\(|\bneeds_roll\(|\b[a-z_]+_undetermined\(|\bnot\s+roll_given\(|\broll_missing\(")

# The rule files that still write unknown bookkeeping (issue 15): remove a
# file from this list when it is migrated; never add one.
UNMIGRATED: frozenset[str] = frozenset()


def check_unknowns(kb: KnowledgeBase, root: str) -> list[Finding]:
    findings = []
    for rel, text in _edition_rule_texts(kb, root):
        lines = text.splitlines()
        hits = [(n, line) for n, line in enumerate(lines, 1)
                if not line.lstrip().startswith("%") and _BOOKKEEPING.search(line.split("%", 1)[0])]
        if hits and rel not in UNMIGRATED:
            for n, line in hits:
                findings.append(Finding(rel, n, "", "unknowns",
                                        f"writes its own bookkeeping of what is unknown "
                                        f"({_BOOKKEEPING.search(line).group(0).rstrip('(')}): declare the "
                                        f"fact open in rules/common/unknowns.lp and say only what holds"))
        elif not hits and rel in UNMIGRATED:
            findings.append(Finding(rel, 1, "", "unknowns", "writes no unknown bookkeeping any more: "
                                    "remove it from UNMIGRATED in kb/tools/lintchecks.py"))
    return findings


# The rule files that still relay another answer's unknown (issue 15): remove
# a file when its gaps are opened where the text leaves them; never add one.
RELAYING: frozenset[str] = frozenset()


def check_relays(kb: KnowledgeBase, root: str) -> list[Finding]:
    """Statements that relay an unknown by hand: a body that reads unknown/2,
    or an unknown/2 head whose reason is a variable (another answer's)."""
    from clingo.ast import ASTType  # lazy: clingo.ast, about 3 ms to import, only where this runs

    from aslkb.knowledge.reify import body_predicates, head_signature, parse_file  # lazy: clingo.ast, about 3 ms to import, only where this runs

    findings = []
    for rel, text in _edition_rule_texts(kb, root):
        lines = []
        for statement in parse_file(text, rel):
            if statement.ast_type != ASTType.Rule:
                continue
            relayed_head = (head_signature(statement) == "unknown/2"
                            and statement.head.atom.symbol.arguments[1].ast_type == ASTType.Variable)
            if relayed_head or "unknown/2" in body_predicates(statement):
                lines.append(statement.location.begin.line)
        if lines and rel not in RELAYING:
            findings += [Finding(rel, n, "", "unknowns", "relays another answer's unknown by hand: open a "
                                 "gap where the text leaves a value open (open(gap(Key, Reason)), "
                                 "rules/common/unknowns.lp) and let the engine find what depends on it")
                         for n in lines]
        elif not lines and rel in RELAYING:
            findings.append(Finding(rel, 1, "", "unknowns", "relays no unknown any more: remove it from "
                                    "RELAYING in kb/tools/lintchecks.py"))
    return findings


def run_checks(kb: KnowledgeBase, root: str | None = None, corpus: list[str] | None = None,
               every_query: bool = True, track: Track = untracked) -> list[Finding]:
    """`every_query`: the corpus is the project's own, which must ask every query;
    `track`: the command's progress over its cases."""
    root = root or kb_root()
    findings = check_tables(kb, root) + check_exceptions(kb, root) + check_rule_ids(kb, root)
    findings += check_unknowns(kb, root) + check_relays(kb, root)
    findings += check_status_notes(kb, root)
    if corpus:
        findings += check_corpus(kb, corpus, every_query, track)
    return findings


def check_status_notes(kb: KnowledgeBase, root: str) -> list[Finding]:
    """Each paragraph's `%! status` note stands at its place: in the file whose
    path is the paragraph's id or a parent's (rules/asl/E1/E1.8.lp holds
    E1.83's), once per paragraph (an EX may have several), in the `ID [EX] STATUS[: reason]`
    form, for a paragraph the source text has, refers to, or holds
    sub-paragraphs of (A7.37: the text starts inside it, at A7.372)."""
    from aslkb.knowledge.annotations import STATUSES  # lazy: clingo.ast, about 3 ms to import, only where this runs
    known = known_ids() | referenced_ids()
    findings = []
    seen: dict[str, str] = {}
    for part in ("asl", "sl4"):
        for rel in kb.parts.get(part, []):
            file_id = ("SL " if part == "sl4" else "") + os.path.splitext(os.path.basename(rel))[0]
            for note in kb.annotations(rel).status_notes:
                if not note.status:
                    findings.append(Finding(rel, note.line, "", "status note",
                                            f"'%! status {note.rule_id}' should read `%! status ID [EX] STATUS"
                                            f"[: reason]`, STATUS one of: {', '.join(STATUSES)}"))
                    continue
                if not _holds(file_id, note.rule_id):
                    findings.append(Finding(rel, note.line, note.rule_id, "status note",
                                            f"the note of {note.rule_id} stands in the file of {file_id}: put it "
                                            f"in the file whose path is {note.rule_id} or a parent's"))
                if note.rule_id not in known and not any(_holds(note.rule_id, k) for k in known):
                    findings.append(Finding(rel, note.line, note.rule_id, "status note",
                                            f"{note.rule_id} is no paragraph of the source text"))
                if note.example:
                    continue
                if note.rule_id in seen:
                    findings.append(Finding(rel, note.line, note.rule_id, "status note",
                                            f"a second note of {note.rule_id} (the first: {seen[note.rule_id]}): "
                                            f"one status per paragraph"))
                seen.setdefault(note.rule_id, f"{rel}:{note.line}")
    return findings


def _holds(file_id: str, rule_id: str) -> bool:
    """A file's paragraph holds itself and its sub-paragraphs (E1.53 holds E1.531)."""
    return rule_id == file_id or rule_id.startswith(file_id) and rule_id[len(file_id)] in "0123456789"
