"""The user's checkout: which copy of the knowledge base a command reads
(kb/base/root.py), and that commands write into it only when told to (-o,
--examples, --report): after `aslkb coverage` and `aslkb diverge`, `git
status` is clean."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from aslkb.cli.main import main
from aslkb.base.root import INSTALLED, checkout_of, is_checkout

ROOT = Path(__file__).resolve().parent.parent
SITUATION = """\
scenario night nvr 2 year 1944
hex 3R6 building height 2
hex 3T7 woods
unit G1 german squad 4-6-7 at 3R6 level 1
unit R1 russian squad 5-2-7 at 3T7
range G1 R1 2
attack A1 by G1 at R1
query drm A1 night_lv
"""


def aslkb(*argv, cwd: Path, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "ASLKB_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "aslkb", *map(str, argv)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of the knowledge base's files laid out as a checkout."""
    copy = tmp_path / "my-aslkb"
    for part in ("rules", "queries"):
        shutil.copytree(ROOT / part, copy / part)
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    (copy / "cases").mkdir()
    (copy / "cases" / "night.sit").write_text(SITUATION, encoding="utf-8")
    return copy


def test_a_checkout_is_a_pyproject_naming_aslkb_with_rules_and_queries_beside_it(checkout: Path, tmp_path: Path):
    assert is_checkout(str(checkout)) and checkout_of(str(checkout / "cases")) == str(checkout)
    other = tmp_path / "other"
    (other / "rules").mkdir(parents=True)
    (other / "queries").mkdir()
    (other / "pyproject.toml").write_text('[project]\nname = "not-aslkb"\n', encoding="utf-8")
    assert not is_checkout(str(other)) and checkout_of(str(other)) in (None, str(ROOT))


def test_a_rule_edited_in_the_checkout_takes_effect_at_the_next_run(checkout: Path, tmp_path: Path):
    cache = tmp_path / "cache"  # one cache for both runs: its key must see the edit
    first = aslkb("query", "cases/night.sit", cwd=checkout, cache=cache)
    assert first.returncode == 0, first.stderr
    assert "drm A1 night_lv = 1" in first.stdout
    rule = checkout / "rules" / "asl" / "E1" / "E1.7.lp"
    text = rule.read_text(encoding="utf-8")
    edited = text.replace("drm(A, night_lv, 1) :- night_attack(A)", "drm(A, night_lv, 3) :- night_attack(A)")
    assert edited != text
    rule.write_text(edited, encoding="utf-8")
    second = aslkb("query", "cases/night.sit", cwd=checkout, cache=cache)
    assert "drm A1 night_lv = 3" in second.stdout, second.stdout + second.stderr
    version = aslkb("--version", cwd=checkout / "cases", cache=cache)
    assert version.returncode == 0
    assert f"knowledge base: {checkout} (the checkout this folder is in)" in version.stdout


def test_outside_a_checkout_the_installed_copy_is_read(tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "night.sit").write_text(SITUATION, encoding="utf-8")
    result = aslkb("query", "night.sit", cwd=elsewhere, cache=tmp_path / "cache")
    assert result.returncode == 0 and "drm A1 night_lv = 1" in result.stdout
    version = aslkb("--version", cwd=elsewhere, cache=tmp_path / "cache")
    assert f"knowledge base: {INSTALLED} (" in version.stdout


def test_coverage_prints_unless_given_an_output(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    case = tmp_path / "cases" / "night.sit"
    case.parent.mkdir()
    case.write_text(SITUATION, encoding="utf-8")
    assert main(["coverage", "--cases", str(case.parent)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# Coverage of the source text") and "| E1.7 |" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cases"]  # nothing written
    assert main(["coverage", "--cases", str(case.parent), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    e17 = next(p for p in data["paragraphs"] if p["rule"] == "E1.7")
    assert e17["status"].startswith("encoded") and e17["cases"] == 1 and e17["section"] == "E1"
    e1 = next(s for s in data["sections"] if s["section"] == "E1")
    assert e1["paragraphs"] == sum(1 for p in data["paragraphs"] if p["section"] == "E1")
    assert main(["coverage", "--cases", str(case.parent), "-o", "out/coverage.md"]) == 0
    assert (tmp_path / "out" / "coverage.md").read_text(encoding="utf-8") == text


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout")
def test_coverage_and_diverge_leave_a_fresh_clone_clean(tmp_path: Path):
    clone = tmp_path / "aslkb"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    cache = tmp_path / "cache"
    coverage = aslkb("coverage", cwd=clone, cache=cache)
    assert coverage.returncode == 0, coverage.stderr
    assert coverage.stdout.startswith("# Coverage of the source text")
    diverge = aslkb("diverge", "--limit", "2", cwd=clone, cache=cache)
    assert diverge.returncode == 0, diverge.stdout + diverge.stderr
    status = subprocess.run(["git", "-C", str(clone), "status", "--porcelain", "--ignored"],
                            capture_output=True, text=True, check=True)
    assert status.stdout == ""


# --- what only a checkout has: said so where it is missing (issue 33) ---------------
# tests/test_wheel.py runs the same commands from an installed wheel.

def test_lint_cases_with_no_path_and_no_tests_cases_asks_for_the_cases(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "--cases"]) == 2
    err = capsys.readouterr().err
    assert "lint --cases with no PATH checks tests/cases of the current folder" in err
    assert "give the cases, --cases PATH" in err


def test_rules_outside_a_checkout_says_it_read_no_cases(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["rules", "E1.7"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("E1.7 COMBAT")
    assert "aslkb rules: no cases read, so every rule shows 0 cases: without --cases it reads tests/cases" in err


def test_impact_against_needs_a_checkout_and_git(tmp_path: Path, capsys, monkeypatch):
    from aslkb.base import root

    case = tmp_path / "night.sit"
    case.write_text(SITUATION, encoding="utf-8")
    monkeypatch.setattr(root, "kb_root", lambda: str(tmp_path))  # as an installed package is read
    monkeypatch.setattr(root, "INSTALLED", str(tmp_path))
    assert main(["impact", str(case), "--against", "HEAD"]) == 2
    assert "--against compares with the rules of a git revision of an aslkb checkout" in capsys.readouterr().err
    monkeypatch.setattr(root, "kb_root", lambda: str(ROOT))  # in a checkout (whichever this process read)
    monkeypatch.setenv("PATH", str(tmp_path))  # with no git
    assert main(["impact", str(case), "--against", "HEAD"]) == 2
    assert "there is no `git` program on PATH" in capsys.readouterr().err
