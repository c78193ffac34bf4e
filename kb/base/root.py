"""Which copy of the knowledge base a command reads.

The rule files (with their coverage notes), the query programs and catalog
(rules/, queries/) are read from the aslkb checkout that
holds the current folder, when there is one: the nearest folder upward with
a pyproject.toml naming the project aslkb and rules/ and queries/ beside it.
There an edited rule takes effect at the next run, whatever copy pip
installed. Anywhere else they are read from the installed package.
`aslkb --version` says which copy a run reads. Decided once per process.

The disk cache (kb/base/diskcache.py) is keyed by the path, size and modification
time of every file read, so two copies never share an entry and an edit
makes a new one.
"""
from __future__ import annotations

import os
from functools import cache

import aslkb.rules

INSTALLED = os.path.dirname(os.path.dirname(os.path.abspath(aslkb.rules.__file__)))


@cache
def kb_root() -> str:
    """The folder holding the rules/ and queries/ this process reads."""
    try:
        here = os.getcwd()
    except OSError:  # the current folder was removed
        return INSTALLED
    return checkout_of(here) or INSTALLED


def checkout_of(folder: str) -> str | None:
    """The aslkb checkout that holds `folder`, or None."""
    folder = os.path.abspath(folder)
    while True:
        if is_checkout(folder):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def is_checkout(folder: str) -> bool:
    if not (os.path.isdir(os.path.join(folder, "rules")) and os.path.isdir(os.path.join(folder, "queries"))):
        return False
    try:
        with open(os.path.join(folder, "pyproject.toml"), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return False
    # `name = "aslkb"` (no regular expression: compiling one costs a cold run more than this)
    return any(line.replace(" ", "").replace("'", '"') == 'name="aslkb"' for line in lines)


def describe() -> str:
    """`knowledge base: PATH (a checkout)` or `(installed)`, for --version."""
    root = kb_root()
    where = "installed" if root == INSTALLED and not is_checkout(root) else "the checkout this folder is in"
    if root == INSTALLED and is_checkout(root):
        where = "an editable install's checkout"
    return f"knowledge base: {root} ({where})"
