"""`aslkb check` at scale: its worker processes end with it however it ends,
and `--json` reports the whole run (kb/tools/check.py, regress.py;
kb/base/workers.py)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from aslkb.cli.main import main
from cli_helpers import run

ROOT = Path(__file__).resolve().parent.parent
CASE = (ROOT / "tests" / "cases" / "asl" / "A12.12-EX.sit").read_text(encoding="utf-8")  # 5 expectations
FAILING_LINE = "expect gains_concealment G1\n"  # CASE's line 15; the answer is yes
assert FAILING_LINE in CASE
BROKEN = "unit G1 german squad 4-6-7 at\n"  # no hex after `at`: does not parse


def corpus(folder: Path, files: int, failing: int = 0, broken: int = 0) -> Path:
    """`files` situation files, the first `failing` with one expectation that
    fails, the next `broken` that do not parse."""
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(files):
        text = CASE
        if number < failing:
            text = CASE.replace(FAILING_LINE, "expect not gains_concealment G1\n")
        elif number < failing + broken:
            text = BROKEN
        (folder / f"case{number:03}.sit").write_text(text, encoding="utf-8")
    return folder


# --- no orphans --------------------------------------------------------------------

# Every file of a corpus this large goes to forked workers (kb/tools/check.py
# _blocks: two blocks or more, and two cores or more); the runs cut short
# use a larger one, so that its workers are busy when the cut comes.
WHOLE, CUT_SHORT = 60, 300
several_cores = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2,
                                   reason="check forks workers only on two cores or more")


def _aslkb(*argv) -> list[str]:
    """`python -m aslkb ARGV` with SIGINT and SIGTERM as a terminal's program has
    them (a suite started in the background ignores SIGINT, and its children
    inherit that), set in a Python that then execs into aslkb (same pid)."""
    setup = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
             "signal.signal(signal.SIGTERM, signal.SIG_DFL); "
             "os.execv(sys.executable, [sys.executable, '-m', 'aslkb', *sys.argv[1:]])")
    return [sys.executable, "-c", setup, *map(str, argv)]


def _in_session(session: int) -> set[int]:
    """The live processes of a session other than its leader (zombies, which
    have ended and wait to be reaped, are not live)."""
    found = set()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == session:
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:  # it ended meanwhile
            continue
        state, _parent, _group, its_session = stat.rpartition(")")[2].split()[:4]
        if int(its_session) == session and state != "Z":
            found.add(int(name))
    return found


@dataclass
class Watched:
    returncode: int
    stdout: str
    stderr: str
    workers: set[int]  # the processes seen in the command's session while it ran
    left: set[int]  # those alive after it ended


def watched(argv: list, folder: Path, send=None, grace: float = 0.0) -> Watched:
    """Run `aslkb ARGV` as the leader of a session of its own, watching the
    processes in that session. `send(pid)`, when given, is called once the
    workers have run for a moment. After the command ends, `left` is what
    is still alive (after `grace` seconds at most, for a backstop that acts
    once the command has gone). Output goes to files, so that a worker
    holding the command's output open cannot keep this waiting."""
    out, err = folder / "stdout.txt", folder / "stderr.txt"
    with open(out, "w") as stdout, open(err, "w") as stderr:
        process = subprocess.Popen(_aslkb(*argv), cwd=folder, stdout=stdout, stderr=stderr,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    workers: set[int] = set()
    first_seen = None
    deadline = time.monotonic() + 600
    try:
        while process.poll() is None:
            now = _in_session(process.pid)
            workers |= now
            if now and first_seen is None:
                first_seen = time.monotonic()
            if send is not None and first_seen is not None and time.monotonic() - first_seen > 0.3:
                send(process.pid)
                send = None
            assert time.monotonic() < deadline, "the check did not end"
            time.sleep(0.02)
        left = _in_session(process.pid)
        waited = time.monotonic() + grace
        while left and time.monotonic() < waited:
            time.sleep(0.05)
            left = _in_session(process.pid)
        return Watched(process.returncode, out.read_text(), err.read_text(), workers, left)
    finally:  # whatever the test finds, it leaves nothing behind
        for pid in _in_session(process.pid):
            os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
            process.wait()


@several_cores
def test_a_check_that_passes_leaves_no_worker(tmp_path):
    done = watched(["check", corpus(tmp_path / "cases", WHOLE)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"{5 * WHOLE} passed, 0 failed" in done.stdout
    assert done.workers, "no worker was forked: the test shows nothing"
    assert not done.left


@several_cores
def test_a_check_that_fails_leaves_no_worker_and_its_json_holds_every_expectation(tmp_path):
    """Exit 1 and, on the way, --json through the workers: every expectation of
    every file comes back from them, the failure with the rules behind it."""
    done = watched(["check", corpus(tmp_path / "cases", WHOLE, failing=1), "--json"], tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.workers and not done.left
    report = json.loads(done.stdout)
    assert report["totals"] == {"files": WHOLE, "unreadable": 0, "passed": 5 * WHOLE - 1, "failed": 1,
                                "changed": 0, "written": 0}
    records = [e for f in report["files"] for e in f["expectations"]]
    assert len(records) == 5 * WHOLE
    [failed] = [e for e in records if not e["passed"]]
    assert failed["file"].endswith("case000.sit") and (failed["line"], failed["column"]) == (15, 1)
    assert (failed["expected"], failed["actual"]) == (False, True) and "A12.12" in failed["rules"]
    assert all(e["passed"] == (e["expected"] == e["actual"]) for e in records)  # yes/no answers


@several_cores
def test_a_check_that_meets_bad_input_leaves_no_worker(tmp_path):
    done = watched(["check", corpus(tmp_path / "cases", WHOLE, broken=2)], tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"{WHOLE} files, 2 unreadable" in done.stdout and "case000.sit:1:" in done.stdout
    assert done.workers and not done.left


@several_cores
def test_a_check_that_times_out_leaves_no_worker(tmp_path):
    """Before kb/base/workers.py, each --timeout left both workers behind,
    re-parented to init, waiting for ever on their job queue."""
    cases = corpus(tmp_path / "cases", CUT_SHORT)
    for seconds in (2, 4, 8):  # until the watchdog fires while the workers run (a loaded machine is slow to fork)
        done = watched(["check", cases, "--timeout", seconds], tmp_path)
        if done.workers:
            break
    assert done.returncode == 2 and "aslkb: timed out after" in done.stderr, done.stderr
    assert done.workers
    assert not done.left, f"{len(done.left)} workers outlived the command"


def _to_leader(number):
    return lambda pid: os.kill(pid, number)


def _to_group(number):  # as a terminal's Ctrl-C reaches every process of the foreground job
    return lambda pid: os.killpg(pid, number)


@several_cores
@pytest.mark.parametrize("send, status, said", [
    (_to_group(signal.SIGINT), 130, "aslkb: interrupted\n"),  # Ctrl-C
    (_to_leader(signal.SIGINT), 130, "aslkb: interrupted\n"),
    (_to_leader(signal.SIGTERM), 143, "aslkb: terminated\n"),  # `kill PID`, a CI job cancelled
    (_to_group(signal.SIGTERM), 143, "aslkb: terminated\n"),
], ids=["ctrl-c", "sigint-to-check-alone", "sigterm-to-check-alone", "sigterm-to-the-group"])
def test_an_interrupted_check_leaves_no_worker(send, status, said, tmp_path):
    done = watched(["check", corpus(tmp_path / "cases", CUT_SHORT)], tmp_path, send=send)
    assert (done.returncode, done.stderr) == (status, said)
    assert "passed" not in done.stdout
    assert done.workers and not done.left


@several_cores
def test_a_check_killed_outright_takes_its_workers_with_it(tmp_path):
    """SIGKILL gives the command no say: each worker follows its parent and
    ends as soon as the command is gone."""
    done = watched(["check", corpus(tmp_path / "cases", CUT_SHORT)], tmp_path,
                   send=_to_leader(signal.SIGKILL), grace=10)
    assert done.returncode == -signal.SIGKILL
    assert done.workers and not done.left


# --- --json ------------------------------------------------------------------------

def _check_json(capsys, *argv) -> tuple[int, dict]:
    code, out, err = run(capsys, "check", *argv, "--json")
    return code, json.loads(out)


def test_check_json_reports_every_file_expectation_golden_difference_and_total(tmp_path, capsys):
    cases = corpus(tmp_path / "cases", 4, failing=1, broken=1)
    golden = tmp_path / "cases" / "case002.sit"
    assert main(["check", "--update", str(golden)]) == 0
    golden.write_text(golden.read_text().replace("los G1 R1 blocked\n", "los G1 R1 clear\n"))  # G1 now sees R1
    capsys.readouterr()
    code, report = _check_json(capsys, cases)
    assert code == 2  # an unreadable file, as without --json
    by_name = {Path(f["file"]).name: f for f in report["files"]}
    assert list(by_name) == ["case000.sit", "case001.sit", "case002.sit", "case003.sit"]
    assert [f["status"] for f in report["files"]] == ["failed", "error", "failed", "passed"]

    failing = by_name["case000.sit"]["expectations"]
    assert [e["line"] for e in failing] == [15, 21, 24, 26, 33]
    first = failing[0]
    assert first == {"file": str(cases / "case000.sit"), "line": 15, "column": 1,
                     "query": "gains_concealment G1", "expected": False, "actual": True, "passed": False,
                     "rules": first["rules"]}
    assert "A12.12" in first["rules"] and all("rules" not in e for e in failing[1:])

    error = by_name["case001.sit"]["error"]
    assert error["text"].startswith(f"{cases / 'case001.sit'}:1:") and error["line"] == 1
    assert isinstance(error["column"], int) and by_name["case001.sit"]["expectations"] == []

    [change] = by_name["case002.sit"]["golden"]
    assert (change["file"], change["line"], change["query"]) == (str(golden), 15, "gains_concealment G1")
    assert (change["old"]["value"], change["new"]["value"], change["expect_fails"]) == (True, False, True)
    assert change["responsible"]
    assert by_name["case003.sit"]["error"] is None and by_name["case003.sit"]["golden"] == []
    assert report["settings"] == []
    assert report["totals"] == {"files": 4, "unreadable": 1, "passed": 13, "failed": 2, "changed": 1, "written": 0}


def test_check_json_is_one_object_with_the_exit_statuses_of_the_text_report(tmp_path, capsys):
    cases = corpus(tmp_path / "cases", 2)
    code, out, err = run(capsys, "check", cases, "--json", "-v")
    assert code == 0 and err == "" and json.loads(out)["totals"]["passed"] == 10  # -v adds no text to it
    code, report = _check_json(capsys, corpus(tmp_path / "failing", 1, failing=1))
    assert code == 1 and report["totals"]["failed"] == 1
    code, out, err = run(capsys, "check", tmp_path / "nothing-here", "--json")
    assert code == 2 and out == "" and "no such file or directory" in err


def test_check_update_json_counts_the_snapshots_written(tmp_path, capsys):
    code, report = _check_json(capsys, corpus(tmp_path / "cases", 2), "--update")
    assert code == 0 and report["totals"]["written"] == 2
    assert all(len(f["expectations"]) == 5 for f in report["files"])
