"""The words of the SL/ASL comparison: rules/diverge/differences.toml.

Each entry names one difference a player would name (or a question only one
edition's night section decides, or two answers that differ only in their
label) with what SL says, what ASL says and what it means at the table, in
words (paraphrase, never the rule text). An answer pair belongs to the first
entry whose query, values and rules it matches: `queries` the query names,
`asl`/`sl4` the values ("yes", "no", "lower", "higher", "decided",
"open", "absent"; omitted: any), `asl_rules`/`sl4_rules` rule ids of which the
answer's rules must hold at least one (omitted: any), and for `aslkb
diverge`, `features` that the witness must state (the size/2 terms of a
scene, rules/diverge/scenes/*.lp; `aslkb diff` has no features: an entry that needs some does
not name its answers).
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from functools import lru_cache

from aslkb.knowledge.rulefiles import kb_root

# the report's sections, most important first (a club's conversion guide)
TOPICS = {
    "nvr": "Setting the NVR",
    "seeing": "Seeing at night",
    "gunflash": "Gunflashes",
    "starshell": "Starshells and Illumination",
    "concealment": "Concealment and HIP",
    "movement": "Movement, rout and straying",
    "fire": "Fire",
    "vehicles": "Vehicles",
    "oba": "OBA",
}
SOURCES = {
    "original": "SL 4th edition rule text",
    "qa": "official Q&A",
    "unofficial": "unofficial COI+/COD+ reading",
    "none": "no SL counterpart",
}

KINDS = ("difference", "one_decides", "only_one", "same_effect", "not_a_difference")


@dataclass(frozen=True)
class Entry:
    kind: str  # one of KINDS
    id: str
    title: str
    queries: tuple[str, ...]
    asl: str | None
    sl4: str | None
    asl_rules: tuple[str, ...]
    sl4_rules: tuple[str, ...]
    sl_says: str  # "SL 49.11: ..." (for one_sided, what SL does instead)
    asl_says: str
    table: str  # what it means at the table
    features: tuple[str, ...] = ()
    topic: str = ""  # the report's section (TOPICS)
    sl_source: str = ""  # original, qa, unofficial or none (SOURCES)
    sl_ids: tuple[str, ...] = ()
    asl_ids: tuple[str, ...] = ()
    why: str = ""  # text_only: why no witness shows it

    def matches(self, query_name: str, values: tuple[str, str], rules: tuple[list[str], list[str]],
                features: set[str] | None = None) -> bool:
        if query_name not in self.queries:
            return False
        if self.features and (features is None or not set(self.features) <= features):
            return False
        if any(want is not None and want != got for want, got in zip((self.asl, self.sl4), values)):
            return False
        return all(not wanted or set(wanted) & set(cited) for wanted, cited in zip((self.asl_rules, self.sl4_rules), rules))


def catalog_path() -> str:
    return os.path.join(kb_root(), "rules", "diverge", "differences.toml")


# a difference read from the two texts that no witness can show (the language
# cannot ask it, or one text is missing): in the guide, never matched to answers
TEXT_ONLY = "text_only"


@lru_cache(maxsize=8)
def load(path: str | None = None, kinds: tuple[str, ...] = KINDS) -> tuple[Entry, ...]:
    with open(path or catalog_path(), "rb") as handle:
        data = tomllib.load(handle)
    entries = []
    for kind in kinds:
        for ident, item in data.get(kind, {}).items():
            entries.append(Entry(kind, ident, item["title"], tuple(item.get("queries", ())), item.get("asl"), item.get("sl4"),
                                 tuple(item.get("asl_rules", ())), tuple(item.get("sl4_rules", ())),
                                 item["sl"], item["asl_says"], item.get("table", ""), tuple(item.get("features", ())),
                                 item.get("topic", ""), item.get("sl_source", ""), tuple(item.get("sl_ids", ())),
                                 tuple(item.get("asl_ids", ())), item.get("why", "")))
    return tuple(entries)


def text_only(path: str | None = None) -> tuple[Entry, ...]:
    return load(path, (TEXT_ONLY,))


def classify(query_name: str, values: tuple[str, str], rules: tuple[list[str], list[str]],
             kinds: tuple[str, ...] = KINDS, features: set[str] | None = None) -> Entry | None:
    """The first entry of those kinds that this pair of answers matches."""
    for entry in load():
        if entry.kind in kinds and entry.matches(query_name, values, rules, features):
            return entry
    return None
