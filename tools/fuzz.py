#!/usr/bin/env python3
"""Fuzz aslkb with hostile and broken input.

Two sources of input:

- **generated** situations, valid by construction, built from the grammar
  (`parser/situation.lark`: the attribute rules' expansions and keyword
  terminals are read from the parser, so a new attribute is fuzzed the day it
  is added) and the query catalog (`queries/catalog.toml`: queries, argument
  kinds, answer kinds, rolls and their dice);
- **mutated** shipped files (`examples/`, `tests/cases/`): lines dropped,
  duplicated, swapped or spliced from another file; words corrupted, deleted,
  repeated or replaced by keywords, numbers, ASP source (`#script`,
  `#include`, `x).`), control characters and exotic Unicode; random bytes,
  invalid UTF-8, truncation, very long words, lines and files;
- **hostile classes** (HOSTILE_CLASSES, issue 37), each with the outcomes it
  may have: numbers past what the game or the solver takes (refused at their
  position), situations the game cannot be in (refused with their lines), and
  Fire Groups about the 200-firer limit (answered in time, or refused past it).

Each input goes through what `aslkb query` does, in this process (parse the
file, settle the interpretations, solve, render text and JSON), and a sample
through the real command line in a subprocess. A failure is a Python
exception other than the tool's own refusals (a situation error, an
inconsistent situation, a usage error), an input that takes more than 5
seconds, or, on the command line, an exit status other than 0, 1 or 2, a
traceback on stderr, or exit status 2 without a message.

    python tools/fuzz.py -n 100000 --jobs 2 --cli-sample 500 --seed 1 [--solve-every K]
    python tools/fuzz.py -n 0 --cli-sample 0 --surroundings 400 --max-seconds 300

`--surroundings N` adds N trials of what surrounds a situation, each in a
fresh folder (tools/fuzz_surroundings.py): mutated golden snapshots, mutated
or forged cache files, hostile option values (option-like revisions, odd
output paths, NUL bytes), special files (FIFOs, /dev/zero, /proc, sparse
files above the size limit) as situations, snapshots, folders and domains,
control characters (ESC sequences, C1, DEL, bytes that are not UTF-8) in
a case's file name and its snapshot's strings (no output may print one as it
is, and the `--junit-xml` report must parse), links planted under a golden
snapshot's or the cache files' names (the file linked to stays as it was),
and diverge domain programs with a BOM, non-ASCII text or a ground bomb
(refused at the domain file's line and column).

prints a summary (inputs, what happened to them, the slowest, time taken)
and writes each failing input to --failures (default /tmp/aslkb-fuzz-failures)
to replay with `aslkb --debug query FILE`. Exit status 1 if anything failed.
The bounded run in the test suite is tests/test_fuzz.py.
"""
from __future__ import annotations

import argparse
import glob
import os
import random
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field

from aslkb.base.atomicwrite import write_bytes  # the failing inputs kept, like every output: whole or not at all
from aslkb.parser.validate import NUMBER_DOMAINS

# the numbers the parser takes after a keyword (a `los ... hindrance N` is generated with the role "los")
DOMAIN_AFTER = {name: domain for (_, name), domain in NUMBER_DOMAINS.items()} | {
    "los": NUMBER_DOMAINS[("los", "hindrance")]}

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HANG_SECONDS = 5.0


# --- where the words come from ---------------------------------------------------

def _grammar():
    from aslkb.parser import grammar

    return grammar


def keyword_words(terminal: str) -> list[str]:
    return sorted(_grammar().words(terminal) or [])


def expansions(rule: str) -> list[list[str]]:
    """The terminal sequences a grammar rule (an attribute rule) may take."""
    return [list(r.expansion) for r in _grammar().parser().rules if r.origin == rule and r.expansion]


def all_keywords() -> list[str]:
    import re

    words = set()
    for t in _grammar().parser().terminals:
        words.update(w for w in _grammar().words(t.name) or [] if re.fullmatch(r"[a-z][a-z0-9_]*", w))
    return sorted(words)


def interpretation_names() -> list[str]:
    folder = os.path.join(ROOT, "rules", "interpretations")
    return sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".lp"))


def seed_files() -> list[str]:
    return sorted(glob.glob(os.path.join(ROOT, "examples", "*.sit"))
                  + glob.glob(os.path.join(ROOT, "tests", "cases", "**", "*.sit"), recursive=True))


# --- random choices: random.Random, or Hypothesis draws (tests/test_fuzz.py) -------

class Choices:
    """What the generator asks of its randomness; random.Random behind it."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choice(self, seq):
        return self.rng.choice(list(seq))

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def chance(self, percent: int) -> bool:
        return self.rng.randrange(100) < percent

    def shuffled(self, items: list) -> list:
        items = list(items)
        self.rng.shuffle(items)
        return items


# --- valid situations from the grammar and the catalog ------------------------------

# ids that the language documents as unusable where a keyword may stand
_RESERVED = {"colored", "white", "not", "yes", "no", "undecided", "on", "off", "at", "by", "to"}


class Generator:
    """One valid situation per call of `situation()`, as text."""

    def __init__(self, draw: Choices) -> None:
        self.d = draw
        self.lines: list[str] = []
        self.units: list[str] = []
        self.attacks: list[str] = []
        self.moves: list[str] = []
        self.fortifications: list[str] = []
        self.used: set[str] = set()

    # words
    def new_id(self, prefix: str) -> str:
        while True:
            if self.d.chance(15):  # a keyword as an id: the language allows it where an id is expected
                word = self.d.choice([w for w in all_keywords() if w not in _RESERVED])
            else:
                word = f"{prefix}{self.d.integer(1, 30)}"
            if word not in self.used:
                self.used.add(word)
                return word

    def hex_id(self, board: bool = True) -> str:
        column = self.d.choice("ABCDGRTZ") * (2 if self.d.chance(10) else 1)
        return f"{self.d.integer(1, 13) if board else ''}{column}{self.d.integer(1, 10)}"

    def number(self, low: int = -2, high: int = 9, whole: bool = False) -> str:
        if not whole and self.d.chance(10):
            return f"{self.d.integer(low, high)}.{self.d.choice(['5', '25', '0'])}"
        return str(self.d.integer(low, high))

    def place(self) -> str:
        return self.d.choice(self.units) if self.units and self.d.chance(60) else self.hex_id()

    def terminal(self, name: str, role: str) -> str:
        """A word for one terminal of an attribute expansion."""
        words = keyword_words(name)
        if words:
            return self.d.choice(words)
        if name == "NUMBER":
            if role == "turn":  # Game Turns are numbered 1, 2, 3 ... (parser/validate.py refuses others)
                return str(self.d.integer(1, 9))
            domain = DOMAIN_AFTER.get(role)  # a negative NVR, or a TEM of 2.5, is refused
            if domain is not None:
                return self.number(max(domain.lowest, -2), 9, domain.whole)
            return self.number()
        if name == "ID":
            if role in ("aboard", "directed_by"):
                return self.d.choice(self.units)
            return self.new_id("B")
        if name == "HEX":
            return self.hex_id()
        raise ValueError(f"no word for terminal {name}")

    def attributes(self, rule: str, owner: str, most: int) -> list[str]:
        """Attributes from the rule's expansions; a valued one once per owner."""
        chosen, seen = [], set()
        for _ in range(self.d.integer(0, most)):
            expansion = self.d.choice(expansions(rule))
            first = self.terminal(expansion[0], "")
            if first in ("aboard", "directed_by") and not self.units:
                continue
            if first in ("hexside", "vertex"):
                words = [first, str(self.d.integer(1, 6))]
            else:
                words = [first] + [self.terminal(t, first) for t in expansion[1:]]
            key = first if len(words) > 1 else words[0]
            if rule == "attack_attr" and words[0] in keyword_words("ATTACK_KIND"):
                key = "kind"
            if rule == "scenario_attr" and len(words) == 3:
                key = f"{first} {words[1]}"
            if key in seen and (len(words) > 1 or key == "kind"):
                continue
            if first in ("hexside", "vertex"):
                key = " ".join(words)
            seen.add(key)
            chosen.append(" ".join(words))
        return chosen

    # statements
    def situation(self) -> str:
        from aslkb.parser import catalog

        d = self.d
        if d.chance(20):
            self.lines.append(f"edition {d.choice(keyword_words('EDITION'))}")
        names = interpretation_names()
        for name in {d.choice(names) for _ in range(d.integer(0, 2))}:
            self.lines.append(f"interpretation {name}" + d.choice(["", " on", " off"]))
        scenario_values: dict[str, str] = {}
        for _ in range(d.integer(0, 3)):
            attrs = []
            for a in self.attributes("scenario_attr", "scenario", 3):
                key = " ".join(a.split()[:-1]) if len(a.split()) > 1 else a
                attrs.append(scenario_values.setdefault(key, a))
            if attrs:
                self.lines.append("scenario " + " ".join(attrs))
        for _ in range(d.integer(0, 3)):
            h = self.hex_id(board=d.chance(80))
            self.lines.append(" ".join([f"hex {h} {d.choice(keyword_words('TERRAIN'))}",
                                        *self.attributes("hex_attr", h, 3)]))
        unit_lines = []
        for _ in range(d.integer(0, 5)):
            uid = self.new_id(d.choice("GRFL"))
            self.units.append(uid)
        for uid in self.units:
            kind = d.choice(keyword_words("UNIT_KIND"))
            words = [f"unit {uid} {d.choice(keyword_words('NATION'))} {kind}"]
            if kind in ("squad", "halfsquad", "crew") and d.chance(70):
                words.append(f"{d.integer(0, 9)}-{d.integer(0, 8)}-{d.integer(5, 9)}")
            elif kind in ("leader", "hero") and d.chance(70):
                words.append(f"{d.integer(6, 10)}{d.choice('+-')}{d.integer(0, 3)}")
            if d.chance(80):
                words.append(f"at {self.hex_id(board=d.chance(80))}")
            attrs = [a for a in self.attributes("unit_attr", uid, 4) if a != f"aboard {uid}"]
            unit_lines.append(" ".join(words + attrs))
        self.lines += unit_lines
        for _ in range(d.integer(0, 2)):
            fid = self.new_id("P")
            self.fortifications.append(fid)
            self.lines.append(" ".join([f"fortification {fid} {d.choice(keyword_words('NATION'))} "
                                        f"{d.choice(keyword_words('FORT_KIND'))} at {self.hex_id()}",
                                        *self.attributes("fort_attr", fid, 3)]))
        pairs = set()
        for statement in ("los", "range"):
            for _ in range(d.integer(0, 3)):
                a, b = self.place(), self.place()
                if (statement, a, b) in pairs:
                    continue
                pairs.add((statement, a, b))
                if statement == "range":
                    self.lines.append(f"range {a} {b} {self.number(0, 12, whole=True)}")
                else:
                    state = d.choice(expansions("los_state"))
                    said = " ".join(self.terminal(t, "los") for t in state)
                    self.lines.append(f"los {a} {b} {said}")
        if self.units:
            for _ in range(d.integer(0, 2)):
                aid = self.new_id("A")
                self.attacks.append(aid)
                firers = sorted({d.choice(self.units) for _ in range(d.integer(1, 3))})
                self.lines.append(" ".join([f"attack {aid} by {','.join(firers)} at {self.place()}",
                                            *self.attributes("attack_attr", aid, 4)]))
            for _ in range(d.integer(0, 2)):
                mid = self.new_id("M")
                self.moves.append(mid)
                self.lines.append(" ".join([f"move {mid} {d.choice(self.units)} to {self.hex_id()}",
                                            *self.attributes("move_attr", mid, 2)]))
        for n in range(1, d.integer(1, 3)):
            if d.chance(20):
                gusts = " gusts" if d.chance(30) else ""
                self.lines.append(f"wind_change {n} {d.choice(keyword_words('WIND'))}{gusts}")
            else:
                break
        rolled = set()
        for _ in range(d.integer(0, 3)):
            name = d.choice(catalog.roll_names())
            spec = catalog.roll(name)
            subjects = {"none": [""], "unit": self.units, "attack": self.attacks, "move": self.moves}
            subject = d.choice(subjects[spec["subject"]]) if subjects.get(spec["subject"]) else None
            if subject is None or (name, subject) in rolled:
                continue
            rolled.add((name, subject))
            dice = (f"colored {d.integer(1, 6)} white {d.integer(1, 6)}" if spec["dice"] == "DR"
                    else str(d.integer(1, 6)))
            self.lines.append(" ".join(w for w in ("roll", name, subject, dice) if w))
        for _ in range(d.integer(0, 3)):
            if (call := self.call()) is not None:
                self.lines.append(f"query {call[0]}")
        for _ in range(d.integer(0, 2)):
            if (call := self.call()) is not None:
                self.lines.append(self.expect(*call))
        return self.layout(d.shuffled(self.lines))

    def call(self) -> tuple[str, str] | None:
        from aslkb.parser import catalog

        name = self.d.choice(catalog.query_names())
        spec = catalog.query(name)
        words = [name]
        for kind in spec["args"]:
            optional = kind.endswith("?")
            kind = kind.rstrip("?")
            if optional and self.d.chance(50):
                break
            pool = {"unit": self.units, "attack": self.attacks, "move": self.moves,
                    "fortification": self.fortifications,
                    "attack_or_unit": self.attacks + self.units}.get(kind)
            if pool is not None:
                if not pool:
                    return None
                words.append(self.d.choice(pool))
            elif kind == "hex":
                words.append(self.hex_id())
            elif kind == "target":
                words.append(self.place())
            elif kind == "nation":
                words.append(self.d.choice(keyword_words("NATION")))
            elif kind == "source":
                words.append(self.d.choice(catalog.drm_sources()))
            else:
                words.append(self.d.choice(["sun_blindness", "heat_haze", "light_dust", "desert_mud",
                                            "vehicle_dust", "intense_heat_haze", "arid_charts"]))
        return " ".join(words), spec["answer"]

    def expect(self, call: str, answer: str) -> str:
        d = self.d
        if d.chance(15):
            return f"expect {call} = undecided"
        if answer == "boolean":
            return d.choice([f"expect {call}", f"expect not {call}", f"expect {call} = yes",
                             f"expect {call} = no", f"expect {call} = yes 1/3, no 2/3",
                             f"expect {call} = no 1/2, undecided 1/2"])
        if answer == "integer":
            return f"expect {call} = {d.integer(-3, 9)}"
        if answer == "number":
            return f"expect {call} = {self.number()}"
        if answer == "keyword":
            return f"expect {call} = {d.choice(['lax', 'normal', 'stealthy', 'none', 'half', 'overcast'])}"
        items = sorted({d.choice(self.units) for _ in range(d.integer(0, 2))}) if self.units else []
        return f"expect {call} = [{', '.join(items)}]"

    def layout(self, lines: list[str]) -> str:
        """Valid variations of the shape: comments, blank lines, tabs, CRLF, a BOM."""
        d = self.d
        out = []
        for line in lines:
            if d.chance(10):
                out.append(d.choice(["", "# a comment", "   ", "\t# tabbed"]))
            if d.chance(10):
                line = line.replace(" ", d.choice(["  ", "\t", " \t "]))
            if d.chance(10):
                line += d.choice(["  # trailing comment", " ", "\t"])
            out.append(line)
        newline = "\r\n" if d.chance(10) else "\n"
        text = newline.join(out) + (newline if d.chance(80) else "")
        return ("\ufeff" if d.chance(5) else "") + text


def generate(draw: Choices) -> str:
    return Generator(draw).situation()


# --- the hostile classes of issue 37: each with the outcomes it may have ------------------

def _hexes(d: Choices, count: int) -> list[str]:
    return [f"{d.integer(1, 9)}{'ABCDEFGHIJ'[d.integer(0, 9)]}{d.integer(1, 9)}" for _ in range(count)]


def big_number(d: Choices) -> tuple[str, set[str]]:
    """A number past what the game or the solver takes, or a fraction where a
    whole number is meant: refused at its position (or, within bounds, answered)."""
    number = d.choice(["9" * 21, "1" + "0" * 5000, "2147483647", "100001", "-2147483646", "-1", "2.5", "-0.5"])
    where = d.choice([f"scenario night nvr {number}\nquery base_nvr\n",
                      f"scenario night nvr 3\nscenario san german {number}\nquery san german\n",
                      "unit G1 german squad 4-6-7 at 3A1\nunit R1 russian squad 4-4-7 at 3A3\n"
                      f"hex 3A3 woods tem {number}\nattack A1 by G1 at R1\nquery drm A1 tem\n",
                      "unit G1 german squad 4-6-7 at 3A1\nunit R1 russian squad 4-4-7 at 3A3\n"
                      f"los G1 R1 hindrance {number}\nattack A1 by G1 at R1\nquery drm A1\n",
                      "unit G1 german squad 4-6-7 at 3A1\nunit R1 russian squad 4-4-7 at 3A3\n"
                      f"attack A1 by G1 at R1 fp {number} range 2\nquery fp A1\n"])
    return where, {"refused", "answered"}


def impossible(d: Choices) -> tuple[str, set[str]]:
    """A situation the game cannot be in: refused with every line involved."""
    here, there = _hexes(d, 2)
    units = f"unit G1 german squad 4-6-7 at {here}\nunit R1 russian squad 4-4-7 at {there}\n"
    text = d.choice([
        units + "unit L1 russian leader 8-1 at " + here + "\nattack A1 by G1 at R1 directed_by L1\nquery drm A1\n",
        units.replace("4-6-7 at " + here, "4-6-7 at " + here + " broken") + "attack A1 by G1 at R1\nquery fp A1\n",
        units.replace(f"at {here}", f"at {here} pinned") + f"move M1 G1 to {there}\nquery mf_cost M1\n",
        f"unit G1 german squad 4-6-7 at {here}\nunit G2 german squad 4-6-7 at {here}\nlos G1 G2 blocked\n"
        "query may_fire G1 G2\n",
        f"unit G1 german squad 4-6-7 at {here}\nunit G2 german squad 4-6-7 at {here} aboard G1\nquery base_nvr\n",
        units + "attack A1 by G1 at G1\nquery fp A1\n",
    ])
    return text, {"refused", "inconsistent"}


def large_fire_group(d: Choices) -> tuple[str, set[str]]:
    """A Fire Group near the firers' limit (200, parser/validate.py): answered
    within the time bound, or refused past it."""
    firers = d.choice([150, 200, 201, 2000])
    lines = [f"unit G{i} german squad 4-6-7 at 3A{1 + i % 5}" for i in range(firers)]
    lines += ["unit R1 russian squad 4-4-7 at 3C3", *(f"los G{i} R1 clear" for i in range(firers)),
              f"attack A1 by {', '.join(f'G{i}' for i in range(firers))} at R1", "query fp A1"]
    return "\n".join(lines) + "\n", {"answered", "refused"} if firers <= 200 else {"refused"}


HOSTILE_CLASSES = {"big number": big_number, "impossible": impossible, "large fire group": large_fire_group}


# --- mutations of shipped files ------------------------------------------------------

_HOSTILE = [
    "x).#script(python)", "#script (python)", '#include "/etc/passwd".', "x). p(1", ":-", "%", "#end.",
    '"quoted"', "a:-b", "{", "}", "..", "../../x", "1..9", "(", ")", "\\", "$", "@f(1)", "not", "#",
    "=", ",", "[", "]", "1/0", "0/0", "1/3", "99999999999999999999999", "-0", "+5", "2.", ".5", "1e9",
    "3G5", "3g5", "GGG10", "0A0", "4-6-7", "8-1", "6+1", "10-2-3-4", "é", "😀", "\u00a0", "\u200b",
    "\u202e", "\x00", "\x0b", "\x0c", "\x1b[31m", "İ", "ſ", "ǅ", "Ω", "٣", "７",
]


def mutate(data: bytes, d: Choices, seeds: list[bytes]) -> bytes:
    """One to three mutations of a file."""
    for _ in range(d.integer(1, 3)):
        data = d.choice(_MUTATIONS)(data, d, seeds)
    return data


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _drop_line(data, d, seeds):
    lines = _lines(data)
    del lines[d.integer(0, len(lines) - 1)]
    return b"\n".join(lines)


def _duplicate_line(data, d, seeds):
    lines = _lines(data)
    i = d.integer(0, len(lines) - 1)
    lines.insert(d.integer(0, len(lines)), lines[i])
    return b"\n".join(lines)


def _swap_lines(data, d, seeds):
    lines = _lines(data)
    i, j = d.integer(0, len(lines) - 1), d.integer(0, len(lines) - 1)
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def _splice(data, d, seeds):
    other = _lines(d.choice(seeds))
    lines = _lines(data)
    i = d.integer(0, len(lines))
    return b"\n".join(lines[:i] + other[d.integer(0, len(other) - 1):] [: d.integer(1, 5)] + lines[i:])


def _corrupt_word(data, d, seeds):
    lines = _lines(data)
    i = d.integer(0, len(lines) - 1)
    words = lines[i].split(b" ")
    j = d.integer(0, len(words) - 1)
    how = d.integer(0, 7)
    if how == 0:
        del words[j]
    elif how == 1:
        words.insert(j, words[j])
    elif how == 2:  # a word from anywhere in the shipped files
        other = d.choice(seeds).split()
        words[j] = d.choice(other) if other else b""
    elif how == 3:
        words[j] = d.choice(all_keywords()).encode()
    elif how == 4:
        words[j] = d.choice(_HOSTILE).encode("utf-8")
    elif how == 5:
        words[j] = str(d.integer(-10**6, 10**6)).encode()
    elif how == 6 and words[j]:  # one character changed
        k = d.integer(0, len(words[j]) - 1)
        words[j] = words[j][:k] + bytes([d.integer(32, 126)]) + words[j][k + 1:]
    else:
        words[j] = words[j] + d.choice(_HOSTILE).encode("utf-8")
    lines[i] = b" ".join(words)
    return b"\n".join(lines)


def _random_bytes(data, d, seeds):
    i = d.integer(0, len(data))
    noise = bytes(d.integer(0, 255) for _ in range(d.integer(1, 16)))
    return data[:i] + noise + data[i:]


def _invalid_utf8(data, d, seeds):
    i = d.integer(0, len(data))
    bad = d.choice([b"\xff", b"\xfe", b"\xc3(", b"\xe2\x82", b"\xf0\x28\x8c\xbc", b"\xed\xa0\x80", b"\x80"])
    return data[:i] + bad + data[i:]


def _truncate(data, d, seeds):
    return data[: d.integer(0, len(data))]


def _long(data, d, seeds):
    lines = _lines(data)
    i = d.integer(0, len(lines) - 1)
    how = d.integer(0, 3)
    if how == 0:  # a very long word
        lines[i] += b" " + b"A" * d.integer(1000, 200_000)
    elif how == 1:  # a very long line of words
        lines[i] += b" broken" * d.integer(1000, 20_000)
    elif how == 2:  # a very long comment
        lines[i] += b" #" + b"x" * d.integer(1000, 500_000)
    else:  # many lines
        lines += [b"scenario night"] * d.integer(1000, 20_000)
    return b"\n".join(lines)


def _line_endings(data, d, seeds):
    return d.choice([data.replace(b"\n", b"\r\n"), data.replace(b"\n", b"\r"), b"\xef\xbb\xbf" + data,
                     data.replace(b" ", b"\t"), data.replace(b"\n", b"\n\n"), data + b"\x00"])


_MUTATIONS = [_drop_line, _duplicate_line, _swap_lines, _splice, _corrupt_word, _corrupt_word,
              _corrupt_word, _random_bytes, _invalid_utf8, _truncate, _long, _line_endings]


# --- running one input ---------------------------------------------------------------------

@dataclass
class Outcome:
    kind: str  # answered, failed-expect, refused, inconsistent, parsed (not solved), FAILURE
    seconds: float
    detail: str = ""


def run_in_process(data: bytes, path: str, seen: dict | None = None, solve: bool = True) -> Outcome:
    """What `aslkb query` does with these bytes, in this process."""
    from aslkb.base.errors import UsageError
    from aslkb.answers.ask import ask, settle
    from aslkb.base.errors import InconsistentSituation
    from aslkb.base.errors import SituationError
    from aslkb.parser import parse_file
    from aslkb.knowledge.program import knowledge_base
    from aslkb.render.text import result_json, result_text

    with open(path, "wb") as handle:
        handle.write(data)
    start, cpu = time.perf_counter(), time.process_time()
    try:
        situation = parse_file(path)
        kb = knowledge_base()
        settings = settle(situation, kb)
        if not solve:
            return Outcome("parsed", time.process_time() - cpu)
        key = _key(situation)
        if seen is not None and key in seen:  # the same situation as an earlier input: same outcome
            return Outcome(seen[key], 0.0, "")
        result = ask(situation, settings, kb)
        result_text(result, True)
        import json

        json.dumps(result_json(result))
        kind = "failed-expect" if result.failed else "answered"
        detail = ""
    except SituationError as error:
        kind, detail = "refused", str(error)
        if not error.message or "Traceback" in detail:
            kind = "FAILURE"
    except InconsistentSituation as error:
        kind, detail = "inconsistent", str(error)
    except UsageError as error:
        kind, detail = "refused", str(error)
    except Exception:
        kind, detail = "FAILURE", traceback.format_exc()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    # CPU time decides: on a shared machine the wall clock also counts the others' work
    if cpu > HANG_SECONDS and kind != "FAILURE":
        kind, detail = "FAILURE", f"took {cpu:.1f} s of CPU, {seconds:.1f} s (more than {HANG_SECONDS:g} s)"
    if seen is not None and kind != "FAILURE" and "key" in locals():
        seen[key] = kind
    return Outcome(kind, cpu, detail)


def _key(situation) -> tuple:
    """What decides the outcome of a parsed situation (not its comments or line order)."""
    return (frozenset(f.symbol for f in situation.facts), situation.edition,
            tuple(sorted((i.name, i.on) for i in situation.interpretations)),
            tuple(q.symbol for q in situation.queries),
            tuple((e.query.symbol, repr(e.expected)) for e in situation.expects))


def run_cli(data: bytes, path: str, argv_tail: list[str] | None = None) -> Outcome:
    """The real command line in a subprocess: exit 0, 1 or 2, a message for 2, no traceback."""
    with open(path, "wb") as handle:
        handle.write(data)
    import resource

    command = [sys.executable, "-m", "aslkb", "query", path, *(argv_tail or [])]
    start, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run(command, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return Outcome("FAILURE", time.perf_counter() - start, f"hung for 60 s: {' '.join(command)}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if seconds > HANG_SECONDS:
        return Outcome("FAILURE", seconds, f"took {seconds:.1f} s of CPU: {' '.join(command)}")
    stderr = done.stderr.decode("utf-8", "replace")
    if done.returncode not in (0, 1, 2):
        return Outcome("FAILURE", seconds, f"exit status {done.returncode}: {stderr[-2000:]}")
    if "Traceback" in stderr or "internal error" in stderr:
        return Outcome("FAILURE", seconds, stderr[-4000:])
    if done.returncode == 2 and not stderr.strip():
        return Outcome("FAILURE", seconds, "exit status 2 without a message")
    return Outcome({0: "answered", 1: "failed-expect", 2: "refused"}[done.returncode], seconds)


# --- the campaign ---------------------------------------------------------------------------

def make_input(index: int, seed: int, seeds: list[bytes]) -> tuple[str, bytes, set[str] | None]:
    """Input number `index` of a run, the same every time for the same seed,
    with the outcomes it may have (None: any but a failure)."""
    d = Choices(random.Random(f"{seed}:{index}"))
    if d.chance(5):
        name = d.choice(sorted(HOSTILE_CLASSES))
        text, expected = HOSTILE_CLASSES[name](d)
        return name, text.encode("utf-8"), expected
    if d.chance(25):
        return "generated", generate(d).encode("utf-8"), None
    return "mutated", mutate(d.choice(seeds), d, seeds), None


def judged(outcome: Outcome, expected: set[str] | None) -> Outcome:
    """A hostile class's input with another outcome than its own is a failure."""
    if expected is None or outcome.kind == "FAILURE" or outcome.kind in expected:
        return outcome
    return Outcome("FAILURE", outcome.seconds, f"{outcome.kind}, where only {sorted(expected)} may be")


@dataclass
class Tally:
    inputs: int = 0
    kinds: Counter = field(default_factory=Counter)
    sources: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)
    slowest: list = field(default_factory=list)
    seconds: float = 0.0


def _worker(job: tuple[int, int, int, str]) -> Tally:
    start_index, count, seed, failures_dir, solve_every = job
    from aslkb.knowledge.program import knowledge_base

    knowledge_base()  # read (or rebuild) the knowledge base before the clock runs
    seeds = [open(p, "rb").read() for p in seed_files()]
    tally, seen = Tally(), {}
    fd, path = tempfile.mkstemp(suffix=".sit", prefix="aslkb-fuzz-")
    os.close(fd)
    try:
        for index in range(start_index, start_index + count):
            source, data, expected = make_input(index, seed, seeds)
            solve = index % solve_every == 0 or expected is not None
            outcome = run_in_process(data, path, seen, solve=solve)
            outcome = judged(outcome, expected if solve else None)
            tally.inputs += 1
            tally.kinds[outcome.kind] += 1
            tally.sources[source] += 1
            tally.seconds += outcome.seconds
            tally.slowest = sorted([*tally.slowest, (outcome.seconds, index)], reverse=True)[:5]
            if outcome.kind == "FAILURE":
                saved = os.path.join(failures_dir, f"fail-{seed}-{index}.sit")
                write_bytes(saved, data)
                tally.failures.append((index, saved, outcome.detail[-3000:]))
    finally:
        os.unlink(path)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--inputs", type=int, default=10_000, help="inputs run in-process (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed: the same seed, the same inputs")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--cli-sample", type=int, default=200,
                        help="inputs also run through the `aslkb` command in a subprocess (default 200)")
    parser.add_argument("--solve-every", type=int, default=1, metavar="K",
                        help="solve and render every Kth input; the others are read, checked and "
                             "settled only (default 1: every input)")
    parser.add_argument("--failures", default=os.path.join(tempfile.gettempdir(), "aslkb-fuzz-failures"),
                        help="folder to write failing inputs to")
    parser.add_argument("--surroundings", type=int, default=0, metavar="N",
                        help="also N trials of hostile goldens, caches, option values and special files")
    parser.add_argument("--max-seconds", type=float, default=600.0,
                        help="stop the surroundings trials after this long (default 600)")
    args = parser.parse_args(argv)
    os.makedirs(args.failures, exist_ok=True)

    started = time.perf_counter()
    chunk = 250
    jobs = [(i, min(chunk, args.inputs - i), args.seed, args.failures, args.solve_every)
            for i in range(0, args.inputs, chunk)]
    total = Tally()
    if args.jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            parts = pool.imap_unordered(_worker, jobs)
            for done, part in enumerate(parts, 1):
                _add(total, part)
                if done % 8 == 0:
                    print(f"  {total.inputs} inputs, {len(total.failures)} failures, {dict(total.kinds)}, "
                          f"{time.perf_counter() - started:.0f} s", flush=True)
    else:
        for job in jobs:
            _add(total, _worker(job))
    in_process = time.perf_counter() - started

    seeds = [open(p, "rb").read() for p in seed_files()]
    cli = Tally()
    fd, path = tempfile.mkstemp(suffix=".sit", prefix="aslkb-fuzz-cli-")
    os.close(fd)
    cli_started = time.perf_counter()
    step = max(1, args.inputs // max(1, args.cli_sample))
    for index in range(0, args.inputs, step)[: args.cli_sample]:
        source, data, expected = make_input(index, args.seed, seeds)
        outcome = judged(run_cli(data, path), expected and {"refused" if e == "inconsistent" else e for e in expected})
        cli.inputs += 1
        cli.kinds[outcome.kind] += 1
        if outcome.kind == "FAILURE":
            saved = os.path.join(args.failures, f"cli-fail-{args.seed}-{index}.sit")
            write_bytes(saved, data)
            cli.failures.append((index, saved, outcome.detail[-3000:]))
    os.unlink(path)
    cli_seconds = time.perf_counter() - cli_started

    print(f"in-process: {total.inputs} inputs ({dict(total.sources)}) in {in_process:.0f} s "
          f"with {args.jobs} jobs: {dict(total.kinds)}")
    print("  slowest: " + ", ".join(f"input {i} {s:.2f} s" for s, i in sorted(total.slowest, reverse=True)[:5]))
    print(f"command line: {cli.inputs} inputs in {cli_seconds:.0f} s: {dict(cli.kinds)}")
    for index, saved, detail in total.failures + cli.failures:
        print(f"FAILURE input {index}: {saved}\n{detail}")
    failures = len(total.failures) + len(cli.failures)
    if args.surroundings:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import fuzz_surroundings

        surroundings_started = time.perf_counter()
        report = fuzz_surroundings.campaign(args.surroundings, args.seed, args.max_seconds)
        print(fuzz_surroundings.summary(report, time.perf_counter() - surroundings_started))
        failures += len(report.failures)
    print(f"{failures} failures")
    return 1 if failures else 0


def _add(total: Tally, part: Tally) -> None:
    total.inputs += part.inputs
    total.kinds.update(part.kinds)
    total.sources.update(part.sources)
    total.failures += part.failures
    total.seconds += part.seconds
    total.slowest = sorted(total.slowest + part.slowest, reverse=True)[:5]


if __name__ == "__main__":
    sys.exit(main())
