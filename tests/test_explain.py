"""Why and why not (kb/answers/explain.py, kb/render/tree.py, `aslkb explain`, `query --explain`),
on the E1.7 EX situation the issue names."""
from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from aslkb.cli.main import main

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
    # the missing row is a gap of the text: the answer names its reason and the readings that mend it
    assert out.startswith("cloud_cover = undecided: E1.11 damaged: the NVR Table row for a Final colored dr of 5")
    assert "interpretations on E1.11: nvr_row5_as_row34, nvr_row5_as_row6" in out


def test_an_interpretation_that_decided_the_answer_is_shown(tmp_path, capsys):
    path = tmp_path / "row5.sit"
    path.write_text("scenario night dyo month october\nroll nvr_table colored 5 white 2\n")
    _, out = explain(capsys, str(path), "cloud_cover", "--interpretation", "nvr_row5_as_row6")
    assert out.startswith("cloud_cover = overcast")
    assert "[interpretation nvr_row5_as_row6]" in out and "rules/interpretations/nvr_row5_as_row6.lp" in out


def _svg_size(path: Path) -> tuple[float, float, ET.Element]:
    root = ET.parse(path).getroot()  # well-formed XML, or this raises
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return float(root.get("width")), float(root.get("height")), root


def _texts(root: ET.Element) -> str:
    return "\n".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))


@pytest.fixture
def no_graphviz(tmp_path, monkeypatch):
    """PATH without Graphviz (or anything else): the picture needs no program."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert shutil.which("dot") is None


FIRST_NIGHT = Path(__file__).parent.parent / "examples" / "first-night.sit"


@pytest.mark.parametrize("query", [line.split(None, 1)[1].split() for line in
                                   FIRST_NIGHT.read_text(encoding="utf-8").splitlines()
                                   if line.startswith("query ")])
def test_the_first_night_pictures_are_svg_at_most_1600_px_wide_without_graphviz(tmp_path, capsys, no_graphviz,
                                                                                 query):
    svg = tmp_path / "why.svg"
    assert main(["explain", str(FIRST_NIGHT), *query, "--svg", str(svg)]) == 0
    assert capsys.readouterr().err == ""
    width, height, root = _svg_size(svg)
    assert 0 < width <= 1600 and height > 0
    assert _texts(root).startswith(" ".join(query) + " = ")  # the answer's box comes first


def test_the_picture_is_rule_level_and_full_keeps_every_fact(tmp_path, capsys, no_graphviz):
    compact, full = tmp_path / "rules.svg", tmp_path / "full.svg"
    assert main(["explain", str(FIRST_NIGHT), "drm", "A1", "night_lv", "--svg", str(compact)]) == 0
    assert main(["explain", str(FIRST_NIGHT), "drm", "A1", "night_lv", "--svg", str(full), "--full"]) == 0
    capsys.readouterr()
    text = _texts(_svg_size(compact)[2])
    assert "E1.7: night attacks receive a" in text and "rules/asl/E1/E1.7.lp:21" in text
    assert "line 17: attack A1 by G1 at R1" in text  # the statement as the file writes it
    for helper in ("hex_ref", "place_hex", "hex_top_halves", "DEF:", "query program"):
        assert helper not in text  # helper derivations are folded away
    boxes = _svg_size(compact)[2].findall(".//{http://www.w3.org/2000/svg}g")
    kinds = {g.get("class") for g in boxes}
    assert {"answer", "rule", "not_applied", "fact"} <= kinds
    assert sum(1 for g in boxes if g.get("class") == "answer") == 1
    width, _, root = _svg_size(full)
    assert width <= 1600
    full_text = _texts(root)
    assert "DEF:" in full_text and "night_attack" in full_text  # --full keeps every helper derivation


def test_the_picture_marks_an_interpretation(tmp_path, capsys, no_graphviz):
    path = tmp_path / "row5.sit"
    path.write_text("scenario night dyo month october\nroll nvr_table colored 5 white 2\n")
    svg = tmp_path / "why.svg"
    assert main(["explain", str(path), "cloud_cover", "--interpretation", "nvr_row5_as_row6", "--svg", str(svg)]) == 0
    root = _svg_size(svg)[2]
    assert any(g.get("class") == "interpretation" for g in root.iter("{http://www.w3.org/2000/svg}g"))
    assert "interpretation nvr_row5_as_row6" in _texts(root).replace("\n", " ")


def test_the_svg_escapes_what_it_quotes():
    from aslkb.render.picture import _wrap, explanation_svg
    from aslkb.answers.explain import Explanation, Node
    from aslkb.answers.read import Answer

    answer = Answer('odd <query> & "x"', 1)
    tree = Explanation(answer, [Node("fact", "a<b", where="f.sit:1")], [])
    root = ET.fromstring(explanation_svg(tree, "1 < 2", statements=["hex <&> open"]))
    assert "line 1: hex <&> open" in _texts(root)
    assert all(len(line) <= 31 for line in _wrap("x" * 100 + " y"))


def test_dot_is_an_export_of_the_whole_tree(tmp_path, capsys, no_graphviz):
    out = tmp_path / "why.dot"
    assert main(["explain", EX, "drm", "A1", "night_lv", "--dot", str(out)]) == 0
    assert capsys.readouterr().err == ""
    dot = out.read_text()
    assert dot.startswith("digraph explanation") and 'label="why not"' in dot
    assert not (tmp_path / "why.svg").exists()


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


def test_explain_of_an_undecided_answer_shows_each_value_its_completions_give(capsys):
    """Issue 32: the explanation of an undecided answer walks each value, not one decided value's."""
    from aslkb.cli.main import main

    path = Path(__file__).parent / "cases" / "asl" / "E1.7-target-height-open.sit"
    assert main(["explain", str(path), "drm", "A", "night_lv"]) == 0
    out = capsys.readouterr().out
    assert "◇ where the unknowns make it drm A night_lv = 0" in out
    assert "◇ where the unknowns make it drm A night_lv = 1" in out
    assert out.index("= 0") < out.index("E1.7 EXC: an exempt night attack") < out.index("= 1")


def test_explain_of_an_answer_a_rule_leaves_undecided_shows_that_rule_not_a_value(capsys):
    """Issue 32: where a rule says undecided (A4.6 is not in the source text) in
    every completion, the explanation is that reason's, not a decided value's."""
    from aslkb.cli.main import main

    case = Path(__file__).parent / "cases" / "asl" / "A7.83-pinned-ffmo.sit"
    assert main(["explain", str(case), "drm", "A2"]) == 0
    why = capsys.readouterr().out.split("why:\n", 1)[1].split("why not:", 1)[0]
    assert "• undecided(drm(\"A2\"),not_in_source(ffmo," in why
    assert "• answer(" not in why and "◇" not in why
