"""Regression tooling: the pytest plugin, golden snapshots and JUnit XML,
impact, rule coverage, the lint of the encoding and of the text, invariants."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from aslkb.cli.main import main
from aslkb.parser import parse
from aslkb.knowledge.program import build, knowledge_base
from aslkb.knowledge.rulefiles import rule_files

ROOT = Path(__file__).resolve().parent.parent
# shared/ stands beside the repository (as in CI); ASLKB_RULETEXT points elsewhere
SOURCE_TEXT = Path(os.environ.get("ASLKB_RULETEXT", ROOT.parent / "shared" / "ruletext"))

# E1.14: a moving wheeled vehicle 3 hexes from a viewer of NVR 2 is within
# NVR under 1½ (on by default), not under the literal ½.
WHEELED = """\
scenario night nvr 2
hex 3A1 open
unit G1 german squad 4-6-7 at 3A1
unit W1 russian vehicle at 3D1 wheeled in_motion
range G1 W1 3
query nvr G1
expect within_nvr G1 W1
"""


@pytest.fixture
def wheeled(tmp_path: Path) -> Path:
    case = tmp_path / "cases" / "wheeled.sit"
    case.parent.mkdir()
    case.write_text(WHEELED, encoding="utf-8")
    return case


# --- 1. the pytest plugin ---------------------------------------------------

def test_the_plugin_is_a_pytest11_entry_point():
    assert "aslkb.tools.pytest_plugin" in {ep.value for ep in entry_points(group="pytest11")}
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.entry-points.pytest11]\naslkb = "aslkb.tools.pytest_plugin"' in text


def _pytest(folder: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *options],
                          cwd=folder, capture_output=True, text=True, timeout=300)


def test_pytest_collects_sit_files_in_any_folder_and_shows_line_answers_and_rules(wheeled: Path):
    folder = wheeled.parent
    (folder / "no-expect.sit").write_text("scenario night nvr 2\nquery base_nvr\n", encoding="utf-8")
    run = _pytest(folder)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout  # the file without `expect` lines is not a test
    run = _pytest(folder, "--aslkb-interpretation", "vehicular_nvr_literal_half",
                  "--aslkb-without", "vehicular_nvr_one_and_half")
    assert run.returncode == 1
    assert "wheeled.sit:7: expect within_nvr G1 W1 = yes, got no" in run.stdout
    assert "7 | expect within_nvr G1 W1" in run.stdout  # the situation's own line
    assert "because: " in run.stdout and "E1.14" in run.stdout
    assert main(["check", "--update", str(folder / "wheeled.sit")]) == 0  # a golden snapshot beside it
    run = _pytest(folder, "--aslkb-interpretation", "vehicular_nvr_literal_half",
                  "--aslkb-without", "vehicular_nvr_one_and_half")
    assert run.returncode == 1  # issue 33: the failure's own header stays beside the snapshot's changes
    assert "wheeled.sit:7: expect within_nvr G1 W1 = yes, got no" in run.stdout
    other = folder.parent / "edition"
    other.mkdir()
    (other / "nvr.sit").write_text("scenario night nvr 2\nexpect base_nvr = 5\n", encoding="utf-8")
    run = _pytest(other, "--aslkb-edition", "sl4")
    assert run.returncode == 1 and "got 2 [SL 49" in run.stdout


def test_a_suite_spreads_over_processes_with_pytest_xdist(tmp_path: Path):
    """A club's suite that outgrows one process (docs/regression.md): the
    plugin's items run under pytest-xdist (`-n`), each file where a worker
    takes it, the failures reported as in one process."""
    pytest.importorskip("xdist")
    cases = sorted((ROOT / "tests" / "cases" / "asl").glob("E1.7*.sit"))[:5]
    assert len(cases) == 5
    for case in cases:
        shutil.copy(case, tmp_path / case.name)
    (tmp_path / "wrong.sit").write_text("scenario night nvr 2\nexpect base_nvr = 5\n", encoding="utf-8")
    run = _pytest(tmp_path, "-n", "2")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "created: 2/2 workers" in run.stdout
    assert "1 failed, 5 passed" in run.stdout
    assert "wrong.sit:2: expect base_nvr = 5, got 2" in run.stdout


# --- 2. golden snapshots and JUnit XML --------------------------------------

def test_check_update_writes_snapshots_and_check_reports_every_difference(wheeled: Path, capsys, tmp_path: Path):
    folder = str(wheeled.parent)
    assert main(["check", "--update", folder]) == 0
    snapshot = json.loads((wheeled.parent / "wheeled.sit.golden.json").read_text(encoding="utf-8"))
    [query, expect] = snapshot["answers"]
    assert query == {"line": 6, "kind": "query", "query": "nvr G1", "value": 2, "distribution": None,
                     "undecided": [], "rules": query["rules"], "interpretations": []}
    assert "E1.1" in query["rules"] and expect["value"] is True
    assert main(["check", folder]) == 0
    capsys.readouterr()

    out = str(tmp_path / "junit.xml")
    status = main(["check", folder, "--interpretation", "vehicular_nvr_literal_half",
                   "--without", "vehicular_nvr_one_and_half", "--junit-xml", out])
    printed = capsys.readouterr().out
    assert status == 1
    # one line for the changed answer (its expect line fails: said on the same line, not twice)
    [change] = [line for line in printed.splitlines() if "wheeled.sit:" in line]
    assert change.startswith(f"{wheeled}:7: within_nvr G1 W1: yes -> no (")
    assert "interpretation vehicular_nvr_literal_half" in change and change.endswith("; the expect line fails")
    # the run's settings, said once for the run
    assert printed.count("settings differ") == 1
    assert ("this run's settings differ from the snapshots' in 1 file: "
            "interpretations +vehicular_nvr_literal_half -vehicular_nvr_one_and_half") in printed
    assert "1 answer changed from the golden snapshots (aslkb check --update accepts them)" in printed
    suite = ET.parse(out).getroot().find("testsuite")
    assert suite.get("tests") == "1" and suite.get("failures") == "1"
    failure = suite.find("testcase/failure")
    assert "within_nvr G1 W1: yes -> no" in failure.text

    wheeled.write_text(WHEELED.replace("query nvr G1\n", "query nvr G1\nquery base_nvr\n"), encoding="utf-8")
    assert main(["check", folder]) == 1
    assert "base_nvr: new answer 2" in capsys.readouterr().out


def test_check_says_each_changed_answer_once_and_settings_once_per_run(wheeled: Path, capsys):
    """Two files, each with a query line and an expect line asking the same query:
    two changed answers, two lines, and one line for the settings."""
    second = wheeled.parent / "second.sit"
    both = WHEELED.replace("query nvr G1\n", "query within_nvr G1 W1\n")
    wheeled.write_text(both, encoding="utf-8")
    second.write_text(both, encoding="utf-8")
    folder = str(wheeled.parent)
    assert main(["check", "--update", folder]) == 0
    capsys.readouterr()
    assert main(["check", folder, "--interpretation", "vehicular_nvr_literal_half",
                 "--without", "vehicular_nvr_one_and_half"]) == 1
    lines = capsys.readouterr().out.splitlines()
    changed = [line for line in lines if ".sit:" in line]
    assert len(changed) == 2, lines
    for path, line in zip(sorted([second, wheeled]), changed):
        assert line.startswith(f"{path}:7: within_nvr G1 W1: yes -> no (")
        assert line.endswith("(also line 6); the expect line fails")
    assert sum("settings differ" in line for line in lines) == 1
    assert "in 2 files: interpretations +vehicular_nvr_literal_half" in "\n".join(lines)
    assert "2 answers changed from the golden snapshots" in "\n".join(lines)
    # the same settings with the answers unchanged: said once, and no change
    assert main(["check", folder, "--interpretation", "nvr_row5_as_row6"]) == 0
    out = capsys.readouterr().out
    assert out.count("settings differ") == 1 and "changed from the golden" not in out


def test_a_change_of_grounds_alone_is_one_line_saying_what_changed():
    from aslkb.tools.golden import changes

    def snap(interpretation, value=False):
        return {"answers": [{"line": 3, "kind": "expect", "query": "within_nvr G1 W2", "value": value,
                             "distribution": None, "undecided": [], "rules": ["E1.14"],
                             "interpretations": [interpretation]}]}

    [change] = changes(snap("a"), snap("b"))
    assert change.text("f.sit") == "f.sit:3: within_nvr G1 W2: no as before, but interpretations [a] -> [b]"
    [change] = changes(snap("a"), snap("b", True))
    assert change.text("f.sit") == "f.sit:3: within_nvr G1 W2: no -> yes (E1.14, interpretation a, interpretation b)"
    assert changes(snap("a"), snap("a")) == []


# --- 3. impact --------------------------------------------------------------

def test_impact_of_an_interpretation_lists_old_and_new_answers_and_the_rules(wheeled: Path, capsys):
    assert main(["impact", str(wheeled.parent), "--interpretation", "vehicular_nvr_literal_half"]) == 0
    printed = capsys.readouterr().out
    [change] = [line for line in printed.splitlines() if "wheeled.sit:" in line]  # one line per change
    assert f"{wheeled}:7: within_nvr G1 W1: yes -> no (" in change
    assert "interpretation vehicular_nvr_literal_half" in change
    assert printed.rstrip().endswith("1 answer changed in 1 file")


def test_impact_says_a_query_and_its_expect_line_once(wheeled: Path, capsys):
    wheeled.write_text(WHEELED.replace("query nvr G1\n", "query within_nvr G1 W1\n"), encoding="utf-8")
    assert main(["impact", str(wheeled.parent), "--interpretation", "vehicular_nvr_literal_half"]) == 0
    printed = capsys.readouterr().out
    [change] = [line for line in printed.splitlines() if "wheeled.sit:" in line]
    assert change.startswith(f"{wheeled}:7: within_nvr G1 W1: yes -> no (") and change.endswith("(also line 6)")
    assert printed.rstrip().endswith("1 answer changed in 1 file")
    assert main(["impact", str(wheeled.parent), "--interpretation", "vehicular_nvr_literal_half", "--json"]) == 0
    [entry] = json.loads(capsys.readouterr().out)["changes"]
    assert entry["line"] == 7 and entry["also"] == [6] and entry["query"] == "within_nvr G1 W1"


def test_impact_against_a_git_revision_builds_that_knowledge_base(wheeled: Path, capsys, monkeypatch):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout")
    monkeypatch.chdir(ROOT)
    assert main(["impact", str(wheeled.parent), "--against", "HEAD", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["comparison"] == "rules of HEAD -> the rules as they are"
    assert isinstance(data["changes"], list)


def test_impact_extracts_a_revision_from_git_objects_without_tar(tmp_path: Path):
    """Python 3.11.2 has no TarFile.extractall(filter=...): the revision's files come
    from git itself; a symbolic link is skipped and nothing lands outside the folder."""
    if shutil.which("git") is None:
        pytest.skip("needs git")
    from aslkb.tools.impact import extract_tree, safe_relative
    from aslkb.base.errors import UsageError

    repo = tmp_path / "repo"
    (repo / "rules" / "asl").mkdir(parents=True)
    (repo / "rules" / "asl" / "x.lp").write_text("%@ E1.7 note\na.\n", encoding="utf-8")
    (repo / "rules" / "escape.lp").symlink_to("/etc/passwd")
    (repo / "other.txt").write_text("not asked for", encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "x"], check=True)
    out = tmp_path / "out"
    out.mkdir()
    assert extract_tree(str(repo), "HEAD", ("rules", "queries"), str(out)) == 1
    assert (out / "rules" / "asl" / "x.lp").read_text(encoding="utf-8") == "%@ E1.7 note\na.\n"
    assert not (out / "rules" / "escape.lp").exists() and not (out / "other.txt").exists()
    for bad in ("../x.lp", "/etc/passwd", "rules/../../x", ""):
        with pytest.raises(UsageError):
            safe_relative(bad)
    assert safe_relative("rules/asl/x.lp") == os.path.join("rules", "asl", "x.lp")


def test_impact_needs_something_to_compare(wheeled: Path, capsys):
    assert main(["impact", str(wheeled.parent)]) == 2
    assert "--interpretation NAME, --without NAME or --against GIT-REV" in capsys.readouterr().err


# --- 4. rules and coverage --------------------------------------------------

def test_rules_shows_citations_interpretations_queries_and_cases(wheeled: Path, capsys):
    assert main(["rules", "E1.14", "--cases", str(wheeled.parent)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("E1.14 VEHICULAR NVR")
    assert "rules/asl/E1/E1.14.lp:" in printed
    assert "vehicular_nvr_one_and_half" in printed and "vehicular_nvr_literal_half" in printed
    assert "    within_nvr" in printed
    assert str(wheeled) in printed
    assert main(["rules", "Z9.99", "--cases", str(wheeled.parent)]) == 2


def test_paragraph_ids_cover_the_five_source_files():
    from aslkb.tools.sourcetext import known_ids, paragraphs

    ids = {p.rule_id: p for p in paragraphs()}
    for rule_id in ("E1.53", "E1.11", "A12.122", "F11.62", "A7.55", "A7.7", "SL 49.23", "F11.601"):
        assert rule_id in ids, rule_id
    assert ids["E1.53"].title == "STRAYING"  # the footnote number fused into the word is dropped
    assert {p.section for p in paragraphs()} == {"E1", "A7", "A12", "F11", "SL 49"}
    assert "E1" in known_ids()


@pytest.mark.skipif(not SOURCE_TEXT.is_dir(), reason="the source text is not here")
def test_the_checked_in_paragraphs_are_those_of_the_source_text():
    from aslkb.tools.sourcetext import extract, paragraphs

    assert [(p.rule_id, p.title) for p in extract(str(SOURCE_TEXT))] == [(p.rule_id, p.title) for p in paragraphs()]


def test_coverage_gives_every_paragraph_a_status(wheeled: Path, tmp_path: Path, capsys):
    out = tmp_path / "coverage.md"
    assert main(["coverage", "-o", str(out), "--cases", str(wheeled.parent)]) == 0
    text = out.read_text(encoding="utf-8")
    rows = {line.split(" | ")[0].lstrip("| "): line for line in text.splitlines() if line.startswith("| ")}
    assert "| encoded, interpretation |" in rows["E1.14"] and rows["E1.14"].endswith("| 1 |")
    assert "| encoded" in rows["E1.7"]
    from aslkb.tools.sourcetext import paragraphs

    assert all(p.rule_id in rows for p in paragraphs())
    for section in ("E1", "A7", "A12", "F11", "SL 49"):
        assert f"## {section}" in text


def _row(root: Path, rule_id: str):
    from aslkb.tools.coverage import matrix, rule_facts

    facts = rule_facts(build(rule_files(root), root), root=str(root))
    return next(row for row in matrix(facts) if row.paragraph.rule_id == rule_id)


def _line(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line.startswith(text))


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_status_note_in_a_rule_file_reaches_the_matrix(kb_copy: Path):
    """E1.73 (no statement cites it) takes its status and reason from the note
    in E1.7.lp; without a note it is 'not encoded, no reason given'."""
    e17 = kb_copy / "rules" / "asl" / "E1" / "E1.7.lp"
    at = f"rules/asl/E1/E1.7.lp:{_line(e17, '%! status E1.73 ')}"
    row = _row(kb_copy, "E1.73")
    assert row.status == "not encoded" and row.detail.startswith("the Blind Hex To Hit case")
    assert row.detail.endswith(f"({at})")
    _replace(e17, "%! status E1.73 not encoded: the Blind Hex To Hit case (C6) is not in the source text",
             "%! status E1.73 out of scope: a test reason")
    row = _row(kb_copy, "E1.73")
    assert (row.status, row.detail) == ("out of scope", f"a test reason ({at})")
    _replace(e17, "%! status E1.73 out of scope: a test reason\n", "")
    row = _row(kb_copy, "E1.73")
    assert (row.status, row.detail) == ("not encoded", "no reason given")


def test_a_partly_note_makes_a_cited_paragraph_partly_encoded(kb_copy: Path):
    """E1.13 is cited: encoded; a note 'partly encoded' makes it partly, with its reason."""
    e113 = kb_copy / "rules" / "asl" / "E1" / "E1.13.lp"
    row = _row(kb_copy, "E1.13")
    assert row.status == "encoded" and "rules/asl/E1/E1.13.lp" in row.detail and "; " not in row.detail
    _replace(e113, "%! status E1.13 encoded\n", "%! status E1.13 partly encoded: a test gap\n")
    row = _row(kb_copy, "E1.13")
    assert row.status == "partly encoded"
    at = f"rules/asl/E1/E1.13.lp:{_line(e113, '%! status E1.13 ')}"
    assert row.detail.endswith(f"; partly encoded: a test gap ({at})")


def test_an_ex_note_is_listed_with_its_paragraph_not_in_the_matrix():
    from aslkb.tools.coverage import rule_facts, rule_text

    at = f"rules/asl/E1/E1.8.lp:{_line(ROOT / 'rules' / 'asl' / 'E1' / 'E1.8.lp', '%! status E1.8 EX ')}"
    entry = rule_facts(knowledge_base())["E1.8"]
    assert [n[0] for n in entry.notes] == ["encoded"]
    assert entry.example_notes == [("encoded", "", at)]
    assert f"  EX notes:\n    encoded ({at})" in rule_text(entry, None)


def test_lint_finds_a_status_note_out_of_its_place(kb_copy: Path):
    """A note stands in its paragraph's file or a parent's, once, in the
    `ID [EX] STATUS[: reason]` form, for a paragraph of the source text."""
    assert not [f for f in _checks(kb_copy) if f.check == "status note"]
    e16 = kb_copy / "rules" / "asl" / "E1" / "E1.6.lp"
    _replace(e16, "%! status E1.61 encoded\n", "%! status E1.61 encoded\n%! status E1.73 not encoded: misplaced\n"
             "%! status E1.62 maybe: not a status\n%! status E1.62 EX encoded\n%! status E1.6999 noted: no such\n")
    here = _line(e16, "%! status E1.73 ")
    first = _line(kb_copy / "rules" / "asl" / "E1" / "E1.7.lp", "%! status E1.73 ")
    found = {(f.rule, f.line): f for f in _checks(kb_copy) if f.check == "status note"}
    assert set(found) == {("E1.73", here), ("", here + 1), ("E1.6999", here + 3), ("E1.73", first)}
    assert all(f.fails for f in found.values())
    misplaced = found[("E1.73", here)]
    assert misplaced.path == "rules/asl/E1/E1.6.lp" and "stands in the file of E1.6" in misplaced.message
    assert "should read" in found[("", here + 1)].message
    assert "no paragraph of the source text" in found[("E1.6999", here + 3)].message
    second = found[("E1.73", first)]
    assert second.path == "rules/asl/E1/E1.7.lp" and "a second note of E1.73" in second.message
    assert f"rules/asl/E1/E1.6.lp:{here}" in second.message


def test_a_file_with_only_status_notes_loads_and_grounds_nothing():
    kb = knowledge_base()
    assert "rules/asl/A12/A12.1.lp" in kb.parts["asl"]
    assert not [r for r in kb.rules if r.path == "rules/asl/A12/A12.1.lp"]
    assert {n.rule_id for n in kb.annotations("rules/asl/A12/A12.1.lp").status_notes} == {
        "A12.1", "A12.11", "A12.15", "A12.151"}  # A12.13 has its own file since it decides CC (issue 34)


def test_the_checked_in_coverage_matrix_lists_every_paragraph():
    from aslkb.tools.sourcetext import paragraphs

    text = (ROOT / "docs" / "coverage.md").read_text(encoding="utf-8")
    for paragraph in paragraphs():
        assert f"| {paragraph.rule_id} |" in text, paragraph.rule_id
    assert "docs/coverage/" not in text  # the notes are read from the rule files only


# --- 5. the lint ------------------------------------------------------------

def test_lint_finds_the_nvr_table_gap_as_known_damage():
    from aslkb.tools.lintchecks import check_tables
    from aslkb.knowledge.rulefiles import kb_root

    [finding] = [f for f in check_tables(knowledge_base(), kb_root()) if f.rule == "E1.11"]
    assert finding.path == "rules/asl/E1/E1.11.lp" and finding.check == "table"
    assert "nvr_table/3" in finding.message and "no row for 5" in finding.message
    assert finding.waived_by == ["nvr_row5_as_row34", "nvr_row5_as_row6"] and not finding.fails


@pytest.fixture
def kb_copy(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    shutil.copytree(ROOT / "rules", root / "rules")
    shutil.copytree(ROOT / "queries", root / "queries")
    return root


def _checks(root: Path, corpus: list[str] | None = None):
    from aslkb.tools.lintchecks import run_checks

    return run_checks(build(rule_files(root), root), str(root), corpus)


def test_lint_finds_gaps_doubles_orphan_exceptions_and_unknown_rule_ids(kb_copy: Path):
    (kb_copy / "rules" / "asl" / "E1" / "E1.99.lp").write_text(
        "%table test_table/2 key 1 covers 1..6\n"
        "%@ E1.7 a test table\n"
        "test_table(1..3, low).\n"
        "test_table(3..5, high).\n"
        "\n"
        "%@ E1.53 EXC: an exception that nothing reads\n"
        "lonely_exception(X) :- test_table(X, low).\n"
        "\n"
        "%@ E1.999 a paragraph the text does not have\n"
        "test_fact.\n", encoding="utf-8")
    found = {(f.check, f.rule): f for f in _checks(kb_copy)}
    table = found[("table", "E1.7")]
    assert table.path == "rules/asl/E1/E1.99.lp" and table.line == 3
    assert "no row for 6" in table.message and "2 rows for 3" in table.message and table.fails
    assert found[("exception", "E1.53")].line == 7
    assert found[("rule id", "E1.999")].line == 10 and found[("rule id", "E1.999")].fails


def test_lint_finds_a_conflict_and_a_query_with_no_case(kb_copy: Path, wheeled: Path):
    (kb_copy / "rules" / "asl" / "E1" / "E1.99.lp").write_text(
        "%@ E1.13 a rule that gives a second NVR\n"
        "nvr(U, 0) :- is_unit(U), night.\n", encoding="utf-8")
    findings = _checks(kb_copy, [str(wheeled.parent)])
    [conflict] = [f for f in findings if f.check == "conflict"]
    assert "nvr G1 gets 2 values" in conflict.message
    assert "E1.1" in conflict.rule and "E1.13" in conflict.rule
    assert "rules/asl/E1/E1.99.lp:2" in conflict.message
    untested = {f.message.split()[1] for f in findings if f.check == "query"}
    assert "base_nvr" in untested and "nvr" not in untested and "within_nvr" not in untested


def test_lint_cases_path_judges_a_folder_by_what_it_asks(wheeled: Path, capsys):
    """A club's own folder asks a few queries: the ones it does not ask are not problems."""
    assert main(["lint", "--cases", str(wheeled.parent)]) == 0
    out = capsys.readouterr().out
    assert "has no case" not in out and out.splitlines()[-1] == "lint: 0 problems"
    assert f"cases checked: {wheeled.parent}" in out


def test_lint_help_documents_cases_and_no_cases(capsys):
    with pytest.raises(SystemExit):
        main(["lint", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--no-cases skip the checks that solve cases" in text
    assert "a folder is judged by what it asks" in text


def test_lint_json(capsys):
    assert main(["lint", "--no-cases", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [table] = [f for f in data["findings"] if f["check"] == "table" and f["rule"] == "E1.11"]
    assert table["known_damage"] and not table["fails"] and table["file"] == "rules/asl/E1/E1.11.lp"
    assert data["failures"] == 0, (data["problems"], [f for f in data["findings"] if f["fails"]])


# --- 6. invariants ----------------------------------------------------------

def test_invariants_hold_under_the_default_interpretations(capsys):
    assert main(["invariants"]) == 0
    printed = capsys.readouterr().out
    for name in ("moving_vehicle_seen_as_far", "base_nvr_within_limits", "concealment_halving_once"):
        assert f"ok    {name}" in printed


def test_the_literal_half_makes_a_moving_vehicle_harder_to_see(capsys):
    assert main(["invariants", "moving_vehicle_seen_as_far", "--interpretation", "vehicular_nvr_literal_half",
                 "--json"]) == 1
    [report] = json.loads(capsys.readouterr().out)
    assert not report["holds"] and report["rule"] == "E1.14"
    assert report["violations"][0].startswith("sees_moving_vehicle_only_to(wheeled,")
    situation = parse("\n".join(report["counterexample"]) + "\nquery within_nvr G1 V1\n")  # a valid situation
    assert situation.queries


def test_an_invariant_that_fails_or_has_an_empty_space_is_reported(kb_copy: Path):
    from aslkb.tools.invariants import check_invariants

    (kb_copy / "rules" / "invariants" / "broken.lp").write_text(
        "%! invariant broken\n%! rule E1.1\n%! says the Base NVR is never 2\n"
        "scenario(night).\n{ scenario(nvr, N) : N = 1..3 } = 1.\n"
        "violation(base_nvr_is(N)) :- base_nvr(N), N = 2.\n", encoding="utf-8")
    (kb_copy / "rules" / "invariants" / "empty.lp").write_text(
        "%! invariant empty\n%! says nothing\nscenario(night).\n:- scenario(night).\n", encoding="utf-8")
    reports = {r.invariant.name: r for r in check_invariants(["broken", "empty"], root=str(kb_copy))}
    assert reports["broken"].counterexample == ["scenario night nvr 2"]
    assert reports["empty"].vacuous
