"""`aslkb diff` and `aslkb diverge`: the same situation under ASL and SL 4th
edition, and the search for situations in which they disagree."""
from __future__ import annotations

import json
from pathlib import Path

import clingo
import pytest
from clingo import ast

from aslkb.cli import main
from aslkb.diverge import Prefixer, search, situation_lines

ROOT = Path(__file__).resolve().parent.parent
UNMOVED = ROOT / "tests" / "cases" / "both" / "unmoved-target-sl4.sit"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.sit"
    path.write_text(text, encoding="utf-8")
    return path


SITUATION = """scenario night nvr 3 year 1944
hex 3A1 open
hex 3B1 open
unit G1 german squad 4-6-7 at 3A1
unit R1 russian squad 4-4-7 at 3B1
range G1 R1 1
los G1 R1 clear
attack A1 by G1 at R1
query base_nvr
query within_nvr G1 R1
query may_fire G1 R1
query drm A1 night_lv
query night_class G1
"""


def test_diff_prints_only_the_queries_that_differ_with_both_rule_chains(tmp_path, capsys):
    code, out, _ = run(capsys, "diff", write(tmp_path, SITUATION))
    assert code == 0
    blocks = out.split("\n")
    assert "may_fire G1 R1" in blocks and "drm A1 night_lv" in blocks
    assert "base_nvr" not in blocks and "within_nvr G1 R1" not in blocks  # both say 3 / yes
    assert "night_class G1" in blocks  # decided (ASL) against undecided (SL)
    assert "  asl  = yes" in out and "  sl4  = no" in out
    assert "SL 49.101" in out and "E1.101" in out
    assert out.rstrip().endswith("3 of 5 queries differ between asl and sl4")


def test_diff_json_has_both_answers_chains_and_the_agreements(tmp_path, capsys):
    code, out, _ = run(capsys, "diff", "--json", write(tmp_path, SITUATION))
    data = json.loads(out)
    assert code == 0
    differences = {d["query"]: d for d in data["differences"]}
    assert differences["may_fire G1 R1"]["asl"]["value"] is True
    assert differences["may_fire G1 R1"]["sl4"]["value"] is False
    assert "SL 49.101" in differences["may_fire G1 R1"]["sl4"]["rules"]
    assert differences["drm A1 night_lv"]["asl"]["value"] == 1
    assert differences["drm A1 night_lv"]["sl4"]["chain"] == "SL 49.1"
    assert data["same"] == ["base_nvr", "within_nvr G1 R1"]


def test_diff_exit_status_follows_the_expects_under_the_files_own_edition(tmp_path, capsys):
    assert run(capsys, "diff", UNMOVED)[0] == 0  # its sl4 expects hold (ASL disagrees)
    failing = write(tmp_path, SITUATION + "expect may_fire G1 R1 = no\n")  # false under asl, the default
    code, out, _ = run(capsys, "diff", failing)
    assert code == 1 and "1 failed" in out
    assert run(capsys, "diff", write(tmp_path, "edition sl4\n" + SITUATION + "expect not may_fire G1 R1\n"))[0] == 0


def test_diff_bad_input_is_exit_2(tmp_path, capsys):
    code, out, err = run(capsys, "diff", write(tmp_path, "scenario nigth\n"))
    assert code == 2 and out == "" and "s.sit:1:" in err


def test_prefixer_renames_every_predicate_but_the_situation_facts():
    statements = []
    ast.parse_string('p(X) :- unit(X, _, squad), not q(X), #count { Y : r(Y) } = 0, at(X, "3A1").',
                     lambda s: statements.append(Prefixer("sl4_")(s)))
    text = str(statements[-1])
    assert text.startswith("sl4_p(X) :- unit(X,_,squad); not sl4_q(X)")
    assert "sl4_r(Y)" in text and 'at(X,"3A1")' in text


def test_witness_facts_read_back_as_the_situation_language():
    facts = [clingo.parse_term(t) for t in (
        'scenario(night)', 'scenario(nvr,2)', 'hex("1B1",building)', 'hex_attr("1B1",interior)',
        'unit("G1",german,leader)', 'strength("G1",leader(8,-1))', 'at("G1","1A1")',
        'range(unit("G1"),unit("R1"),2)', 'roll(starshell_usage,"G1",dr,5)')]
    assert situation_lines(facts) == [
        "scenario night nvr 2", "hex 1B1 building interior", "unit G1 german leader 8-1 at 1A1",
        "range G1 R1 2", "roll starshell_usage G1 5"]


@pytest.fixture(scope="module")
def small_search():
    return search({"max_nvr": 3, "max_range": 3, "max_light": 3})


def test_diverge_finds_at_least_eight_distinct_disagreements_in_one_search(small_search):
    kinds = {(str(q.name), str(a), str(b)) for w in small_search.witnesses for q, a, b in w.kinds}
    assert len(kinds) >= 8, kinds
    for expected in [("may_fire", "yes", "no"), ("nvr", "lower", "higher"), ("drm", "higher", "lower"),
                     ("may_fire_starshell", "yes", "no"), ("may_fire_starshell", "no", "yes"),
                     ("rout_open_ground", "no", "yes"), ("illuminated", "yes", "no"),
                     ("gains_concealment", "no", "yes")]:
        assert expected in kinds, expected
    assert small_search.seconds > 0 and small_search.models >= len(small_search.witnesses)


def test_diverge_smallest_first(small_search):
    sizes = [w.size for w in small_search.witnesses]
    assert sizes == sorted(sizes)
    assert small_search.witnesses[0].features == []  # an unmoved squad next to a squad already disagrees


def test_diverge_command_writes_confirmed_witnesses_and_a_report(tmp_path, capsys):
    report = tmp_path / "report.md"
    code, out, _ = run(capsys, "diverge", "--max-nvr", "3", "--max-range", "3", "--max-light", "3",
                       "--examples", tmp_path / "w", "--report", report, "--no-scale")
    assert code == 0, out
    assert "NOT confirmed" not in out and "distinct disagreements" in out and " s (grounding" in out
    witnesses = sorted((tmp_path / "w").glob("*.sit"))
    assert witnesses and witnesses[0].name.startswith("01-")
    text = report.read_text(encoding="utf-8")
    assert "## The disagreements" in text and "## Where the two texts agree" in text
    assert "SL 49.101" in text and "E1.101" in text
    assert f"[{witnesses[0].name}](w/{witnesses[0].name})" in text  # linked from the report's folder
    assert " s**" not in text and "seconds" not in text  # no timings: the same rules give the same report
    # every witness runs: aslkb diff shows the disagreement it was found for
    code, out, _ = run(capsys, "diff", witnesses[0])
    assert code == 0 and "asl  =" in out
    # a second run gives the same files, and replaces a witness an earlier run left
    stale = tmp_path / "w" / "99-nvr-lower-higher.sit"
    stale.write_text("# Divergence witness 99, found by `aslkb diverge`\n", encoding="utf-8")
    (tmp_path / "w" / "99-mine.sit").write_text("# my own case\n", encoding="utf-8")
    before = {p.name: p.read_text(encoding="utf-8") for p in witnesses}
    report_before = text
    assert run(capsys, "diverge", "--max-nvr", "3", "--max-range", "3", "--max-light", "3",
               "--examples", tmp_path / "w", "--report", report, "--no-scale")[0] == 0
    after = {p.name: p.read_text(encoding="utf-8") for p in (tmp_path / "w").glob("[0-9][0-9]-*.sit")}
    assert after == {**before, "99-mine.sit": "# my own case\n"} and not stale.exists()
    assert report.read_text(encoding="utf-8") == report_before


def test_diverge_writes_nothing_unless_asked(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "diverge", "--max-nvr", "3", "--max-range", "3", "--max-light", "3", "--limit", "2")
    assert code == 0 and "distinct disagreements" in out
    assert "witness: 01-" in out and "not written: --examples DIR writes them" in out
    assert list(tmp_path.iterdir()) == []


def test_diverge_help_documents_limit_and_no_scale(capsys):
    with pytest.raises(SystemExit):
        main(["diverge", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--limit N stop after N witnesses" in text and "--no-scale" in text and "--examples DIR" in text
