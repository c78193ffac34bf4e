"""What the knowledge base knows of each rule id (`aslkb rules`), and the
coverage matrix of the source text (`aslkb coverage`, docs/coverage.md).

A paragraph's status, from the most to the least specific source:

- **encoded**: a statement of rules/asl or rules/sl4 cites it;
- **interpretation**: an interpretation (rules/interpretations) cites it or
  names it in `%! rule` (listed with the encoded status when both hold);
- the paragraph's status note in its rule file, `%! status E1.41 not
  encoded: why` (kb/knowledge/annotations.py; docs/design.md §2), in the
  file whose path is the paragraph's id or a parent's (the lint checks the
  place): its status (*encoded*, *partly encoded*, *interpretation*,
  *undecided*, *out of scope*, *not encoded*, *noted*) decides where no
  statement cites the paragraph; a note of *partly encoded* makes an
  encoded paragraph partly encoded, and the reason of a note of *partly
  encoded*, *undecided*, *out of scope* or *not encoded* is shown beside the
  citations; an EX's note (`%! status E1.8 EX encoded`) is listed with its
  paragraph (`aslkb rules`), not in the matrix;
- **undecided**: a rule or query answers `not_encoded("ID")`,
  `not_in_source(..)` or `damaged("ID", ..)` for it, with that reason;
- otherwise **not encoded, no reason given**, so that nothing is skipped.

A case tests a rule when the rule is among the rules behind one of its
answers (kb/answers/read.py), for a `query` or an `expect` line.
"""
from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass, field

from aslkb.base import diskcache
from aslkb.base.progress import Track, untracked
from aslkb.knowledge.annotations import StatusNote
from aslkb.knowledge.program import KnowledgeBase, knowledge_base
from aslkb.knowledge.rulefiles import EDITIONS, kb_root
from aslkb.tools.check import situation_files
from aslkb.tools.corpus import answers_of, reachable_rules, run_corpus
from aslkb.tools.sourcetext import SECTIONS, Paragraph, paragraphs

_REASONS = re.compile(r'(?P<kind>not_encoded|damaged)\("(?P<id>[^"]+)"(?:,\s*"(?P<text>[^"]*)")?')
_NOT_IN_SOURCE = re.compile(r'not_in_source\([^,]+,\s*"(?P<text>[^"]*)"')


@dataclass
class RuleFacts:
    rule_id: str
    citations: list[str] = field(default_factory=list)  # "path:line note"
    interpretations: list[str] = field(default_factory=list)
    queries: list[str] = field(default_factory=list)
    cases: list[str] = field(default_factory=list)
    undecided: list[str] = field(default_factory=list)  # reasons from the rules and queries
    notes: list[tuple[str, str, str]] = field(default_factory=list)  # (status, reason, where)
    example_notes: list[tuple[str, str, str]] = field(default_factory=list)  # its EX's notes, as notes

    def to_json(self) -> dict:
        return {"rule": self.rule_id, "citations": self.citations, "interpretations": self.interpretations,
                "queries": self.queries, "cases": self.cases, "undecided": self.undecided,
                "notes": [{"status": s, "reason": r, "where": w} for s, r, w in self.notes],
                "example_notes": [{"status": s, "reason": r, "where": w} for s, r, w in self.example_notes]}


def rule_facts(kb: KnowledgeBase, cases: dict[str, set[str]] | None = None,
               root: str | None = None) -> dict[str, RuleFacts]:
    """Every rule id the knowledge base or the notes mention, with what is known of it."""
    root = root or kb_root()
    facts: dict[str, RuleFacts] = {}

    def of(rule_id: str) -> RuleFacts:
        return facts.setdefault(rule_id, RuleFacts(rule_id))

    for rule in kb.rules:
        if rule.rule_id in ("", "?", "DEF", "query"):
            continue
        entry = of(rule.rule_id)
        tag = " EXC" if rule.exception else ""
        where = f"{rule.where}{tag} {rule.note}".rstrip()
        if rule.interpretation:
            where += f" [interpretation {rule.interpretation}]"
        entry.citations.append(where)
        if rule.interpretation and rule.interpretation not in entry.interpretations:
            entry.interpretations.append(rule.interpretation)
    for name, interp in kb.interpretations.items():
        if interp.rule and name not in of(interp.rule).interpretations:
            of(interp.rule).interpretations.append(name)
    # the queries whose programs can reach a rule citing the id
    every = sorted(kb.interpretations)
    for path in kb.parts.get("queries", []):
        name = os.path.basename(path)[:-3]
        for edition in ("asl", "sl4"):
            for number in kb.select(edition, every, [name]).rules:
                rule_id = kb.rules[number].rule_id
                if rule_id in facts and name not in facts[rule_id].queries:
                    facts[rule_id].queries.append(name)
    for rule_id, reason in _undecided_reasons(kb, root):
        if reason not in of(rule_id).undecided:
            of(rule_id).undecided.append(reason)
    for path, note in status_notes(kb):
        if note.status:
            entry = of(note.rule_id)
            (entry.example_notes if note.example else entry.notes).append(
                (note.status, note.reason, f"{path}:{note.line}"))
    for entry in facts.values():
        entry.queries.sort()
    add_cases(facts, cases or {})
    return facts


def _ids() -> set[str]:
    return {p.rule_id for p in paragraphs()}


def _undecided_reasons(kb: KnowledgeBase, root: str) -> list[tuple[str, str]]:
    """`not_encoded("E1.53")`, `damaged("E1.11", "...")` in the rules and the queries."""
    found = []
    for paths in kb.parts.values():
        for path in paths:
            try:
                with open(os.path.join(root, path), encoding="utf-8") as handle:
                    text = handle.read()
            except OSError:
                continue
            for match in _REASONS.finditer(text):
                if match["kind"] == "not_encoded":
                    found.append((match["id"], f"answers undecided: not encoded ({path})"))
                else:
                    found.append((match["id"], f"damaged text: {match['text']} ({path})"))
    return found


def status_notes(kb: KnowledgeBase) -> list[tuple[str, StatusNote]]:
    """(path, note) for every `%! status` line of the edition's rule files, in
    file order (the annotations the knowledge base read when it was built)."""
    return [(path, note) for part in EDITIONS for path in kb.parts.get(part, [])
            for note in kb.annotations(path).status_notes]


@dataclass(frozen=True)
class Row:
    paragraph: Paragraph
    status: str
    detail: str
    cases: int


def matrix(facts: dict[str, RuleFacts], listed: list[Paragraph] | None = None) -> list[Row]:
    """A row per paragraph: the shipped paragraph list's, or `listed` (read by `--source`)."""
    rows = []
    for paragraph in paragraphs() if listed is None else listed:
        entry = facts.get(paragraph.rule_id, RuleFacts(paragraph.rule_id))
        encoded = [c for c in entry.citations if "[interpretation" not in c]
        note = entry.notes[0] if entry.notes else None
        if encoded:
            status = "partly encoded" if note and note[0] == "partly encoded" else "encoded"
            files = sorted({c.split(":")[0] for c in encoded})
            detail = f"{len(encoded)} statement{'s' if len(encoded) > 1 else ''} in {', '.join(files)}"
            if entry.interpretations:
                status += ", interpretation"
                detail += f"; interpretations: {', '.join(sorted(entry.interpretations))}"
            if note and note[0] in ("partly encoded", "undecided", "out of scope", "not encoded") and note[1]:
                detail += f"; {note[0]}: {note[1]} ({note[2]})"
        elif entry.interpretations:
            status, detail = "interpretation", ", ".join(sorted(entry.interpretations))
        elif note and note[0] in ("encoded", "partly encoded"):
            status = note[0]
            detail = (f"{note[1] + '; ' if note[1] else ''}so says {note[2]}, but no statement of rules/ "
                      f"cites {paragraph.rule_id}")
        elif note:
            status = note[0]
            detail = f"{note[1] or 'no reason given'} ({note[2]})"
        elif entry.undecided:
            status, detail = "undecided", "; ".join(entry.undecided)
        else:
            status, detail = "not encoded", "no reason given"
        rows.append(Row(paragraph, status, detail, len(entry.cases)))
    return rows


def markdown(rows: list[Row]) -> str:
    """docs/coverage.md: one table per source section, and a summary."""
    lines = ["# Coverage of the source text", "",
             "Generated by `aslkb coverage` (kb/tools/coverage.py says how each status is found; "
             "kb/tools/sourcetext.py how the paragraphs are extracted). Do not edit by hand: "
             "write a paragraph's status in its rule file (`%! status ID STATUS: reason`) and regenerate.", ""]
    by_section: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_section[row.paragraph.section].append(row)
    lines += ["| section | paragraphs | encoded | of which partly | with interpretation | undecided | "
              "out of scope | noted | not encoded (reason given) | no reason given |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for section in SECTIONS:
        rows_here = by_section.get(section, [])
        counts = _counts(rows_here)
        lines.append(f"| {section} | {len(rows_here)} | {counts['encoded']} | {counts['partly']} | "
                     f"{counts['interpretation']} | {counts['undecided']} | {counts['out of scope']} | "
                     f"{counts['noted']} | {counts['not encoded']} | {counts['no reason']} |")
    for section in SECTIONS:
        lines += ["", f"## {section}", "", "| paragraph | title | status | detail | cases |", "|---|---|---|---|---|"]
        for row in by_section.get(section, []):
            detail = row.detail.replace("|", "\\|")
            lines.append(f"| {row.paragraph.rule_id} | {row.paragraph.title} | {row.status} | {detail} | "
                         f"{row.cases} |")
    return "\n".join(lines) + "\n"


def matrix_json(rows: list[Row]) -> dict:
    """The matrix as JSON: the counts of each section (as the summary table)
    and every paragraph in source order."""
    by_section: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_section[row.paragraph.section].append(row)
    return {
        "sections": [{"section": section, "paragraphs": len(by_section.get(section, [])),
                      **{key.replace(" ", "_"): count for key, count in _counts(by_section.get(section, [])).items()}}
                     for section in SECTIONS],
        "paragraphs": [{"rule": row.paragraph.rule_id, "title": row.paragraph.title,
                        "section": row.paragraph.section, "status": row.status, "detail": row.detail,
                        "cases": row.cases} for row in rows],
    }


def _counts(rows: list[Row]) -> dict[str, int]:
    counts = dict.fromkeys(("encoded", "partly", "interpretation", "undecided", "out of scope", "noted",
                            "not encoded", "no reason"), 0)
    for row in rows:
        status = row.status
        if status.startswith(("encoded", "partly encoded")):
            counts["encoded"] += 1
            counts["partly"] += status.startswith("partly")
        elif status == "not encoded" and row.detail == "no reason given":
            counts["no reason"] += 1
        elif status in counts:
            counts[status] += 1
        if "interpretation" in status:
            counts["interpretation"] += 1
    return counts


def cases_by_rule(runs) -> dict[str, set[str]]:
    """For each case file, the rule ids behind its answers."""
    tested: dict[str, set[str]] = {}
    for run in runs:
        if run.result is None:
            continue
        ids = tested.setdefault(str(run.path), set())
        for _line, _label, answer in answers_of(run.result):
            ids.update(answer.rules)
    return tested


# The disk cache's kind for what each case cites and can reach. Not "tested",
# the name of the entries without "reach" that aslkb before issue 33 kept:
# it read every entry of that name as solved, and a shared cache folder
# (two checkouts, two versions) would have made it fail on the new ones.
TESTED = "tested-cases"


def cases_testing(paths: list[str], rule_ids: set[str] | None = None, kb: KnowledgeBase | None = None,
                  track: Track = untracked) -> dict[str, set[str]]:
    """For each case file under `paths`, the rule ids behind its answers.

    Solving a case with citations is the dear part (a minute for the
    project's corpus), so what each case cites is kept in the disk cache
    per case file and knowledge base. With `rule_ids`, only the cases whose
    questions can reach one of them are solved (corpus.reachable_rules: an
    answer cites only rules its question reaches; `aslkb rules E1.7` solves
    a few dozen cases, not all); the others are left out, and what each can
    reach is kept too. `track`: the command's progress over the cases solved
    (kb/tools/corpus.py)."""
    if not paths:
        return {}
    kb = kb or knowledge_base()
    # kept under the signature of the rule files (a knowledge base built
    # from other files, as a test builds one, has none: nothing is kept)
    cache = diskcache.load(TESTED, kb.signature) if kb.signature else {}
    if not isinstance(cache, dict):
        cache = {}
    tested: dict[str, set[str]] = {}
    unsolved: list[tuple[str, dict]] = []  # (case, its fresh cache entry)
    changed = False
    files = situation_files(paths)
    for path in track(files, len(files), "cases read"):
        stat = path.stat()
        stamp = f"{stat.st_mtime_ns}:{stat.st_size}"
        entry = cache.get(str(path))
        if not isinstance(entry, dict) or entry.get("stamp") != stamp:
            entry = {"stamp": stamp}
        if "rules" in entry:
            tested[str(path)] = set(entry["rules"])
            continue
        if rule_ids is not None:
            if "reach" not in entry:
                entry["reach"] = sorted(reachable_rules(path, kb))
                cache[str(path)], changed = entry, True
            if not rule_ids & set(entry["reach"]):
                continue  # it cannot test them
        unsolved.append((str(path), entry))
    if unsolved:
        fresh = cases_by_rule(run_corpus([p for p, _ in unsolved], kb=kb, track=track))
        for path, entry in unsolved:
            tested[path] = fresh.get(path, set())
            entry["rules"] = sorted(tested[path])
            cache[path] = entry
        changed = True
    if changed and kb.signature:
        diskcache.store(TESTED, kb.signature, cache)
    return tested


def add_cases(facts: dict[str, RuleFacts], cases: dict[str, set[str]]) -> None:
    """Each case under the rule ids it tests (rule_facts does it when given cases)."""
    for case, rule_ids in cases.items():
        for rule_id in rule_ids:
            if rule_id in facts or rule_id in _ids():
                facts.setdefault(rule_id, RuleFacts(rule_id)).cases.append(case)
    for entry in facts.values():
        entry.cases.sort()


def rule_text(entry: RuleFacts, paragraph: Paragraph | None, with_cases: bool = True) -> str:
    """`aslkb rules ID`'s report; without `with_cases`, no cases block (the
    editor's hover: finding them solves a corpus)."""
    lines = [f"{entry.rule_id}" + (f" {paragraph.title}" if paragraph and paragraph.title else "")
             + ("" if paragraph else "  (no paragraph of that id in the source text)")]
    if paragraph:
        lines.append(f"  source: {paragraph.source}:{paragraph.line}")

    def block(title: str, items: list[str]) -> None:
        lines.append(f"  {title}: {len(items)}" if not items else f"  {title}:")
        lines.extend(f"    {item}" for item in items)

    block("cited by", _grouped(entry.citations))
    block("interpretations", entry.interpretations)
    block("queries", entry.queries)
    if with_cases:
        block("cases", entry.cases)
    if entry.undecided:
        block("undecided", entry.undecided)
    if entry.notes:
        block("notes", [f"{s}: {r} ({w})" if r else f"{s} ({w})" for s, r, w in entry.notes])
    if entry.example_notes:
        block("EX notes", [f"{s}: {r} ({w})" if r else f"{s} ({w})" for s, r, w in entry.example_notes])
    return "\n".join(lines)


def _grouped(citations: list[str]) -> list[str]:
    """`rules/x.lp:20 note` and `rules/x.lp:21 note` as `rules/x.lp:20,21 note`."""
    groups: dict[tuple[str, str], list[str]] = {}
    for citation in citations:
        where, _, note = citation.partition(" ")
        path, _, line = where.rpartition(":")
        lines = groups.setdefault((path, note), [])
        if line not in lines:
            lines.append(line)
    return [f"{path}:{','.join(lines)} {note}".rstrip() for (path, note), lines in groups.items()]
