"""The open facts of the A7 and A12 rule files (rules/common/unknowns.lp,
section "A7 and A12"): decided without the fact where every value agrees,
undecided naming exactly the statement to add where the values differ."""
from __future__ import annotations

from answer_helpers import answers


CASE_K = ("hex 3A1 open\nunit G1 german squad 4-6-7 at 3A9\nrange S1 G1 8\nlos S1 G1 blocked\n")


def test_an_unstated_class_by_day_is_named_where_it_changes_the_concealment_dr():
    found = answers(CASE_K + "unit S1 russian squad 4-4-7 at 3A1\nroll concealment S1 2\n"
                    "query gains_concealment S1\nquery concealment_drm S1\n")
    expected = ["one of: lax | normal | stealthy on the line of unit S1"]
    assert found["gains_concealment S1"].undecided == expected
    assert found["concealment_drm S1"].undecided == expected


def test_an_unstated_class_by_day_asks_nothing_where_every_class_agrees():
    found = answers(CASE_K + "unit S1 russian squad 4-4-7 at 3A1\nroll concealment S1 1\n"
                    "query gains_concealment S1\n")
    assert found["gains_concealment S1"].value is True and found["gains_concealment S1"].undecided == []


def test_the_search_drms_read_the_same_open_class():
    found = answers("hex 3B5 open\nunit G2 german squad 4-6-7 at 3B5 searching\n"
                    "unit R2 russian halfsquad 2-4-7 at 3B6 concealed\nquery search_drm\n"
                    "query search_casualties_drm 3B6\n")
    assert found["search_drm"].undecided == ["one of: lax | normal | stealthy on the line of unit G2"]
    assert found["search_casualties_drm 3B6"].undecided == ["one of: lax | normal | stealthy on the line of unit R2"]


def test_a_crews_us_number_is_named_only_where_it_matters():
    crew = CASE_K + "unit S1 russian crew 2-2-8 at 3A1 normal\n"
    found = answers(crew + "roll concealment S1 3\nquery gains_concealment S1\nquery concealment_drm S1\n")
    assert found["gains_concealment S1"].undecided == ["add: us N on the line of unit S1"]
    assert found["concealment_drm S1"].undecided == ["add: us N on the line of unit S1"]
    found = answers(crew + "roll concealment S1 1\nquery gains_concealment S1\n")  # 1 + 3 at most: gains
    assert found["gains_concealment S1"].value is True


def test_a_hex_whose_terrain_gives_no_tem_is_named():
    found = answers("hex 3A1 brush\nunit S1 russian squad 4-4-7 at 3A1 normal\nquery concealment_drm S1\n")
    assert found["concealment_drm S1"].undecided == ["add: hex 3A1 hindrance N", "add: hex 3A1 tem N"]
    found = answers("hex 3A1 brush tem 1 hindrance 1\nunit S1 russian squad 4-4-7 at 3A1 normal\n"
                    "query concealment_drm S1\n")
    assert found["concealment_drm S1"].value == 1


def test_a_directing_leaders_unstated_hex_is_named_where_it_decides_the_leadership_drm():
    base = "hex 3A1 open\nunit G1 german squad 4-6-7 at 3A1\nunit R1 russian squad 4-4-7 at 3B4\n"
    found = answers(base + "unit L1 german leader 8-1\nattack A1 by G1 at R1 directed_by L1\n"
                    "query drm A1 leadership\n")
    assert found["drm A1 leadership"].undecided == ["add: at HEX on the line of unit L1"]
    found = answers(base + "unit L1 german leader 8-1 pinned\nattack A1 by G1 at R1 directed_by L1\n"
                    "query drm A1 leadership\n")
    assert found["drm A1 leadership"].value == 0


def test_an_unstated_range_between_boards_is_named_for_a_fire_group():
    found = answers("hex 3A1 open\nhex 4A5 open\nunit G1 german squad 4-6-7 at 3A1\n"
                    "unit G7 german squad 4-6-7 at 4A5\nunit R1 russian squad 4-4-7 at 3B4\n"
                    "attack A1 by G1,G7 at R1\nquery fg_legal A1\n")
    assert found["fg_legal A1"].undecided == ["add: range G1 G7 N"]
    found = answers("hex 3A1 open\nhex 3A2 open\nunit G1 german squad 4-6-7 at 3A1\n"
                    "unit G7 german squad 4-6-7 at 3A2\nunit R1 russian squad 4-4-7 at 3B4\n"
                    "attack A1 by G1,G7 at R1\nquery fg_legal A1\n")  # one board: read off the hex ids
    assert found["fg_legal A1"].value is True


def test_the_target_hexs_tem_and_an_unlocated_targets_hex_are_named():
    base = "hex 3A1 open\nhex 3A7 brush\nunit G1 german squad 4-6-7 at 3A1\n"
    found = answers(base + "unit R1 russian squad 4-4-7 at 3A7\nattack A1 by G1 at R1\nquery drm A1 tem\n")
    assert found["drm A1 tem"].undecided == ["add: hex 3A7 tem N"]
    found = answers(base + "unit R1 russian squad 4-4-7\nattack A1 by G1 at R1\nquery affected A1\n"
                    "unit R2 russian squad 4-4-7 at 3A7\n")
    assert found["affected A1"].undecided == ["add: at HEX on the line of unit R1"]


def test_a_firers_unstated_los_is_named_for_the_hindrance_drm():
    found = answers("hex 3A1 open\nhex 3A5 woods\nunit G1 german squad 4-6-7 at 3A1\n"
                    "unit G2 german squad 4-6-7 at 3B1\nunit R1 russian squad 4-4-7 at 3A5\nlos G2 R1 hindrance 2\n"
                    "attack A1 by G1,G2 at R1\nquery drm A1 hindrance\nquery drm A1 tem\n")
    assert found["drm A1 hindrance"].undecided == ["one of: los G1 R1 clear | blocked | hindrance N"]
    assert found["drm A1 tem"].value == 1  # the TEM reads no LOS


def test_an_unstated_los_to_an_enemy_is_named_for_concealment_gain_only_where_it_matters():
    found = answers("hex 3A1 woods\nunit G1 german squad 4-6-7 at 3A1\nunit R1 russian squad 4-4-7 at 3A5\n"
                    "query gains_concealment G1\n")
    assert found["gains_concealment G1"].undecided == ["one of: los G1 R1 clear | blocked | hindrance N"]
    found = answers("hex 3C1 open\nunit G2 german squad 4-6-7 at 3C1 normal\nunit R2 russian squad 4-4-7 at 3C5\n"
                    "roll concealment G2 6\nquery gains_concealment G2\n")
    assert found["gains_concealment G2"].value is False and found["gains_concealment G2"].undecided == []


def test_an_unstated_range_off_the_board_and_an_unstated_terrain_are_named():
    found = answers("hex 3A1 woods\nunit G1 german squad 4-6-7 at 3A1\nunit R1 russian squad 4-4-7 at 4A9\n"
                    "los G1 R1 clear\nquery gains_concealment G1\n")
    assert found["gains_concealment G1"].undecided[0] == "add: range G1 R1 N"
    found = answers("unit G1 german squad 4-6-7 at 3A1 normal\nunit R1 russian squad 4-4-7 at 3A5\n"
                    "los G1 R1 blocked\nroll concealment G1 3\nquery gains_concealment G1\n")
    assert found["gains_concealment G1"].undecided == ["one of: hex 3A1 open | woods"]


def test_an_unstated_los_from_where_a_concealed_unit_moves_is_named():
    found = answers("hex 3G5 open\nunit G1 german squad 4-6-7 at 3G1 concealed\nunit R1 russian squad 4-4-7 at 3G9\n"
                    "move M1 G1 to 3G5\nquery concealment_lost G1\n")
    assert found["concealment_lost G1"].undecided == ["one of: los 3G5 R1 clear | blocked | hindrance N"]
    found = answers("hex 3G5 open\nunit G1 german squad 4-6-7 at 3G1 concealed\nunit R1 russian squad 4-4-7 at 4G9\n"
                    "move M1 G1 to 3G5\nlos 3G5 R1 clear\nquery concealment_lost G1\n")  # two boards: the range
    assert found["concealment_lost G1"].undecided == ["add: range 3G5 R1 N"]


def test_an_unstated_validity_of_fire_is_named_where_it_changes_the_encirclement():
    found = answers("unit R2 russian squad 4-4-7 at 3C1\nunit G4 german squad 4-6-7 at 3D1\n"
                    "unit G5 german squad 4-6-7 at 3D2\nattack A4 by G4 at R2 hexside 1 nmc_possible\n"
                    "attack A5 by G5 at R2 hexside 4\nquery encircled R2\n")
    assert found["encircled R2"].undecided == ["add: nmc_possible on the line of attack A5"]


def test_an_unstated_counter_is_named_where_its_morale_decides_the_pin():
    found = answers("hex 3A1 open\nunit R1 russian squad 4-4-7 at 3B1\nunit G2 german squad at 3A2\n"
                    "attack A2 by R1 at G2 mc 0\nroll mc G2 colored 3 white 4\nquery pinned G2\n")
    assert found["pinned G2"].undecided == ["add: its strength (FP-range-morale) on the line of unit G2"]


def test_an_unprinted_firers_fp_is_named_as_the_attacks_fp():
    found = answers("hex 3A1 open\nunit V1 german vehicle at 3A1\nunit R1 russian squad 4-4-7 at 3A5\n"
                    "attack A1 by V1 at R1 mg\nquery fp A1\nquery column A1\n")
    assert found["fp A1"].undecided == ["add: fp N on the line of attack A1"]
    assert found["column A1"].undecided == ["add: fp N on the line of attack A1"]
