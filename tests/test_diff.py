"""`aslkb diff` and `aslkb diverge`: the same situation under ASL and SL 4th
edition, and the search for situations in which they disagree."""
from __future__ import annotations

import json
from pathlib import Path

import clingo
import pytest
from clingo import ast

from aslkb.cli.main import main
from aslkb.tools.diverge import Prefixer, search, situation_lines
from aslkb.tools.divergences import KINDS

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
    blocks = [line.split("  [")[0] for line in out.split("\n")]  # a query, then the words naming it
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


def test_a_witness_attack_keeps_its_result_on_its_line():
    """A scene that states an attack's result (`ptc`, `mc 0`) must print it: the difference turns on it."""
    facts = [clingo.parse_term(t) for t in (
        'scenario(night)', 'unit("G1",german,leader)', 'unit("R1",russian,squad)',
        'attack("A1")', 'attack_by("A1","G1")', 'attack_target("A1",unit("R1"))',
        'attack_kind("A1",smallarms)', 'attack_attr("A1",ptc)',
        'attack("A2")', 'attack_by("A2","R1")', 'attack_target("A2",unit("G1"))', 'attack_attr("A2",mc,0)')]
    lines = situation_lines(facts)
    assert "attack A1 by G1 at R1 smallarms ptc" in lines and "attack A2 by R1 at G1 smallarms mc 0" in lines


def test_the_encode_scene_finds_each_new_difference(capsys):
    """rules/diverge/scenes/encode.lp (issue 34): a PTC, daylight under a starshell, Starshells per hex,
    where a Starshell may go, a Kindle attempt; each with its own witness."""
    code, out, _ = run(capsys, "diverge", "--domain", str(ROOT / "rules" / "diverge" / "scenes" / "encode.lp"))
    assert code == 0
    for entry in ("ptc_concealment", "daylight_under_starshell", "starshells_per_hex",
                  "starshell_placement_near", "starshell_placement_far"):
        assert f"-{entry}  [" in out, entry
    # the Kindle attempt: ASL decides, SL 49 leaves it open (named by its words once the
    # comparison reads the one_decides/only_one entries, by query and values until then)
    assert "-kindling_concealment  [" in out or "-concealment_lost-decided-outside  [" in out
    assert "-kindling_gunflash  [" in out or "-creates_gunflash-decided-outside  [" in out


def test_diff_lists_disagreements_apart_from_questions_one_edition_decides(tmp_path, capsys):
    code, out, _ = run(capsys, "diff", write(tmp_path, SITUATION))
    disagree, one_sided = out.index("asl and sl4 disagree:"), out.index("a rule only one edition has:")
    assert disagree < out.index("may_fire G1 R1") < one_sided < out.index("night_class G1")
    assert "[A target that has not moved" in out  # the words of rules/diverge/differences.toml


def test_diff_marks_the_rules_both_editions_load(tmp_path, capsys):
    code, out, _ = run(capsys, "diff", write(tmp_path, SITUATION))
    lines = out.splitlines()
    sl4_chains = [lines[n + 1] for n, line in enumerate(lines) if line.startswith("  sl4  =")]
    assert sl4_chains and any("SL 49.101" in chain for chain in sl4_chains)
    for chain in sl4_chains:  # an SL answer names SL rules; an ASL id there is a rule both editions load
        for label in chain.split("rules:")[1].split(" ← "):
            assert label.strip().startswith("SL") or "(both editions)" in label, chain


ORDNANCE_AT_FLASH = """scenario night nvr 2
unit G1 german squad 4-6-7 at 3A1
unit R1 russian squad 4-4-7 at 3E1 fired
range G1 R1 4
los G1 R1 clear
attack A1 by G1 at R1 {kind}
query vs_concealed A1
"""


def test_ordnance_at_a_gunflash_is_the_same_effect_not_a_difference(tmp_path, capsys):
    # ordnance: ASL E1.81 "vs a concealed target" (the Case To Hit DRM, no halving),
    # SL 49.23 +2 to hit and full effect: the label differs, the effect does not
    code, out, _ = run(capsys, "diff", write(tmp_path, ORDNANCE_AT_FLASH.format(kind="ordnance")))
    assert "the same effect under another label" in out and "Ordnance at a gun flash" in out
    assert out.rstrip().endswith("0 of 1 query differ between asl and sl4")
    # small arms at the same flash: both halve it as Area Fire, no difference at all
    code, out, _ = run(capsys, "diff", write(tmp_path, ORDNANCE_AT_FLASH.format(kind="smallarms")))
    assert out.rstrip().endswith("0 of 1 query differ between asl and sl4") and "same effect" not in out


@pytest.fixture(scope="module")
def findings():
    from aslkb.tools.diverge import group

    result = search({"max_nvr": 3, "max_range": 3, "max_light": 3})
    return result, group(result)


def test_diverge_names_each_headline_difference_once_with_rule_ids_on_both_sides(findings):
    from aslkb.tools.diverge import query_text

    result, found = findings
    named = [f.entry.id for f in found if f.entry]
    assert result.unconfirmed == []  # the engine gives every answer the search found
    assert len(named) == len(set(named)) and all(f.entry for f in found), [f.name for f in found]
    for wanted in ("nvr_generation", "nvr_change", "unmoved_target", "lit_viewer", "starshell_who",
                   "starshell_usage", "rout_under_starshell", "oba_spotting_round", "ir", "straying",
                   "ordnance_at_gunflash"):
        assert wanted in named, wanted
    for finding in found:
        entry = finding.entry
        assert entry.sl_says.startswith("SL 49"), entry.id  # SL's side names its SL rule
        assert entry.asl_says.split()[0].rstrip(",:")[0] in "AE", entry.id  # ASL's side its ASL rule
        assert entry.title and (entry.table or entry.kind != "difference")
        answers = finding.difference.answers
        assert answers["sl4"].rules and answers["asl"].rules, query_text(finding.query)
        for step in answers["sl4"].steps:  # the SL side cites SL rules, or rules both editions load
            assert step.rule.part in ("sl4", "common", "queries", "interpretations"), step.rule


def test_diverge_second_kind_is_listed_apart(findings):
    _, found = findings
    by_topic: dict[str, list[str]] = {}  # the guide orders by topic, then kind (kb/tools/diverge.py group())
    for f in found:
        by_topic.setdefault(f.entry.topic if f.entry else "", []).append(f.kind)
    for kinds in by_topic.values():
        assert kinds == sorted(kinds, key=KINDS.index)
    straying = next(f for f in found if f.entry.id == "straying")
    assert straying.kind == "only_one" and straying.difference.answers["sl4"].value is None


def test_diverge_witnesses_state_only_what_their_difference_needs(findings):
    _, found = findings
    by_id = {f.entry.id: f for f in found}
    text = lambda f: "\n".join(situation_lines(f.facts))  # noqa: E731
    assert "starshell" not in text(by_id["unmoved_target"]) and "roll" not in text(by_id["unmoved_target"])
    assert "attack" not in text(by_id["unmoved_target"])
    assert "roll starshell_usage G1" in text(by_id["starshell_usage"])
    rout = text(by_id["rout_under_starshell"])
    assert "move M1 R2 to 2B1" in rout and "unit R2 russian squad 4-4-7 at 2B2 broken" in rout  # not into its own hex


def test_diverge_artifacts_are_gone(findings):
    _, found = findings
    for finding in found:
        answers = finding.difference.answers
        if finding.query.name == "rout_open_ground":  # E1.54's Low Crawl still goes into Open Ground
            assert answers["asl"].value is not False
        if finding.query.name == "vs_concealed" and finding.kind == "difference":  # ordnance: label only
            assert "SL 49.23" not in answers["sl4"].rules
        if finding.query.name == "loses_concealment":  # E1.31 needs a Good Order enemy's LOS
            assert "A12.14" in answers["asl"].rules or answers["asl"].value is not True


def test_diverge_command_writes_only_where_told_and_the_same_bytes_twice(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    small = ("--max-nvr", "3", "--max-range", "3", "--max-light", "3")
    code, out, _ = run(capsys, "diverge", *small)
    assert code == 0 and " s (grounding" in out and list(tmp_path.iterdir()) == []
    outputs = []
    for _ in range(2):
        code, out, _ = run(capsys, "diverge", *small, "--examples", "w", "--report", "docs/r.md")
        assert code == 0
        files = sorted((tmp_path / "w").glob("*.sit"))
        outputs.append([(tmp_path / "docs" / "r.md").read_bytes()] + [f.read_bytes() for f in files])
    assert outputs[0] == outputs[1]
    text = (tmp_path / "docs" / "r.md").read_text(encoding="utf-8")
    assert "### The editions disagree" in text and "### A rule only one edition has" in text
    assert "SL 49.11" in text and "E1.12" in text and "(../w/01-" in text and " s (grounding" not in text
    witnesses = sorted((tmp_path / "w").glob("*.sit"))
    code, out, _ = run(capsys, "diff", witnesses[0])
    assert code == 0 and "asl  =" in out and "1 of 1 query differ" in out
    # a witness an earlier run left (an old one too) is replaced; a file of the user's is kept
    (tmp_path / "w" / "98-nvr-lower-higher.sit").write_text("# Divergence witness 98, found by `aslkb diverge`\n")
    (tmp_path / "w" / "99-old.sit").write_text("# SL/ASL witness 99-old: gone.\n")
    (tmp_path / "w" / "99-mine.sit").write_text("# my own case\n")
    assert run(capsys, "diverge", *small, "--examples", "w")[0] == 0
    assert sorted(p.name for p in (tmp_path / "w").glob("*.sit")) == sorted([w.name for w in witnesses] + ["99-mine.sit"])


def test_the_shipped_report_and_witnesses_are_what_diverge_writes_today(monkeypatch):
    from aslkb.tools.diverge import group, witness_text
    from aslkb.tools.guide import report_markdown

    monkeypatch.chdir(ROOT)  # nothing is written: the texts are compared with the files
    result = search()
    found = group(result)
    report, examples = "docs/sl4-vs-asl.md", "examples/divergences"
    command = f"aslkb diverge --examples {examples} --report {report}"
    assert report_markdown(result, found, command, examples, report) == (ROOT / report).read_text(encoding="utf-8")
    import re
    for row in (ROOT / report).read_text(encoding="utf-8").splitlines():
        if row.startswith("| `") and "| SL 4th |" in row:  # no witness's SL side cites an ASL rule
            assert not re.search(r"\b(E1|A7|A12|F11)\.\d", row.split("| SL 4th |")[1]), row
    shipped = sorted(p.name for p in (ROOT / examples).glob("*.sit"))
    assert shipped == sorted(f.name + ".sit" for f in found)
    for finding in found:
        assert witness_text(finding) == (ROOT / examples / (finding.name + ".sit")).read_text(encoding="utf-8")


def test_every_entry_has_its_topic_provenance_and_ids_each_edition_its_own():
    from aslkb.tools.divergences import SOURCES, TOPICS, load, text_only

    for entry in [*load(), *text_only()]:
        assert entry.topic in TOPICS, entry.id
        assert entry.sl_source in SOURCES, entry.id
        assert entry.sl_ids and all(i.startswith("SL ") for i in entry.sl_ids), entry.id
        assert entry.asl_ids and not any(i.startswith("SL") for i in entry.asl_ids), entry.id
        if entry.kind == "text_only":
            assert entry.why, entry.id  # says why no witness shows it


def test_the_shipped_guide_lists_each_entry_once_in_its_topic_with_a_witness():
    from aslkb.tools.divergences import TOPICS, load

    guide = (ROOT / "docs" / "sl4-vs-asl.md").read_text(encoding="utf-8")
    sections = guide.split("\n## ")
    counted = [e for e in load() if e.kind in ("difference", "one_decides", "only_one")]
    for entry in counted:
        headings = [line for line in guide.splitlines() if line.startswith("#### ") and line.endswith(f". {entry.title}")]
        assert len(headings) == 1, entry.id  # found by the search, once
        [section] = [s for s in sections if headings[0] in s]
        assert section.startswith(TOPICS[entry.topic]), entry.id
        witness = section[section.index(headings[0]):].split("\n#### ")[0]
        assert "Witness [" in witness and "| SL 4th |" in witness and "| ASL |" in witness, entry.id
