"""The documentation: the MkDocs site builds with warnings as errors, and the
README's short copies agree with the site's pages."""

import importlib.util
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["index", "tutorial", "language", "queries", "answers", "explanations",
         "interpretations", "editions", "playground", "regression", "reliability", "encoding",
         "performance", "design", "coverage", "sl4-vs-asl"]


def test_site_builds_strict_with_every_page(tmp_path):
    site = tmp_path / "site"
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
         "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)],
        capture_output=True, text=True, cwd=tmp_path)
    assert build.returncode == 0, build.stderr
    for page in PAGES:
        built = site / "index.html" if page == "index" else site / page / "index.html"
        assert built.is_file(), page


def _section(text, heading):
    """The lines of a Markdown section, up to the next heading of any level."""
    match = re.search(rf"^#+ {re.escape(heading)}\n(.*?)(?=^#|\Z)", text, re.M | re.S)
    assert match, heading
    return match.group(1)


def test_readme_command_table_is_the_sites():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    table = lambda text: [l for l in _section(text, "Commands").splitlines() if l.startswith("|")]
    # The README links to docs/PAGE.md, the site's pages to PAGE.md.
    assert table(readme) and [l.replace("](docs/", "](") for l in table(readme)] == table(index)


def _querydoc():
    spec = importlib.util.spec_from_file_location("querydoc", ROOT / "tools" / "querydoc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_pages_are_current():
    querydoc = _querydoc()
    catalog = querydoc.load_catalog()
    for name, page in querydoc.PAGES.items():
        text = page.read_text(encoding="utf-8")
        assert querydoc.regenerate(text, name, catalog) == text, \
            f"{page.name} is out of date: run python tools/querydoc.py --write"


def test_generator_rewrites_only_its_region():
    querydoc = _querydoc()
    catalog = {"query": {"q": {"args": ["unit", "source?"], "answer": "boolean", "doc": "d",
                               "needs": ["`los UNIT TARGET clear`"], "rules": "E1.1"}},
               "roll": {"r": {"dice": "dr", "subject": "unit", "rule": "E1.2"}}}
    page = "before\n<!-- catalog:queries -->\nold\n<!-- /catalog:queries -->\nafter\n"
    new = querydoc.regenerate(page, "queries", catalog)
    assert new.startswith("before\n<!-- catalog:queries -->\n| query |")
    assert new.endswith("<!-- /catalog:queries -->\nafter\n")
    assert "`q UNIT [SOURCE]`: yes/no, d." in new and "- `los UNIT TARGET clear`" in new
    assert "| `r` | dr | a unit | E1.2 |" in querydoc.regenerate(
        "<!-- catalog:rolls -->\n<!-- /catalog:rolls -->", "rolls", catalog)


def test_every_query_says_what_it_needs_in_the_language():
    """`needs` exists for every query, and each statement in it uses words of
    the language: keywords of the grammar, catalog names, or placeholders."""
    catalog = tomllib.loads((ROOT / "queries" / "catalog.toml").read_text(encoding="utf-8"))
    grammar = (ROOT / "parser" / "situation.lark").read_text(encoding="utf-8")
    words = set(re.findall(r'"([a-z_0-9]+)"', grammar))
    words |= set(catalog["query"]) | set(catalog["roll"]) | set(catalog["drm_sources"])
    for name, query in catalog["query"].items():
        assert isinstance(query.get("needs"), list), f"{name}: no needs list"
        for need in query["needs"]:
            for span in re.findall(r"`([^`]+)`", need):
                for word in re.split(r"[\s|\[\]]+", span):
                    if word and word[0].islower():
                        assert word in words, f"{name}: '{word}' in `{span}` is not a word of the language"


def _console_blocks(page):
    """(command, expected output) for each `$ aslkb ...` line of a page's
    console blocks, the output being the lines up to the next command."""
    text = page.read_text(encoding="utf-8")
    runs = []
    for block in re.findall(r"^```console\n(.*?)^```", text, re.M | re.S):
        for chunk in re.split(r"^(?=\$ )", block, flags=re.M):
            if chunk.startswith("$ aslkb "):
                command, _, output = chunk.partition("\n")
                runs.append((command[len("$ aslkb "):], output))
    return runs


TUTORIAL = ROOT / "docs" / "tutorial.md"
SHOWN = [(page, command, output) for page in (ROOT / "README.md", TUTORIAL)
         for command, output in _console_blocks(page)]


@pytest.mark.parametrize("page, command, output", SHOWN,
                         ids=[f"{p.name}: {c}" for p, c, _ in SHOWN])
def test_shown_output_is_what_the_command_prints(page, command, output):
    run = subprocess.run([sys.executable, "-m", "aslkb", *shlex.split(command)], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert run.stdout == output


def test_tutorial_shows_its_files_as_they_are():
    text = TUTORIAL.read_text(encoding="utf-8")
    files = sorted((ROOT / "examples" / "tutorial").glob("*.sit"))
    assert len(files) == 5
    for path in files:
        assert f"```\n{path.read_text(encoding='utf-8')}```" in text, path.name
        assert f"examples/tutorial/{path.name}" in text


def test_tutorial_and_readme_commands_run_something():
    assert len([1 for p, _, _ in SHOWN if p == TUTORIAL]) >= 7
    assert [c for p, c, _ in SHOWN if p.name == "README.md"] == ["query examples/first-night.sit"]


def test_readme_shows_the_worked_example_as_it_is():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = (ROOT / "examples" / "first-night.sit").read_text(encoding="utf-8")
    assert f"```\n{example}```" in readme
