"""Gaps the rule text leaves in the night class (E1.6) and in the loss of "?"
(A12.14): an answer that turns on one, however many rules away, is undecided
and gives the text's reason; one that every side gives alike is decided.
Upper-level Encirclement (A7.72), once such a gap, is an open fact the file
may state (`not_encircled`): an answer that turns on it asks for it."""
from __future__ import annotations

from answer_helpers import answers

NIGHT = "scenario night nvr 2 year 1944\n"
E161_E162 = ("E1.61 and E1.62 disagree and no interpretation in force decides "
             "(interpretation: lax_over_stealthy)")
E16_E1533 = ("E1.6 and E1.533 disagree and no interpretation in force decides "
             "(interpretation: berserk_lax_over_ssr)")


def test_a_class_conflict_reaches_straying_with_its_reason_and_only_where_it_matters():
    found = answers(NIGHT + "interpretation lax_over_stealthy off\n"
                    "unit F1 finnish squad 6-4-8 at 3G4 inexperienced\nmove M1 F1 to 3G5\n"
                    "roll movement F1 colored 6 white 3\n"
                    "unit F2 finnish squad 6-4-8 at 3H4 inexperienced\nunit L2 finnish leader 8-1 at 3H4\n"
                    "move M2 F2 to 3H5\nroll movement F2 colored 6 white 2\n"
                    "query night_class F1\nquery strays F1\nquery strays F2\n")
    assert found["night_class F1"].undecided == [E161_E162]
    assert found["strays F1"].value is None and found["strays F1"].undecided == [E161_E162]
    # Lax, and so Normal beside the leader (E1.63), or Stealthy: neither Strays on white 2
    assert found["strays F2"].value is False and found["strays F2"].undecided == []


def test_a_class_conflict_reaches_jitter_fire_and_the_concealment_dr():
    found = answers(NIGHT.replace("\n", " attacker russian gunflash_placed\n")
                    + "interpretation lax_over_stealthy off\n"
                    "hex 3G7 open\nunit R1 russian squad 4-4-7 at 3G4 lax\nunit F1 finnish squad 6-4-8 at 3G7 inexperienced\n"
                    "move M1 R1 to 3G5\nroll movement R1 colored 6 white 1\nroll straying R1 colored 2 white 2\n"
                    "query jitter_fire R1\nquery concealment_drm F1\n")
    assert found["jitter_fire R1"].undecided == [E161_E162]
    assert found["concealment_drm F1"].undecided == [E161_E162]


def test_a_berserk_units_ssr_class_conflict_reaches_the_search_drm():
    found = answers(NIGHT + "interpretation berserk_lax_over_ssr off\n"
                    "unit B1 japanese squad 4-4-7 at 3B1 berserk normal concealed\n"
                    "unit B2 japanese squad 4-4-7 at 3A1 berserk stealthy\nmove M1 B2 to 3A2\n"
                    "query search_casualties_drm 3B1\nquery night_class B1\nquery strays B2\n")
    assert found["search_casualties_drm 3B1"].undecided == [E16_E1533]
    assert found["night_class B1"].undecided == [E16_E1533]
    assert found["strays B2"].value is False  # a berserk unit makes no Movement DR, whatever its class


def test_the_cut_outcome_of_a12_14_is_a_gap_named_by_its_reason_and_a_night_move_follows_e1_31():
    found = answers("hex 3A1 open\nhex 3A2 open\n"
                    "unit G1 german squad 4-6-7 at 3A1 concealed\nunit G2 german squad 4-6-7 at 3A2 concealed\n"
                    "unit R1 russian squad 4-4-7 at 3A5 concealed\nunit R2 russian squad 4-4-7 at 3A9\n"
                    "los G1 R1 clear\nlos G2 R1 clear\nlos G1 R2 blocked\nlos G2 R2 blocked\n"
                    "attack A1 by G1 at R2\nattack A2 by G2 at R2\nattack A4 by R2 at G2 mc 0\n"
                    "query concealment_lost G1\nquery concealment_lost G2\n")
    assert found["concealment_lost G1"].undecided == [
        "concealment_table: when the only Good Order enemy in LOS is itself concealed, A12.14 is cut before the outcome"]
    assert found["concealment_lost G2"].value is True  # its NMC loses the "?" however the cut text ends
    found = answers(NIGHT + "hex 3A1 open\nhex 3B1 open\nunit G1 german squad 4-6-7 at 3A1 concealed\n"
                    "unit R1 russian squad 4-4-7 at 3A4\nmove M1 G1 to 3B1\nquery concealment_lost G1\n")
    # E1.31: moving at night into a dark hex costs no "?" (it was a gap, "E1.31 not encoded")
    assert found["concealment_lost G1"].value is False and found["concealment_lost G1"].undecided == []


def test_the_unstated_upper_level_path_reaches_morale_and_pin_only_where_it_matters():
    found = answers("hex 3C1 building\nhex 3A1 open\n"
                    "unit R1 russian squad 4-4-7 at 3C1 level 1\nunit G1 german squad 4-6-7 at 3A1\n"
                    "attack A1 by G1 at R1 mc 1\nroll mc R1 colored 2 white 3\nattack B1 by R1 at G1\n"
                    "query pinned R1\nquery drm B1 encirclement\n")
    # A7.72: the path to ground level is stated (not_encircled, or the encircled counter), else asked for
    path = ["one of: encircled | not_encircled on the line of unit R1"]
    assert found["pinned R1"].undecided == path  # 6: pinned at 6, not at 7
    assert found["drm B1 encirclement"].undecided == path
    found = answers("hex 3C1 building\nhex 3A1 open\n"
                    "unit R1 russian squad 4-4-7 at 3C1 level 1\nunit G1 german squad 4-6-7 at 3A1\n"
                    "attack A1 by G1 at R1 mc 1\nroll mc R1 colored 1 white 1\nquery pinned R1\n")
    assert found["pinned R1"].value is False and found["pinned R1"].undecided == []
