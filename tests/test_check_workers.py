"""`aslkb check` at scale: its worker processes end with it however it ends,
`--shard K/N` splits a suite, `--json` reports the whole run, and a
progress line shows on a terminal only (kb/tools/check.py, regress.py,
shard.py; kb/base/workers.py)."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from aslkb.cli.main import main
from aslkb.tools.shard import Shard, in_shard
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
             "signal.signal(signal.SIGTERM, signal.SIG_DFL); signal.signal(signal.SIGHUP, signal.SIG_DFL); "
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
        if done.workers and "timed out" in done.stderr:
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
    (_to_group(signal.SIGHUP), 129, "aslkb: hung up\n"),  # the terminal closed (issue 37)
], ids=["ctrl-c", "sigint-to-check-alone", "sigterm-to-check-alone", "sigterm-to-the-group", "sighup-to-the-group"])
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


def _slow_but_the_first(paths, cite, options):  # (a worker pickles its function by name)
    if paths[0] != "0-0":
        time.sleep(120)
    return {path: (1, [], []) for path in paths}


@several_cores
def test_a_check_cut_short_kills_the_blocks_still_running(monkeypatch):
    """The caller stops reading (an error, a closed pipe): the workers'
    blocks are not waited for (they once were, to the end of each block)."""
    import multiprocessing

    import aslkb.tools.check as check

    monkeypatch.setattr(check, "check_block", _slow_but_the_first)
    dealt = check._dealt([[f"{b}-{i}" for i in range(3)] for b in range(4)], 2, check.Wanted(), {})
    assert next(dealt) == {"0-0": (1, [], []), "0-1": (1, [], []), "0-2": (1, [], [])}
    workers = multiprocessing.active_children()
    assert len(workers) >= 2
    started = time.monotonic()
    dealt.close()
    assert time.monotonic() - started < 30
    assert not [worker for worker in workers if worker.is_alive()]


# --- --shard K/N -------------------------------------------------------------------

def test_shards_split_a_suite_whole_and_disjoint_whatever_order_the_files_come_in(tmp_path):
    folder = tmp_path / "suite"
    files = [folder / part / f"c{n}.sit" for part in ("a", "b-c", "b", "B", "é") for n in range(7)]
    found = [(str(folder), path) for path in files]
    shards = [in_shard(found, Shard(k, 4)) for k in range(1, 5)]
    assert sorted(p for shard in shards for p in shard) == sorted(files)  # the whole suite, each file once
    assert max(map(len, shards)) - min(map(len, shards)) <= 1
    for _ in range(5):  # another listing order, another folder: the same files in the same shard
        random.shuffle(found)
        elsewhere = [(str(tmp_path / "other"), tmp_path / "other" / path.relative_to(folder)) for _, path in found]
        again = [in_shard(elsewhere, Shard(k, 4)) for k in range(1, 5)]
        assert [sorted(p.relative_to(tmp_path / "other") for p in s) for s in again] == \
               [sorted(p.relative_to(folder) for p in s) for s in shards]


def test_a_file_named_twice_is_in_one_shard_once(tmp_path):
    folder = tmp_path / "suite"
    files = [folder / f"c{n}.sit" for n in range(5)]
    found = [(str(folder), path) for path in files] + [(str(files[3]), files[3])]
    shards = [in_shard(found, Shard(k, 2)) for k in (1, 2)]
    assert sorted(shards[0] + shards[1]) == files


def test_check_shards_are_the_whole_suite_once_and_each_junit_merges_into_one(tmp_path, capsys):
    cases = corpus(tmp_path / "cases", 7, failing=1, broken=1)
    code, whole = _check_json(capsys, cases, "--junit-xml", tmp_path / "whole.xml")
    assert code == 2 and whole["shard"] is None
    parts = []
    for k in (1, 2, 3):
        code, part = _check_json(capsys, cases, "--shard", f"{k}/3", "--junit-xml", tmp_path / f"shard-{k}.xml")
        assert part["shard"] == {"index": k, "count": 3, "files": 7}
        parts.append(part)
    listed = [f["file"] for part in parts for f in part["files"]]
    assert sorted(listed) == sorted(f["file"] for f in whole["files"]) and len(set(listed)) == 7
    assert [len(part["files"]) for part in parts] == [3, 2, 2]
    for total in ("files", "unreadable", "passed", "failed"):
        assert sum(part["totals"][total] for part in parts) == whole["totals"][total]
    code, again = _check_json(capsys, cases, "--shard", "2/3")
    assert [f["file"] for f in again["files"]] == [f["file"] for f in parts[1]["files"]]

    # the shards' <testsuite> elements side by side: one report, no name twice
    merged = ET.Element("testsuites")
    for k in (1, 2, 3):
        merged.extend(ET.parse(tmp_path / f"shard-{k}.xml").getroot().findall("testsuite"))
    suites = merged.findall("testsuite")
    assert [s.get("name") for s in suites] == [f"aslkb check (shard {k}/3)" for k in (1, 2, 3)]
    assert [s.find("properties/property[@name='shard']").get("value") for s in suites] == ["1/3", "2/3", "3/3"]
    cases_of = lambda root: sorted((c.get("classname"), c.get("name")) for c in root.iter("testcase"))
    assert cases_of(merged) == cases_of(ET.parse(tmp_path / "whole.xml").getroot())
    assert len(set(cases_of(merged))) == 7
    for count in ("tests", "failures", "errors"):
        whole_suite = ET.parse(tmp_path / "whole.xml").getroot().find("testsuite")
        assert sum(int(s.get(count)) for s in suites) == int(whole_suite.get(count))


def test_junitparser_merges_the_shards(tmp_path, capsys):
    import junitparser  # in the test extra
    cases = corpus(tmp_path / "cases", 5, failing=1)
    for k in (1, 2):
        run(capsys, "check", cases, "--shard", f"{k}/2", "--junit-xml", tmp_path / f"shard-{k}.xml")
    merged = junitparser.JUnitXml.fromfile(str(tmp_path / "shard-1.xml")) + \
        junitparser.JUnitXml.fromfile(str(tmp_path / "shard-2.xml"))
    assert (merged.tests, merged.failures, merged.errors) == (5, 1, 0)
    assert sorted(suite.name for suite in merged) == ["aslkb check (shard 1/2)", "aslkb check (shard 2/2)"]


def test_an_empty_shard_is_no_error_but_an_empty_suite_is(tmp_path, capsys):
    cases = corpus(tmp_path / "cases", 2)
    code, out, _ = run(capsys, "check", cases, "--shard", "3/3")
    assert code == 0 and out.splitlines()[:2] == ["shard 3/3: 0 of 2 files", "0 files, 0 unreadable"]
    code, _, err = run(capsys, "check", tmp_path / "nothing-here", "--shard", "1/2")
    assert code == 2 and "no such file or directory" in err


@pytest.mark.parametrize("value, said", [
    ("0/3", "'0/3': shards are numbered from 1 to 3, got 0"),
    ("4/3", "'4/3': shards are numbered from 1 to 3, got 4"),
    ("-1/3", "'-1/3': shards are numbered from 1 to 3, got -1"),
    ("1/0", "'1/0': the number of shards must be at least 1"),
    ("x", "'x' is not a shard: give K/N, the K-th of N shards, like 2/4"),
    ("3", "'3' is not a shard"),
    ("1/3/4", "'1/3/4' is not a shard"),
    ("a/b", "'a/b' is not a shard"),
])
def test_a_bad_shard_is_refused_with_exit_2_and_why(value, said, tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["check", str(corpus(tmp_path / "cases", 1)), f"--shard={value}"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "argument --shard" in err and said in err and "Traceback" not in err


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
    assert report["settings"] == [] and report["shard"] is None
    assert report["totals"] == {"files": 4, "unreadable": 1, "passed": 13, "failed": 2, "changed": 1, "written": 0}


def test_check_json_says_what_would_decide_a_failed_undecided_answer_whichever_path_answered(tmp_path, capsys):
    """A batch (check) and the ordinary path (check --update) give the same
    records: an `expect ... = undecided` that holds says no more, one that
    fails names the fact that would decide it."""
    open_case = (ROOT / "tests" / "cases" / "asl" / "A12.12-open.sit").read_text(encoding="utf-8")
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "holds.sit").write_text(open_case, encoding="utf-8")
    (cases / "fails.sit").write_text(open_case.replace("expect gains_concealment G1 = undecided",
                                                       "expect gains_concealment G1"), encoding="utf-8")
    code, batch = _check_json(capsys, cases)
    assert code == 1
    by_name = {Path(f["file"]).name: f["expectations"][0] for f in batch["files"]}
    assert by_name["holds.sit"] == {"file": str(cases / "holds.sit"), "line": 14, "column": 1,
                                    "query": "gains_concealment G1", "expected": "undecided", "actual": None,
                                    "passed": True}
    failed = by_name["fails.sit"]
    assert (failed["expected"], failed["actual"]) == (True, None) and "los G1 R1" in failed["undecided"]
    assert "A12.12" in failed["rules"]
    code, ordinary = _check_json(capsys, cases, "--update")
    assert [f["expectations"] for f in ordinary["files"]] == [f["expectations"] for f in batch["files"]]


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


# --- progress ------------------------------------------------------------------------

def _check_update_with_stderr(folder: Path, stderr) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "aslkb", "check", "--update", folder], cwd=folder,
                            stdout=subprocess.PIPE, stderr=stderr, env={**os.environ, "TERM": "xterm"})


def test_check_draws_its_progress_on_a_terminal_and_erases_it(tmp_path):
    """check --update takes the ordinary path, file by file: 50 files take
    longer than the second before the line is first drawn."""
    import pty

    cases = corpus(tmp_path / "cases", 50)
    terminal, stderr = pty.openpty()
    process = _check_update_with_stderr(cases, stderr)
    os.close(stderr)
    seen = b""
    while True:
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # EIO: the command has ended and closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(terminal)
    out, _ = process.communicate(timeout=300)
    assert process.returncode == 0 and b"50 golden snapshots written" in out
    text = seen.decode()
    assert "check: " in text and "/50 files, " in text, text
    assert text.endswith("\r") and text.rsplit("\r", 2)[-2].strip() == ""  # erased at the end


def test_check_draws_no_progress_into_a_pipe(tmp_path):
    process = _check_update_with_stderr(corpus(tmp_path / "cases", 50), subprocess.PIPE)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0 and b"50 golden snapshots written" in out
    assert err == b""


def test_a_cleared_progress_line_is_drawn_again_at_the_next_step(monkeypatch):
    """check prints a failure where the line was, then the line comes back."""
    import io

    from aslkb.base.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("TERM", raising=False)
    terminal = Terminal()
    with Progress("check", 4, "files", stream=terminal, delay=0) as progress:
        progress.advance()
        progress.clear()
        assert terminal.getvalue().endswith("\r") and terminal.getvalue().rsplit("\r", 2)[-2].strip() == ""
        time.sleep(0.11)  # the line is redrawn ten times a second at most
        progress.advance()
        assert terminal.getvalue().rsplit("\r", 1)[-1].startswith("check: 2/4 files, 50%")
