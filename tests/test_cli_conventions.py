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


@pytest.mark.parametrize("ending", ["", "\n", "\n\n\n"])
def test_an_error_is_blamed_on_the_query_argument_or_the_file_whatever_the_file_ends_with(ending, tmp_path, capsys):
    """A file that ends without a newline, or with blank lines, moves the
    line `aslkb explain FILE QUERY` reads its query from; the blame does not
    move with it (the playground asks kb/parser's same parse_asking)."""
    good = write(tmp_path, "scenario night nvr 2" + ending, "good.sit")
    code, _, err = run(capsys, "explain", good, "no_such")
    assert code == 2 and err.startswith("aslkb: error: query 'no_such': unknown query 'no_such'"), err
    bad_last_line = write(tmp_path, "scenario night nvr 2\nfoo bar" + ending, "bad.sit")
    code, _, err = run(capsys, "explain", bad_last_line, "base_nvr")
    assert code == 2 and err.startswith(f"{bad_last_line}:2:"), err


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


# --- several files, and `-` --------------------------------------------------

def test_several_files_are_answered_in_turn_under_headers_and_exit_with_the_worst(tmp_path, capsys):
    bad = write(tmp_path, "foo bar\n", "bad.sit")
    failing = write(tmp_path, FAILING, "failing.sit")
    code, out, err = run(capsys, "query", bad, FIRST_NIGHT, failing)
    assert code == 2  # a file that cannot be taken: 2 wins over an expectation that failed
    headers = [line for line in out.splitlines() if line.startswith("==> ")]
    assert headers == [f"==> {bad} <==", f"==> {FIRST_NIGHT} <==", f"==> {failing} <=="]
    assert err.startswith(f"{bad}:1:1: unknown statement 'foo'")  # reported, and the others answered:
    assert "4 passed, 0 failed" in out and out.rstrip().endswith("0 passed, 1 failed")
    code, out, _ = run(capsys, "query", FIRST_NIGHT, failing)
    assert code == 1
    code, out, _ = run(capsys, "query", FIRST_NIGHT, FIRST_NIGHT)
    assert code == 0 and out.count("4 passed, 0 failed") == 2


def test_one_file_prints_no_header(capsys):
    code, out, _ = run(capsys, "query", FIRST_NIGHT)
    assert code == 0 and "==>" not in out and out.startswith("edition asl; ")


def test_several_files_with_json_are_one_array_each_with_its_file(tmp_path, capsys):
    bad = write(tmp_path, "foo bar\n", "bad.sit")
    code, out, err = run(capsys, "query", "--json", FIRST_NIGHT, bad)
    assert code == 2
    first, second = json.loads(out)  # the whole of stdout is one JSON document
    assert first["file"] == str(FIRST_NIGHT) and first["answers"][0]["value"] == 4
    assert set(first) == {"file", "edition", "interpretations", "answers", "expectations"}
    assert second == {"file": str(bad), "error": err.strip()}
    assert err.startswith(f"{bad}:1:1: unknown statement")
    code, out, _ = run(capsys, "query", "--json", FIRST_NIGHT)
    assert code == 0 and isinstance(json.loads(out), dict)  # one file: one object, as before


def test_a_dash_reads_the_situation_from_standard_input(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(FIRST_NIGHT.read_bytes())))
    code, out, _ = run(capsys, "query", "-")
    assert code == 0 and "base_nvr = 4" in out and "4 passed, 0 failed" in out


def test_standard_input_errors_are_located_as_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"scenario night\nunit G1 germn squad\n")))
    code, out, err = run(capsys, "query", "-")
    assert code == 2 and out == ""
    assert err.startswith("<stdin>:2:9: unknown nation 'germn'"), err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"query base_nvr\n\xff\n")))
    code, _, err = run(capsys, "query", "-")
    assert code == 2 and err.startswith("<stdin>:2:1: invalid UTF-8"), err


def test_standard_input_is_read_once(capsys):
    code, out, err = run(capsys, "query", "-", FIRST_NIGHT, "-")
    assert code == 2 and out == "" and "standard input (`-`) can be read only once" in err


def test_a_dash_in_a_real_pipe_for_query_odds_and_explain():
    text = FIRST_NIGHT.read_text()
    done = aslkb("query", FIRST_NIGHT, "-", stdin=text)
    assert done.returncode == 0, done.stderr
    assert "==> <stdin> <==" in done.stdout and done.stdout.count("4 passed, 0 failed") == 2
    done = aslkb("odds", "-", "base_nvr", stdin=text)
    assert done.returncode == 0 and done.stdout.startswith("base_nvr\n"), done.stderr
    done = aslkb("explain", "-", "drm", "A2", "night_lv", stdin=text)
    assert done.returncode == 0 and "E1.7" in done.stdout, done.stderr
    done = aslkb("odds", "-", "drm", "A9", stdin=text)  # the query's words are still the command line's
    assert done.returncode == 2 and done.stderr.startswith("aslkb: error: query 'drm A9': "), done.stderr


# --- colour ------------------------------------------------------------------

def test_piped_output_has_no_escape_codes(tmp_path):
    failing = write(tmp_path, FAILING, "failing.sit")
    done = aslkb("query", FIRST_NIGHT, failing, tmp_path / "missing.sit")
    assert done.returncode == 2 and "FAIL" in done.stdout and "missing.sit" in done.stderr
    assert ESCAPE not in done.stdout + done.stderr


def test_color_always_colours_the_words_a_reader_looks_for(tmp_path, capsys):
    failing = write(tmp_path, FAILING, "failing.sit")
    code, out, _ = run(capsys, "--color", "always", "query", FIRST_NIGHT, failing)
    assert code == 1
    assert "\x1b[32mok\x1b[0m    line 27: expect base_nvr = 4" in out
    assert "\x1b[1;31mFAIL\x1b[0m  line 3: expect base_nvr = 3, got " in out
    assert "\x1b[1mbase_nvr = 4\x1b[0m" in out
    assert f"\x1b[1m==> {failing} <==\x1b[0m" in out
    assert re.sub(r"\x1b\[[0-9;]*m", "", out) == run(capsys, "--color", "never", "query", FIRST_NIGHT, failing)[1]


def test_color_always_colours_undecided_and_errors(tmp_path, capsys):
    code, out, _ = run(capsys, "query", "--color=always", ROOT / "examples" / "tutorial" / "1-question.sit")
    assert "\x1b[33mundecided\x1b[0m" in out
    bad = write(tmp_path, "foo bar\n", "bad.sit")
    code, _, err = run(capsys, "query", "--color", "always", bad)
    assert code == 2 and err.startswith(f"\x1b[1m{bad}:1:1:\x1b[0m unknown statement")
    code, _, err = run(capsys, "--color", "always", "odds", FIRST_NIGHT, "no_such")
    assert code == 2 and err.startswith("aslkb: \x1b[1;31merror:\x1b[0m query 'no_such'")


def test_json_never_carries_escape_codes(tmp_path, capsys):
    for argv in (["query", "--json", FIRST_NIGHT], ["query", "--json", FIRST_NIGHT, FIRST_NIGHT],
                 ["odds", "--json", FIRST_NIGHT, "base_nvr"], ["explain", "--json", FIRST_NIGHT, "base_nvr"]):
        code, out, _ = run(capsys, "--color", "always", *argv)
        assert code == 0 and ESCAPE not in out
        json.loads(out)


def test_a_terminal_gets_colour_unless_no_color_is_set():
    assert "\x1b[32mok\x1b[0m" in on_a_terminal("query", FIRST_NIGHT, env=PLAIN_ENV)
    for no_color in ({"NO_COLOR": "1"}, {"NO_COLOR": "1", "FORCE_COLOR": "1"}):
        shown = on_a_terminal("query", "--color", "auto", FIRST_NIGHT, env={**PLAIN_ENV, **no_color})
        assert "4 passed, 0 failed" in shown and ESCAPE not in shown
    shown = on_a_terminal("query", FIRST_NIGHT, env={**PLAIN_ENV, "TERM": "dumb"})
    assert "4 passed, 0 failed" in shown and ESCAPE not in shown


def test_force_color_colours_a_pipe_and_an_empty_no_color_is_unset():
    assert "\x1b[32mok\x1b[0m" in aslkb("query", FIRST_NIGHT, env={**PLAIN_ENV, "FORCE_COLOR": "1"}).stdout
    assert ESCAPE in aslkb("query", FIRST_NIGHT, env={**PLAIN_ENV, "FORCE_COLOR": "1", "NO_COLOR": ""}).stdout
    assert ESCAPE not in aslkb("query", "--color", "never", FIRST_NIGHT,
                               env={**PLAIN_ENV, "FORCE_COLOR": "1"}).stdout


# --- shell completion ----------------------------------------------------------

def completions(line: str) -> list[str]:
    """What `aslkb` offers the shell for the command line `line` (the cursor at
    its end), asked as bash asks it: argcomplete's environment protocol, the
    answer written to a file as bash's ARGCOMPLETE_USE_TEMPFILES has it."""
    with tempfile.TemporaryDirectory() as folder:
        answer = Path(folder) / "completions"
        env = {**PLAIN_ENV, "_ARGCOMPLETE": "1", "_ARGCOMPLETE_SHELL": "bash", "_ARGCOMPLETE_IFS": "\n",
               "_ARGCOMPLETE_STDOUT_FILENAME": str(answer), "COMP_LINE": line, "COMP_POINT": str(len(line)),
               "COMP_TYPE": "9"}
        done = subprocess.run([sys.executable, "-m", "aslkb"], env=env, cwd=ROOT, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return [word.strip() for word in answer.read_text().split("\n") if word.strip()]


def test_completion_offers_commands_options_and_names():
    assert completions("aslkb qu") == ["query"]
    assert completions("aslkb query --inter") == ["--interpretation"]
    known = knowledge_base().interpretations
    assert completions("aslkb query --interpretation ") == sorted(known)
    assert completions("aslkb query x.sit --without ") == sorted(n for n, i in known.items() if i.default)
    assert completions("aslkb query --interpretation lax_") == ["lax_over_stealthy"]
    assert completions("aslkb query --color ") == ["auto", "always", "never"]


def test_completion_offers_situation_files_query_names_and_the_files_ids():
    assert completions("aslkb query examples/first-") == ["examples/first-night.sit"]
    names = completions("aslkb odds examples/first-night.sit ")
    assert {"base_nvr", "drm", "within_nvr"} <= set(names) and not any(n.startswith("-") for n in names)
    assert completions("aslkb explain examples/first-night.sit nvr") == ["nvr", "nvr_roll_due"]
    assert completions("aslkb odds examples/first-night.sit drm ") == ["A1", "A2"]
    assert "night_lv" in completions("aslkb odds examples/first-night.sit drm A1 ")
    assert completions("aslkb explain examples/first-night.sit within_nvr G") == ["G1", "G2"]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_shells_code(shell, capsys):
    code, out, _ = run(capsys, "completion", shell)
    assert code == 0 and "aslkb" in out and "_ARGCOMPLETE" in out
    if shell in ("bash", "zsh") and shutil.which(shell):  # the code at least parses
        assert subprocess.run([shell, "-n"], input=out, text=True).returncode == 0


def test_the_bash_code_completes_through_the_installed_program(capsys):
    """The code `aslkb completion bash` prints, run by bash as a Tab would run it."""
    program = Path(sys.executable).parent / "aslkb"
    if not (shutil.which("bash") and program.exists()):
        pytest.skip("needs bash and the installed aslkb program")
    _, code, _ = run(capsys, "completion", "bash")
    script = code + ('COMP_LINE="aslkb query --inter"; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(aslkb query --inter); '
                     'COMP_CWORD=2; _python_argcomplete aslkb; printf "%s\\n" "${COMPREPLY[@]}"\n')
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**PLAIN_ENV, "PATH": f"{program.parent}{os.pathsep}{os.environ.get('PATH', '')}"})
    assert done.stdout.split() == ["--interpretation"], done.stderr


def test_a_cold_query_does_not_import_argcomplete():
    """Shell completion costs `aslkb query FILE` nothing: argcomplete is
    imported only when the shell asks for completions."""
    script = ("import sys; sys.argv = ['aslkb', 'query', sys.argv[1]]\n"
              "from aslkb.cli.main import main; code = main()\n"
              "print(code, sorted(m for m in ('argcomplete',) if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script, str(FIRST_NIGHT)], capture_output=True, text=True,
                          cwd=ROOT, env=PLAIN_ENV, timeout=120)
    assert done.stdout.splitlines()[-1] == "0 []", done.stdout + done.stderr
