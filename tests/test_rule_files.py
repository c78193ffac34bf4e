"""A rule file's path is its rule id (docs/design.md section 0).

Each file of rules/asl and rules/sl4 holds the paragraph its name gives
(rules/sl4/49/49.4.lp: SL 49.4) and that paragraph's sub-paragraphs; a
statement elsewhere may still cite another paragraph where it joins two rules.
A file may hold no statement at all, only its paragraph's `%! status` note
(rules/asl/A12/A12.1.lp: cut or introductory paragraphs, and those whose
rules are cited where they are used).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from aslkb.knowledge.annotations import read_text
from aslkb.knowledge.rulefiles import EDITIONS, rule_files

ROOT = Path(__file__).resolve().parent.parent
STATUS = "status.lp"  # each edition's list of what it does not encode, by chapter


def file_id(path: Path, edition: str) -> str:
    return ("SL " if edition == "sl4" else "") + path.stem


def own(cited: str, rule_id: str) -> bool:
    """`cited` is the file's paragraph or one of its sub-paragraphs (E1.53 holds E1.531)."""
    return cited == rule_id or cited.startswith(rule_id) and cited[len(rule_id)] in ".0123456789"


FILES = [(edition, Path(path)) for edition in EDITIONS for path in rule_files(ROOT)[edition]
         if Path(path).name != STATUS]


@pytest.mark.parametrize("edition, path", FILES, ids=[p.relative_to(ROOT).as_posix() for _, p in FILES])
def test_a_rule_file_encodes_the_paragraph_its_path_names(edition, path):
    notes = read_text(path.read_text(encoding="utf-8"))
    cited = {c.rule_id for c in notes.citations if c.rule_id != "DEF"}
    noted = {n.rule_id for n in notes.status_notes}
    assert any(own(c, file_id(path, edition)) for c in cited | noted), sorted(cited | noted)


@pytest.mark.parametrize("paragraph, path", [
    ("SL 49.3", "rules/sl4/49/49.3.lp"), ("SL 49.4", "rules/sl4/49/49.4.lp"), ("SL 49.5", "rules/sl4/49/49.5.lp"),
    ("SL 49.71", "rules/sl4/49/49.7.lp"), ("SL 49.72", "rules/sl4/49/49.7.lp"), ("A12.154", "rules/asl/A12/A12.154.lp")])
def test_paragraphs_that_shared_a_file_each_have_their_own(paragraph, path):
    """SL 49.4 and 49.5 were in 49.3.lp, 49.71 and 49.72 in 49.6.lp, A12.154 in A12.152.lp."""
    holders = {file.relative_to(ROOT).as_posix() for _, file in FILES
               if any(c.rule_id == paragraph for c in read_text(file.read_text(encoding="utf-8")).citations)}
    assert holders == {path}


# An answer's reason is stated without the question (docs/encoding.md step 5):
# the knowledge layer adds `query(Q)` (kb/knowledge/asking.py).

def _rules(text: str) -> list:
    from clingo import ast

    found: list = []
    ast.parse_string(text, found.append)
    return [s for s in found if s.ast_type == ast.ASTType.Rule]


@pytest.mark.parametrize("rule, derived", [
    # an answer: always the question asked
    ('undecided(fp(A), not_in_source(fp, "x")).', 'undecided(fp(A),not_in_source(fp,"x")) :- query(fp(A)).'),
    ("undecided(mf_cost(M), r) :- move(M, U, _).", "undecided(mf_cost(M),r) :- query(mf_cost(M)); move(M,U,_)."),
    # a reason whose question's variables the body binds: as written
    ("unknown(pinned(U), r) :- unit(U, N, K).", "unknown(pinned(U),r) :- unit(U,N,K)."),
    # ... and where it does not, by the question
    ("unknown(sr_in_view(U, H), r) :- day.", "unknown(sr_in_view(U,H),r) :- query(sr_in_view(U,H)); day."),
    ("unknown(q(H), r) :- not p(H).", "unknown(q(H),r) :- query(q(H)); not p(H)."),
    ("unknown(q(N), r) :- N = #count { X : p(X) }.", "unknown(q(N),r) :- N = #count { X: p(X) }."),
    # written already: once
    ("undecided(q(A), r) :- query(q(A)).", "undecided(q(A),r) :- query(q(A))."),
    # any other head: as written
    ("p(A) :- q(A).", "p(A) :- q(A)."),
])
def test_the_question_binds_what_an_answers_reason_leaves_open(rule, derived):
    from aslkb.knowledge.asking import bound_by_question

    (parsed,) = _rules(rule)
    assert str(bound_by_question(parsed)) == derived


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_answers_reason_writes_the_question_the_knowledge_layer_adds(edition):
    from aslkb.knowledge.asking import bound_by_question
    from aslkb.knowledge.reify import head_signature

    written = []
    for path in rule_files()[edition]:
        for rule in _rules(Path(path).read_text(encoding="utf-8")):
            if head_signature(rule) not in ("unknown/2", "undecided/2"):
                continue
            own = f"query({rule.head.atom.symbol.arguments[0]})"
            without = rule.update(body=[literal for literal in rule.body if str(literal) != own])
            if len(without.body) < len(rule.body) and own in map(str, bound_by_question(without).body):
                written.append(f"{Path(path).name}:{rule.location.begin.line}")
    assert not written, f"these rules write the `query(Q)` that kb/knowledge/asking.py adds: {written}"
