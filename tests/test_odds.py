"""Exact odds when a roll is not given (kb/engine/odds.py, `aslkb odds`, distribution expects)."""
from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from aslkb.answers.ask import ask, holds, settle
from aslkb.cli.main import main
from aslkb.base.errors import SituationError
from aslkb.parser import UNDECIDED, Distribution, parse
from aslkb.knowledge.program import knowledge_base
from aslkb.render import plot
from aslkb.render.text import chart_rows

DYO = "scenario night dyo month october\n"


def answer(text: str, *switch_on: str):
    situation = parse(text)
    kb = knowledge_base()
    return ask(situation, settle(situation, kb, switch_on=switch_on), kb).answers[0]


def test_a_missing_roll_gives_exact_odds_that_add_up_to_one():
    base = answer(DYO + "query base_nvr\n", "nvr_row5_as_row6")
    assert base.value is None
    assert base.distribution == {1: Fraction(1, 9), 2: Fraction(2, 9), 3: Fraction(1, 3),
                                 4: Fraction(2, 9), 5: Fraction(1, 9)}
    assert sum(base.distribution.values()) == 1
    assert "E1.11" in base.rules


def test_what_the_rules_cannot_decide_under_some_dice_is_its_own_outcome():
    # E1.21 EXC: the best leader is freed on a dr of 1 or 2; on another his
    # Freedom of Movement may have been gained earlier (not encoded)
    freed = answer("scenario night nvr 2 attacker german defender russian\n"
                   "unit G1 german squad 4-6-7 at 3A1\nunit R1 russian squad 4-4-7 at 3A3\n"
                   "unit L1 russian leader 9-1 at 3M5 elr 3\nattack A1 by G1 at R1\nquery free_to_move L1\n")
    assert freed.distribution[UNDECIDED] == Fraction(2, 3)
    assert any("Freedom of Movement gained earlier" in reason for reason in freed.undecided)


def test_a_gap_of_the_text_under_a_missing_roll_is_the_undecided_share_of_the_odds():
    # E1.11's missing row 5, reached under a colored 5: the dice that land on
    # it decide nothing (a gap of the text), the others weigh as printed
    cloud = answer(DYO + "query cloud_cover\n")
    assert cloud.distribution == {"none": Fraction(1, 3), "scattered": Fraction(1, 3), "overcast": Fraction(1, 6),
                                  UNDECIDED: Fraction(1, 6)}
    assert any("E1.11 damaged" in reason for reason in cloud.undecided)


def test_a_fact_the_gap_hides_is_still_named():
    # without the month, the +1 colored drm of winter changes which face
    # gives which row: the month is asked for, not silently taken
    cloud = answer("scenario night dyo\nquery cloud_cover\n")
    assert cloud.distribution is None
    assert "add: scenario month N" in cloud.undecided and any("E1.11 damaged" in r for r in cloud.undecided)


@pytest.mark.parametrize("colored, expected", [
    (5, {"value": 4}),  # no change: the amount dr is not needed, so nothing is enumerated
    (6, {"distribution": {3: Fraction(1, 3), 2: Fraction(1, 3), 1: Fraction(1, 3)}}),
])
def test_a_subsequent_roll_is_enumerated_only_where_it_is_needed(colored, expected):
    # E1.12: the amount dr (Scattered + Full Moon: dr/2 FRU) follows only a colored 6
    base = answer(f"scenario night nvr 4 clouds scattered moon full\n"
                  f"roll nvr_change colored {colored} white 2\nquery base_nvr\n")
    assert {"value": base.value} == expected or {"distribution": base.distribution} == expected


def test_an_answer_the_missing_roll_does_not_change_stays_a_value():
    assert answer(DYO + "scenario san german 3\nquery san german\n").value == 5


def test_distribution_expectations_parse_exactly():
    [expect] = parse(DYO + "expect cloud_cover = none 1/3, scattered 1/3, overcast 1/6, undecided 1/6\n").expects
    assert expect.expected == Distribution((("none", Fraction(1, 3)), ("scattered", Fraction(1, 3)),
                                            ("overcast", Fraction(1, 6)), (UNDECIDED, Fraction(1, 6))))


@pytest.mark.parametrize("line, message", [
    ("expect cloud_cover = none 1/3, scattered 1/3\n", "add up to 2/3, not 1"),
    ("expect cloud_cover = none 1/2, none 1/2\n", "given twice"),
    ("expect cloud_cover = none 0/1, scattered 1/1\n", "above 0 and at most 1"),
    ("expect base_nvr = lots 1/1\n", "cannot be the answer"),
])
def test_malformed_distributions_are_refused(line, message):
    with pytest.raises(SituationError, match=message):
        parse(DYO + line)


def test_holds_compares_distributions_exactly():
    base = answer(DYO + "query base_nvr\n", "nvr_row5_as_row6")
    right = parse(DYO + "expect base_nvr = 1 1/9, 2 2/9, 3 1/3, 4 2/9, 5 1/9\n").expects[0].expected
    wrong = parse(DYO + "expect base_nvr = 1 1/9, 2 2/9, 3 2/9, 4 1/3, 5 1/9\n").expects[0].expected
    assert holds(right, base) and not holds(wrong, base)
    certain = answer(DYO + "scenario san german 3\nquery san german\n")
    assert holds(parse(DYO + "expect san german = 5 1/1\n").expects[0].expected, certain)


def test_query_json_gives_null_and_the_distribution(tmp_path, capsys):
    path = tmp_path / "dyo.sit"
    path.write_text(DYO + "query base_nvr\n")
    assert main(["query", "--json", "--interpretation", "nvr_row5_as_row6", str(path)]) == 0
    [base] = json.loads(capsys.readouterr().out)["answers"]
    assert base["value"] is None
    assert base["distribution"] == {"1": "1/9", "2": "2/9", "3": "1/3", "4": "2/9", "5": "1/9"}


def test_odds_prints_a_table_and_draws_a_chart(tmp_path, capsys):
    path = tmp_path / "dyo.sit"
    path.write_text(DYO)
    chart = tmp_path / "nvr.svg"
    assert main(["odds", str(path), "base_nvr", "--interpretation", "nvr_row5_as_row6",
                 "--plot", str(chart)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "base_nvr"
    assert [line.split()[:3] for line in out[1:6]] == [
        ["1", "1/9", "11.1%"], ["2", "2/9", "22.2%"], ["3", "1/3", "33.3%"], ["4", "2/9", "22.2%"],
        ["5", "1/9", "11.1%"]]
    svg = chart.read_text()
    assert svg.startswith("<svg") and svg.count("<rect") == 6 and "1/3 (33.3%)" in svg


def test_the_plot_orders_scales_and_colours_its_bars_as_the_playground_does(tmp_path, capsys):
    """Issue 36: the bars were scaled to absolute share (2d6 odds were stubs),
    and `undecided` came where its chance put it, in the colour of the rest.
    Now numbers ascend, undecided comes last in ochre, the largest bar spans the chart."""
    path = tmp_path / "dyo.sit"
    path.write_text(DYO)  # the row of a 5 is damaged: 11/36 of the rolls decide nothing
    chart = tmp_path / "nvr.svg"
    assert main(["odds", str(path), "base_nvr", "--plot", str(chart)]) == 0
    table = [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:7]]
    bars = re.findall(r'<text x="[\d.]+" y="[\d.]+" text-anchor="end">([^<]+)</text>\n'
                      r'<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="\d+" fill="(#[0-9a-f]+)"/>',
                      chart.read_text())
    assert [label for label, _, _ in bars] == ["1", "2", "3", "4", "5", "undecided"] == table
    widths = [float(width) for _, width, _ in bars]
    span = plot.WIDTH - plot.LABEL - 2 * plot.MARGIN - 110
    assert max(widths) == span == widths[-1]  # 11/36, the largest share, spans the chart
    assert widths[0] == pytest.approx(span * (1 / 36) / (11 / 36), abs=0.1)
    assert {colour for label, _, colour in bars if label != "undecided"} == {"#2d5d8a"} and bars[-1][2] == "#c9a55a"


def test_chart_rows_put_numbers_in_order_and_words_by_chance_then_undecided():
    assert chart_rows({UNDECIDED: Fraction(1, 2), 3: Fraction(1, 4), 1: Fraction(1, 4)}) == [
        ("1", Fraction(1, 4)), ("3", Fraction(1, 4)), ("undecided", Fraction(1, 2))]
    assert chart_rows({True: Fraction(1, 9), UNDECIDED: Fraction(1, 9), False: Fraction(7, 9)}) == [
        ("no", Fraction(7, 9)), ("yes", Fraction(1, 9)), ("undecided", Fraction(1, 9))]


def test_odds_json_says_what_would_decide_an_answer_it_cannot_weigh(tmp_path, capsys):
    path = tmp_path / "no-month.sit"
    path.write_text("scenario night dyo\n")  # the month changes which face gives which row: asked for
    assert main(["odds", str(path), "cloud_cover", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert "distribution" not in found
    assert "add: scenario month N" in found["undecided"] and "E1.11" in found["rules"]
    path.write_text(DYO)  # the month given: odds, a sixth of them undecided (row 5)
    assert main(["odds", str(path), "cloud_cover", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["distribution"]["undecided"] == "1/6" and "E1.11 damaged" in found["undecided"]


def test_odds_of_an_unknown_query_argument_is_a_usage_error(tmp_path, capsys):
    path = tmp_path / "dyo.sit"
    path.write_text(DYO)
    assert main(["odds", str(path), "strays", "G9"]) == 2
    assert "query 'strays G9'" in capsys.readouterr().err
