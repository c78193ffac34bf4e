"""The counter data (rules/common/counters.lp): the Class a squad's or
half-squad's nationality and printed strength give it (docs/language.md,
"Counter data"), for completion and hover."""
from __future__ import annotations

import os
from functools import cache

from aslkb.base.root import kb_root
from aslkb.engine.solve import ground_atoms

COUNTERS = os.path.join("rules", "common", "counters.lp")


@cache
def counter_classes() -> dict[tuple[str, str, str], str]:
    """(nationality, kind, strength as written: 4-6-7) -> Class (first_line), as the file's table gives them."""
    path = os.path.join(kb_root(), COUNTERS)
    with open(path, encoding="utf-8") as handle:
        program = handle.read()  # the knowledge base's own file, never a situation's text
    found = {}
    for atom in ground_atoms(program, "counter_class", 4):
        nation, kind, strength, rank = atom.arguments
        printed = "-".join(str(n.number) for n in strength.arguments)
        found[(nation.name, kind.name, printed)] = rank.name
    return found


def class_of(nation: str, kind: str, strength: str) -> str | None:
    return counter_classes().get((nation, kind, strength))


def strengths(nation: str, kind: str) -> list[tuple[str, str]]:
    """The printed strengths the counter data holds for a nationality and kind, with their Class."""
    return [(printed, rank) for (n, k, printed), rank in counter_classes().items() if (n, k) == (nation, kind)]
