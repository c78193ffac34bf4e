"""How an undecided answer names what would decide it (kb/engine/hints.py,
docs/answers.md "Undecided"): `add: S` for one statement, `one of: ...` for
the values of one thing (every value a user may give), `roll: ...` for a
missing roll, and one LOS or range named once whichever way round the rules
read it."""
from __future__ import annotations

import json

import pytest

from aslkb.cli.main import main

from answer_helpers import answers

NIGHT = "scenario night nvr 2 year 1944\n"


# --- one LOS, once ------------------------------------------------------------------

# E1.91/E1.932: the IR of O1's OBA attack turns on O1's LOS to L2, and the
# Starshell L2 may fire first on L2's LOS to O1 (E1.922): one LOS, which one
# statement in either direction gives (rules/common/places.lp)
IR_AND_STARSHELL = ("scenario night nvr 2\nunit L1 british leader 8-0 at 3A1\n"
                    "unit L2 british leader 8-0 at 3A2\nunit O1 german leader 8-1 at 3A4 radio ir_ammo\n"
                    "hex 3H5 open\nroll starshell_usage L1 1\nroll starshell_usage L2 6\n"
                    "attack I1 by O1 at 3H5 oba ir\nquery ir_method I1\nquery starshell_methods L1\n"
                    "query starshell_methods L2\n")


def test_a_los_the_rules_read_both_ways_round_is_asked_for_once_in_the_order_the_file_names_its_places():
    found = answers(IR_AND_STARSHELL)["ir_method I1"]
    asked = [hint for hint in found.undecided if "los" in hint]
    # L2 is named (line 3) before O1 (line 4): `los L2 O1`, never also `los O1 L2`
    assert asked == ["one of: los L2 O1 clear | blocked | hindrance N"]


def test_one_direction_stated_decides_the_los_both_ways_round():
    found = answers(IR_AND_STARSHELL + "los O1 L2 clear\n")["ir_method I1"]
    assert not [hint for hint in found.undecided if "los" in hint], found.undecided


# --- every value of one thing: one of -----------------------------------------------

def test_a_class_by_day_is_asked_as_one_of_every_class_normal_included():
    # A12.122: neither Lax nor Stealthy opened is Normal, which decides it too
    found = answers("hex 3A1 open\nunit G1 german squad 4-6-7 at 3A9\nrange S1 G1 8\nlos S1 G1 blocked\n"
                    "unit S1 russian squad 4-4-7 at 3A1\nroll concealment S1 2\nquery concealment_drm S1\n")
    assert found["concealment_drm S1"].undecided == ["one of: lax | normal | stealthy on the line of unit S1"]


def test_stating_normal_by_day_decides_what_the_hint_offered_it_for():
    found = answers("hex 3A1 open\nunit G1 german squad 4-6-7 at 3A9\nrange S1 G1 8\nlos S1 G1 blocked\n"
                    "unit S1 russian squad 4-4-7 at 3A1 normal\nroll concealment S1 2\nquery concealment_drm S1\n")
    assert found["concealment_drm S1"].undecided == [] and found["concealment_drm S1"].value is not None


def test_a_night_class_only_an_ssr_gives_is_asked_in_the_same_words():
    # E1.6: no general rule classes a Gun
    found = answers(NIGHT + "unit N1 german gun at 3A3\nquery night_class N1\n")["night_class N1"]
    assert found.undecided == ["one of: lax | normal | stealthy on the line of unit N1"]


def test_two_terrains_of_one_hex_are_alternatives():
    # E1.51: Concealment Terrain (woods stands for it) or Open Ground
    found = answers(NIGHT + "unit G2 german squad 4-6-7 at 3C1\nmove M2 G2 to 3C2 cost 1\n"
                    "query mf_cost M2\n")["mf_cost M2"]
    assert found.undecided == ["one of: hex 3C2 open | woods"]


def test_a_vehicle_type_is_tracked_or_wheeled():
    found = answers("scenario night nvr 2\nhex 3A1 open\nunit G1 german squad 4-6-7 at 3A1\n"
                    "unit V3 russian vehicle at 3E1 in_motion\nrange G1 V3 4\n"
                    "query within_nvr G1 V3\n")["within_nvr G1 V3"]
    assert found.undecided == ["one of: tracked | wheeled on the line of unit V3"]


# each situation with {} where the hint's value goes: every alternative offered decides the answer
DECIDED_BY_EACH = [
    ("hex 3C1 building\nhex 3A1 open\nunit R1 russian squad 4-4-7 at 3C1 level 1 {}\n"
     "unit G1 german squad 4-6-7 at 3A1\nattack A1 by G1 at R1 mc 1\nroll mc R1 colored 2 white 3\n"
     "attack B1 by R1 at G1\nquery pinned R1\n", "pinned R1", ["encircled", "not_encircled"]),
    ("unit V1 german vehicle at 3A1 afv tracked\nunit P4 german squad 4-6-7 at 3A1 aboard V1 pinned {}\n"
     "query must_bail_out P4\n", "must_bail_out P4", ["passenger", "rider"]),
    ("scenario night nvr 2\nunit G1 german squad 4-6-7 at 3B2\nunit R1 russian squad 4-4-7 at 3B4\n"
     "los G1 R1 {}\nquery may_fire G1 R1\n", "may_fire G1 R1", ["clear", "blocked", "hindrance 1"]),
    ("hex 3A1 open\nunit G1 german squad 4-6-7 at 3A9\nrange S1 G1 8\nlos S1 G1 blocked\n"
     "unit S1 russian squad 4-4-7 at 3A1 {}\nroll concealment S1 2\nquery concealment_drm S1\n",
     "concealment_drm S1", ["lax", "normal", "stealthy"]),
]


@pytest.mark.parametrize("situation, query, values", DECIDED_BY_EACH, ids=[q for _, q, _ in DECIDED_BY_EACH])
def test_every_alternative_a_hint_offers_decides_the_answer(situation, query, values):
    unstated = situation.replace("los G1 R1 {}\n", "").replace(" {}", "")
    [hint] = answers(unstated)[query].hints
    assert hint.kind == "one_of" and len(hint.statements) == len(values)
    for value in values:
        found = answers(situation.format(value))[query]
        assert found.value is not None and found.undecided == [], (value, found.undecided)


def test_independent_facts_stay_separate_statements():
    # F11.8: the EC and the Weather are two facts, each of them needed
    found = answers("scenario region north_africa desert_boards all\nquery in_effect desert_mud\n")
    assert found["in_effect desert_mud"].undecided == ["add: scenario ec N", "add: scenario weather N"]


# --- a missing roll ------------------------------------------------------------------

def test_a_missing_roll_is_named_as_a_roll_beside_the_fact_it_goes_with():
    found = answers(NIGHT + "unit N0 german squad 4-6-7 at 3A3\nquery strays N0\n")["strays N0"]
    assert found.undecided == ["add: move M N0 to HEX", "roll: movement N0 colored N white N"]


# --- the same hints in JSON, with their structure ------------------------------------

def test_json_gives_each_hint_its_kind_and_the_statements_it_stands_for(tmp_path, capsys):
    path = tmp_path / "hints.sit"
    path.write_text(NIGHT + "unit N0 german squad 4-6-7 at 3A3\nunit G2 german squad 4-6-7 at 3C1\n"
                    "move M2 G2 to 3C2 cost 1\nquery strays N0\nquery mf_cost M2\n", encoding="utf-8")
    assert main(["query", "--json", str(path)]) == 0
    strays, cost = json.loads(capsys.readouterr().out)["answers"]
    assert strays["undecided"] == "add: move M N0 to HEX; roll: movement N0 colored N white N"
    assert strays["missing"] == [
        {"kind": "statement", "text": "add: move M N0 to HEX", "statements": ["move M N0 to HEX"]},
        {"kind": "roll", "text": "roll: movement N0 colored N white N",
         "statements": ["roll movement N0 colored N white N"]}]
    assert cost["missing"] == [{"kind": "one_of", "text": "one of: hex 3C2 open | woods",
                                "statements": ["hex 3C2 open", "hex 3C2 woods"]}]


def test_a_decided_answer_has_no_missing_field(tmp_path, capsys):
    path = tmp_path / "decided.sit"
    path.write_text("scenario night nvr 3\nquery base_nvr\n", encoding="utf-8")
    assert main(["query", "--json", str(path)]) == 0
    [answer] = json.loads(capsys.readouterr().out)["answers"]
    assert answer["value"] == 3 and "missing" not in answer


def test_odds_json_gives_the_hints_where_it_gives_no_odds(tmp_path, capsys):
    path = tmp_path / "move.sit"
    path.write_text(NIGHT + "unit N0 german squad 4-6-7 at 3A3\n", encoding="utf-8")
    assert main(["odds", "--json", str(path), "strays", "N0"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert "distribution" not in found
    assert [hint["kind"] for hint in found["missing"]] == ["statement", "roll"]


# --- the declarations the hints read, and the words they say ---------------------

def test_an_alternatives_line_reads_its_signatures_and_values_and_a_symmetric_line_its_signatures():
    from aslkb.knowledge.annotations import read_text

    notes = read_text("%! alternatives los/3 los_hindrance/3: clear blocked\n%! alternatives hex/2\n"
                      "%! symmetric los/3 range/3\n")
    assert [tuple(a) for a in notes.alternatives] == [(("los/3", "los_hindrance/3"), ("clear", "blocked")),
                                                      (("hex/2",), ())]
    assert notes.symmetric == ("los/3", "range/3")


def test_every_declared_alternative_is_an_open_fact_and_each_word_one_the_language_takes():
    from pathlib import Path

    from aslkb.knowledge.declarations import alternatives, declarations, symmetric_signatures

    opened = {d.signature for d in declarations() if d.status == "open"}
    grammar = (Path(__file__).parent.parent / "parser" / "situation.lark").read_text(encoding="utf-8")
    assert alternatives() and symmetric_signatures() <= opened
    for declared in alternatives():
        assert set(declared.signatures) <= opened, declared
        assert all(f'"{word}"' in grammar for word in declared.values), declared


def test_alternatives_say_the_words_they_share_once():
    from aslkb.engine.hints import shared_words_once

    assert shared_words_once(["hex 3C2 open", "hex 3C2 woods"]) == "hex 3C2 open | woods"
    assert shared_words_once(["lax on the line of unit S1", "normal on the line of unit S1"]) == \
        "lax | normal on the line of unit S1"
    assert shared_words_once(["los G1 R1 clear", "los G1 R1 hindrance N"]) == "los G1 R1 clear | hindrance N"
    # nothing shared: each said whole; every alternative keeps a word of its own
    assert shared_words_once(["scenario ec N", "hex 3A1 open"]) == "scenario ec N | hex 3A1 open"
    assert shared_words_once(["hex 3A1 open", "hex 3A1 open illuminated"]) == "hex 3A1 open | open illuminated"


def test_a_roll_with_no_subject_is_named_by_its_name_and_dice():
    import clingo

    from aslkb.engine.hints import ROLL, Hint, roll_text

    text = roll_text(clingo.Function("nvr_table"), clingo.Function("none"))
    assert text == "roll nvr_table colored N white N"
    assert Hint(ROLL, (text,)).text == "roll: nvr_table colored N white N"
