"""Finding the knowledge base's files and reading their annotations.

A rule file is plain ASP whose statements are cited by `%@` lines
(docs/design.md §2); an interpretation file also has `%!` header lines (§4).
This module reads those annotations; it knows nothing of clingo.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from .root import kb_root

EDITIONS = ("asl", "sl4")

# A citation: "%@ E1.7 note", "%@ E1.7 EXC: note", "%@ SL 49.23 note", "%@ DEF note".
_CITATION = re.compile(
    r"^%@\s*(?P<id>SL\s+\d+(?:\.\d+)*|[A-Z]\d+(?:\.\d+)*|DEF)"
    r"(?P<exc>\s+EXC\b)?\s*:?\s*(?P<note>.*)$"
)
RULE_ID = re.compile(r"^(SL \d+(\.\d+)*|[A-Z]\d+(\.\d+)*)$")
_HEADER = re.compile(r"^%!\s*(?P<key>[a-z]+)\s*(?P<value>.*)$")


class Citation(NamedTuple):
    rule_id: str  # "E1.7", "SL 49.23" or "DEF"
    exception: bool
    note: str
    line: int  # the line of the %@ comment


@dataclass
class Interpretation:
    name: str
    path: str  # relative to the knowledge base root
    rule: str = ""
    default: bool = False
    reason: str = ""
    excludes: list[str] = field(default_factory=list)


def citation_by_line(text: str) -> list[Citation | None]:
    """For each line (index 0 is line 1), the citation in force on it.

    A `%@` line cites every statement after it up to the next blank line or the
    next `%@` line; other comment lines do not interrupt it.
    """
    current: Citation | None = None
    result: list[Citation | None] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("%@"):
            match = _CITATION.match(stripped)
            current = (
                Citation(match["id"], bool(match["exc"]), match["note"].strip(), number)
                if match
                else Citation("?", False, stripped[2:].strip(), number)
            )
        elif not stripped:
            current = None
        result.append(current)
    return result


def read_interpretation(name: str, path: str, text: str) -> Interpretation:
    interp = Interpretation(name=name, path=path)
    reasons = []
    for line in text.splitlines():
        match = _HEADER.match(line.strip())
        if not match:
            continue
        key, value = match["key"], match["value"].strip()
        if key == "rule":
            interp.rule = value
        elif key == "default":
            interp.default = value == "on"
        elif key == "reason":
            reasons.append(value)
        elif key == "excludes":
            interp.excludes.extend(value.split())
    interp.reason = " ".join(reasons)
    return interp


def rule_files(root: str | os.PathLike | None = None) -> dict[str, list[str]]:
    """The rule files of each part of the knowledge base, in a stable order.

    Keys: "common", each edition, "interpretations", "queries". `root` holds
    rules/ and queries/ (default: kb/root.py's choice, the checkout or the
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
