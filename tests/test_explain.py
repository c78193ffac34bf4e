"""Why and why not (kb/explain.py, kb/tree.py, `aslkb explain`, `query --explain`),
on the E1.7 EX situation the issue names."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from aslkb.cli import main

EX = str(Path(__file__).parent / "cases" / "asl" / "E1.7-EX.sit")


def explain(capsys, *args) -> tuple[int, str]:
    code = main(["explain", *args])
    return code, capsys.readouterr().out


def walk(nodes):
    for node in nodes:
        yield node
        yield from walk(node.get("because", []))


def test_why_shows_the_height_exception_that_applied(capsys):
    code, out = explain(capsys, EX, "drm", "A1", "night_lv")
    assert code == 0
    assert out.splitlines()[0] == "drm A1 night_lv = 0"
    assert "E1.7 EXC: the target hex holds terrain whose topmost height is at least a full level above" in out
    assert "tests/cases/asl/E1.7-EX.sit:10" in out  # down to the woods hex statement


def test_why_not_shows_the_rule_that_would_give_plus_one_and_the_failed_condition(capsys):
    _, out = explain(capsys, EX, "drm", "A1", "night_lv")
    why_not = out.split("why not:")[1]
    assert "E1.7: night attacks receive a +1 LV Hindrance DRM: would give drm(A,night_lv,1)" in why_not
    assert '`not night_lv_exempt("A1")` fails' in why_not


def test_where_the_plus_one_applies_the_height_exception_is_shown_failing(capsys):
    _, out = explain(capsys, EX, "drm", "A3", "night_lv")
    assert out.splitlines()[0] == "drm A3 night_lv = 1"
    assert 'not night_lv_exempt("A3"): holds' in out
    # G3 on the building's first level: the woods' top (2 half levels) is not 2*(1+1) above it
    assert "`2 >= (2*(1+1))` fails" in out


def test_json_is_a_nested_structure(capsys):
    _, out = explain(capsys, EX, "drm", "A1", "night_lv", "--json")
    data = json.loads(out)
    assert data["query"] == "drm A1 night_lv" and data["value"] == 0
    kinds = {node["kind"] for node in walk(data["why"])}
    assert {"atom", "exception", "fact"} <= kinds
    assert any(n.get("rule") == "E1.7" and n["kind"] == "why_not" for n in walk(data["why_not"]))


def test_an_undecided_answer_names_what_is_missing(tmp_path, capsys):
    path = tmp_path / "row5.sit"
    path.write_text("scenario night dyo month october\nroll nvr_table colored 5 white 2\n")
    _, out = explain(capsys, str(path), "cloud_cover")
    assert out.startswith("cloud_cover = undecided: E1.11 damaged")
    assert "E1.11: the NVR Table has no Final dr 5 row in the source text" in out


def test_an_interpretation_that_decided_the_answer_is_shown(tmp_path, capsys):
    path = tmp_path / "row5.sit"
    path.write_text("scenario night dyo month october\nroll nvr_table colored 5 white 2\n")
    _, out = explain(capsys, str(path), "cloud_cover", "--interpretation", "nvr_row5_as_row6")
    assert out.startswith("cloud_cover = overcast")
    assert "[interpretation nvr_row5_as_row6]" in out and "rules/interpretations/nvr_row5_as_row6.lp" in out


def test_dot_is_written_and_svg_drawn_when_graphviz_is_there(tmp_path, capsys):
    svg = tmp_path / "why.svg"
    code = main(["explain", EX, "drm", "A1", "night_lv", "--svg", str(svg)])
    err = capsys.readouterr().err
    assert code == 0
    dot = (tmp_path / "why.dot").read_text()
    assert dot.startswith("digraph explanation") and 'label="why not"' in dot
    if shutil.which("dot"):
        assert svg.read_text().lstrip().startswith("<?xml") or "<svg" in svg.read_text()
    else:
        assert "Graphviz `dot` program is not installed" in err


def test_query_explain_gives_the_chain_of_rule_ids(capsys):
    example = str(Path(__file__).parent.parent / "examples" / "first-night.sit")
    main(["query", "--explain", example])
    lines = capsys.readouterr().out.splitlines()
    exempt = lines.index("drm A2 night_lv = 0")
    chain = next(line for line in lines[exempt:] if line.strip().startswith("because:"))
    assert chain.strip().startswith("because: E1.7 EXC")


@pytest.mark.parametrize("edition", ["asl", "sl4"])
def test_explain_works_under_each_edition(edition, capsys):
    code, out = explain(capsys, EX, "drm", "A1", "night_lv", "--edition", edition)
    assert code == 0 and out.splitlines()[0].startswith("drm A1 night_lv = ")
