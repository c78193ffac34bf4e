"""One notion of unknown, derived by the engine (kb/engine/unknowns.py,
rules/common/unknowns.lp): decided when every completion agrees, else the
statements to add that change the answer; odds per query over its own dice."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from aslkb.parser import parse_file
from aslkb.knowledge.program import knowledge_base
from aslkb.knowledge.declarations import declarations, parse_declarations

from answer_helpers import answers

CASES = Path(__file__).parent / "cases"


def test_every_kind_of_fact_the_parser_produces_is_declared_open_or_closed():
    declared = {d.signature for d in declarations()}
    produced = set()
    for path in CASES.rglob("*.sit"):
        try:
            situation = parse_file(path)
        except Exception:  # a case of a refused file
            continue
        produced |= {f"{f.symbol.name}/{len(f.symbol.arguments)}" for f in situation.facts}
    assert produced and produced <= declared, sorted(produced - declared)
    closed = [d for d in declarations() if d.status == "closed"]
    assert all(d.text for d in closed), "every closed kind says why absence means no"


def test_a_declaration_line_reads_its_status_signature_and_text():
    [opened, closed] = parse_declarations(
        "%! open scenario/2 one add: scenario {0} N\n%! closed hex/2: printed on the map\n")
    assert (opened.status, opened.signature, opened.text, opened.one) == ("open", "scenario/2", "scenario {0} N", True)
    assert (closed.status, closed.signature, closed.text, closed.one) == ("closed", "hex/2", "printed on the map", False)


NIGHT = "scenario night nvr 2 year 1944\n"


@pytest.mark.parametrize("unit, roll", [
    ("unit B1 german squad 4-6-7 at 3A1 berserk", ""),
    ("unit B1 german squad 4-6-7 at 3A1", "roll movement B1 colored 5 white 6"),
    ("unit B1 german squad 4-6-7 at 3A1", "roll movement B1 colored 6 white 2"),
    ("unit B1 finnish squad 6-4-8 at 3A1", "roll movement B1 colored 6 white 4"),
    ("unit B1 german squad 4-6-7 at 3G4\nhex 3G4 road", ""),
])
def test_strays_is_decided_without_the_move_when_every_wish_agrees(unit, roll):
    found = answers(NIGHT + f"{unit}\n{roll}\nquery strays B1\n")["strays B1"]
    assert found.value is False and found.undecided == [] and found.distribution is None


def test_an_undecided_answer_names_only_the_move_that_changes_it():
    found = answers(NIGHT + "unit N3 german squad 4-6-7 at 3A1\nroll movement N3 colored 6 white 3\n"
                    "query strays N3\nquery movement_dr_required N3\n")
    assert found["strays N3"].value is None
    assert found["strays N3"].undecided == ["add: move M N3 to HEX"]
    assert found["movement_dr_required N3"].undecided == ["add: move M N3 to HEX"]


def test_with_neither_move_nor_roll_both_are_named():
    found = answers(NIGHT + "unit N0 german squad 4-6-7 at 3A1\nquery strays N0\n")["strays N0"]
    assert found.undecided == ["add: move M N0 to HEX", "roll: movement N0 colored N white N"]


def test_a_roll_that_cannot_change_the_answer_is_not_named():
    # the move is stated, the unit is berserk: no Movement DR, nothing asked
    found = answers(NIGHT + "unit B1 german squad 4-6-7 at 3A1 berserk\nmove M1 B1 to 3A2\n"
                    "query strays B1\n")["strays B1"]
    assert found.value is False and found.undecided == []


def test_the_year_and_inexperience_are_named_as_statements_to_add():
    found = answers("scenario night nvr 2\nunit G1 german squad 4-6-7 at 3A1\nquery night_class G1\n")
    assert found["night_class G1"].undecided == ["add: scenario year N"]
    found = answers("scenario night nvr 2\nunit F1 finnish squad 6-4-8 at 3A1 green\nquery night_class F1\n")
    assert found["night_class F1"].undecided == ["add: inexperienced on the line of unit F1"]
    # stated, the fact decides: no question asked
    found = answers("scenario night nvr 2\nunit F1 finnish squad 6-4-8 at 3A1 green inexperienced\n"
                    "query night_class F1\n")
    assert found["night_class F1"].value == "lax"


def test_the_region_and_desert_boards_f11_1_turns_on_are_named_as_statements_to_add():
    found = answers("scenario dyo desert_boards some\nquery in_effect arid_weather_chart\n"
                    "query in_effect time_of_day_table\n")
    assert found["in_effect arid_weather_chart"].undecided == ["add: scenario region N"]
    assert found["in_effect time_of_day_table"].value is True  # needs no region
    found = answers("scenario dyo region europe\nquery in_effect time_of_day_table\n"
                    "query in_effect arid_weather_chart\n")
    assert found["in_effect time_of_day_table"].undecided == ["add: scenario desert_boards N"]
    assert found["in_effect arid_weather_chart"].value is False  # Europe is no Arid Land, whatever the boards


def test_odds_are_counted_per_query_over_its_own_dice():
    found = answers(NIGHT + "unit G1 german squad 4-6-7 at 3A1\nunit I1 italian squad 4-4-7 at 3A3\n"
                    "unit F1 finnish squad 6-4-8 at 3A5\nmove M1 G1 to 3A2\nmove M2 I1 to 3A4\n"
                    "move M3 F1 to 3A6\nquery strays G1\nquery strays I1\nquery strays F1\n")
    assert found["strays G1"].distribution == {True: Fraction(1, 9), False: Fraction(8, 9)}
    assert found["strays I1"].distribution == {True: Fraction(1, 6), False: Fraction(5, 6)}
    assert found["strays F1"].distribution == {True: Fraction(1, 18), False: Fraction(17, 18)}


def test_check_and_query_agree_on_the_unknowns_cases():
    from aslkb.parser import parse_file

    from aslkb.answers.ask import settle
    from aslkb.answers.run import run_many

    kb = knowledge_base()
    paths = [str(CASES / "asl" / name) for name in
             ("E1.53-decided-without-move.sit", "E1.53-undecided-move.sit", "E1.53-odds-three-units.sit",
              "E1.62-year-missing.sit", "E1.531-starshell-undetermined.sit")]
    cases = [(p, situation, settle(situation, kb)) for p in paths for situation in [parse_file(p)]]
    results = dict(run_many(cases, kb))  # check's way: values only, in a batch
    assert all(r.checked and not r.failed for r in results.values()), results


def test_the_lint_fails_a_rule_file_that_writes_its_own_unknown_bookkeeping(monkeypatch):
    from aslkb.tools import lintchecks
    from aslkb.knowledge.rulefiles import kb_root

    kb = knowledge_base()
    assert lintchecks.check_unknowns(kb, kb_root()) == []
    # a file still on the allow-list writes bookkeeping: taken off the list,
    # it is a finding at those lines
    if lintchecks.UNMIGRATED:
        unmigrated = sorted(lintchecks.UNMIGRATED)[0]
        monkeypatch.setattr(lintchecks, "UNMIGRATED", lintchecks.UNMIGRATED - {unmigrated})
        findings = lintchecks.check_unknowns(kb, kb_root())
        assert findings and all(f.path == unmigrated and f.fails for f in findings)
        assert "bookkeeping" in findings[0].message
    # a migrated file left on the list is a finding too: the list only shrinks
    monkeypatch.setattr(lintchecks, "UNMIGRATED", lintchecks.UNMIGRATED | {"rules/asl/E1/E1.53.lp"})
    [stale] = [f for f in lintchecks.check_unknowns(kb, kb_root()) if f.path == "rules/asl/E1/E1.53.lp"]
    assert "remove it from UNMIGRATED" in stale.message


def test_a_unit_with_no_hex_is_asked_for_its_hex_where_a_hex_is_illuminated():
    # E1.9/E1.74: R3 may be in the Illuminated 3C3 or in a dark hex
    found = answers("scenario night nvr 2\nhex 3C3 open illuminated\nhex 3D3 open\n"
                    "unit R1 russian squad 4-4-7 at 3C3\nunit R3 russian squad 4-4-7\n"
                    "query target_acquisition R3\n")["target_acquisition R3"]
    assert found.value is None and found.undecided == ["add: at HEX on the line of unit R3"]


def test_a_hex_elsewhere_is_named_by_its_unit():
    # E1.101: GX's stated ranges put it in neither hex the file names; the
    # Illumination of its own hex decides whether it sees only Illuminated areas
    found = answers("scenario night nvr 2\nhex 3C1 open illuminated\nhex 3C2 open\n"
                    "unit GX german squad 4-6-7\nunit R4 russian squad 4-4-7 at 3C1\n"
                    "unit R5 russian squad 4-4-7 at 3C2\nrange GX R5 1\nrange GX R4 4\n"
                    "query within_nvr GX R5\n")["within_nvr GX R5"]
    assert found.value is None
    assert found.undecided == ["add: hex HEX illuminated, HEX the hex of unit GX"]


def test_a_gun_with_no_ssr_class_is_asked_for_one_of_the_three():
    # E1.6: no general rule classes a Gun; the SSR's class is one of three
    found = answers(NIGHT + "unit G2 german gun at 3A4\nquery night_class G2\n")["night_class G2"]
    assert found.value is None
    assert found.undecided == ["one of: lax | normal | stealthy on the line of unit G2"]


def test_a_unit_with_no_hex_is_dark_where_nothing_illuminates():
    # E1.9/E1.74: no source, no hex stated Illuminated: dark wherever it is
    found = answers("scenario night nvr 2\nhex 3C3 open\nunit R1 russian squad 4-4-7 at 3C3\n"
                    "unit R3 russian squad 4-4-7\nquery target_acquisition R3\n")["target_acquisition R3"]
    assert found.value is False and found.undecided == []


def test_a_gap_the_text_leaves_open_is_named_by_its_reason_and_flows_to_what_reads_it():
    """A rule file opens a gap where its text is silent; an answer that turns
    on it, however many rules away, is undecided with the gap's reason, and
    one that does not is decided (no file relays the unknown by hand)."""
    import clingo

    from aslkb.engine import unknowns
    from aslkb.engine.solve import Grounding

    program = """
    open(gap(order(t), not_in_source("X 1", "the text does not say which comes first"))).
    first(t) :- gap(order(t), _).
    marked(t) :- first(t).
    answer(q(t), yes) :- query(q(t)), marked(t).
    answer(q(t), no) :- query(q(t)), not marked(t).
    answer(r(t), yes) :- query(r(t)).
    """
    q, r = (clingo.Function(n, [clingo.Function("t")]) for n in ("q", "r"))
    grounding = Grounding(program, [clingo.Function("query", [q]), clingo.Function("query", [r])])
    found = unknowns.values(grounding, [q, r])
    assert not found[q].decided and found[r].decided
    observed = grounding.observed()
    [gap] = unknowns.mattering(observed, q, unknowns.unknowns_of(observed, q))
    assert str(unknowns.gap_reason(gap)) == 'not_in_source("X 1","the text does not say which comes first")'
    assert unknowns.gap_reason(clingo.Function("los", [])) is None
