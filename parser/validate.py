"""Statements -> Situation: resolve ids once the whole file is read, check what
the grammar cannot (hex ids, strengths, dice, the query catalog, repeats) and
build the facts of docs/design.md section 1."""

from __future__ import annotations

import re
from typing import NamedTuple, NoReturn, Optional

from clingo import Function, String, Symbol

from . import catalog, grammar
from aslkb.base.errors import SituationError
from .facts import (Numeric, const, fact, hex_place, integer, leader_strength, number, number_symbol,
                    squad_strength, unit_place)
from .model import UNDECIDED, Distribution, Expect, Fact, Interpretation, Query, Situation
from .statements import (Attack, Attr, Call, Edition, ExpectLine, Hex, InterpretationLine,
                         Fortification, Los, Move, Phase, QueryLine, Range, Roll, Scenario, SideLine, Statement, Unit,
                         Value, WindChange, Word)

HEX_ID = re.compile(r"[0-9]*[A-Z]{1,2}[0-9]+")
HEX_PARTS = re.compile(r"([0-9]+)([A-Z]{1,2})([0-9]+)")  # board, column, row: 3R6
KEYWORD = re.compile(r"[a-z][a-z0-9_]*")
SQUAD_STRENGTH = re.compile(r"([0-9]+)-([0-9]+)-([0-9]+)")  # FP-range-morale
LEADER_STRENGTH = re.compile(r"([0-9]+)([-+])([0-9]+)")     # morale-modifier
CLINGO_INT = 2**31 - 1  # clingo's numbers are 32-bit signed integers
# A situation's numbers, either way: far beyond any in the game, and small enough
# that the solver's sums of them (a Fire Group's FP, an attack's DRMs, a SAN)
# stay within its 32-bit integers; two squads of 2147483647 FP gave `fp = -2`
MAX_NUMBER = 100_000


class Domain(NamedTuple):
    """The numbers a statement's value may take in the game."""
    lowest: int
    whole: bool  # an integer (2.0 counts as 2)
    why: str


# Values the rules read as counts or DRMs, by (statement, attribute): below
# `lowest`, or a fraction where a whole number is meant, the situation cannot
# be (a negative NVR, SAN, FP, TEM, Hindrance or range was answered, issue 37)
NUMBER_DOMAINS = {
    ("scenario", "nvr"): Domain(0, True, "the Base NVR counts hexes (E1.1)"),
    ("scenario", "san"): Domain(0, True, "a SAN is a DR number (E1.76)"),
    # the Terrain Chart is not in the source text, and E1.7 speaks of "positive TEM", so a TEM
    # need not be positive: -1 is allowed and nothing lower (a decision, docs/language.md)
    ("hex_attr", "tem"): Domain(-1, True, "a TEM is a whole DRM, -1 at the lowest"),
    ("hex_attr", "hindrance"): Domain(0, True, "a Hindrance is a whole DRM added to the IFT DR (A7.6)"),
    ("los", "hindrance"): Domain(0, True, "a LOS Hindrance is a whole DRM added to the IFT DR (A7.6)"),
    ("range", "range"): Domain(0, True, "a range counts hexes"),
    ("attack_attr", "range"): Domain(0, True, "a range counts hexes"),
    ("attack_attr", "fp"): Domain(0, False, "FP counts firepower factors, halved or doubled, never below 0 (A7.372)"),
    # counts the rules compare as whole numbers
    ("scenario", "year"): Domain(0, True, "a year is a whole number"),
    ("hex_attr", "blaze"): Domain(0, True, "it counts Blazing levels"),
    ("unit_attr", "us"): Domain(0, True, "a US# is a whole number (A12.122)"),
    ("unit_attr", "elr"): Domain(0, True, "an ELR is a whole number (E1.22)"),
    ("attack_attr", "mc"): Domain(0, True, "N is added to the MC DR: 0 for a NMC, 1 for a 1MC (A7.8)"),
}
# The firers of one attack: far more than the game's stacking limits (A5.1)
# put in any chain of ADJACENT Locations a FG can form (A7.5). The rules
# that read a FG's members ground in proportion to them, but the places
# they share (two units in one hex are at range 0 of each other) grow with
# the square of the units stacked together: 200 firers in one hex are
# answered in under 2 s, 2,000 took minutes and gigabytes.
MAX_FIRERS = 200
SQUAD_FORM = {"squad", "halfsquad", "crew"}
LEADER_FORM = {"leader", "hero"}

# the phases of a Player Turn, in their order (docs/language.md, `phase`)
PHASES = ("rally", "prep_fire", "movement", "defensive_fire", "advancing_fire", "rout", "advance", "close_combat")

ANSWERS = {
    "boolean": "yes or no",
    "integer": "an integer",
    "number": "a number (like 3 or 2.5)",
    "keyword": "a keyword (like lax)",
    "list": "a list of ids (like [] or [G1, R2])",
}


def build(statements: list[Statement], filename: str) -> Situation:
    return _Builder(filename).build(statements)


def _a(kind: str) -> str:
    return {"unit": "a unit", "fortification": "a fortification", "attack": "an attack", "move": "a move"}[kind]


class _Builder:
    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.situation = Situation(filename)
        self.ids: dict[str, tuple[str, Word]] = {}  # id -> (unit|attack|move, where defined)
        self.single: dict[tuple[str, ...], tuple[Symbol, Word]] = {}  # single-valued attributes
        self.rolls: dict[tuple[str, Optional[str]], Word] = {}
        self.interpretations: dict[str, Interpretation] = {}
        self.edition: Optional[Word] = None
        self.seen: set[Symbol] = set()
        self.wind_changes: dict[int, Word] = {}  # N -> where given (F11.76)
        self.stated_hexes: set[str] = set()  # the hex ids of `hex` statements
        self.board = ""  # the first board number the file writes, for "write 3R2"
        self.hex_ids: set[str] = set()  # every hex id the file names, for hex_id_parts
        self.strings: dict[str, Symbol] = {}
        self.phase: Optional[Phase] = None  # the `phase` line, at most one
        self.attack_phases: list[tuple[str, Word, bool]] = []  # (attack, its phase, previous_player_turn)

    def fail(self, word: Word, message: str, first: Word | None = None,
             note: str = "first given here") -> NoReturn:
        """Refuse the input at `word`; `first` locates the other statement involved."""
        notes = [(first.line, first.column, note)] if first is not None else []
        raise SituationError(self.filename, word.line, word.column, message, notes)

    def string(self, text: str) -> Symbol:
        """String(text), made once per file (an id is written again and again)."""
        symbol = self.strings.get(text)
        if symbol is None:
            symbol = self.strings[text] = String(text)
        return symbol

    def add(self, where: Word, name: str, *args: Symbol) -> None:
        symbol = Function(name, args)  # facts.fact, without its copy of the arguments
        seen = self.seen
        size = len(seen)
        seen.add(symbol)  # one hashing (a call into clingo) where a test and an add were two
        if len(seen) > size:  # a repeated flag states nothing new
            self.situation.facts.append(Fact(symbol, where.line, where.column, name, args))

    # --- the whole file ---------------------------------------------------------

    def build(self, statements: list[Statement]) -> Situation:
        for s in statements:  # ids first: statement order does not matter
            if isinstance(s, (Unit, Fortification, Attack, Move)):
                self.define(s.id, type(s).__name__.lower())
            if isinstance(s, Hex):
                self.stated_hexes.add(s.hex.text)
            for word in _hex_words(s):
                if not self.board and (m := HEX_PARTS.fullmatch(word.text)):
                    self.board = m[1]
        handlers = {Edition: self.edition_line, InterpretationLine: self.interpretation,
                    Scenario: self.scenario, SideLine: self.side, Hex: self.hex, Unit: self.unit,
                    Los: self.los, Fortification: self.fortification,
                    Range: self.range, Attack: self.attack, Move: self.move, Roll: self.roll,
                    QueryLine: self.query_line, ExpectLine: self.expect,
                    WindChange: self.wind_change, Phase: self.phase_line}
        for s in statements:
            handlers[type(s)](s)
        self.wind_changes_in_order()
        self.attacks_not_after_phase()
        situation, where = self.situation, self.edition
        edition = const(situation.edition)
        situation.facts.insert(0, Fact(fact("edition", edition), where.line if where else 0,
                                       where.column if where else 0, "edition", (edition,)))
        situation.interpretations = list(self.interpretations.values())
        situation.derived = [Fact(fact("hex_id_parts", *args), 0, 0, "hex_id_parts", args)
                             for args in (_hex_id_parts(h, self.string(h)) for h in sorted(self.hex_ids))
                             if args is not None]
        return situation

    def define(self, word: Word, kind: str) -> None:
        if word.text in self.ids:
            first_kind, first = self.ids[word.text]
            self.fail(word, f"'{word.text}' is already defined as {_a(first_kind)} at line "
                            f"{first.line} (units, fortifications, attacks and moves share one set of ids)",
                      first, "first defined here")
        self.ids[word.text] = (kind, word)

    # --- ids, places, values ------------------------------------------------------

    def defined(self, word: Word, kind: str, role: str) -> str:
        """A unit, attack or move id that the file defines."""
        entry = self.ids.get(word.text)
        if entry is None:
            self.fail(word, f"{role} '{word.text}' is not defined: "
                            f"no `{kind} {word.text} ...` line in this file")
        if entry[0] != kind:
            self.fail(word, f"{role} '{word.text}' is {_a(entry[0])} "
                            f"(line {entry[1].line}), not {_a(kind)}", entry[1], "defined here")
        return word.text

    def attack_or_unit(self, word: Word, role: str) -> str:
        """An attack id or a unit id that the file defines (ids are unique across kinds)."""
        entry = self.ids.get(word.text)
        if entry is None:
            self.fail(word, f"{role} '{word.text}' is not defined: "
                            f"no `attack {word.text} ...` or `unit {word.text} ...` line in this file")
        if entry[0] not in ("attack", "unit"):
            self.fail(word, f"{role} '{word.text}' is {_a(entry[0])} "
                            f"(line {entry[1].line}), not an attack or a unit", entry[1], "defined here")
        return word.text

    def hex_id(self, word: Word) -> str:
        if not HEX_ID.fullmatch(word.text):
            self.fail(word, f"malformed hex id '{word.text}': write an optional board number, "
                            "one or two capital column letters and a row number, "
                            "like 3R6, 13I4, T7 or GG10")
        self.hex_ids.add(word.text)
        return word.text

    def place(self, word: Word, role: str) -> Symbol:
        """A unit id defined in the file, else a hex id: unit("G1") or hex("3G5")."""
        entry = self.ids.get(word.text)
        if entry is not None and entry[0] == "unit":
            return unit_place(self.string(word.text))
        if entry is not None:
            self.fail(word, f"{role} '{word.text}' is {_a(entry[0])} (line {entry[1].line}); "
                            "it must be a unit or a hex", entry[1], "defined here")
        if not HEX_ID.fullmatch(word.text):
            self.fail(word, f"{role} '{word.text}' is neither a unit defined in this file "
                            "nor a hex id (like 3G5, T7 or GG10)")
        if not word.text[0].isdigit() and word.text not in self.stated_hexes:
            self.fail(word, self.bare_hex(word.text))
        self.hex_ids.add(word.text)
        return hex_place(self.string(word.text))

    def bare_hex(self, text: str) -> str:
        """A bare hex id where a unit could be meant names a hex only when a
        `hex` statement states it: otherwise it is most likely a mistyped unit."""
        import difflib  # only on this error path: it costs import time

        units = [i for i, (kind, _) in self.ids.items() if kind == "unit"]
        close = difflib.get_close_matches(text, units, n=1, cutoff=0.5)  # ids are short: R1 for R2
        hex_form = f"{self.board}{text}" if self.board else f"3{text}"
        said = f"{text} is neither a unit of this file nor a stated hex"
        if close:
            return f"{said}; did you mean unit {close[0]}? (write {hex_form} for the hex)"
        return f"{said}: write the hex with its board number, like {hex_form}, or state it with `hex {text} TERRAIN`"

    def value(self, word: Word) -> Symbol:
        if word.type == "NUMBER":
            n = self.number(word)
            self.fits(word, *((n,) if isinstance(n, int) else (n.numerator, n.denominator)))
            return number_symbol(n)
        if word.type == "ID":
            return self.string(word.text)
        return const(word.text)

    def number(self, word: Word) -> Numeric:
        """The number a NUMBER word writes. One of more digits than the
        solver's integers have is refused here, before Python converts it
        (past 4,300 digits Python refuses to, and the run ended in an
        internal error with no location)."""
        if len(word.text.lstrip("-").replace(".", "")) > 20:
            self.too_large(word, word.text[:24] + "...", f" ({len(word.text)} characters)")
        return number(word.text)

    def fits(self, word: Word, *values: int) -> tuple[int, ...]:
        """The solver's integers are 32-bit and it adds a file's numbers:
        refuse one beyond MAX_NUMBER either way."""
        if any(not -MAX_NUMBER <= v <= MAX_NUMBER for v in values):
            self.too_large(word, word.text)
        return values

    def too_large(self, word: Word, shown: str, size: str = "") -> NoReturn:
        self.fail(word, f"number '{shown}'{size} is too large for the solver: write whole numbers "
                        f"between -{MAX_NUMBER} and {MAX_NUMBER}, and decimals with a few digits")

    def in_domain(self, key: tuple[str, str], word: Word, what: str) -> None:
        """Refuse a number the game does not give there (NUMBER_DOMAINS)."""
        domain = NUMBER_DOMAINS.get(key)
        if domain is None or word.type != "NUMBER":
            return
        n = number(word.text)
        if domain.whole and not (isinstance(n, int) or n.denominator == 1):
            self.fail(word, f"{what} {word.text} is not a whole number: {domain.why}")
        if n < domain.lowest:
            self.fail(word, f"{what} {word.text} is below {domain.lowest}: {domain.why}")

    def once(self, key: tuple[str, ...], value: Symbol, word: Word, what: str) -> None:
        """A single-valued attribute may be repeated, but only with the same value."""
        first = self.single.setdefault(key, (value, word))
        if first[0] != value:
            self.fail(word, f"{what} is given twice with different values: "
                            f"{word.text} here, {first[1].text} at line {first[1].line}", first[1])

    # --- statements -----------------------------------------------------------------

    def edition_line(self, s: Edition) -> None:
        if self.edition is not None and self.edition.text != s.name.text:
            self.fail(s.name, f"edition is given twice: {s.name.text} here, "
                              f"{self.edition.text} at line {self.edition.line}", self.edition)
        self.edition = self.edition or s.name
        self.situation.edition = s.name.text
        self.situation.edition_line = self.edition.line

    def interpretation(self, s: InterpretationLine) -> None:
        name, on = s.name.text, s.switch is None or s.switch.text == "on"
        first = self.interpretations.get(name)
        if first is None:
            self.interpretations[name] = Interpretation(name, on, s.name.line, s.name.column)
        elif first.on != on:
            state = {True: "on", False: "off"}
            self.fail(s.switch or s.name, f"interpretation {name} is switched {state[on]} here "
                                          f"but {state[first.on]} at line {first.line}", first)

    def scenario(self, s: Scenario) -> None:
        for a in s.attrs:
            name = a.name.text
            if not a.values:
                self.add(a.name, "scenario", const(name))
                continue
            if name == "turn":
                self.game_turn(a.values[0])
            *keys, last = a.values  # `san russian 3`: russian is part of the key
            value = self.value(last)
            what = " ".join(["scenario", name, *(k.text for k in keys)])
            self.in_domain(("scenario", name), last, what)
            self.once(("scenario", name, *(k.text for k in keys)), value, last, what)
            self.add(a.name, "scenario", const(name), *(const(k.text) for k in keys), value)

    def game_turn(self, word: Word) -> None:
        """`scenario turn N`: Game Turns are numbered 1 (the opening one), 2, 3 ..."""
        n = self.number(word)
        if not (isinstance(n, int) and n >= 1):
            self.fail(word, f"scenario turn {word.text}: Game Turns are numbered 1, 2, 3 ... "
                            "(1 is the opening Game Turn)")

    def phase_line(self, s: Phase) -> None:
        """phase(P), and phasing(N) when the phasing nationality is written."""
        if self.phase is not None:
            first = self.phase.phase
            self.fail(s.phase, f"phase is given twice (first at line {first.line}: phase {first.text}): "
                               "a file asks its questions in one phase", first)
        self.phase = s
        self.add(s.phase, "phase", const(s.phase.text))
        if s.nation is not None:
            self.add(s.nation, "phasing", const(s.nation.text))

    def attacks_not_after_phase(self) -> None:
        """An attack of the current Player Turn was made in the phase asked about or an earlier one."""
        if self.phase is None:
            return
        order = PHASES
        now = self.phase.phase
        for aid, made, previous in self.attack_phases:
            if not previous and order.index(made.text) > order.index(now.text):
                self.fail(made, f"attack {aid} is made in the {made.text} phase, after the phase the file "
                                f"asks in ({now.text}, line {now.line}): add previous_player_turn to the "
                                "attack if it was made in the preceding Player Turn", now, "the phase is given here")

    def side(self, s: SideLine) -> None:
        """`side G1 allied`: unit_side("G1", allied); `side french axis`: scenario_side(french, axis)."""
        name, side = s.subject.text, const(s.side.text)
        entry = self.ids.get(name)
        if entry is not None and entry[0] == "unit":
            self.once(("side", name), side, s.side, f"side {name}")
            self.add(s.subject, "unit_side", self.string(name), side)
            return
        if entry is not None:
            self.fail(s.subject, f"side '{name}' is {_a(entry[0])} (line {entry[1].line}); "
                                 "it must be a unit or a nationality")
        nations = grammar.keywords("NATION")
        if name not in nations:
            units = [i for i, (kind, _) in self.ids.items() if kind == "unit"]
            self.fail(s.subject, f"side '{name}' is neither a unit of this file nor a nationality"
                                 f"{_close(name, [*units, *nations], cutoff=0.5)}; nations: {', '.join(nations)}")
        self.once(("side", name), side, s.side, f"side {name}")
        self.add(s.subject, "scenario_side", const(name), side)

    def hex(self, s: Hex) -> None:
        h = self.hex_id(s.hex)
        self.add(s.hex, "hex", self.string(h), const(s.terrain.text))
        self.attrs(s.attrs, "hex_attr", h, f"hex {h}")

    def attrs(self, attrs: tuple[Attr, ...], predicate: str, owner: str, what: str) -> None:
        """Flags -> P(Id, name); valued attributes -> P(Id, name, V), one value each."""
        for a in attrs:
            name = a.name.text
            if a.values:
                value = self.value(a.values[0])
                self.in_domain((predicate, name), a.values[0], f"{what} {name}")
                self.once((predicate, owner, name), value, a.values[0], f"{what} {name}")
                self.add(a.name, predicate, self.string(owner), const(name), value)
            else:
                self.add(a.name, predicate, self.string(owner), const(name))

    def unit(self, s: Unit) -> None:
        uid = s.id.text
        self.add(s.id, "unit", self.string(uid), const(s.nation.text), const(s.kind.text))
        if s.strength is not None:
            self.add(s.strength, "strength", self.string(uid), self.strength(s.kind, s.strength))
        if s.at is not None:
            self.add(s.at, "at", self.string(uid), self.string(self.hex_id(s.at)))
        flags = {a.name.text: a.name for a in s.attrs if not a.values}
        if "encircled" in flags and "not_encircled" in flags:  # A7.7/A7.72: one or the other
            self.fail(flags["not_encircled"], f"unit {uid} is stated both encircled and not_encircled",
                      flags["encircled"], "encircled here")
        rest = []
        for a in s.attrs:
            if a.name.text == "aboard":  # a vehicle's Passenger/Rider/Crew (E1.14, E1.62)
                vehicle = a.values[0]
                self.defined(vehicle, "unit", "aboard")
                self.once(("unit_attr", uid, "aboard"), self.string(vehicle.text), vehicle, f"unit {uid} aboard")
                self.add(a.name, "unit_attr", self.string(uid), const("aboard"), self.string(vehicle.text))
            else:
                rest.append(a)
        self.attrs(tuple(rest), "unit_attr", uid, f"unit {uid}")

    def fortification(self, s: Fortification) -> None:
        """fortification(F, Nation, Kind), fortification_at(F, Hex), fortification_attr(F, Flag)."""
        fid = s.id.text
        self.add(s.id, "fortification", self.string(fid), const(s.nation.text), const(s.kind.text))
        self.add(s.at, "fortification_at", self.string(fid), self.string(self.hex_id(s.at)))
        for a in s.attrs:
            self.add(a.name, "fortification_attr", self.string(fid), const(a.name.text))

    def strength(self, kind: Word, word: Word) -> Symbol:
        k = kind.text
        if len(word.text) > 40:  # no strength is that long; Python would not convert its digits
            self.fail(word, f"a {k} strength of {len(word.text)} characters is too large for the solver")
        if k in SQUAD_FORM:
            m = SQUAD_STRENGTH.fullmatch(word.text)
            if not m:
                self.fail(word, f"a {k} strength is FP-range-morale, like 4-6-7; got '{word.text}'")
            return squad_strength(*self.fits(word, *map(int, m.groups())))
        if k in LEADER_FORM:
            m = LEADER_STRENGTH.fullmatch(word.text)
            if not m:
                self.fail(word, f"a {k} strength is morale-modifier, like 8-1, 10-2, 7-0 "
                                f"or 6+1; got '{word.text}'")
            modifier = int(m[3]) if m[2] == "+" else -int(m[3])
            return leader_strength(*self.fits(word, int(m[1]), modifier))
        self.fail(word, f"a {k} takes no strength; remove '{word.text}'")

    def los(self, s: Los) -> None:
        a, b = self.place(s.a, "los endpoint"), self.place(s.b, "los endpoint")
        state = s.state.name
        self.once(("los", str(a), str(b)), const(state.text), state, f"los {s.a.text} {s.b.text}")
        self.add(s.a, "los", a, b, const(state.text))
        if s.state.values:
            n = s.state.values[0]
            value = self.value(n)
            self.in_domain(("los", "hindrance"), n, f"los {s.a.text} {s.b.text} hindrance")
            self.once(("los_hindrance", str(a), str(b)), value, n, f"los {s.a.text} {s.b.text} hindrance")
            self.add(s.a, "los_hindrance", a, b, value)

    def range(self, s: Range) -> None:
        a, b = self.place(s.a, "range endpoint"), self.place(s.b, "range endpoint")
        value = self.value(s.n)
        self.in_domain(("range", "range"), s.n, f"range {s.a.text} {s.b.text}")
        self.once(("range", str(a), str(b)), value, s.n, f"range {s.a.text} {s.b.text}")
        self.add(s.a, "range", a, b, value)

    def attack(self, s: Attack) -> None:
        aid = s.id.text
        self.add(s.id, "attack", self.string(aid))
        if len(s.firers) > MAX_FIRERS:
            self.fail(s.firers[MAX_FIRERS], f"attack {aid} has {len(s.firers)} firers: at most {MAX_FIRERS} "
                                            "units may fire in one attack (a Fire Group, A7.5)")
        for firer in s.firers:
            self.add(firer, "attack_by", self.string(aid), self.string(self.defined(firer, "unit", "firer")))
        self.add(s.target, "attack_target", self.string(aid), self.place(s.target, "attack target"))
        kinds = [a.values[0] for a in s.attrs if a.name.text == "kind"] or [
            Word("smallarms", s.id.line, s.id.column, "SMALLARMS")]
        for k in kinds:
            if k.text != kinds[0].text:
                self.fail(k, f"attack {aid} has two kinds, {kinds[0].text} and {k.text}; "
                             "an attack has one kind")
        self.add(kinds[0], "attack_kind", self.string(aid), const(kinds[0].text))
        rest = []
        for a in s.attrs:
            name = a.name.text
            if name in ("hexside", "vertex"):
                side = a.values[0]
                n = self.number(side)
                if not (isinstance(n, int) and 1 <= n <= 6):
                    self.fail(side, f"{name} {side.text} is out of range: a {name} is 1 to 6")
                self.add(a.name, f"attack_{name}", self.string(aid), integer(n))
            elif name == "directed_by":
                leader = a.values[0]
                self.defined(leader, "unit", "directed_by")
                self.once(("attack_attr", aid, name), self.string(leader.text), leader,
                          f"attack {aid} directed_by")
                self.add(a.name, "attack_attr", self.string(aid), const(name), self.string(leader.text))
            elif name != "kind":
                rest.append(a)
        self.attrs(tuple(rest), "attack_attr", aid, f"attack {aid}")
        previous = any(a.name.text == "previous_player_turn" for a in s.attrs)
        self.attack_phases += [(aid, a.values[0], previous) for a in s.attrs if a.name.text == "phase"]

    def move(self, s: Move) -> None:
        mid = s.id.text
        uid = self.defined(s.unit, "unit", "moving unit")
        self.add(s.id, "move", self.string(mid), self.string(uid), self.string(self.hex_id(s.to)))
        self.attrs(s.attrs, "move_attr", mid, f"move {mid}")

    def roll(self, s: Roll) -> None:
        name = s.name.text
        spec = catalog.roll(name)
        if spec is None:
            self.fail(s.name, f"unknown roll '{name}'{_close(name, catalog.roll_names())}; "
                              f"rolls: {', '.join(catalog.roll_names())}")
        form = "colored N white N" if spec["dice"] == "DR" else "N"
        kind = spec["subject"]
        if kind == "none":
            if s.subject is not None:
                self.fail(s.subject, f"roll {name} takes no subject: write roll {name} {form}")
            subject: Symbol = const("none")
        else:
            if s.subject is None:
                self.fail(s.name, f"roll {name} needs {_a(kind)}: "
                                  f"write roll {name} {kind.upper()} {form}")
            subject = self.string(self.defined(s.subject, kind, f"roll {name} subject"))
        if spec["dice"] == "DR" and len(s.dice) != 2:
            self.fail(s.dice[0], f"roll {name} is a DR (two dice): write colored N white N")
        if spec["dice"] == "dr" and len(s.dice) != 1:
            self.fail(s.dice[0], f"roll {name} is a dr (one die): write a single die value")
        for die in s.dice:
            if not 1 <= int(die.text) <= 6:
                self.fail(die, f"die value {die.text} is out of range: a die shows 1 to 6")
        key = (name, s.subject.text if s.subject else None)
        if key in self.rolls:
            said = " ".join(filter(None, ("roll", *key)))
            self.fail(s.name, f"{said} is given twice (first at line {self.rolls[key].line})", self.rolls[key])
        self.rolls[key] = s.name
        faces = ("colored", "white") if len(s.dice) == 2 else ("dr",)
        for face, die in zip(faces, s.dice):
            self.add(die, "roll", const(name), subject, const(face), integer(int(die.text)))

    def wind_change(self, s: WindChange) -> None:
        """The Wind after the Nth Wind Change DR: wind_change(N,Force), wind_change_gusts(N)."""
        n = self.number(s.n)
        if isinstance(n, int):
            self.fits(s.n, n)
        if not (isinstance(n, int) and n >= 1):
            self.fail(s.n, f"wind_change {s.n.text}: the Wind Change DR are numbered 1, 2, 3 ...")
        if n in self.wind_changes:
            self.fail(s.n, f"wind_change {n} is given twice (first at line {self.wind_changes[n].line})",
                      self.wind_changes[n])
        self.wind_changes[n] = s.n
        self.add(s.n, "wind_change", integer(n), const(s.force.text))
        if s.gusts is not None:
            self.add(s.gusts, "wind_change_gusts", integer(n))

    def wind_changes_in_order(self) -> None:
        """Wind Change DR follow one another: 1, 2, 3 ... with none left out."""
        for n in sorted(self.wind_changes):
            if n > 1 and n - 1 not in self.wind_changes:
                self.fail(self.wind_changes[n], f"wind_change {n} needs wind_change {n - 1}: "
                                                "number the Wind Change DR 1, 2, 3 ... without a gap")

    # --- questions --------------------------------------------------------------------

    def query_line(self, s: QueryLine) -> None:
        self.situation.queries.append(self.query(s.call))

    def query(self, call: Call) -> Query:
        name = call.name.text
        spec = catalog.query(name)
        if spec is None:
            self.fail(call.name, unknown_query(name))
        kinds: list[str] = spec["args"]
        required = [k for k in kinds if not k.endswith("?")]
        if not len(required) <= len(call.args) <= len(kinds):
            usage = " ".join([name, *(f"[{k[:-1].upper()}]" if k.endswith("?") else k.upper()
                                      for k in kinds)])
            count = " or ".join(map(str, range(len(required), len(kinds) + 1)))
            where = call.args[len(kinds)] if len(call.args) > len(kinds) else call.name
            self.fail(where, f"query {name} takes {count} argument{'s' * (count != '1')} "
                             f"({usage}), got {len(call.args)}")
        args = tuple(self.argument(k.rstrip("?"), w, name) for k, w in zip(kinds, call.args))
        text = " ".join(w.text for w in (call.name, *call.args))
        return Query(name, args, text, call.name.line, call.name.column, Function(name, list(args)))

    def argument(self, kind: str, word: Word, query: str) -> Symbol:
        role = f"{query} argument"
        if kind in ("unit", "fortification", "attack", "move"):
            return self.string(self.defined(word, kind, role))
        if kind == "attack_or_unit":
            return self.string(self.attack_or_unit(word, role))
        if kind == "hex":
            return self.string(self.hex_id(word))
        if kind == "target":
            return self.place(word, role)
        if kind == "nation":
            nations = grammar.keywords("NATION")
            if word.text not in nations:
                self.fail(word, f"unknown nation '{word.text}'{_close(word.text, nations)}; "
                                f"nations: {', '.join(nations)}")
            return const(word.text)
        if kind == "source":
            sources = catalog.drm_sources()
            if word.text not in sources:
                self.fail(word, f"unknown DRM source '{word.text}'{_close(word.text, sources)}; "
                                f"sources: {', '.join(sources)}")
            return const(word.text)
        if kind == "keyword":
            if not KEYWORD.fullmatch(word.text):
                self.fail(word, f"{role} must be a lowercase keyword (like sun_blindness), "
                                f"got '{word.text}'")
            return const(word.text)
        raise ValueError(f"queries/catalog.toml: unknown argument kind {kind!r} ({query})")

    def expect(self, s: ExpectLine) -> None:
        query = self.query(s.call)
        answer = catalog.query(query.name)["answer"]
        if s.value is None:
            if answer != "boolean":
                written = f"expect {'not ' * s.negated}{query.text}"
                self.fail(s.call.name, f"'{written}' needs a yes/no query, but {query.name} "
                                       f"answers {ANSWERS[answer]}: write expect {query.text} = VALUE")
            expected: object = not s.negated
        else:
            expected = self.expected(s.value, answer, query)
        self.situation.expects.append(Expect(query, expected, s.keyword.line, s.keyword.column))

    def expected(self, v: Value, answer: str, query: Query) -> object:
        if v.kind == "distribution":
            return self.distribution(v, answer, query)
        if v.kind == "undecided":
            return UNDECIDED
        if answer == "boolean" and v.kind in ("yes", "no"):
            return v.kind == "yes"
        if answer in ("integer", "number") and v.kind == "number":
            n = self.number(v.word)
            if not isinstance(n, int) and n.denominator == 1:  # 2.0 is the integer 2, as everywhere
                n = n.numerator
            if answer == "number" or isinstance(n, int):
                return n
        if answer == "keyword" and v.kind == "id":
            return v.word.text
        if answer == "list" and v.kind == "list":
            return tuple(w.text for w in v.items)
        shown = f"[{', '.join(w.text for w in v.items)}]" if v.kind == "list" else v.word.text
        self.fail(v.word, f"'{shown}' cannot be the answer of {query.text}: {query.name} answers "
                          f"{ANSWERS[answer]} (or undecided)")


    def distribution(self, v: Value, answer: str, query: Query) -> Distribution:
        """`yes 1/9, no 8/9`: each value fits the query, each chance in (0, 1],
        no value twice, and the chances add up to exactly 1."""
        from fractions import Fraction  # only where a distribution is written

        outcomes: dict[object, Fraction] = {}
        said: dict[object, Word] = {}  # where each value was written
        words = v.items
        for value_word, chance_word in zip(words[::2], words[1::2]):
            if isinstance(value_word, Value):  # a list outcome
                value, value_word = self.expected(value_word, answer, query), value_word.word
            else:
                value = self.expected(Value(value_word.type, value_word), answer, query)
            numerator, denominator = map(int, chance_word.text.split("/"))
            if denominator == 0 or not 0 < numerator <= denominator:
                self.fail(chance_word, f"chance {chance_word.text} must be a fraction above 0 and at most 1")
            if value in outcomes:
                self.fail(value_word, f"'{value_word.text}' is given twice in this distribution", said[value])
            said[value] = value_word
            outcomes[value] = Fraction(numerator, denominator)
        total = sum(outcomes.values())
        if total != 1:
            self.fail(v.word, f"the chances add up to {total}, not 1")
        return Distribution(tuple(outcomes.items()))


def _hex_words(s: Statement) -> tuple[Word, ...]:
    """The words of a statement that may be hex ids (for the file's board number)."""
    if isinstance(s, Hex):
        return (s.hex,)
    if isinstance(s, Unit):
        return (s.at,) if s.at is not None else ()
    if isinstance(s, Fortification):
        return (s.at,)
    if isinstance(s, (Los, Range)):
        return (s.a, s.b)
    if isinstance(s, Attack):
        return (s.target,)
    if isinstance(s, Move):
        return (s.to,)
    return ()


def _hex_id_parts(hex_id: str, string: Symbol) -> Optional[tuple[Symbol, ...]]:
    """The arguments of hex_id_parts("3R6", 3, 17, 6): the board number, the
    column (A is 0, Z 25, AA 26 ... GG 32) and the row of a hex id with a
    board number (`string` is its String)."""
    m = HEX_PARTS.fullmatch(hex_id)
    if m is None:
        return None
    letters = m[2]
    column = ord(letters[0]) - ord("A") + (26 if len(letters) == 2 else 0)
    if len(letters) == 2 and letters[0] != letters[1]:
        return None  # not a column of a geomorphic board (AA, BB ... GG double one letter)
    if len(m[1]) > 9 or len(m[3]) > 9:  # beyond the solver's integers (and Python's conversion of digits)
        return None
    board, row = int(m[1]), int(m[3])
    if board > CLINGO_INT or row > CLINGO_INT:
        return None
    return (string, integer(board), integer(column), integer(row))


def unknown_query(name: str) -> str:
    """The one message for a query name the catalog does not have, in a file
    or on the command line: the nearest names, never all of them (77 today)."""
    return (f"unknown query '{name}'{_close(name, catalog.query_names())}; "
            "every query is in the catalog: queries/catalog.toml (docs/queries.md)")


def _close(word: str, candidates: list[str] | tuple[str, ...], cutoff: float = 0.6) -> str:
    close = nearest(word, candidates, cutoff)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


def nearest(word: str, candidates: list[str] | tuple[str, ...], cutoff: float = 0.6, n: int = 3) -> list[str]:
    """The candidates most like `word`, best first, scored as difflib's
    get_close_matches scores them, and also with the words' `_`-separated
    parts in any order: `nvr_base` and `nvr_bse` find base_nvr."""
    from difflib import SequenceMatcher  # only on an error path: it costs import time

    def parts(text: str) -> str:
        return "_".join(sorted(text.split("_")))

    scored = []
    for candidate in candidates:
        score = max(SequenceMatcher(None, candidate, word).ratio(),
                    SequenceMatcher(None, parts(candidate), parts(word)).ratio())
        if score >= cutoff:
            scored.append((-score, candidate))
    return [candidate for _, candidate in sorted(scored)[:n]]
