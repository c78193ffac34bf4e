"""What a user who installed aslkb from a wheel meets in a folder of their own
(issue 33). The other tests run inside the checkout; this one builds the
wheel from a copy of the checkout's files (not an editable install), installs
it into a fresh virtual environment and runs every command there, from an
empty folder outside any checkout, with HOME and the cache in a temporary
folder and nothing but the virtual environment on PATH (so no Graphviz, no
git). Each command must exit as a user expects with real answers, write only
the files asked for, and leave the checkout's `git status` as it was.

The fresh environment takes clingo, Lark and waitress from the running
interpreter's site-packages through a .pth line, so nothing is downloaded
again: a plain path in a .pth is appended to sys.path after the environment's
own site-packages, and the .pth files found there are not run, so an editable
install of the checkout (its import finder is such a .pth) cannot leak in.
Deselect it with `-m "not wheel"`.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
import time
import zipfile
from pathlib import Path

import pytest

from web_helpers import call

pytestmark = pytest.mark.wheel

ROOT = Path(__file__).resolve().parent.parent
# pyproject.toml's package-dir: checkout folder -> the package it becomes
PACKAGE_DIRS = {"kb": "aslkb", "parser": "aslkb/parser", "rules": "aslkb/rules", "queries": "aslkb/queries",
                "examples": "aslkb/examples"}
TIMEOUT = 300  # seconds for one command; the whole test takes far less


def git(*argv: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *argv], capture_output=True, text=True, check=True,
                          timeout=60).stdout


def source_files() -> list[str]:
    """The checkout's files as a fresh clone of it, with the work in progress:
    tracked and new files, not ignored ones (no build/, no .venv, no caches)."""
    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
    return [name for name in listed if name and (ROOT / name).is_file()]


def build_wheel(folder: Path) -> Path:
    """The wheel of a copy of the checkout: a build writes build/ and *.egg-info
    into the folder it builds, and a stale build/ there would go into the wheel."""
    source = folder / "source"
    for name in source_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    dist = folder / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-q",
                    "-w", str(dist), str(source)], check=True, capture_output=True, timeout=TIMEOUT)
    [wheel] = dist.glob("aslkb-*.whl")
    return wheel


def fresh_venv(folder: Path, wheel: Path) -> Path:
    """A virtual environment holding only the wheel, with the running
    interpreter's site-packages after its own for the dependencies."""
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=TIMEOUT)
    python = venv / "bin" / "python"
    # installed before the .pth exists, so that pip sees no aslkb already installed in the outer environment
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                    "--disable-pip-version-check", "-q", str(wheel)], check=True, capture_output=True,
                   timeout=TIMEOUT)
    own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    outer = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    Path(own, "outer-site-packages.pth").write_text("".join(f"{path}\n" for path in outer), encoding="utf-8")
    return venv


def tree(folder: Path) -> set[str]:
    return {str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file()}


class User:
    """Runs the installed `aslkb` as a user would, in their own empty folder."""

    def __init__(self, venv: Path, folder: Path, home: Path, cache: Path):
        self.venv, self.folder = venv, folder
        self.env = {"PATH": str(venv / "bin"), "HOME": str(home), "ASLKB_CACHE_DIR": str(cache),
                    "LANG": "C.UTF-8", "TMPDIR": str(home.parent)}

    def python(self, code: str) -> str:
        done = subprocess.run([str(self.venv / "bin" / "python"), "-c", code], cwd=self.folder, env=self.env,
                              capture_output=True, text=True, timeout=TIMEOUT)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def aslkb(self, *argv: object, status: int = 0) -> str:
        """`aslkb ARGV...`'s stdout; its exit status must be `status`, with no traceback."""
        done = subprocess.run([str(self.venv / "bin" / "aslkb"), *map(str, argv)], cwd=self.folder,
                              env=self.env, capture_output=True, text=True, timeout=TIMEOUT)
        shown = f"aslkb {' '.join(map(str, argv))}: exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr}"
        assert done.returncode == status, shown
        assert "Traceback" not in done.stderr, shown
        self.stderr = done.stderr
        return done.stdout


def test_the_wheel_in_a_fresh_venv_runs_every_command_from_an_empty_folder(tmp_path: Path):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("builds the wheel from the files of a git checkout")
    status_before = git("status", "--porcelain", "--untracked-files=all")
    wheel = build_wheel(tmp_path / "build")
    shipped = {name for name in zipfile.ZipFile(wheel).namelist() if not name.startswith("aslkb-")}
    in_packages = {PACKAGE_DIRS[name.split("/")[0]] + name[name.index("/"):] for name in source_files()
                   if name.split("/")[0] in PACKAGE_DIRS}
    assert in_packages - shipped == set(), "files of the package folders that the wheel leaves out"

    venv = fresh_venv(tmp_path / "env", wheel)
    folder, home, cache = tmp_path / "my-folder", tmp_path / "home", tmp_path / "cache"
    for made in (folder, home):
        made.mkdir()
    user = User(venv, folder, home, cache)
    installed = Path(user.python("import aslkb, os; print(os.path.dirname(aslkb.__file__))").strip())
    assert installed.is_relative_to(venv) and installed.name == "aslkb", installed
    examples = Path(user.python("import aslkb.examples, os; print(os.path.dirname(aslkb.examples.__file__))")
                    .strip())
    assert examples == installed / "examples"
    assert user.aslkb("--version").strip().endswith(f"knowledge base: {installed} (installed)")

    # the user's own files: a case folder copied from the checkout
    cases = folder / "cases"
    cases.mkdir()
    for name in ("E1.7-EX.sit", "A7.372-EX.sit"):
        shutil.copy(ROOT / "tests" / "cases" / "asl" / name, cases / name)
    given = tree(folder)

    answers(user, examples)
    authors_tools(user, examples, cases)
    playground(user, examples)

    asked = {"night.dot", "odds.svg", "coverage.md", "divergences.md"}
    assert tree(folder) == given | asked, "files written in the user's folder that were not asked for"
    assert tree(home) == {".config/aslkb/cache.key"}, "HOME holds the cache's key only (kb/base/diskcache.py)"
    assert tree(cache), "ASLKB_CACHE_DIR holds the cache"
    assert git("status", "--porcelain", "--untracked-files=all") == status_before, "the checkout changed"


def answers(user: User, examples: Path) -> None:
    """query, check, explain, odds and diff on the shipped examples."""
    night = examples / "first-night.sit"
    out = user.aslkb("query", night)
    assert "base_nvr = 4" in out and "drm A1 night_lv = 1" in out and out.rstrip().endswith("4 passed, 0 failed")
    as_json = json.loads(user.aslkb("query", "--json", night))
    assert {"query": "base_nvr", "value": 4}.items() <= as_json["answers"][0].items()
    out = user.aslkb("check", examples)
    assert re.search(r"^(\d+) passed, 0 failed$", out, re.M), out
    assert f"{len(list(examples.rglob('*.sit')))} files, 0 unreadable" in out

    out = user.aslkb("explain", night, "drm", "A1", "night_lv", "--dot", "night.dot")
    assert out.startswith("drm A1 night_lv = 1") and "(rules/asl/E1/E1.7.lp:" in out, out
    assert (user.folder / "night.dot").read_text(encoding="utf-8").startswith("digraph")
    out = user.aslkb("odds", examples / "dyo-nvr.sit", "base_nvr", "--plot", "odds.svg")
    assert re.search(r"^\s+4\s+2/9\s+22\.2%", out, re.M), out
    assert "<svg" in (user.folder / "odds.svg").read_text(encoding="utf-8")
    out = user.aslkb("diff", night)
    assert out.startswith("asl and sl4 disagree:") and "drm A1 night_lv" in out
    assert re.search(r"^\d+ of \d+ queries differ between asl and sl4$", out, re.M), out


def authors_tools(user: User, examples: Path, cases: Path) -> None:
    """lint, rules, coverage, impact, invariants and diverge: the files they read
    (the paragraph list, rules/invariants, rules/diverge, queries/catalog.toml)
    come with the package."""
    from aslkb.tools.sourcetext import paragraphs

    out = user.aslkb("lint")
    assert out.rstrip().splitlines()[-1] == "lint: 0 problems", out[-2000:]
    assert "no cases checked (give --cases [PATH])" in out
    user.aslkb("lint", "--cases", status=2)  # with no PATH: the checkout's own tests/cases
    assert "lint --cases with no PATH checks tests/cases of the current folder" in user.stderr
    assert "give the cases, --cases PATH" in user.stderr

    out = user.aslkb("rules", "e1.7", "--cases", "cases")
    assert out.startswith("E1.7 COMBAT") and "rules/asl/E1/E1.7.lp:21" in out, out
    assert re.search(r"^  cases:\n    cases/E1.7-EX.sit$", out, re.M), out
    out = user.aslkb("rules")
    assert re.search(r"^SL 49.23 +\d+ statements", out, re.M), out
    assert "cases" not in out and user.stderr == ""  # the list counts cases only with --cases
    out = user.aslkb("rules", "--cases")
    assert "no cases read" in user.stderr  # outside a checkout it says why every rule shows 0 cases

    matrix = json.loads(user.aslkb("coverage", "--json"))
    listed = [row["rule"] for row in matrix["paragraphs"]]
    assert listed == [p.rule_id for p in paragraphs()], "the installed paragraph list is the checkout's"
    out = user.aslkb("coverage", "-o", "coverage.md", "--cases", "cases")
    assert out.startswith(f"coverage.md: {len(listed)} paragraphs")
    assert "| E1.7 | COMBAT | encoded |" in (user.folder / "coverage.md").read_text(encoding="utf-8")
    source = user.folder.parent / "source-text"  # beside the user's folder: nothing but asked-for files there
    source.mkdir()
    (source / "e1.txt").write_text("1.1 NIGHT VISIBILITY RANGE: a paragraph heading\n", encoding="utf-8")
    # read only: this run's matrix from the folder, the installed paragraph list untouched
    read = json.loads(user.aslkb("coverage", "--json", "--source", source, "--cases", "cases"))
    assert [row["rule"] for row in read["paragraphs"]] == ["E1.1"]
    assert [row["rule"] for row in json.loads(user.aslkb("coverage", "--json"))["paragraphs"]] == listed

    out = user.aslkb("impact", "cases", "--without", "barrage_ex_columns")
    assert "cases/A7.372-EX.sit:42: column BA: 16 -> undecided" in out, out
    assert re.search(r"^\d+ answers changed in 1 file$", out, re.M), out
    user.aslkb("impact", "cases", "--against", "HEAD", status=2)
    assert "--against compares with the rules of a git revision of an aslkb checkout" in user.stderr

    out = user.aslkb("invariants")
    invariants = len(re.findall(r"^ok +\w+ \(", out, re.M))
    assert invariants >= 4 and out.rstrip().endswith(f"{invariants} invariants hold, 0 fail"), out

    # a small space, so that it takes seconds: still differences, each with its witness
    out = user.aslkb("diverge", "--max-nvr", 2, "--max-range", 2, "--max-light", 1, "--limit", 10,
                     "--report", "divergences.md")
    found = re.findall(r"^\d+-(\w+)  \[difference\]", out, re.M)
    assert "nvr_generation" in found and re.search(r"^[1-9]\d* disagreements, ", out, re.M), out
    report = (user.folder / "divergences.md").read_text(encoding="utf-8")
    assert all(name in report for name in found)  # which ones the first witnesses reach varies with the rules


def playground(user: User, examples: Path) -> None:
    """`aslkb serve --port 0`: its address, the JSON API (each reply the JSON of
    the command it stands for, docs/playground.md), then Ctrl-C."""
    night, dyo = examples / "first-night.sit", examples / "dyo-nvr.sit"
    expected = {"answer": user.aslkb("query", "--json", night),
                "explain": user.aslkb("explain", "--json", night, "drm", "A1", "night_lv"),
                "odds": user.aslkb("odds", "--json", dyo, "base_nvr"),
                "diff": user.aslkb("diff", "--json", night)}
    asked = {"answer": {"text": night.read_text(encoding="utf-8")},
             "explain": {"text": night.read_text(encoding="utf-8"), "query": "drm A1 night_lv"},
             "odds": {"text": dyo.read_text(encoding="utf-8"), "query": "base_nvr"},
             "diff": {"text": night.read_text(encoding="utf-8")}}
    server = subprocess.Popen([str(user.venv / "bin" / "aslkb"), "serve", "--port", "0", "--workers", "1"],
                              cwd=user.folder, env=user.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    watchdog = threading.Timer(TIMEOUT, server.kill)  # a server that never says its address
    watchdog.start()
    try:
        line = server.stdout.readline()
        assert line.startswith("aslkb playground on http://127.0.0.1:"), line
        base = line.split()[3].rstrip("/")
        status, page = call(base + "/")
        assert status == 200 and b"<html" in page.lower()
        status, body = call(base + "/api/examples")
        assert status == 200 and len(body["examples"]) == len(list(examples.rglob("*.sit")))
        assert {e["group"] for e in body["examples"]} == {"examples", "tutorial", "divergences"}
        status, body = call(base + "/api/interpretations")
        assert status == 200 and "barrage_ex_columns" in {i["name"] for i in body["interpretations"]}
        for kind, request in asked.items():
            status, body = call(f"{base}/api/{kind}", request)
            assert status == 200, (kind, body)
            if kind == "diff":
                assert set(body.pop("results")) == {"asl", "sl4"}
            # a file's statements are at FILE:LINE, the text posted at situation:LINE
            cli = expected[kind].replace(f'"{night}:', '"situation:').replace(f'"{dyo}:', '"situation:')
            assert body == json.loads(cli), kind
    finally:
        server.send_signal(signal.SIGINT)
        try:
            code = server.wait(timeout=60)
        finally:
            watchdog.cancel()
            server.kill()
        stderr = server.stderr.read()
        server.stdout.close()
        server.stderr.close()
    assert code == 130 and "Traceback" not in stderr, stderr
    assert not [pid for pid in own_processes(user.venv)], "worker processes outlived the server"


def own_processes(venv: Path) -> list[int]:
    """The processes still running a program of this test's environment
    (waited for a moment: a worker ends just after its server)."""
    if not Path("/proc/self/cmdline").exists():
        return []
    for _ in range(50):
        found = []
        for entry in Path("/proc").iterdir():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if entry.name.isdigit() and str(venv).encode() in command:
                found.append(int(entry.name))
        if not found:
            return []
        time.sleep(0.1)
    for pid in found:  # started by this test: end them before failing
        os.kill(pid, signal.SIGKILL)
    return found
