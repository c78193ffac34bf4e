"""E1.3-E1.94 (night combat and movement) read their missing facts as open
facts of rules/common/unknowns.lp: decided where every value agrees, else
undecided naming exactly the statement to add."""
from __future__ import annotations

from answer_helpers import answers


NIGHT = "scenario night nvr 2 year 1944\n"


def test_e1_7_names_the_missing_hex_or_height():
    found = answers(NIGHT + "hex 3A1 open\nhex 3E1 woods\nhex 3G2 grain\n"
                    "unit G1 german squad 4-6-7 at 3A1\nunit GX german squad 4-6-7\n"
                    "unit R5 russian squad 4-4-7 at 3E1\nunit RX russian squad 4-4-7\n"
                    "unit R14 russian squad 4-4-7 at 3G2\n"
                    "attack W by GX at R5\nattack T by G1 at RX\nattack G by G1 at R14\n"
                    "query drm W night_lv\nquery drm T night_lv\nquery drm G night_lv\n")
    assert found["drm W night_lv"].value == 0 and found["drm W night_lv"].undecided == []
    assert found["drm T night_lv"].undecided == ["add: at HEX on the line of unit RX"]
    assert found["drm G night_lv"].undecided == ["add: hex 3G2 height N"]


def test_illumination_reads_the_range_off_the_board_and_opens_it_across_boards():
    found = answers("scenario night nvr 2 starshell_fired\nhex 3G5 open starshell\nhex 3G8 open\nhex 3G9 open\n"
                    "hex 12G8 open\nquery illuminated 3G8\nquery illuminated 3G9\nquery illuminated 12G8\n")
    assert found["illuminated 3G8"].value is True
    assert found["illuminated 3G9"].value is False
    assert found["illuminated 12G8"].undecided == ["add: hex 12G8 illuminated"]


def test_e1_76_and_e1_87_name_the_san_and_the_observers_los():
    found = answers("edition asl\nscenario night nvr 2\nunit G1 german squad 4-6-7 at 3A1 radio\n"
                    "query san finnish\nquery sr_in_view G1 3E1\n")
    assert found["san finnish"].undecided == ["add: scenario san finnish N"]
    assert found["sr_in_view G1 3E1"].undecided == ["one of: los G1 3E1 clear | blocked | hindrance N"]


def test_e1_51_and_e1_52_name_the_cost_the_terrain_the_hexside_and_the_vehicles_hex():
    found = answers(NIGHT + "hex 3E2 woods\nunit G1 german squad 4-6-7 at 3C1\nunit G3 german squad 4-6-7 at 3F2\n"
                    "unit V4 german vehicle tracked\nunit G6 german squad 4-6-7 at 3B1\nhex 3B2 open\n"
                    "move M1 G1 to 3C2 cost 1\nmove M3 G3 to 3E2 bypass cost 1\nmove M4 V4 to 3D2 cost 2\n"
                    "move M6 G6 to 3B2\n"
                    "query mf_cost M1\nquery mf_cost M3\nquery mf_cost M4\nquery mf_cost M6\n")
    assert found["mf_cost M1"].undecided == ["one of: hex 3C2 open | woods"]
    assert found["mf_cost M3"].undecided == ["add: open_ground_hexside on the line of move M3"]
    assert found["mf_cost M4"].undecided == ["add: at HEX on the line of unit V4"]
    assert found["mf_cost M6"].undecided == ["add: cost N on the line of move M6"]


def test_e1_31_and_e1_54_name_the_enemys_los_and_the_terrain_entered():
    found = answers(NIGHT + "hex 3B2 open illuminated\nunit G1 german squad 4-6-7 at 3B1 concealed\n"
                    "unit R1 russian squad 4-4-7 at 3B6\nmove M1 G1 to 3B2\nquery loses_concealment M1\n")
    assert found["loses_concealment M1"].undecided == ["one of: los R1 3B2 clear | blocked | hindrance N"]
    found = answers(NIGHT + "unit R3 russian squad 4-4-7 at 3F9 broken\nmove M3 R3 to 3F8\n"
                    "query rout_open_ground M3\n")
    assert found["rout_open_ground M3"].undecided == ["add: hex 3F8 open"]


def test_e1_922_names_the_los_and_e1_921_gives_the_usage_odds():
    found = answers("scenario night nvr 2 starshell_fired\nunit S1 british squad 4-4-7 at 3A1\n"
                    "unit R1 german squad 4-6-7 at 3A3\nunit L1 british leader 8-0 at 3C1\n"
                    "roll starshell_usage S1 1\nquery starshell_methods S1\nquery may_fire_starshell L1\n")
    assert found["starshell_methods S1"].undecided == ["one of: los S1 R1 clear | blocked | hindrance N"]
    assert found["may_fire_starshell L1"].undecided == []
    assert sum(found["may_fire_starshell L1"].distribution.values()) == 1


def test_e1_6_names_the_majority_squad_type():
    found = answers(NIGHT + "unit C2 russian cloaking at 3A2\nquery night_class C2\n")
    assert found["night_class C2"].undecided == ["add: scenario majority russian N"]


def test_e1_551_names_the_range_to_a_defender_off_the_board():
    found = answers(NIGHT + "scenario gunflash_placed\nhex 3G5 woods\nunit G1 german squad 4-6-7 at 3G4\n"
                    "unit R1 russian squad 4-4-7 at 3G7\nunit R4 russian squad 4-4-7 at 12A7\n"
                    "move M1 G1 to 3G5\nroll movement G1 colored 6 white 6\nroll straying G1 colored 1 white 1\n"
                    "query jitter_fire G1\n")
    # R4's range decides whether it is the Closest DEFENDER (E1.551), and with
    # its LOS whether it is a Known enemy that spares G1 the Movement DR (E1.531)
    assert found["jitter_fire G1"].undecided == ["one of: los G1 R4 clear | blocked | hindrance N", "add: range G1 R4 N"]
