"""SL 49's unknowns, derived by the engine (rules/common/unknowns.lp, SL 49
section): an undecided answer names exactly the statement that changes it."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from aslkb.answers.ask import ask, settle
from aslkb.knowledge.program import knowledge_base
from aslkb.parser import parse, parse_file

CASES = Path(__file__).parent / "cases" / "sl4"


def _checked(path: Path) -> dict[str, object]:
    situation = parse_file(path)
    kb = knowledge_base()
    return {c.answer.query: c.answer for c in ask(situation, settle(situation, kb), kb).checked}


def test_each_undecided_sl49_answer_names_the_one_statement_to_add():
    found = _checked(CASES / "SL49-open-facts.sit")
    assert found["may_fire_starshell L1"].undecided == ["one of: los L1 R2 clear | blocked | hindrance N"]
    assert found["rout_open_ground M1"].undecided == ["one of: los G1 3C5 clear | blocked | hindrance N"]
    assert found["rout_open_ground M2"].undecided == ["add: hex 3F1 open"]
    assert found["rout_open_ground M3"].undecided == ["add: hex 3H9 starshell"]
    assert found["gains_concealment R7"].undecided == ["add: mc N on the line of attack A7"]
    assert found["sr_in_view G2 4C1"].undecided == ["add: range G2 4C1 N"]
    # every completion agrees: decided, no question asked
    assert found["may_fire G1 R1"].value is False and found["may_fire G1 R1"].undecided == []
    assert found["gains_concealment R6"].value is False


def test_a_range_off_the_board_is_asked_for_and_one_on_it_is_read_off_the_hex_ids():
    found = _checked(CASES / "SL49.1-needs.sit")
    assert found["within_nvr G1 R1"].undecided == ["add: range G1 R1 N"]
    assert found["may_fire G1 R2"].undecided == ["one of: los G1 R2 clear | blocked | hindrance N"]
    assert found["within_nvr G1 R3"].value is True


def test_a_missing_nvr_dr_gives_the_odds_of_the_range_test():
    situation = parse("edition sl4\nscenario night\nunit G1 german squad 4-6-7 at 3A1\n"
                      "unit R1 russian squad 4-4-7 at 3F1 moved\nquery within_nvr G1 R1\n")
    kb = knowledge_base()
    [answer] = ask(situation, settle(situation, kb), kb).answers
    # 3A1 to 3F1 is 5 hexes: within the NVR on a 2d6 total of 5 or more (30/36)
    assert answer.distribution == {True: Fraction(5, 6), False: Fraction(1, 6)}


def test_an_ir_is_a_gap_of_the_text_that_flows_to_what_reads_the_light():
    # SL 49.7: SL has no Illuminating Rounds; whether the IR lights a hex is
    # open, and each answer that turns on it (however many rules away) says so
    found = _checked(CASES / "SL49.7-ir-gap.sit")
    ir = ["ir: SL 49 has no Illuminating Rounds"]
    for query in ("illuminated 3F1", "within_nvr G1 R2", "may_fire G1 R2", "loses_concealment M1",
                  "concealment_lost R5", "within_nvr G1 R6"):
        assert found[query].value is None and found[query].undecided == ir, query
    # SL 49.25: only a starshell's light allows an overrun; lit by the IR or dark, it is refused
    assert found["overrun_allowed A1"].value is False and found["overrun_allowed A1"].undecided == []
    # lit or dark alike: decided, no reason given
    assert found["within_nvr G1 R1"].value is True and found["may_fire G1 R1"].value is True
    assert found["concealment_lost R4"].value is False and found["concealment_lost R4"].undecided == []
    # the hex question itself cites the rule that leaves it open
    assert "SL 49.7" in found["illuminated 3F1"].rules


def test_an_nvr_stated_against_its_roll_is_a_conflict_gap_that_only_the_answers_it_changes_name():
    # SL 49.11: nvr 4 stated, the NVR DR totals 6; an answer alike with either
    # NVR is decided, one that is not names the conflict (through the range
    # test to may_fire, the gun flash DRM, Area Fire, a spotting round, a starshell)
    found = _checked(CASES / "SL49.11-conflict-gap.sit")
    conflict = ["SL 49.11 roll nvr and SL 49.11 scenario nvr disagree and no interpretation in force decides"]
    for query in ("base_nvr", "nvr G1", "within_nvr G1 R2", "may_fire G1 R2", "drm A1 gunflash",
                  "vs_concealed A2", "sr_in_view G2 4F2", "may_fire_starshell L2"):
        assert found[query].value is None and found[query].undecided == conflict, query
    for query, value in (("within_nvr G1 R1", True), ("may_fire G1 R1", True), ("within_nvr G1 R3", False),
                         ("sr_in_view G2 4C2", True), ("may_fire_starshell L1", False)):
        assert found[query].value is value and found[query].undecided == [], query


def test_a_moving_unit_with_no_question_mark_says_why_without_relaying_its_move():
    # SL 49.4: a moving unit not concealed has no "?" to lose (night); by day
    # the daylight rules (SL 25) decide, outside SL 49; a concealed mover into
    # a dark hex keeps it (decided)
    from answer_helpers import answers

    situation = ("edition sl4\nscenario {when}\nhex 3C1 open\nunit G1 german squad 4-6-7 at 3A1\n"
                 "unit R1 russian squad 4-4-7 at 3D1\nunit R2 russian squad 4-4-7 at 3D2 concealed\n"
                 "move M1 R1 to 3C1\nmove M2 R2 to 3C1\nquery concealment_lost R1\nquery concealment_lost R2\n")
    night = answers(situation.format(when="night nvr 2"))
    assert night["concealment_lost R1"].undecided == ["SL 49.4: the moving unit is not concealed"]
    assert night["concealment_lost R2"].value is False
    day = answers(situation.format(when="year 1944"))
    daylight = ['daylight_concealment: by day "?" is lost by the daylight rules (SL 25), not in the source text']
    assert day["concealment_lost R1"].undecided == daylight and day["concealment_lost R2"].undecided == daylight
