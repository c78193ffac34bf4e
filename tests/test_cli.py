"""The `aslkb` command line: query, check, lint, their options and exit statuses.

Most tests call `aslkb.cli.main` in-process and read what it printed; a few
run a real process where the point is the process itself (the console entry's
exit status, another working directory, nothing but a message on stderr).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from aslkb.cli.main import main
from aslkb.knowledge.program import knowledge_base
from cli_helpers import run, write

ROOT = Path(__file__).resolve().parent.parent
FIRST_NIGHT = ROOT / "examples" / "first-night.sit"
RULE_ID = re.compile(r"^(SL \d+(\.\d+)*|[A-Z]\d+(\.\d+)*)$")
# The interpretations on by default (lax_over_stealthy and vehicular_nvr_one_and_half today).
DEFAULTS = frozenset(name for name, i in knowledge_base().interpretations.items() if i.default)

# A moving wheeled vehicle 3 hexes from a viewer of NVR 2 (E1.14): within NVR
# when the multiple is 1½ (3 hexes), not when it is ½ (1 hex), undecided
# when no interpretation of the damaged text is in force.
WHEELED = """\
scenario night nvr 2
hex 3A1 open
unit G1 german squad 4-6-7 at 3A1
unit W1 russian vehicle at 3D1 wheeled in_motion
range G1 W1 3
query within_nvr G1 W1
"""



def header(*, on: tuple[str, ...] = (), off: tuple[str, ...] = ()) -> str:
    """The first line of the text output with these changes to the defaults:
    how many are in force (each answer names those it relied on)."""
    in_force = DEFAULTS - set(off) | set(on)
    return f"edition asl; {len(in_force)} interpretations in force (--explain names them)"


def named_header(*, on: tuple[str, ...] = (), off: tuple[str, ...] = ()) -> str:
    """The first line with --explain: every interpretation in force, by name."""
    in_force = sorted(DEFAULTS - set(off) | set(on))
    return f"edition asl; interpretations: {', '.join(in_force) or 'none'}"



def answer_lines(out: str) -> list[str]:
    """The `QUERY = VALUE` lines of the text output, in order."""
    return [line for line in out.splitlines()
            if " = " in line and not line.startswith((" ", "ok ", "FAIL ", "edition "))]


def aslkb_process(*argv, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "aslkb", *map(str, argv)], cwd=cwd,
                          capture_output=True, text=True, timeout=60)


# --- query: text ------------------------------------------------------------

def test_query_prints_one_answer_line_per_query_in_file_order_with_its_rules(capsys):
    code, out, err = run(capsys, "query", FIRST_NIGHT)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert {"lax_over_stealthy", "vehicular_nvr_one_and_half"} <= DEFAULTS
    assert lines[0] == header()
    assert answer_lines(out) == [
        "base_nvr = 4",
        "within_nvr G1 R1 = yes",
        "night_class G2 = normal",
        "drm A1 night_lv = 1",
        "drm A2 night_lv = 0",
        "san russian = 6",
    ]
    rules_after = {}
    for i, line in enumerate(lines):
        if line in answer_lines(out):
            assert lines[i + 1].startswith("    rules: "), f"no rules line after {line!r}"
            ids = lines[i + 1].removeprefix("    rules: ").split(", ")
            assert ids and all(RULE_ID.match(rule) for rule in ids), ids
            rules_after[line] = ids
    assert "E1.7" in rules_after["drm A1 night_lv = 1"]
    assert "E1.76" in rules_after["san russian = 6"]
    assert "E1.11" in rules_after["base_nvr = 4"]  # the DYO NVR Table roll decided it


def test_query_reports_expectations_as_passed(capsys):
    code, out, _ = run(capsys, "query", FIRST_NIGHT)
    assert code == 0
    assert "ok    line 28: expect drm A1 night_lv = 1" in out.splitlines()
    assert [line for line in out.splitlines() if line.startswith("ok ")] == [
        "ok    line 27: expect base_nvr = 4",
        "ok    line 28: expect drm A1 night_lv = 1",
        "ok    line 29: expect drm A2 night_lv = 0",
        "ok    line 30: expect san russian = 6",
    ]
    assert out.splitlines()[-1] == "4 passed, 0 failed"


def test_query_text_names_the_exception_that_applied(capsys):
    code, out, _ = run(capsys, "query", FIRST_NIGHT)
    block = out.split("drm A2 night_lv = 0\n", 1)[1].split("\nsan russian", 1)[0]
    assert "exception applied: E1.7 EXC" in block
    assert "rules/asl/E1/E1.7.lp:" in block


# --- query --json -----------------------------------------------------------

def test_json_is_one_object_with_the_answers_and_expectations(capsys):
    code, out, _ = run(capsys, "query", "--json", FIRST_NIGHT)
    assert code == 0
    data = json.loads(out)  # the whole of stdout is one JSON document
    assert set(data) == {"edition", "interpretations", "answers", "expectations"}
    assert data["edition"] == "asl"
    assert data["interpretations"] == sorted(DEFAULTS)
    for answer in data["answers"]:
        assert {"query", "value", "rules", "explanation"} <= set(answer)
        assert isinstance(answer["explanation"], list) and answer["explanation"]
    assert [(a["query"], a["value"]) for a in data["answers"]] == [
        ("base_nvr", 4),
        ("within_nvr G1 R1", True),
        ("night_class G2", "normal"),
        ("drm A1 night_lv", 1),
        ("drm A2 night_lv", 0),
        ("san russian", 6),
    ]
    assert "E1.7" in data["answers"][3]["rules"]
    assert data["expectations"][1] == {"line": 28, "query": "drm A1 night_lv", "expected": 1,
                                       "actual": 1, "passed": True}
    assert all(e["passed"] for e in data["expectations"]) and len(data["expectations"]) == 4


def test_json_undecided_answers_name_the_rule_the_roll_or_the_fact(tmp_path, capsys):
    not_encoded = write(tmp_path, """\
scenario night nvr 3 clouds scattered moon half
roll nvr_change colored 6 white 5
unit G1 german squad 4-6-7 at 3A1
unit R1 russian squad 4-4-7 at 3C1
los G1 R1 blocked
move M1 G1 to 3B1
roll movement G1 colored 6 white 4
query strays G1
query base_nvr
""", "rolls.sit")
    code, out, _ = run(capsys, "query", "--json", not_encoded)
    assert code == 0
    strays, base_nvr = json.loads(out)["answers"]
    # a German squad with no scenario year is Lax or Normal (E1.62): either
    # way colored 6 white 4 makes it Stray (E1.53); R1, within the NVR, is
    # out of its LOS, else a Known enemy would spare it the DR (E1.531)
    assert strays["value"] is True and "E1.53" in strays["rules"]
    # the NVR Change needs its amount dr (E1.12 EXC), not given: exact odds
    # over its faces, a raise of dr/3 (FRU): 1-3 give +1, 4-6 give +2
    assert base_nvr["value"] is None and "undecided" not in base_nvr
    assert base_nvr["distribution"] == {"4": "1/2", "5": "1/2"}
    assert "E1.12" in base_nvr["rules"]

    missing_fact = write(tmp_path, """\
scenario night nvr 2
unit G1 german squad 4-6-7 at 3A1
unit R1 russian squad 4-4-7 at 12C1
query within_nvr G1 R1
""", "facts.sit")
    code, out, _ = run(capsys, "query", "--json", missing_fact)
    [within] = json.loads(out)["answers"]
    assert within["value"] is None and "add: range G1 R1 N" in within["undecided"]

    no_nvr = write(tmp_path, "scenario night\nquery base_nvr\n", "nvr.sit")
    code, out, _ = run(capsys, "query", "--json", no_nvr)
    [answer] = json.loads(out)["answers"]
    assert answer["value"] is None and answer["undecided"] == "add: scenario nvr N"


def test_json_lists_the_exceptions_of_an_exempt_night_attack(tmp_path, capsys):
    path = write(tmp_path, """\
scenario night nvr 2
unit G1 german squad 4-6-7 at 3A1
unit R1 russian squad 4-4-7 at 3C1
attack A1 by G1 at R1 fire_lane
query drm A1 night_lv
""")
    code, out, _ = run(capsys, "query", "--json", path)
    [answer] = json.loads(out)["answers"]
    assert answer["value"] == 0
    assert "E1.7" in answer["rules"]
    assert answer["exceptions"], "the E1.7 exemption is not reported"
    for exception in answer["exceptions"]:
        assert exception["rule"] == "E1.7" and exception["applied"] is True
        assert exception["where"].startswith("rules/asl/E1/E1.7.lp:") and exception["note"]
    assert any(step["role"] == "exception applied" for step in answer["explanation"])


# --- expectations and exit status --------------------------------------------

def test_a_failed_expect_exits_1_and_shows_expected_and_actual(tmp_path, capsys):
    text = FIRST_NIGHT.read_text(encoding="utf-8").replace(
        "expect drm A1 night_lv = 1", "expect drm A1 night_lv = 2")
    code, out, _ = run(capsys, "query", write(tmp_path, text))
    assert code == 1
    [failure] = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert failure.startswith("FAIL  line 28: expect drm A1 night_lv = 2, got 1")
    assert "E1.7" in failure
    assert out.splitlines()[-1] == "3 passed, 1 failed"


def test_a_failed_expect_on_an_undecided_answer_shows_why(tmp_path, capsys):
    path = write(tmp_path, "scenario night\nexpect base_nvr = 3\n")
    code, out, _ = run(capsys, "query", path)
    assert code == 1
    assert "expect base_nvr = 3, got undecided (add: scenario nvr N)" in out


def test_all_expects_holding_exits_0(tmp_path, capsys):
    path = write(tmp_path, """\
scenario night nvr 3
unit G1 german squad 4-6-7 at 3A1
range G1 3H1 7
expect base_nvr = 3
expect nvr G1 = 3
expect not within_nvr G1 3H1
expect strays G1 = undecided
""")
    code, out, _ = run(capsys, "query", path)
    assert code == 0, out
    assert out.splitlines()[-1] == "4 passed, 0 failed"


# --- input the tool cannot take: exit 2, FILE:LINE:COLUMN, no traceback -------

BAD_FILES = {
    "unknown statement": ("scenario night\nfoo bar\n", 2, 1, "unknown statement 'foo'"),
    "undefined id": ("scenario night\nquery strays G9\n", 2, 14, "'G9' is not defined"),
    "id defined twice": ("unit G1 german squad 4-6-7\nunit G1 russian squad 4-4-7\n", 2, 6,
                         "'G1' is already defined as a unit at line 1"),
    "die value 7": ("unit G1 german squad 4-6-7\nroll movement G1 colored 7 white 1\n", 2, 26,
                    "die value 7 is out of range"),
    "malformed hex": ("hex 3g6 woods\n", 1, 5, "malformed hex id '3g6'"),
    "malformed strength": ("unit G1 german squad 8-1\n", 1, 22, "a squad strength is FP-range-morale"),
    "unknown query": ("unit G1 german squad 4-6-7\nquery strayz G1\n", 2, 7,
                      "unknown query 'strayz' (did you mean 'strays'?)"),
    "unknown interpretation": ("scenario night nvr 2\ninterpretation nosuch\nquery base_nvr\n", 2, 16,
                               "unknown interpretation 'nosuch'"),
    "two phase lines": ("scenario night\nphase rally\nphase movement german\nquery nvr_roll_due\n", 3, 7,
                        "phase is given twice (first at line 2: phase rally)"),
    "attack after the phase": ("unit G1 german squad 4-6-7\nphase movement\n"
                               "attack A1 by G1 at 3A2 phase advancing_fire\n", 3, 30,
                               "attack A1 is made in the advancing_fire phase, after the phase the file asks in"),
}


@pytest.mark.parametrize("problem", BAD_FILES)
def test_bad_input_exits_2_with_file_line_column(problem, tmp_path, capsys):
    text, line, column, message = BAD_FILES[problem]
    path = write(tmp_path, text)
    code, out, err = run(capsys, "query", path)
    assert code == 2
    assert out == ""
    assert err.startswith(f"{path}:{line}:{column}: "), err
    assert message in err
    assert "Traceback" not in err


def test_invalid_utf8_exits_2_with_its_position(tmp_path, capsys):
    path = tmp_path / "case.sit"
    path.write_bytes(b"scenario night\nunit G1 german squad \xff\n")
    code, _, err = run(capsys, "query", path)
    assert code == 2
    assert err.startswith(f"{path}:2:22: invalid UTF-8: byte 0xff cannot be decoded")
    assert "Traceback" not in err


def test_missing_file_exits_2(tmp_path, capsys):
    missing = tmp_path / "nowhere.sit"
    code, out, err = run(capsys, "query", missing)
    assert code == 2 and out == ""
    assert str(missing) in err and "No such file" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("argv", [
    ["--interpretation", "nosuch"],
    ["--without", "nosuch"],
])
def test_unknown_interpretation_on_the_command_line_exits_2(argv, tmp_path, capsys):
    code, out, err = run(capsys, "query", write(tmp_path, "scenario night nvr 2\nquery base_nvr\n"), *argv)
    assert code == 2 and out == ""
    assert "unknown interpretation 'nosuch'" in err
    assert "nvr_row5_as_row6" in err  # lists the known ones
    assert "Traceback" not in err


def test_interpretations_that_exclude_each_other_exit_2(tmp_path, capsys):
    path = write(tmp_path, "scenario night nvr 2\nquery base_nvr\n")
    code, out, err = run(capsys, "query", path,
                         "--interpretation", "nvr_row5_as_row6", "--interpretation", "nvr_row5_as_row34")
    assert code == 2 and out == ""
    assert "exclude each other" in err and "nvr_row5_as_row6" in err and "nvr_row5_as_row34" in err
    assert "Traceback" not in err

    in_file = write(tmp_path, "interpretation nvr_row5_as_row6\ninterpretation nvr_row5_as_row34\n"
                              "query base_nvr\n", "both.sit")
    code, out, err = run(capsys, "query", in_file)
    assert code == 2 and out == ""
    assert "exclude each other" in err and "Traceback" not in err


def test_interpretations_that_exclude_each_other_in_the_file_point_at_the_line(tmp_path, capsys):
    path = write(tmp_path, "scenario night nvr 2\ninterpretation nvr_row5_as_row6\n"
                           "interpretation nvr_row5_as_row34\nquery base_nvr\n")
    code, _, err = run(capsys, "query", path)
    assert code == 2
    assert re.match(rf"{re.escape(str(path))}:[23]:\d+: ", err), err


def test_unknown_edition_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        main(["query", "--edition", "sl5", str(write(tmp_path, "query base_nvr\n"))])
    assert info.value.code == 2
    assert "invalid choice: 'sl5'" in capsys.readouterr().err


def test_an_internal_error_is_one_line_unless_debug(tmp_path, capsys, monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("solver exploded")

    monkeypatch.setattr("aslkb.answers.ask.Grounding", broken)
    path = write(tmp_path, "scenario night nvr 2\nquery base_nvr\n")
    code, out, err = run(capsys, "query", path)
    assert code == 2 and out == ""
    assert err == "aslkb: internal error: RuntimeError: solver exploded (rerun with --debug for details)\n"
    with pytest.raises(RuntimeError, match="solver exploded"):
        main(["--debug", "query", str(path)])
    with pytest.raises(RuntimeError, match="solver exploded"):
        main(["query", "--debug", str(path)])


# --- nothing in a situation file becomes clingo code --------------------------

@pytest.mark.parametrize("text", [
    "unit x).#script(python) german squad 4-6-7\nquery base_nvr\n",
    "unit G1 german squad 4-6-7\nquery strays x).#script(python)\n",
    "interpretation x).#script(python)\nquery base_nvr\n",
    "scenario night nvr 2\n#script (python)\nimport pathlib; pathlib.Path(r'{marker}').write_text('ran')\n"
    "#end.\nquery base_nvr\n",
])
def test_code_in_a_situation_file_is_refused(text, tmp_path, capsys):
    marker = tmp_path / "MARKER"
    path = write(tmp_path, text.replace("{marker}", str(marker)))
    code, out, err = run(capsys, "query", path)
    assert code == 2 and out == ""
    assert err.startswith(f"{path}:"), err
    assert "Traceback" not in err
    assert not marker.exists()


def test_an_include_line_is_a_comment_and_reaches_no_solver(tmp_path, capsys, monkeypatch):
    """`#` starts a comment, so `#include` includes nothing: the included
    program would give the Base NVR 99 and create a marker file."""
    marker = tmp_path / "MARKER"
    (tmp_path / "evil.lp").write_text(
        "answer(base_nvr, 99).\n"
        f"#script (python)\nimport pathlib\npathlib.Path(r'{marker}').write_text('ran')\n#end.\n",
        encoding="utf-8")
    programs = []
    import aslkb.answers.ask

    real_grounding = aslkb.answers.ask.Grounding

    def spy(program, facts, **options):
        programs.append(program)
        return real_grounding(program, facts, **options)

    monkeypatch.setattr("aslkb.answers.ask.Grounding", spy)
    path = write(tmp_path, f'scenario night nvr 3\n#include "{tmp_path / "evil.lp"}".\nquery base_nvr\n')
    code, out, err = run(capsys, "query", path)
    assert code in (0, 2), err  # refused, or read as the comment the language says it is
    assert "Traceback" not in err
    assert not marker.exists()
    if code == 0:
        assert answer_lines(out) == ["base_nvr = 3"]
        assert all("#include" not in p and "#script" not in p and "evil" not in p for p in programs)


def test_an_interpretation_name_from_the_command_line_is_not_code(tmp_path, capsys):
    path = write(tmp_path, "scenario night nvr 2\nquery base_nvr\n")
    code, out, err = run(capsys, "query", path, "--interpretation", "x). #script (python) #end.")
    assert code == 2 and out == ""
    assert "unknown interpretation" in err


# --- editions and interpretations --------------------------------------------

def test_edition_sl4_answers_by_sl_49_not_the_asl_rules(capsys):
    code, out, _ = run(capsys, "query", "--json", "--edition", "sl4", FIRST_NIGHT)
    data = json.loads(out)
    assert data["edition"] == "sl4"
    values = {a["query"]: a["value"] for a in data["answers"]}
    # SL 49.11: the NVR is a 2d6 DR, not the DYO table: its odds, not 4
    assert values["base_nvr"] is None and "distribution" in data["answers"][0]
    assert values["drm A1 night_lv"] == 0 and values["drm A2 night_lv"] == 0  # SL has no night LV DRM
    assert values["night_class G2"] is None and values["san russian"] is None
    assert code == 1  # the file's ASL expectations do not all hold under SL
    assert [e["passed"] for e in data["expectations"]] == [False, False, True, False]


def test_edition_sl4_on_the_command_line_names_sl_49(capsys):
    code, out, _ = run(capsys, "query", "--json", "--edition", "sl4", FIRST_NIGHT)
    for answer in json.loads(out)["answers"]:
        assert any(rule.startswith("SL 49") for rule in answer["rules"]), answer


def test_edition_sl4_in_the_file_names_sl_49(tmp_path, capsys):
    path = write(tmp_path, "edition sl4\nscenario night nvr 3\nunit G1 german squad 4-6-7 at 3A1\n"
                           "query base_nvr\nquery night_class G1\n")
    code, out, _ = run(capsys, "query", path)
    assert code == 0
    assert out.splitlines()[0].startswith("edition sl4;")
    assert answer_lines(out) == ["base_nvr = 3",
                                 "night_class G1 = undecided: SL 49: SL has no Lax/Normal/Stealthy units"]


def test_interpretations_in_force_change_the_answer_and_are_listed(tmp_path, capsys):
    path = write(tmp_path, WHEELED)
    code, out, _ = run(capsys, "query", path)
    assert code == 0
    assert out.splitlines()[0] == header()
    assert answer_lines(out) == ["within_nvr G1 W1 = yes"]
    assert "    interpretation: vehicular_nvr_one_and_half" in out.splitlines()

    code, out, _ = run(capsys, "query", path, "--without", "vehicular_nvr_one_and_half",
                       "--interpretation", "vehicular_nvr_literal_half")
    assert code == 0
    assert out.splitlines()[0] == header(on=("vehicular_nvr_literal_half",), off=("vehicular_nvr_one_and_half",))
    assert answer_lines(out) == ["within_nvr G1 W1 = no"]
    code, out, _ = run(capsys, "query", path, "--without", "vehicular_nvr_one_and_half",
                       "--interpretation", "vehicular_nvr_literal_half", "--explain")
    assert out.splitlines()[0] == named_header(on=("vehicular_nvr_literal_half",),
                                               off=("vehicular_nvr_one_and_half",))
    assert "vehicular_nvr_one_and_half" not in out.splitlines()[0]
    assert answer_lines(out) == ["within_nvr G1 W1 = no"]
    assert "    interpretation: vehicular_nvr_literal_half" in out.splitlines()

    code, out, _ = run(capsys, "query", "--json", path, "--without", "vehicular_nvr_one_and_half")
    data = json.loads(out)
    assert data["interpretations"] == sorted(DEFAULTS - {"vehicular_nvr_one_and_half"})
    [answer] = data["answers"]
    assert answer["value"] is None and answer["undecided"].startswith("E1.14 damaged")
    assert "vehicular_nvr_literal_half, vehicular_nvr_one_and_half" in answer["undecided"]


def test_interpretation_off_in_the_file(tmp_path, capsys):
    path = write(tmp_path, "".join(f"interpretation {name} off\n" for name in sorted(DEFAULTS)) + WHEELED)
    code, out, _ = run(capsys, "query", path)
    assert code == 0
    assert out.splitlines()[0] == "edition asl; interpretations: none"
    assert answer_lines(out)[0].startswith("within_nvr G1 W1 = undecided: E1.14 damaged")

    # the command line has the last word
    code, out, _ = run(capsys, "query", path, "--interpretation", "vehicular_nvr_one_and_half")
    assert out.splitlines()[0] == "edition asl; 1 interpretation in force (--explain names them)"
    assert answer_lines(out) == ["within_nvr G1 W1 = yes"]


def test_an_off_by_default_interpretation_switched_on_in_the_file(tmp_path, capsys):
    path = write(tmp_path, "scenario night dyo month june\nroll nvr_table colored 1 white 5\n"
                           "interpretation nvr_row5_as_row6\nquery moon_phase\nquery base_nvr\n")
    code, out, _ = run(capsys, "query", path, "--explain")
    assert code == 0
    assert "nvr_row5_as_row6" in out.splitlines()[0]
    code, out, _ = run(capsys, "query", path)
    assert "    interpretation: nvr_row5_as_row6" in out.splitlines()  # the answers name it
    assert answer_lines(out) == ["moon_phase = none", "base_nvr = 3"]
    code, out, _ = run(capsys, "query", path, "--without", "nvr_row5_as_row6",
                       "--interpretation", "nvr_row5_as_row34")
    assert answer_lines(out) == ["moon_phase = half", "base_nvr = 4"]


# --- check ------------------------------------------------------------------

PASSING = "scenario night nvr 3\nexpect base_nvr = 3\n"
FAILING = "scenario night nvr 3\nexpect base_nvr = 4\nexpect base_nvr = 3\n"


def test_check_reports_each_failure_and_a_summary(tmp_path, capsys):
    folder = tmp_path / "cases"
    folder.mkdir()
    write(folder, PASSING, "pass.sit")
    failing = write(folder, FAILING, "fail.sit")
    code, out, _ = run(capsys, "check", folder)
    assert code == 1
    lines = out.splitlines()
    [failure] = [line for line in lines if line.startswith(str(failing))]
    assert re.match(rf"{re.escape(str(failing))}:(line )?2\b", failure), failure
    assert "expect base_nvr = 4, got 3" in failure
    assert lines[-1] == "2 passed, 1 failed"


def test_check_failure_is_file_colon_line(tmp_path, capsys):
    failing = write(tmp_path, FAILING, "fail.sit")
    _, out, _ = run(capsys, "check", failing)
    assert f"{failing}:2: expect base_nvr = 4, got 3" in out


def test_check_all_passing_exits_0(tmp_path, capsys):
    write(tmp_path, PASSING, "a.sit")
    write(tmp_path, "scenario night nvr 2\nexpect base_nvr = 2\nexpect strays G1 = undecided\n"
                    "unit G1 german squad 4-6-7\n", "b.sit")
    code, out, _ = run(capsys, "check", tmp_path / "a.sit", tmp_path / "b.sit")
    assert code == 0
    assert out.splitlines()[-1] == "3 passed, 0 failed"


def test_check_the_shipped_example_with_a_case_of_ones_own(tmp_path, capsys):
    code, out, _ = run(capsys, "check", FIRST_NIGHT, write(tmp_path, PASSING))
    assert code == 0
    assert out.splitlines()[-1] == "5 passed, 0 failed"


def test_check_an_unreadable_file_exits_2_and_goes_on(tmp_path, capsys):
    write(tmp_path, PASSING, "a.sit")
    bad = tmp_path / "b.sit"
    bad.write_bytes(b"scenario night\n\xff\n")
    code, out, err = run(capsys, "check", tmp_path)
    assert code == 2
    assert f"{bad}:2:1: invalid UTF-8" in out + err
    assert out.splitlines()[-1] == "1 passed, 0 failed"
    assert "Traceback" not in err


def test_check_a_file_that_does_not_parse_exits_2(tmp_path, capsys):
    bad = write(tmp_path, "scenario night\nfoo\n", "bad.sit")
    code, out, err = run(capsys, "check", bad)
    assert code == 2
    assert f"{bad}:2:1: unknown statement 'foo'" in out + err


def test_check_a_file_that_cannot_be_opened_exits_2_and_goes_on(tmp_path, capsys):
    (tmp_path / "a.sit").symlink_to(tmp_path / "gone")
    write(tmp_path, PASSING, "b.sit")
    code, out, err = run(capsys, "check", tmp_path)
    assert code == 2
    assert "a.sit" in out + err
    assert out.splitlines()[-1:] == ["1 passed, 0 failed"]


def test_check_a_nonexistent_path_exits_2(tmp_path, capsys):
    write(tmp_path, PASSING, "a.sit")
    code, out, err = run(capsys, "check", tmp_path / "a.sit", tmp_path / "nothere")
    assert code == 2
    assert f"{tmp_path / 'nothere'}: no such file or directory" in err
    assert "Traceback" not in err


def test_check_with_no_situation_files_is_an_error_not_a_pass(tmp_path, capsys):
    (tmp_path / "empty-folder").mkdir()
    (tmp_path / "empty-folder" / "notes.txt").write_text("not a case", encoding="utf-8")
    code, out, err = run(capsys, "check", tmp_path / "empty-folder")
    assert code == 2 and "passed" not in out
    assert err.strip() == f"aslkb: error: check: no situation files (*.sit) under {tmp_path / 'empty-folder'}"


@pytest.mark.parametrize("text, what", [("", "is empty"), ("# only a comment\n\n", "is empty"),
                                        ("hex 3A1 open\n", "asks nothing")])
def test_query_warns_about_a_situation_that_asks_nothing(tmp_path, capsys, text, what):
    path = write(tmp_path, text, "a.sit")
    code, out, err = run(capsys, "query", path)
    assert code == 0  # a warning: the file is valid (docs/design.md, "Command-line decisions")
    assert err.startswith(f"{path}:1:1: warning: the situation {what}")
    assert "`query base_nvr`" in err


def test_query_does_not_warn_when_the_file_asks_something(capsys):
    code, _, err = run(capsys, "query", FIRST_NIGHT)
    assert code == 0 and "warning" not in err


# --- lint and help ------------------------------------------------------------

def test_lint_passes_on_the_shipped_knowledge_base_and_lists_the_interpretations(capsys):
    code, out, _ = run(capsys, "lint")
    assert code == 0
    assert out.splitlines()[-1] == "lint: 0 problems"
    kb = knowledge_base()
    assert kb.interpretations
    for name, interp in kb.interpretations.items():
        state = "on by default" if interp.default else "off by default"
        assert f"interpretation {name} ({interp.rule}, {state}): " in out


@pytest.mark.parametrize("command, options", [
    ([], ["query", "check", "lint", "--debug"]),
    (["query"], ["FILE", "--json", "--edition", "--interpretation", "--without"]),
    (["check"], ["PATH", "--verbose", "--edition", "--interpretation", "--without"]),
    (["lint"], ["interpretations"]),
])
def test_help(command, options, capsys):
    with pytest.raises(SystemExit) as info:
        main([*command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: aslkb {' '.join(command)}".rstrip())
    for option in options:
        assert option in out


def test_no_command_prints_the_help_and_exits_2(capsys):
    code, out, _ = run(capsys)
    assert code == 2
    assert "usage: aslkb" in out and "query" in out


# --- a real process -------------------------------------------------------------

def test_python_m_aslkb_runs_from_another_directory(tmp_path):
    result = aslkb_process("query", FIRST_NIGHT, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "drm A1 night_lv = 1" in result.stdout.splitlines()
    assert result.stdout.splitlines()[-1] == "4 passed, 0 failed"

    shutil.copy(FIRST_NIGHT, tmp_path / "night.sit")  # a relative path is the working directory's
    result = aslkb_process("check", "night.sit", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "4 passed, 0 failed"


def test_console_entry_exit_status(tmp_path):
    entry = shutil.which("aslkb", path=os.path.dirname(sys.executable))
    if entry is None:
        pytest.skip("no aslkb console script next to this Python")
    failing = write(tmp_path, FAILING)
    result = subprocess.run([entry, "query", str(failing)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "FAIL  line 2: expect base_nvr = 4, got 3" in result.stdout


def test_a_real_process_shows_no_traceback_for_bad_input(tmp_path):
    bad = tmp_path / "bad.sit"
    bad.write_bytes(b"scenario night\nunit G1 german squad 4-6-7 \xfe\n")
    result = aslkb_process("query", bad, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == f"{bad}:2:28: invalid UTF-8: byte 0xfe cannot be decoded; save the file as UTF-8\n"

    result = aslkb_process("query", tmp_path / "missing.sit", cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "missing.sit" in result.stderr


def test_a_command_builds_only_its_own_options_and_help_lists_them_all(capsys):
    """main() builds just the asked command's options (a cold run saves the
    rest); each reads its arguments as the whole command line does."""
    from aslkb.cli.main import _COMMANDS, _MORE, _parser

    whole = _parser()
    for command in (*_COMMANDS, *_MORE):
        argv = [command, *_REQUIRED.get(command, [])]
        assert vars(_parser(command).parse_args(argv)) == vars(whole.parse_args(argv))
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0 and all(command in out for command in (*_COMMANDS, *_MORE))


_REQUIRED = {"query": ["f.sit"], "check": ["cases"], "odds": ["f.sit", "q"], "explain": ["f.sit", "q"],
             "diff": ["f.sit"], "impact": ["cases", "--interpretation", "x"], "completion": ["bash"]}


@pytest.mark.parametrize("command", [["impact", "tests/cases/asl/E1.7-EX.sit"], ["check", "tests/cases/asl"],
                                     ["invariants"], ["query", "examples/first-night.sit"]])
def test_an_unknown_interpretation_is_refused_once_by_every_command(command, capsys, monkeypatch):
    """Issue 33: impact reported '0 answers changed' and exited 0; check printed the error once a file."""
    monkeypatch.chdir(ROOT)
    assert main([*command, "--interpretation", "lax_over_stealty"]) == 2
    err = capsys.readouterr().err
    assert err.count("unknown interpretation 'lax_over_stealty'; did you mean lax_over_stealthy?") == 1


@pytest.mark.parametrize("written, meant", [("e1.7", "E1.7"), ("1.7", "E1.7"), ("49.23", "SL 49.23"),
                                            ("SL49.23", "SL 49.23"), ("sl 49.23", "SL 49.23"), ("12.2", "A12.2")])
def test_rules_takes_an_id_as_players_write_it(written, meant, capsys):
    """Issue 33: e1.7, 1.7, 49.23 and SL49.23 all failed without a suggestion."""
    assert main(["rules", *written.split()]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == meant or first.startswith(meant + " ")


def test_rules_suggests_the_nearest_id_for_a_near_miss(capsys):
    assert main(["rules", "E1.999"]) == 2
    assert "did you mean E1.9?" in capsys.readouterr().err
