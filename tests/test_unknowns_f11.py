"""The F11 desert rules leave nothing undecided by hand: the scenario facts
their conditions turn on (region, boards, Weather, EC, Wind) and an attack's
direction or range, a move's cost, are open where a question reaches them
(rules/common/unknowns.lp, F11), and an undecided answer names exactly the
statement to add."""
from __future__ import annotations

from answer_helpers import answers


def test_the_weather_is_named_where_the_table_turns_on_it_and_only_there():
    found = answers("scenario region north_africa desert_boards some time late_afternoon\n"
                    "query in_effect sun_blindness\n")
    assert found["in_effect sun_blindness"].undecided == ["add: scenario weather N"]
    # by night Sun Blindness fails whatever the Weather and boards: no question
    found = answers("scenario night region north_africa time late_afternoon\nquery in_effect sun_blindness\n")
    assert found["in_effect sun_blindness"].value is False and found["in_effect sun_blindness"].undecided == []


def test_desert_mud_names_the_weather_and_the_ec_and_mud_weather_decides_it():
    found = answers("scenario region north_africa desert_boards all\nquery in_effect desert_mud\n")
    assert found["in_effect desert_mud"].undecided == ["add: scenario ec N", "add: scenario weather N"]
    found = answers("scenario region north_africa desert_boards all weather mud\nquery in_effect desert_mud\n")
    assert found["in_effect desert_mud"].value is True


def test_an_unstated_weather_is_not_rain_and_leaves_e1_alone():
    # Rain commences in play (F11.77): a stated Dust stands without a Weather
    found = answers("scenario desert_boards all ec dry dust light wind breeze\nquery dust_density\n")
    assert found["dust_density"].value == "light"
    # E1.11 reads an unstated Weather as stated (no Overcast, no Falling Snow):
    # a DYO night's Cloud Cover is decided beside an F11 question that opens
    # the region
    found = answers("scenario night dyo month october\nroll nvr_table colored 1 white 1\n"
                    "query cloud_cover\nquery in_effect arid_weather_chart\n")
    assert found["cloud_cover"].value == "none" and found["cloud_cover"].undecided == []
    assert found["in_effect arid_weather_chart"].undecided == ["add: scenario region N"]


def test_the_range_the_direction_the_cost_and_the_wind_are_statements_to_add():
    desert = "scenario region north_africa desert_boards all weather clear ec dry "
    units = "unit G1 german squad 4-6-7 at 3A1\nunit R1 british squad 4-5-7\n"
    found = answers(desert + "heat_haze normal\n" + units + "attack A1 by G1 at R1\nquery drm A1 heat_haze\n")
    assert found["drm A1 heat_haze"].undecided == ["add: range N on the line of attack A1"]
    found = answers(desert + "time early_morning\n" + units + "attack A1 by G1 at R1\nquery drm A1 sun_blindness\n")
    assert found["drm A1 sun_blindness"].undecided[0] == "add: direction N on the line of attack A1"
    found = answers("scenario desert_boards all ec dry\nunit V1 german vehicle at 3B1 tracked\n"
                    "move M1 V1 to 3B2\nquery vehicle_dust M1\n")
    assert found["vehicle_dust M1"].undecided == ["add: cost N on the line of move M1"]
    found = answers("scenario desert_boards all ec dry dust moderate\n" + units
                    + "attack A1 by G1 at R1 range 3\nquery drm A1 heavy_wind\n")
    assert found["drm A1 heavy_wind"].undecided[0] == "add: scenario wind N"


def test_a_stated_range_between_firer_and_target_opens_no_range():
    found = answers("scenario region north_africa desert_boards some weather clear heat_haze normal\n"
                    "unit G1 german squad 4-6-7 at 3A1\nunit R1 british squad 4-5-7\nrange G1 R1 19\n"
                    "attack A1 by G1 at R1\nquery drm A1 heat_haze\n")
    assert found["drm A1 heat_haze"].value == 2


F11_76 = "F11.76 damaged: the rule is cut after 'Wind-Force/'; only its EX shows how Dust follows the Wind"


def test_a_wind_change_the_ex_does_not_show_is_a_gap_named_by_f11_76_however_far_it_flows():
    # a third successive turn of Heavy Winds and Gusts: the density after it
    # is any the text knows; the answers it changes name F11.76, those every
    # density gives alike are decided (a CC attack: no Dust DRM, F11.794)
    found = answers("scenario desert_boards all ec dry wind mild_breeze dust none\n"
                    + "".join(f"wind_change {n} heavy_wind gusts\n" for n in (1, 2, 3))
                    + "wind_change 4 breeze\n"
                    "unit G1 german squad 4-6-7 at 3A1\nunit R1 british squad 4-5-7 at 3A3\n"
                    "unit R2 british squad 4-5-7 at 3A1\nunit U1 british squad 4-5-7 broken\n"
                    "attack A1 by G1 at R1 range 2\nattack C by G1 at R2 cc\nroll dust A1 4\n"
                    "query dust_density\nquery drm A1 dust\nquery drm C dust\nquery interdiction_drm U1\n")
    assert found["dust_density"].undecided == [F11_76]
    assert found["drm A1 dust"].undecided == [F11_76]
    assert found["drm C dust"].value == 0 and found["drm C dust"].undecided == []
    # Heavy Dust's own cut text (F11.711) is named beside it, not instead
    assert found["interdiction_drm U1"].undecided[0] == F11_76
    # the step the EX shows decides: Moderate Dust after two turns
    found = answers("scenario desert_boards all ec dry wind mild_breeze dust none\n"
                    "wind_change 1 heavy_wind gusts\nwind_change 2 heavy_wind gusts\nquery dust_density\n")
    assert found["dust_density"].value == "moderate"
