"""Write the query reference (docs/queries.md) and the roll table of the
language reference (docs/language.md) from queries/catalog.toml.

Only the text between a page's `<!-- catalog:NAME -->` and `<!-- /catalog:NAME -->`
markers is generated; the prose around it is written by hand.

    python tools/querydoc.py            # print what would change, exit 1 if anything
    python tools/querydoc.py --write    # rewrite the pages in place

tests/test_docs.py checks that the committed pages are current.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "queries" / "catalog.toml"
PAGES = {"queries": ROOT / "docs" / "queries.md", "rolls": ROOT / "docs" / "language.md"}

ANSWER_KINDS = {"boolean": "yes/no", "integer": "integer", "number": "number",
                "keyword": "keyword", "list": "list"}
SUBJECTS = {"none": "none", "unit": "a unit", "attack": "an attack"}


def usage(name: str, args: list[str]) -> str:
    """`drm ATTACK [SOURCE]`: the query as written, arguments by kind."""
    words = [name] + [f"[{a[:-1].upper()}]" if a.endswith("?") else a.upper() for a in args]
    return " ".join(words)


def query_reference(catalog: dict) -> str:
    queries = catalog["query"]
    lines = ["| query | answer | what it answers |", "|---|---|---|"]
    for name, q in queries.items():
        extension = "*extension*: " if q.get("extension") else ""
        lines.append(f"| [`{usage(name, q['args'])}`](#{name}) | {ANSWER_KINDS[q['answer']]} "
                     f"| {extension}{q['doc']} |")
    for name, q in queries.items():
        lines += ["", f"## {name}", "", f"`{usage(name, q['args'])}`: {ANSWER_KINDS[q['answer']]}, "
                  f"{q['doc']}." + (" *Extension* of the core language." if q.get("extension") else "")]
        needs = q.get("needs", [])
        lines += ["", "Needs stated:" if needs else "Needs stated: nothing beyond its arguments."]
        if needs:
            lines += [""] + [f"- {need}" for need in needs]
        if q.get("rules"):
            lines += ["", f"Rules encoded: {q['rules']}."]
    return "\n".join(lines)


def roll_table(catalog: dict) -> str:
    lines = ["| roll | dice | subject | rule |", "|---|---|---|---|"]
    for name, r in catalog["roll"].items():
        lines.append(f"| `{name}` | {r['dice']} | {SUBJECTS[r['subject']]} | {r['rule']} |")
    return "\n".join(lines)


GENERATORS = {"queries": query_reference, "rolls": roll_table}


def regenerate(text: str, name: str, catalog: dict) -> str:
    """The page with its `name` region rewritten from the catalog."""
    begin, end = f"<!-- catalog:{name} -->", f"<!-- /catalog:{name} -->"
    pattern = re.compile(re.escape(begin) + r"\n.*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise ValueError(f"no {begin} ... {end} region")
    body = GENERATORS[name](catalog)
    return pattern.sub(lambda _: f"{begin}\n{body}\n{end}", text)


def load_catalog(path: Path = CATALOG) -> dict:
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def _write_atomic(path: Path, text: str) -> None:
    from aslkb.atomicwrite import write_text  # the project's one write: fsync, and no temp file left on failure

    write_text(path, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the pages in place")
    options = parser.parse_args(argv)
    catalog = load_catalog()
    stale = []
    for name, page in PAGES.items():
        text = page.read_text(encoding="utf-8")
        new = regenerate(text, name, catalog)
        if new != text:
            stale.append(page.relative_to(ROOT))
            if options.write:
                _write_atomic(page, new)
    verb = "rewrote" if options.write else "out of date (python tools/querydoc.py --write)"
    for page in stale:
        print(f"{page}: {verb}")
    return 1 if stale and not options.write else 0


if __name__ == "__main__":
    sys.exit(main())
