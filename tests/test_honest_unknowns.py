"""Every open fact a rule reads is opened when it is missing (issue 35).

A rule that turns on a LOS, a range or a scenario value the file does not
state must see it open (rules/common/unknowns.lp), never take it as absent:
so leaving out one stated `los` or `range` line, or one `NAME N` of the
`scenario` line, of a shipped case or example may turn a decided answer
undecided, but never into a different decided answer. A miss here is a rule
whose missing fact is silently taken as absent, the defect "honest about the
unknown" forbids (docs/design.md, "Unknowns"). Closed kinds (a hex's
terrain, a counter) are not left out, nor are rolls: a missing roll's dice
take every face, and a stated one may be the event a rule turns on (E1.12's
NVR Change DR, rolled in a file that states no Rally Phase).
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


CORPUS = [path for folder in ("tests/cases", "examples") for path in sorted((ROOT / folder).rglob("*.sit"))]
FILES = [path for path in CORPUS if _droppable(path)]


def _decided(text: str, name: str) -> dict[str, object] | None:
    """Each decided answer's value by query text; None for a file refused."""
    try:
        result = ask(parse(text, name), kb=knowledge_base(), cite=False)
    except Exception:  # a case of a refused file; its own test says why
        return None
    return {a.query: hashable_value(a.value) for a in result.answers if not a.undecided and a.distribution is None}


def _changes(path: Path, variants, answers) -> list[str]:
    """What each variant (index, its line instead, what it does) changes of
    the file's answers, as `answers` reads them; skips a refused file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    stated = answers("\n".join(lines) + "\n", str(path))
    if stated is None:
        pytest.skip("a refused file")
    changed = []
    for i, line, what in variants:
        other = answers("\n".join(lines[:i] + [line] + lines[i + 1:]) + "\n", str(path))
        for query, answer in (other or {}).items():
            if query in stated and answer != stated[query]:
                changed.append(f"line {i + 1} {what}: {query} {stated[query]!r} -> {answer!r}")
    return changed


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(ROOT).as_posix() for p in FILES])
def test_a_missing_los_or_range_never_changes_a_decided_answer(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    changed = _changes(path, [(i, "", f"`{lines[i]}` left out") for i in _droppable(path)], _decided)
    assert not changed, "\n".join(changed)


# A valued scenario condition (`nvr 2`, `year 1944`, `wind 1`) is an SSR; a
# rule that turns on a missing one opens it for its question (rules/common/
# unknowns.lp, scenario/2), so leaving one out of the `scenario` line may
# leave an answer undecided but never decide it otherwise.

def _scenario_cuts(lines: list[str]) -> list[tuple[int, str, str]]:
    """(index, the pair left out, the line without it) for each NAME N pair of a `scenario` line."""
    found = []
    for i, line in enumerate(lines):
        words = line.split("#")[0].split()
        if words[:1] != ["scenario"]:
            continue
        for j in range(1, len(words) - 1):
            if _integer(words[j + 1]) and not _integer(words[j]) and len(words) > 3:
                found.append((i, f"{words[j]} {words[j + 1]}", " ".join(words[:j] + words[j + 2:])))
    return found


def _integer(word: str) -> bool:
    return word.lstrip("-").isdigit()


SCENARIO_FILES = [path for path in CORPUS if _scenario_cuts(path.read_text(encoding="utf-8").splitlines())]


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.relative_to(ROOT).as_posix() for p in SCENARIO_FILES])
def test_a_missing_scenario_value_never_changes_a_decided_answer(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    cuts = [(i, cut, f"`{pair}` left out") for i, pair, cut in _scenario_cuts(lines)]
    changed = _changes(path, cuts, _decided)
    assert not changed, "\n".join(changed)


# A LOS holds between Locations (rules/common/places.lp): one stated between
# two units' hexes states it for the units, so a rule that asks whether the
# units' LOS is stated must find it there too, or it opens a fact the file
# gives (tests/cases/blind/a7/blind-A7.7-A7.531-day-totals.sit's Hindrance
# stated between the hexes was once read as not stated at all).

def _unit_hexes(lines: list[str]) -> dict[str, str]:
    """Each unit's stated hex, for a unit at its hex's ground level (no `level`, not aboard)."""
    found = {}
    for line in lines:
        words = line.split("#")[0].split()
        if words[:1] == ["unit"] and "at" in words[:-1] and "level" not in words and "aboard" not in words:
            found[words[1]] = words[words.index("at") + 1]
    return found


def _restated(lines: list[str]) -> list[tuple[int, str]]:
    """(index, the line restated between hexes) for each `los` line naming a unit."""
    hexes = _unit_hexes(lines)
    found = []
    for i, line in enumerate(lines):
        words = line.split("#")[0].split()
        if words[:1] == ["los"] and len(words) >= 4 and (words[1] in hexes or words[2] in hexes):
            ends = [hexes.get(words[1], words[1]), hexes.get(words[2], words[2])]
            if ends[0] != ends[1]:
                found.append((i, " ".join(["los", *ends, *words[3:]])))
    return found


def _answers(text: str, name: str) -> dict[str, tuple] | None:
    """Each answer's value and reasons by query text; None for a file refused."""
    try:
        result = ask(parse(text, name), kb=knowledge_base(), cite=False)
    except Exception:  # a restated hex the file does not state is refused; nothing to compare
        return None
    return {a.query: (hashable_value(a.value), tuple(a.undecided)) for a in result.answers}


UNIT_LOS_FILES = [path for path in FILES if _restated(path.read_text(encoding="utf-8").splitlines())]


@pytest.mark.parametrize("path", UNIT_LOS_FILES, ids=[p.relative_to(ROOT).as_posix() for p in UNIT_LOS_FILES])
def test_a_los_stated_between_the_units_hexes_answers_as_one_between_the_units(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    restated = [(i, line, f"`{lines[i]}` as `{line}`") for i, line in _restated(lines)]
    changed = _changes(path, restated, _answers)
    assert not changed, "\n".join(changed)
