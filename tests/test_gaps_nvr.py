"""The gaps of the night-visibility rule text (issue 15): where E1's text is
damaged or silent, its rule file opens a gap, and an answer that turns on it,
however many rules away, is undecided with the text's own reason; one that
every side of the gap gives alike is decided."""
from __future__ import annotations

from answer_helpers import answers

ROW5_OFF = "interpretation nvr_row5_as_row6 off\ninterpretation nvr_row5_as_row34 off\n"
ROW5_COLORED = "E1.11 damaged: the NVR Table row for a Final colored dr of 5 is missing"
ROW5_WHITE = "E1.11 damaged: the NVR Table row for a white dr of 5 is missing"


def test_the_missing_nvr_table_row_reaches_the_nvr_with_its_reason():
    found = answers("scenario night dyo month june\nroll nvr_table colored 5 white 1\n" + ROW5_OFF +
                    "unit G1 german squad 4-6-7 at 3A1\nunit R1 russian squad 4-4-7 at 3A2\n"
                    "unit R2 russian squad 4-4-7 at 3A6\nquery cloud_cover\nquery base_nvr\n"
                    "query within_nvr G1 R1\nquery within_nvr G1 R2\n")
    for query in ("cloud_cover", "base_nvr", "within_nvr G1 R2"):
        assert found[query].value is None
        assert found[query].undecided[0].startswith(ROW5_COLORED), query
    assert found["within_nvr G1 R1"].value is True  # Base NVR 3, 4 or 5: an adjacent unit is within it


def test_the_missing_white_row_reaches_the_nvr_change_exception():
    found = answers("scenario night dyo month june starshell_fired\nroll nvr_table colored 3 white 5\n"
                    "roll nvr_change colored 6 white 5\nroll nvr_change_amount 1\n" + ROW5_OFF +
                    "query base_nvr\nquery cloud_cover\n")
    assert found["base_nvr"].value is None and found["base_nvr"].undecided[0].startswith(ROW5_WHITE)
    assert found["cloud_cover"].value == "scattered"


def test_a_row_an_interpretation_gives_opens_no_gap():
    found = answers("scenario night dyo month june\nroll nvr_table colored 5 white 1\n"
                    "interpretation nvr_row5_as_row6\nquery base_nvr\n")
    assert found["base_nvr"].value == 3  # Overcast, Full Moon: 3 + 0


def test_the_damaged_wheeled_multiple_is_named_where_it_matters():
    found = answers("scenario night nvr 2\ninterpretation vehicular_nvr_one_and_half off\n"
                    "interpretation vehicular_nvr_literal_half off\nunit G1 german squad 4-6-7 at 3A1\n"
                    "unit W1 russian vehicle at 3D1 wheeled in_motion\nunit W2 russian vehicle at 3E1 wheeled in_motion\n"
                    "range G1 W1 3\nrange G1 W2 4\nlos G1 W1 clear\n"
                    "query within_nvr G1 W1\nquery may_fire G1 W1\nquery within_nvr G1 W2\n")
    for query in ("within_nvr G1 W1", "may_fire G1 W1"):
        assert found[query].undecided == ["E1.14 damaged: the multiple of the NVR for a wheeled vehicle reads "
                                          "'½ times (FRU)', very likely '1½' with the 1 lost; interpretations on "
                                          "E1.14: vehicular_nvr_literal_half, vehicular_nvr_one_and_half, "
                                          "vehicular_nvr_zero_as_distance"], query
    assert found["within_nvr G1 W2"].value is False  # beyond 1 and 3 hexes alike


def test_a_reach_the_rules_do_not_encode_is_a_gap_named_downstream():
    # E1.942: a Flame in a building lights its own Location, which the file does not give
    found = answers("scenario night nvr 1\nhex 3K5 building flame\nunit G1 german squad 4-6-7 at 3K7\n"
                    "unit R2 russian squad 4-4-7 at 3K5\nunit R3 russian squad 4-4-7 at 3K4 concealed\n"
                    "move M1 R3 to 3K5 assault\nquery within_nvr G1 R2\nquery may_fire G1 R2\n"
                    "query target_acquisition R2\nquery loses_concealment M1\n")
    for query in ("within_nvr G1 R2", "target_acquisition R2"):
        assert found[query].undecided == ["E1.942 not encoded"], query
    assert "E1.942 not encoded" in found["may_fire G1 R2"].undecided  # and the LOS not stated
    assert found["loses_concealment M1"].value is False  # Assault Movement keeps "?" lit or dark


def test_the_missing_list_of_first_starshell_events_reaches_the_methods():
    found = answers("scenario night nvr 2\nunit L1 british leader 8-0 at 3A1\nunit L2 british leader 8-0 at 3A2\n"
                    "roll starshell_usage L1 1\nroll starshell_usage L2 6\nquery starshell_methods L1\n"
                    "query starshell_methods L2\nquery may_fire_starshell L1\n")
    events = "E1.91 damaged: the list of the three events that allow the first Starshell/IR is missing"
    assert found["starshell_methods L1"].undecided == [events]
    assert found["may_fire_starshell L1"].undecided == [events]
    assert found["starshell_methods L2"].value == []  # its Usage dr fails: no method either way


def test_no_gap_opens_once_a_starshell_has_been_fired():
    found = answers("scenario night nvr 2 starshell_fired\nunit L1 british leader 8-0 at 3A1\n"
                    "roll starshell_usage L1 1\nquery may_fire_starshell L1\n")
    assert found["may_fire_starshell L1"].value is True


def test_the_canadian_recon_drm_is_a_gap_the_final_dr_names():
    unsaid = "recon_nation: whether E1.23's British drm covers Canadians and ANZAC is not said"
    found = answers("scenario night nvr 3 attacker canadian majority canadian normal\nroll recon 3\n"
                    "query recon_drm\nquery recon_hexes\n")
    assert found["recon_drm"].undecided == [unsaid] and found["recon_hexes"].undecided == [unsaid]
    by_day = answers("scenario attacker canadian\nquery recon_hexes\n")["recon_hexes"]
    assert by_day.undecided == ["E1.23: Recon is a night rule"]
