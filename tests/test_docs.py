"""The documentation: the MkDocs site builds with warnings as errors, and the
README's short copies agree with the site's pages."""

import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["index", "tutorial", "language", "queries", "answers", "explanations",
         "interpretations", "editions", "regression", "reliability", "encoding",
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
