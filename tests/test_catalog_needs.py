"""The catalog's `needs` (docs/queries.md, "Needs stated") against the engine:
for a sample of queries, the situation without the statement leaves the answer
undecided (or odds, for a roll), the same situation with it decides, and the
catalog names that statement among the query's needs."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from aslkb.answers.ask import ask, settle
from aslkb.parser import parse
from aslkb.knowledge.program import knowledge_base

ROOT = Path(__file__).resolve().parent.parent
CATALOG = tomllib.loads((ROOT / "queries" / "catalog.toml").read_text(encoding="utf-8"))

NIGHT = "scenario night nvr 3\n"
SQUADS = "unit G1 german squad 4-6-7 at 3A1\nunit R1 russian squad 4-4-7 at 3A3\n"
ATTACK = NIGHT + SQUADS + "attack A1 by G1 at R1\n"

# (query, situation without the statement, the statement, what `needs` says)
CASES = [
    ("may_fire G1 R1", NIGHT + SQUADS + "range G1 R1 2\n", "los G1 R1 clear", "`los UNIT TARGET"),
    # on two boards: the range is not read off the hex ids
    ("within_nvr G1 R1", NIGHT + "unit G1 german squad 4-6-7 at 3A1\nunit R1 russian squad 4-4-7 at 12A3\n",
     "range G1 R1 2", "`range UNIT TARGET N`"),
    ("movement_dr_required G1", NIGHT + "unit G1 german squad 4-6-7 at 3A1\n",
     "move M1 G1 to 3A2", "`move ID UNIT to HEX`"),
    ("may_fire_starshell L1", NIGHT + "unit L1 german leader 8-1 at 3A1\nroll starshell_usage L1 1\n",
     "scenario starshell_fired", "`scenario starshell_fired`"),
    ("strays G1", NIGHT + "unit G1 german squad 4-6-7 at 3A1\nmove M1 G1 to 3A2\n",
     "roll movement G1 colored 3 white 5", "`roll movement UNIT colored N white N`"),
    ("cowers A1", ATTACK, "roll ift A1 colored 3 white 3", "`roll ift ATTACK colored N white N`"),
    ("drm A1 hindrance", ATTACK, "los G1 R1 clear", "`hindrance`: `los FIRER TARGET"),
    ("base_nvr", "scenario night\n", "scenario nvr 3", "`scenario night nvr N`"),
    ("san german", "scenario night\n", "scenario san german 3", "`scenario san NATION N`"),
    ("recon_drm", "scenario night\n", "scenario attacker german majority german normal",
     "`scenario attacker NATION`"),
    ("hip_squads", "scenario night\nunit R1 russian squad 4-4-7\n", "scenario defender russian",
     "`scenario defender NATION`"),
    ("cloud_cover", NIGHT, "scenario clouds none", "`scenario clouds C`"),
    ("ec", "scenario day\n", "scenario ec dry", "`scenario ec E`"),
]


@pytest.fixture(scope="module")
def kb():
    return knowledge_base()


def _answer(text, kb):
    situation = parse(text, "needs.sit")
    [answer] = ask(situation, settle(situation, kb), kb).answers
    return answer


@pytest.mark.parametrize("query, without, statement, named", CASES, ids=[c[0] for c in CASES])
def test_the_statement_a_query_needs_decides_it(query, without, statement, named, kb):
    before = _answer(f"{without}query {query}\n", kb)
    assert before.value is None and (before.undecided or before.distribution)
    after = _answer(f"{without}{statement}\nquery {query}\n", kb)
    assert after.value is not None and not after.undecided
    assert any(named in need for need in CATALOG["query"][query.split()[0]]["needs"])
