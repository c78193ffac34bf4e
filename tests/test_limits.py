"""Limits and honest failure: --timeout, numbers the solver cannot hold, too
many missing dice, and nothing from a file or the command line running as
code or reaching outside rules/interpretations/. The basic injection cases
are in tests/test_cli.py and tests/test_parser.py; these extend them."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import clingo
import pytest

from aslkb.cli.main import main
from cli_helpers import run, write

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = [["query"], ["check"], ["odds", "base_nvr"], ["explain", "base_nvr"]]




def argv_for(command: list[str], path: Path, *rest: str) -> list[str]:
    return [command[0], str(path), *command[1:], *rest]


# --- --timeout ----------------------------------------------------------------------

@pytest.mark.parametrize("command", COMMANDS)
def test_every_solving_command_takes_a_timeout(command, tmp_path, capsys):
    path = write(tmp_path, "scenario night nvr 2\nexpect base_nvr = 2\n")
    code, out, err = run(capsys, *argv_for(command, path, "--timeout", "60"))
    assert code == 0, err
    assert out.strip()


@pytest.mark.parametrize("value", ["0", "-1", "soon", "nan", "inf"])
def test_a_timeout_must_be_a_positive_number_of_seconds(value, tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        main(["query", str(write(tmp_path, "query base_nvr\n")), "--timeout", value])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--timeout" in err and ("seconds" in err or "above 0" in err)


def big_situation(units: int) -> str:
    lines = ["scenario night nvr 2 year 1944"]
    lines += [f"unit U{i} {('german', 'russian')[i % 2]} squad 4-6-7 at {1 + i % 20}A{1 + i // 20}"
              for i in range(units)]
    return "\n".join(lines + ["query within_nvr U0 U1", "query nvr U3"]) + "\n"


@pytest.mark.parametrize("command", [["query"], ["odds", "base_nvr"]])
def test_the_timeout_stops_a_run_that_grounds_too_much_with_a_message(command, tmp_path):
    """40,000 units take longer than 2 seconds to read and ground; --timeout 2
    ends the run after 2 seconds, whatever stage it is in."""
    path = write(tmp_path, big_situation(40_000))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "aslkb", *argv_for(command, path, "--timeout", "2")],
                          capture_output=True, text=True, timeout=120)
    took = time.monotonic() - started
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("aslkb: timed out after 2 seconds (--timeout 2) before an answer"), done.stderr
    assert "longer --timeout" in done.stderr and "Traceback" not in done.stderr
    assert took < 30


def test_a_timeout_that_is_not_reached_leaves_no_watchdog_behind(tmp_path, capsys):
    """In-process callers (these tests) must not be ended later by a stale timer."""
    import threading

    path = write(tmp_path, "scenario night nvr 2\nquery base_nvr\n")
    assert run(capsys, "query", path, "--timeout", "0.5")[0] == 0
    time.sleep(0.7)  # had the timer survived, it would have ended pytest here
    assert not [t for t in threading.enumerate() if isinstance(t, threading.Timer) and t.is_alive()]


# --- numbers and dice the tool cannot take ---------------------------------------------

@pytest.mark.parametrize("text, column", [
    ("scenario nvr 99999999999999999999\nquery base_nvr\n", 14),
    ("scenario nvr 2.1234567890123456789\nquery base_nvr\n", 14),
    ("unit G1 german squad 99999999999-6-7\nquery base_nvr\n", 22),
    ("unit L1 german leader 8-99999999999\nquery base_nvr\n", 23),
    ("range 3A1 3A2 2147483648\nquery base_nvr\n", 15),
    ("wind_change 99999999999 breeze\nquery base_nvr\n", 13),
    # issue 37: past 4,300 digits Python refuses to convert (an internal error with no location),
    # and numbers a sum of the solver's 32-bit integers wraps on (two such squads gave fp -2)
    ("scenario nvr " + "9" * 5000 + "\nquery base_nvr\n", 14),
    ("hex 1A1 open tem -2147483646\nquery base_nvr\n", 18),
    ("unit G1 german squad 4-6-7 at 1A1 elr 100001\nquery base_nvr\n", 39),
    ("expect base_nvr = " + "9" * 5000 + "\n", 19),
])
def test_a_number_too_large_for_the_solver_is_refused_at_its_word(text, column, tmp_path, capsys):
    path = write(tmp_path, text)
    code, out, err = run(capsys, "query", path)
    assert code == 2 and out == ""
    assert err.startswith(f"{path}:1:{column}: number '") and "too large for the solver" in err, err


def test_too_many_missing_dice_is_a_message_not_an_internal_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("aslkb.engine.odds.MODEL_LIMIT", 10)
    path = write(tmp_path, "scenario night dyo month june\nquery base_nvr\n")
    code, out, err = run(capsys, "query", path)
    assert code == 2 and out == ""
    assert err.startswith("aslkb: error: more than 10 combinations of missing dice; give some of the rolls")
    assert "internal error" not in err


# --- nothing runs as code; nothing escapes rules/interpretations/ ------------------------

@pytest.mark.parametrize("name", [
    "../x", "../../rules/asl/E1/E1.7", "../interpretations/lax_over_stealthy", "/etc/passwd",
    "lax_over_stealthy.lp", "lax_over_stealthy/../lax_over_stealthy", "./lax_over_stealthy", "", " ",
    "x). #include \"/etc/passwd\".", "lax_over_stealthy\x00", "LAX_OVER_STEALTHY",
])
@pytest.mark.parametrize("option", ["--interpretation", "--without"])
def test_interpretation_names_on_the_command_line_are_names_not_paths(option, name, tmp_path, capsys):
    path = write(tmp_path, "scenario night nvr 2\nquery base_nvr\n")
    code, out, err = run(capsys, "query", path, option, name)
    assert code == 2 and out == ""
    assert "unknown interpretation" in err and "Traceback" not in err


@pytest.mark.parametrize("line", [
    "interpretation ../../x", "interpretation ../x", "interpretation /etc/passwd",
    "interpretation lax_over_stealthy.lp", "interpretation rules/interpretations/lax_over_stealthy",
    "interpretation x).#include", "interpretation nosuch",
])
def test_interpretation_names_in_a_file_are_names_not_paths(line, tmp_path, capsys):
    path = write(tmp_path, f"scenario night nvr 2\n{line}\nquery base_nvr\n")
    code, out, err = run(capsys, "query", path)
    assert code == 2 and out == ""
    assert err.startswith(f"{path}:2:"), err


def test_the_interpretations_the_engine_loads_are_the_files_of_rules_interpretations():
    from aslkb.knowledge.program import knowledge_base

    folder = ROOT / "rules" / "interpretations"
    kb = knowledge_base()
    assert {Path(i.path).name for i in kb.interpretations.values()} == {p.name for p in folder.glob("*.lp")}
    assert all(i.path == f"rules/interpretations/{name}.lp" for name, i in kb.interpretations.items())


@pytest.mark.parametrize("hostile", [
    "x).#script(python)", "#include", "x).", "p:-q", "\"a\"", "a%b", "1..9", "X", "_x", "@f",
])
def test_command_line_queries_are_words_of_the_language_not_asp(hostile, tmp_path, capsys):
    path = write(tmp_path, "scenario night nvr 2\nunit G1 german squad 4-6-7 at 3A1\nquery base_nvr\n")
    for command in ("odds", "explain"):
        code, out, err = run(capsys, command, path, "night_class", hostile)
        assert code == 2 and out == ""
        assert err.startswith("aslkb: error: query 'night_class "), err


def test_no_word_of_a_file_reaches_clingo_as_program_text(tmp_path, capsys, monkeypatch):
    """Every id and keyword of the file goes in as a clingo symbol: the text
    clingo parses is the knowledge base's own, whatever the file says."""
    marker = "Zq9injected"
    added: list[str] = []
    real_add = clingo.Control.add

    def spy(self, *args):
        added.append(args[-1])
        return real_add(self, *args)

    monkeypatch.setattr(clingo.Control, "add", spy)
    # the broken unit is the target: it may not fire (interpretation broken_units_do_not_fire)
    text = (f"scenario night nvr 2\nunit {marker} german squad 4-6-7 at 3A1 broken\n"
            f"unit {marker}b russian squad 4-4-7 at 3A2\nrange {marker} {marker}b 1\n"
            f"attack {marker}A by {marker}b at {marker}\nquery night_class {marker}\n"
            f"query drm {marker}A night_lv\nexpect night_class {marker} = lax\n")
    code, _, err = run(capsys, "query", write(tmp_path, text))
    assert code in (0, 1), err
    assert added and not any(marker in program for program in added)
    added.clear()
    code, _, err = run(capsys, "query", write(tmp_path, text + f"range {marker}b {marker} 3\n", "bad.sit"))
    assert code == 2 and "inconsistent situation" in err  # the conflict search too
    assert added and not any(marker in program for program in added)


def fire_group(firers: int, per_hex: int) -> str:
    """A FG of `firers` German squads, `per_hex` to a hex, in a chain of ADJACENT hexes up and
    down board 1's columns (1A1..1A10, 1B10..1B1, ...), each with a clear LOS to the target."""
    def chain_hex(i: int) -> str:
        column, row = divmod(i, 10)
        return f"1{'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[column]}{row + 1 if column % 2 == 0 else 10 - row}"
    lines = ["hex 2A5 open", "unit R1 russian squad 4-4-7 at 2A5"]
    for i in range(firers):
        lines += [f"unit G{i + 1} german squad 4-6-7 at {chain_hex(i // per_hex)}", f"los G{i + 1} R1 clear"]
    lines.append("attack A1 by " + ",".join(f"G{i + 1}" for i in range(firers)) + " at R1 range 6")
    return "\n".join(lines + ["query fp A1", "query drm A1", "query fg_legal A1"]) + "\n"


def test_a_fire_group_of_the_largest_size_allowed_is_answered_within_seconds(tmp_path, capsys):
    # issue 37: A7.5's chain compared every two firers, and the hex ranges it opened grew with
    # their square: 200 firers in 20 hexes ran past 120 s; now hex by hex
    path = write(tmp_path, fire_group(200, 10))
    start = time.monotonic()
    code, out, err = run(capsys, "query", path)
    assert code == 0, err
    assert time.monotonic() - start < 5
    assert "fp A1 = 800\n" in out and "drm A1 = 0\n" in out and "fg_legal A1 = yes\n" in out


def test_an_attack_by_more_firers_than_the_limit_is_refused_at_the_first_one_past_it(tmp_path, capsys):
    path = write(tmp_path, fire_group(2000, 10))  # 84 KB: minutes and gigabytes before the limit
    code, out, err = run(capsys, "query", path)
    line = 2 + 2 * 2000 + 1
    column = len("attack A1 by ") + len(",".join(f"G{i + 1}" for i in range(200))) + 2
    assert code == 2 and out == ""
    assert err.startswith(f"{path}:{line}:{column}: attack A1 has 2000 firers: at most 200 units"), err
