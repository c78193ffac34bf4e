"""Every open fact a rule reads is opened when it is missing (issue 35).

A rule that turns on a LOS or a range the file does not state must see it
open (rules/common/unknowns.lp), never take it as absent: so leaving out one
stated `los` or `range` line of a shipped case or example may turn a decided
answer undecided, but never into a different decided answer. A miss here is
a rule whose missing fact is silently taken as absent, the defect "honest
about the unknown" forbids (docs/design.md, "Unknowns").
"""
from __future__ import annotations

from pathlib import Path

import pytest

from aslkb.api import ask, hashable_value, knowledge_base
from aslkb.parser import parse

ROOT = Path(__file__).resolve().parent.parent
DROPPED = ("los", "range")  # the open kinds a rule reads between two places


def _droppable(path: Path) -> list[int]:
    """The indexes of the lines of `path` that state one of DROPPED."""
    return [i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines())
            if line.split()[:1] and line.split()[0] in DROPPED]


FILES = [path for folder in ("tests/cases", "examples") for path in sorted((ROOT / folder).rglob("*.sit"))
         if _droppable(path)]


def _decided(text: str, name: str) -> dict[str, object] | None:
    """Each decided answer's value by query text; None for a file refused."""
    try:
        result = ask(parse(text, name), kb=knowledge_base(), cite=False)
    except Exception:  # a case of a refused file; its own test says why
        return None
    return {a.query: hashable_value(a.value) for a in result.answers if not a.undecided and a.distribution is None}


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(ROOT).as_posix() for p in FILES])
def test_a_missing_los_or_range_never_changes_a_decided_answer(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    stated = _decided("\n".join(lines) + "\n", str(path))
    if stated is None:
        pytest.skip("a refused file")
    changed = []
    for i in _droppable(path):
        left_out = _decided("\n".join(lines[:i] + [""] + lines[i + 1:]) + "\n", str(path))
        for query, value in (left_out or {}).items():
            if query in stated and value != stated[query]:
                changed.append(f"line {i + 1} `{lines[i]}` left out: {query} {stated[query]!r} -> {value!r}")
    assert not changed, "\n".join(changed)
