"""The documentation: the MkDocs site builds with warnings as errors, and the
README's short copies agree with the site's pages."""

import base64
import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["index", "tutorial", "language", "queries", "answers", "cli", "explanations",
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


def _consoledoc():
    spec = importlib.util.spec_from_file_location("consoledoc", ROOT / "tools" / "consoledoc.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


TUTORIAL = ROOT / "docs" / "tutorial.md"
CONSOLE = _consoledoc()
# Every console block of README.md and docs/*.md, run as it is written
# (tools/consoledoc.py: its folder, its elisions); --write mends the shown output.
BLOCKS = [block for page in CONSOLE.pages() for block in CONSOLE.blocks(page)]


def test_every_page_with_a_console_block_is_run():
    pages = {block.page.name for block in BLOCKS}
    assert {"README.md", "tutorial.md", "answers.md", "regression.md", "language.md", "reliability.md"} <= pages


@pytest.mark.parametrize("block", BLOCKS, ids=[block.name for block in BLOCKS])
def test_shown_output_is_what_the_command_prints(block):
    assert not CONSOLE.problems(block)
    for run, printed in zip(block.runs, CONSOLE.outputs(block)):
        assert CONSOLE.matches(run.shown, printed), f"$ {run.command}\n{printed}"


def test_elisions_match_any_lines_and_only_them():
    assert CONSOLE.matches("a\n...\nz\n", "a\nb\nc\nz\n") and CONSOLE.matches("a\n...\nz\n", "a\nz\n")
    assert CONSOLE.matches("ok x: ...\n", "ok x: long text\n")
    assert CONSOLE.matches("    ... (the firer's elevation)\n", "one\ntwo\n")
    assert not CONSOLE.matches("a\nz\n", "a\nb\nz\n")
    assert not CONSOLE.matches("ok x: ...\n", "FAIL x: long\n")


def test_tutorial_shows_its_files_as_they_are():
    text = TUTORIAL.read_text(encoding="utf-8")
    files = sorted((ROOT / "examples" / "tutorial").glob("*.sit"))
    assert len(files) == 5
    for path in files:
        assert f"```\n{path.read_text(encoding='utf-8')}```" in text, path.name
        assert f"examples/tutorial/{path.name}" in text


def test_tutorial_opens_each_of_its_files_in_the_playground():
    """Each file's block is followed by a share link (docs/playground.md) whose
    text is the file's, byte for byte."""
    text = TUTORIAL.read_text(encoding="utf-8")
    for path in sorted((ROOT / "examples" / "tutorial").glob("*.sit")):
        shown = f"```\n{path.read_text(encoding='utf-8')}```\n\n[Open `{path.name}` in the playground]("
        assert shown in text, path.name
        link = re.match(r"http://127\.0\.0\.1:8000/#s=([A-Za-z0-9_-]+)\)", text.split(shown, 1)[1])
        assert link, path.name
        code = link.group(1)
        assert base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)) == path.read_bytes()


def test_the_site_loads_nothing_from_another_site_and_shows_no_escaped_pipe(tmp_path):
    """highlight.js came from a CDN: offline, no highlighting and a script error on
    every page; and the Commands tables' code showed `\\|` (tools/mkdocs_hooks.py)."""
    site = tmp_path / "site"
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                            "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)], capture_output=True, text=True,
                           cwd=tmp_path)
    assert build.returncode == 0, build.stderr
    pages = list(site.rglob("*.html"))
    assert len(pages) > len(PAGES)
    for page in pages:
        html = page.read_text(encoding="utf-8")
        external = re.findall(r'<(?:script|link|img)\b[^>]*\b(?:src|href)="((?:https?:)?//[^"]*)"', html)
        assert not external, (page, external)
    commands = (site / "commands" / "index.html").read_text(encoding="utf-8")
    assert "<code>aslkb query FILE... [--edition asl|sl4]" in commands and "\\|" not in commands
    assert 'class="codehilite"' in (site / "tutorial" / "index.html").read_text(encoding="utf-8")


def test_tutorial_and_readme_commands_run_something():
    runs = [(block.page, run.command) for block in BLOCKS for run in block.runs]
    assert len([1 for page, _ in runs if page == TUTORIAL]) >= 7
    assert [command for page, command in runs if page.name == "README.md"] == ["aslkb query examples/first-night.sit"]


def test_readme_shows_the_worked_example_as_it_is():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = (ROOT / "examples" / "first-night.sit").read_text(encoding="utf-8")
    assert f"```\n{example}```" in readme


COMMANDS = ["query", "check", "odds", "explain", "diff", "diverge", "lint", "rules",
            "coverage", "impact", "invariants", "serve", "lsp", "completion"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_of_a_command_is_documented(command):
    shown = subprocess.run([sys.executable, "-m", "aslkb", command, "--help"],
                           capture_output=True, text=True, check=True).stdout
    docs = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md"))
    missing = [o for o in sorted(set(re.findall(r"--[a-z][a-z-]*", shown)))
               if o != "--help" and o not in docs]
    assert not missing, f"aslkb {command}: {missing} not in docs/"


def test_readme_links_point_at_files_of_the_repository():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", readme)
    assert targets
    for target in targets:
        assert (ROOT / target).is_file(), target


def _hooks():
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", ROOT / "tools" / "mkdocs_hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_links_out_of_docs_are_checked_and_shown_as_paths(caplog):
    hooks = _hooks()
    page = type("Page", (), {"file": type("File", (), {"src_uri": "editions.md"})()})()
    config = {"docs_dir": str(ROOT / "docs")}
    text = ("[first](../examples/first-night.sit), [gone](../examples/gone.sit), "
            "[page](queries.md), ![picture](explain-E1.7-EX-A1.svg)")
    shown = hooks.on_page_markdown(text, page, config, None)
    assert shown == ("first (`examples/first-night.sit`), gone (`examples/gone.sit`), "
                     "[page](queries.md), ![picture](explain-E1.7-EX-A1.svg)")
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == [
        "Doc file 'editions.md' links to 'examples/gone.sit', which is not a file of the repository"]


def test_interpretations_page_lists_every_interpretation():
    from aslkb.knowledge.program import knowledge_base

    page = (ROOT / "docs" / "interpretations.md").read_text(encoding="utf-8")
    rows = {m[0]: (m[1], m[2] == "**on**")
            for m in re.findall(r"^\| `(\w+)` \| ([^|]+?) \| (\*\*on\*\*|off) \|", page, re.M)}
    known = {name: (i.rule, i.default) for name, i in knowledge_base().interpretations.items()}
    assert rows == known


def test_command_table_names_only_options_the_commands_have():
    reference = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    rows = [l for l in reference.splitlines() if l.startswith("| `aslkb ")]
    assert len(rows) >= len(COMMANDS)
    for row in rows:
        for command in set(re.findall(r"aslkb (\w+)", row.split("` |")[0])):
            shown = subprocess.run([sys.executable, "-m", "aslkb", command, "--help"],
                                   capture_output=True, text=True, check=True).stdout
            unknown = sorted(o for o in set(re.findall(r"--[a-z][a-z-]*", row)) if o not in shown)
            assert not unknown, f"aslkb {command}: docs/commands.md's row names {unknown}"


def test_readme_names_every_command_once():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = [l for l in _section(readme, "Commands").splitlines() if l.startswith("| `aslkb ")]
    assert [re.match(r"\| `aslkb (\w+)", row)[1] for row in rows] == COMMANDS
    assert len(readme.splitlines()) <= 150  # what aslkb is, two commands, the worked example, one line a command
