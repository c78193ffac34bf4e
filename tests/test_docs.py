"""The documentation: the MkDocs site builds with warnings as errors, and the
README's short copies agree with the site's pages."""

import re
import subprocess
import sys
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
