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
        for edition in ("sl4", "asl"):  # an empty list is derived by nothing: no rule to cite
            assert answers[edition].rules or answers[edition].value == [], query_text(finding.query)
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
        if finding.query.name == "loses_concealment":  # E1.31 needs a Good Order enemy's LOS (a vehicle's: A12.2),
            # unless the mover enters the enemy's own Location
            assert ({"A12.14", "A12.2"} & set(answers["asl"].rules) or answers["asl"].value is not True
                    or finding.entry.id == "enter_enemy_location")


# issue 34's first list: each difference the search must reach, by its entry
ISSUE_34_FOUND = {
    "difference": ("nvr_bounds", "zero_nvr", "piat_gunflash", "assault_into_lit", "enter_enemy_location",
                   "vehicle_concealment", "starshell_blind", "vehicle_mp", "infantry_mf", "cc_concealed"),
    "one_decides": ("ffmo_concealed_mover", "fg_multi_location", "san", "fire_lane", "activity_as_movement",
                    "he_ffe_gunflash", "night_overrun", "cloaking_allowance", "hidden_fortifications"),
    "only_one": ("captured_mg", "target_acquisition", "hip_allotment", "freedom_of_movement", "night_elr", "recon",
                 "cloaking", "recovery", "jitter_fire"),
}


def test_diverge_reaches_the_issue_34_list_each_with_a_witness_that_shows_it(findings):
    _, found = findings
    by_id = {f.entry.id: f for f in found}
    for kind, ids in ISSUE_34_FOUND.items():
        for ident in ids:
            assert ident in by_id and by_id[ident].kind == kind, ident
    for finding in found:  # the witness's own query shows the difference: its two answers differ
        answers = finding.difference.answers
        assert answers["asl"].value != answers["sl4"].value or answers["asl"].undecided != answers["sl4"].undecided
    text = lambda ident: "\n".join(situation_lines(by_id[ident].facts))  # noqa: E731
    assert "range G1 R1 7" in text("nvr_bounds") and "roll nvr_change colored 6 white 6" in text("nvr_bounds")
    assert by_id["zero_nvr"].difference.answers["asl"].value is False and "range G1 R1 1" in text("zero_nvr")
    assert "attack P1 by R1 at G1 piat" in text("piat_gunflash")
    assert "move M1 R1 to 2B1 assault" in text("assault_into_lit") and "starshell" in text("assault_into_lit")
    assert "move M1 R1 to 1A1" in text("enter_enemy_location")
    assert "attack A3 by G1 at R1 mg captured_mg" in text("captured_mg")
    assert "fortification P1 russian pillbox at 2B1 hidden" in text("hidden_fortifications")
    assert "unit G1 german leader" in text("starshell_blind") and "unit R1" not in text("starshell_blind")
    assert "unit G1 german squad" in text("starshell_who")
    assert "attack C1 by G2 at R1 cc" in text("cc_concealed") and "unit G2 german squad 4-6-7 at 1A1 concealed" in text(
        "cc_concealed")  # a list answer: [G2] against none


def test_diverge_issue_34_wrong_items_are_gone(findings):
    from aslkb.tools.divergences import load

    _, found = findings
    by_id = {f.entry.id: f for f in found}
    assert by_id["concealment_table"].kind == "not_a_difference"  # a gap of the knowledge base
    assert "gunflash_after_move" not in by_id  # both leave the flash behind: no finding at all (E1.8 as SL 49.22)
    entries = {e.id: e for e in load()}
    ordnance = entries["ordnance_at_gunflash"]
    assert ordnance.sl_source == "original" and "Q&A" not in ordnance.sl_says and "COI+" in ordnance.sl_says
    words = " ".join(e.sl_says + " " + e.asl_says + " " + e.table for e in entries.values())
    assert "column of luck" not in words and "pitch black" not in words and "nor in Open Ground" not in words
    assert "tracked" in entries["moving_vehicle_sight"].table
    for entry in entries.values():  # every entry says where it goes and where SL's sentence comes from
        assert entry.topic and entry.sl_source in ("original", "qa", "unofficial", "none") and entry.sl_ids
        assert entry.asl_ids and all(i.startswith("SL") for i in entry.sl_ids), entry.id
    text = lambda f: "\n".join(situation_lines(f.facts))  # noqa: E731
    lit = by_id["lit_viewer"]  # shown by may_fire, where SL does fire: not a within_nvr that fires nowhere
    assert lit.query.name == "may_fire" and lit.difference.answers["sl4"].value is True
    assert "blocked" not in text(lit)  # a shadow is another difference
    for finding in found:
        lines = text(finding).splitlines()
        for line in lines:  # two Blazing levels burn in a building, not in Open Ground
            assert not (line.startswith("hex ") and " open " in line + " " and "blaze 2" in line), line
        for line in lines:  # nothing in Open Ground blocks the LOS between ADJACENT hexes
            if line.startswith("los ") and line.endswith(" blocked"):
                _, a, b, _ = line.split()
                assert f"range {a} {b} 1" not in lines and f"range {b} {a} 1" not in lines, finding.name
    # the rule that decides each of these answers is in its ASL chain
    for ident, rule in (("interior_hexes", "E1.923"), ("blaze_shadows", "E1.941"), ("lit_concealed_unit", "E1.31"),
                        ("fire_loses_concealment", "A12.13")):
        assert rule in by_id[ident].difference.answers["asl"].rules, ident


ZERO_NVR = """scenario night dyo
hex 1A1 open
hex 2B1 open
unit G1 german squad 4-6-7 at 1A1
unit R1 russian squad 4-4-7 at 2B1 moved
los G1 R1 clear
range G1 R1 1
roll nvr colored 1 white 1
roll nvr_table colored 6 white 6
roll nvr_change colored 6 white 1
query within_nvr G1 R1
"""

LIT_VIEWER = """scenario night nvr 2
hex 1A1 open
hex 2B1 open
hex 3C1 open blaze 1
unit G1 german squad 4-6-7 at 1A1
unit R1 russian squad 4-4-7 at 2B1 moved
los 3C1 1A1 clear
los G1 R1 clear
range 3C1 1A1 2
range 3C1 2B1 3
range G1 R1 1
query may_fire G1 R1
"""


def test_diff_titles_a_lit_viewer_by_its_exception_and_a_zero_nvr_by_its_own(tmp_path, capsys):
    code, out, _ = run(capsys, "diff", write(tmp_path, ZERO_NVR))
    assert "[Zero NVR" in out and "viewer in a lit hex" not in out
    code, out, _ = run(capsys, "diff", write(tmp_path, LIT_VIEWER))
    assert "[A viewer in a lit hex" in out


def test_witness_attack_move_and_fortification_lines_keep_their_attributes():
    facts = [clingo.parse_term(t) for t in (
        'scenario(night)', 'attack("A3")', 'attack_by("A3","G1")', 'attack_target("A3",unit("R1"))',
        'attack_kind("A3",mg)', 'attack_attr("A3",captured_mg)', 'move("M1","R1","2B1")', 'move_attr("M1",assault)',
        'move_attr("M1",cost,2)', 'fortification("P1",russian,pillbox)', 'fortification_at("P1","2B1")',
        'fortification_attr("P1",hidden)')]
    assert situation_lines(facts) == [
        "scenario night", "attack A3 by G1 at R1 mg captured_mg", "move M1 R1 to 2B1 assault cost 2",
        "fortification P1 russian pillbox at 2B1 hidden"]


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
