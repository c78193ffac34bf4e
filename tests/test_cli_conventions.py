"""The command line's conventions, as Python's tools have them (docs/cli.md):
several files and `-` for query, colour on a terminal only, shell completion,
and one message for a query name that does not exist."""
from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from aslkb.knowledge.program import knowledge_base
from cli_helpers import run, write

ROOT = Path(__file__).resolve().parent.parent
FIRST_NIGHT = ROOT / "examples" / "first-night.sit"
ESCAPE = "\x1b["
# The environment of a run that decides colour for itself: no colour variable set.
PLAIN_ENV = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}

FAILING = """\
scenario night nvr 2
query base_nvr
expect base_nvr = 3
"""


def aslkb(*argv, env: dict | None = None, stdin: str | None = None) -> subprocess.CompletedProcess:
    """A real `aslkb` process, its output piped."""
    return subprocess.run([sys.executable, "-m", "aslkb", *map(str, argv)], capture_output=True, text=True,
                          input=stdin, env=PLAIN_ENV if env is None else env, cwd=ROOT, timeout=120)


def on_a_terminal(*argv, env: dict) -> str:
    """What `aslkb ARGV` writes when its stdout and stderr are a terminal (a pty)."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "aslkb", *map(str, argv)], stdin=subprocess.DEVNULL,
                               stdout=terminal, stderr=terminal, env=env, cwd=ROOT)
    os.close(terminal)
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([controller], [], [], 120)
            if not ready:
                raise TimeoutError("aslkb wrote nothing on its terminal for 120 s")
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # Linux: EIO once the process has closed its end
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(controller)
        process.wait(timeout=120)
    return b"".join(chunks).decode()


# --- a query name that does not exist --------------------------------------

@pytest.mark.parametrize("line, column, name, nearest", [
    ("query no_such 1", 7, "no_such", None),      # the grammar stopped at `1`: the name is the first problem
    ("query nvr_bse", 7, "nvr_bse", "'base_nvr'"),
    ("query nvr_base", 7, "nvr_base", "'base_nvr'"),  # the parts of the name in another order
    ("expect not strayz G1", 12, "strayz", "'strays'"),
])
def test_an_unknown_query_in_a_file_names_the_nearest_queries_not_all(line, column, name, nearest, tmp_path, capsys):
    path = write(tmp_path, f"unit G1 german squad 4-6-7\n{line}\n")
    code, out, err = run(capsys, "query", path)
    assert code == 2 and out == ""
    assert err.startswith(f"{path}:2:{column}: unknown query '{name}'"), err
    assert err.count("\n") == 1, err  # one message
    assert ("did you mean" in err) == (nearest is not None) and (nearest is None or nearest in err)
    assert "queries/catalog.toml" in err
    assert "within_nvr" not in err and "cc_halved" not in err  # never the whole catalog


@pytest.mark.parametrize("command", ["odds", "explain"])
def test_an_unknown_query_on_the_command_line_is_refused_with_the_files_message(command, tmp_path, capsys):
    """`aslkb odds FILE no_such G1`, `aslkb explain FILE nvr_bse`: the message
    a file's `query` line gets, for the words of the command line."""
    in_a_file = write(tmp_path, "query nvr_bse\n", "asks.sit")
    _, _, file_message = run(capsys, "query", in_a_file)
    code, out, err = run(capsys, command, FIRST_NIGHT, "nvr_bse")
    assert code == 2 and out == ""
    assert err == f"aslkb: error: query 'nvr_bse': {file_message.split(': ', 1)[1]}"
    assert "did you mean 'base_nvr'" in err and "san" not in err
    code, _, err = run(capsys, command, FIRST_NIGHT, "no_such", "G1")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("aslkb: error: query 'no_such G1': unknown query 'no_such'; "), err
