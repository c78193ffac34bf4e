"""Finding the knowledge base's files: the rule files of each part, in a
stable order (their annotations are read by kb/knowledge/annotations.py)."""
from __future__ import annotations

import os

from aslkb.base.root import kb_root

EDITIONS = ("asl", "sl4")


def rule_files(root: str | os.PathLike | None = None) -> dict[str, list[str]]:
    """The rule files of each part of the knowledge base, in a stable order.

    Keys: "common", each edition, "interpretations", "queries". `root` holds
    rules/ and queries/ (default: kb/base/root.py's choice, the checkout or the
    installed package).
    """
    root = root or kb_root()
    rules = os.path.join(root, "rules")
    queries = os.path.join(root, "queries")
    parts = {"common": _lp_files(os.path.join(rules, "common"), recursive=True)}
    for edition in EDITIONS:
        parts[edition] = _lp_files(os.path.join(rules, edition), recursive=True)
    parts["interpretations"] = _lp_files(os.path.join(rules, "interpretations"))
    parts["queries"] = _lp_files(queries)
    return parts


def is_query_program(path: str | os.PathLike, root: str | os.PathLike | None = None) -> bool:
    """Whether a rule file is a query program: one of rule_files()'s "queries"
    part (queries/ of the root), which states its own `query(Q)` conditions."""
    folder = os.path.join(root or kb_root(), "queries")
    return os.path.dirname(os.path.abspath(path)) == os.path.abspath(folder)


def _lp_files(folder: str, recursive: bool = False) -> list[str]:
    """The .lp files of a folder, sorted by path (every run, so: os, not pathlib globs)."""
    found = []
    for entry in os.scandir(folder) if os.path.isdir(folder) else ():
        if entry.is_dir() and recursive:
            found += _lp_files(entry.path, recursive)
        elif entry.name.endswith(".lp"):
            found.append(entry.path)
    return sorted(found)


def relative(path: str, root: str | os.PathLike | None = None) -> str:
    """A path as users see it in the repository: rules/asl/E1/E1.7.lp."""
    return os.path.relpath(path, root or kb_root()).replace(os.sep, "/")
