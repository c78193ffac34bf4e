"""The generic citation mechanism (kb/reify.py, kb/answers.py) on a small
knowledge base of its own, so these tests do not move when the rules grow."""
from __future__ import annotations

import textwrap

import clingo
import pytest

from aslkb.answers import BLOCKED, EXCEPTION, NOT_MET, Derivations
from aslkb.engine import Settings, solve
from aslkb.program import build
from aslkb.reify import RuleFileError
from aslkb.rulefiles import citation_by_line, rule_files

F, S = clingo.Function, clingo.String

E17 = """\
%@ DEF a night scenario
night :- scenario(night).

%@ E1.7 night attacks get +1 LV DRM
drm(A, night_lv, 1) :- night, attack(A), not night_lv_exempt(A).

%@ E1.7 EXC: attack kinds exempt from the LV DRM
night_lv_exempt(A) :- attack_kind(A, K), night_lv_exempt_kind(K).
night_lv_exempt_kind(fire_lane; mines; sniper).
"""

QUERY = """\
% drm ATTACK SOURCE: one source's part
answer(Q, V) :- query(Q), Q = drm(A, S), attack(A), V = #sum{ X, S : drm(A, S, X) }.
"""


def make_kb(tmp_path, rules: str = E17, query: str = QUERY):
    for part in ("common", "asl", "sl4", "interpretations"):
        (tmp_path / "rules" / part).mkdir(parents=True)
    (tmp_path / "queries").mkdir()
    (tmp_path / "rules" / "asl" / "E1.7.lp").write_text(rules)
    (tmp_path / "queries" / "drm.lp").write_text(query)
    return build(rule_files(tmp_path), tmp_path)


def run(kb, kind: str):
    query = F("drm", [S("A1"), F("night_lv")])
    facts = [F("scenario", [F("night")]), F("attack", [S("A1")]), F("attack_kind", [S("A1"), F(kind)]),
             F("query", [query])]
    selection = kb.select("asl", [], ["drm"])
    derivations = Derivations(solve(selection.text, facts, Settings("asl", ())), kb, selection.rules)
    [value] = derivations.answers[query]
    return value.number, derivations.explain(F("answer", [query, value]))


def test_citation_covers_statements_until_a_blank_line():
    lines = citation_by_line("%@ E1.7 note\na.\n% other comment\nb.\n\nc.\n")
    assert [c.rule_id if c else None for c in lines] == ["E1.7", "E1.7", "E1.7", "E1.7", None, None]


def test_citation_reads_exception_and_sl_ids():
    [exc, sl] = [c for c in citation_by_line("%@ E1.7 EXC: kinds\n%@ SL 49.23 halving\n") if c]
    assert (exc.rule_id, exc.exception, exc.note) == ("E1.7", True, "kinds")
    assert (sl.rule_id, sl.exception, sl.note) == ("SL 49.23", False, "halving")


def test_rule_that_fired_is_cited(tmp_path):
    value, steps = run(make_kb(tmp_path), "smallarms")
    assert value == 1
    applied = [(s.rule.rule_id, s.rule.line) for s in steps if s.role == "applied"]
    assert ("E1.7", 5) in applied and ("DEF", 2) in applied


def test_exception_that_applied_is_cited_with_the_rule_it_blocked(tmp_path):
    value, steps = run(make_kb(tmp_path), "mines")
    assert value == 0
    roles = {(s.rule.rule_id, s.rule.exception, s.role) for s in steps}
    assert ("E1.7", False, BLOCKED) in roles
    assert ("E1.7", True, EXCEPTION) in roles


def test_exceptions_considered_but_not_met_are_listed(tmp_path):
    _, steps = run(make_kb(tmp_path), "smallarms")
    assert any(s.rule.exception and s.role == NOT_MET for s in steps)


def test_uncited_statement_is_recorded_for_the_lint(tmp_path):
    kb = make_kb(tmp_path, rules=E17 + "\nuncited(X) :- attack(X).\n")
    assert kb.uncited == [("rules/asl/E1.7.lp", 11)]


@pytest.mark.parametrize("directive", ["#script (python)\nprint(1)\n#end.", '#include "x.lp".', "#external e."])
def test_rule_files_may_not_run_or_include_code(tmp_path, directive):
    with pytest.raises(RuleFileError):
        make_kb(tmp_path, rules=E17 + "\n%@ DEF x\n" + directive + "\n")


def model_of(program: str, facts: list) -> set:
    control = clingo.Control(["--warn=none"])
    control.add("base", [], program)
    with control.backend() as backend:
        for fact in facts:
            backend.add_rule([backend.add_atom(fact)])
    control.ground([("base", [])])
    atoms: list = []
    control.solve(on_model=lambda m: atoms.extend(m.symbols(atoms=True)))
    return set(atoms)


def test_bookkeeping_leaves_the_model_of_the_rules_unchanged(tmp_path):
    kb = make_kb(tmp_path)
    facts = [F("scenario", [F("night")]), F("attack", [S("A1")]), F("attack_kind", [S("A1"), F("mg")])]
    transformed = model_of(kb.select("asl", [], ["drm"]).text, facts)
    assert {a for a in transformed if not a.name.startswith("_")} == model_of(E17, facts)


def test_lint_names_file_and_line_of_an_uncited_rule(tmp_path):
    from aslkb.lint import lint

    make_kb(tmp_path, rules=E17 + "\nuncited(X) :- attack(X).\n")
    (tmp_path / "queries" / "catalog.toml").write_text('[query.drm]\nargs = ["attack", "source?"]\nanswer = "integer"\n')
    problems, _ = lint(tmp_path)
    assert problems == ["rules/asl/E1.7.lp:11: statement has no %@ citation"]


def test_lint_passes_on_the_shipped_knowledge_base():
    from aslkb.lint import lint

    problems, notes = lint()
    assert problems == []
    assert any(note.startswith("interpretation ") for note in notes)
