"""Issue 33: long first runs said nothing. The commands that can take more
than a few seconds draw a progress line on a terminal's standard error
(kb/base/progress.py), and never into a pipe; ASLKB_PROGRESS_DELAY=0 makes a
small run draw it at once."""
from __future__ import annotations

import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases" / "asl"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Two cases, one of whose answers lax_over_stealthy changes."""
    folder = tmp_path_factory.mktemp("cases")
    for name in ("E1.6-lax-over-stealthy.sit", "E1.7-EX.sit"):
        shutil.copy(CASES / name, folder / name)
    return folder


def _environment(**more: str) -> dict:
    return {**os.environ, "ASLKB_PROGRESS_DELAY": "0", "TERM": "xterm", **more}


def on_a_terminal(*argv: str, interrupt_at: str | None = None) -> tuple[int, str, str]:
    """Run `aslkb ARGV` in the checkout with its standard error on a
    pseudo-terminal; (exit status, standard output, what the terminal got).
    `interrupt_at`: send SIGINT (Ctrl-C) once the terminal shows this."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "aslkb", *argv], cwd=ROOT, env=_environment(),
                               stdout=subprocess.PIPE, stderr=terminal, stdin=subprocess.DEVNULL)
    os.close(terminal)  # the child's copy is the only one left: its end closes the terminal
    seen = b""
    while True:  # read as it comes: a full terminal would stop the command
        ready, _, _ = select.select([controller], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the child closed the terminal (Linux says EIO)
            break
        if not chunk:
            break
        seen += chunk
        if interrupt_at and interrupt_at.encode() in seen:
            process.send_signal(signal.SIGINT)
            interrupt_at = None
    out = process.stdout.read().decode()
    process.wait(timeout=60)
    os.close(controller)
    return process.returncode, out, seen.decode(errors="replace")


def in_a_pipe(*argv: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "aslkb", *argv], cwd=ROOT, env=_environment(),
                          capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("argv, drawn", [
    (["impact", "{corpus}", "--without", "lax_over_stealthy"], "impact: 0/2 cases, first run"),
    (["rules", "E1.7", "--cases", "{corpus}"], "rules: "),
    (["invariants", "base_nvr_within_limits"], "invariants: 0/1 invariants checked"),
])
def test_a_terminal_sees_progress_and_a_pipe_never_does(argv, drawn, corpus):
    argv = [a.format(corpus=corpus) for a in argv]
    code, out, terminal = on_a_terminal(*argv)
    assert code in (0, 1), terminal
    assert drawn in terminal
    # the line is erased at the end: the last thing drawn is blanks, then the cursor at the start
    assert terminal.endswith("\r") and terminal.rsplit("\r", 2)[-2].strip() == ""
    piped_code, piped_out, piped_err = in_a_pipe(*argv)
    assert (piped_code, piped_out) == (code, out)  # the output itself is the same
    assert piped_err == ""


def test_impact_counts_each_run_then_the_changed_cases_cited(corpus):
    _, _, terminal = on_a_terminal("impact", str(corpus), "--without", "lax_over_stealthy")
    for stage in ("cases, first run", "cases, second run", "changed cases cited, first run",
                  "changed cases cited, second run"):
        assert stage in terminal


def test_the_delay_comes_from_the_environment(monkeypatch):
    from aslkb.base.progress import Progress

    monkeypatch.setenv("ASLKB_PROGRESS_DELAY", "0.25")
    assert Progress("x").delay == 0.25
    monkeypatch.setenv("ASLKB_PROGRESS_DELAY", "soon")  # not a number: the default
    assert Progress("x").delay == 1.0
    monkeypatch.delenv("ASLKB_PROGRESS_DELAY")
    assert Progress("x").delay == 1.0


def note_warming(log: str) -> None:
    """A worker's warm-up that takes 1.5 s and notes when it began and ended."""
    began = time.time()
    time.sleep(1.5)
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(f"{began} {time.time()}\n")


def test_serve_starts_its_first_worker_then_the_others_together_and_counts_them_ready(tmp_path):
    """The first worker builds the knowledge base on a cold cache; the others,
    which then read it from the disk cache, used to start one after the other."""
    from aslkb.web.workers import WorkerPool

    log = tmp_path / "warming"
    ready = []
    pool = WorkerPool(abs, 3, timeout=30, warm=partial(note_warming, str(log)))
    try:
        pool.start(ready=lambda: ready.append(time.monotonic()))
        assert len(ready) == 3
        first, second, third = sorted(tuple(map(float, line.split())) for line in log.read_text().splitlines())
        assert first[1] <= second[0]  # the first alone
        assert second[0] < third[1] and third[0] < second[1]  # the others at once
        assert pool.run(-3) == 3
    finally:
        pool.close()


def test_serve_says_it_is_starting_before_the_address(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "aslkb", "serve", "--port", "0", "--workers", "1"],
                               cwd=tmp_path, env=_environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        assert process.stdout.readline().startswith("aslkb playground on http://127.0.0.1:")
        said, _, _ = select.select([process.stderr], [], [], 5)  # written before the address, if at all
        assert said and process.stderr.readline() == "aslkb serve: starting 1 worker...\n"
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_serve_says_it_is_starting_before_it_loads_the_server(tmp_path):
    """On a cold, busy machine the server's modules took seconds to import, and
    `aslkb serve` said nothing until they had (issue 36): its first line now
    comes before them. Python's -X importtime writes each import to stderr as it ends."""
    process = subprocess.Popen([sys.executable, "-X", "importtime", "-m", "aslkb", "serve", "--port", "0",
                                "--workers", "1"], cwd=tmp_path, env=_environment(), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        before = []
        for line in process.stderr:
            if line.startswith("aslkb serve: starting 1 worker..."):
                break
            before.append(line)
        imported = {line.rsplit("|", 1)[-1].strip() for line in before if line.startswith("import time:")}
        assert "aslkb.cli.main" in imported
        assert not {"aslkb.web.server", "aslkb.web.service", "waitress"} & imported
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_timeout_erases_the_progress_line_before_it_says_so():
    """--timeout ends the process from a watchdog thread (kb/base/limits.py):
    its message used to follow the progress line on the same line."""
    # the project's corpus, twice: half a minute at least
    code, _, terminal = on_a_terminal("impact", "tests/cases", "--without", "lax_over_stealthy", "--timeout", "3")
    assert code == 2
    before, said = terminal.split("aslkb: timed out after 3 seconds", 1)
    assert "impact: " in before
    assert before.endswith("\r") and before.rsplit("\r", 2)[-2].strip() == ""


def test_ctrl_c_erases_the_progress_line_before_it_says_so():
    code, _, terminal = on_a_terminal("impact", "tests/cases", "--without", "lax_over_stealthy",
                                      interrupt_at="impact: ")
    assert code == 130
    before, _ = terminal.split("aslkb: interrupted", 1)
    assert "impact: " in before
    assert before.endswith("\r") and before.rsplit("\r", 2)[-2].strip() == ""
