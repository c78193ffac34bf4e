"""The transformer: the parse of a situation file -> a list of statements.

parser/lalr.py calls a method per grammar rule as it reduces it, with the
rule's kept children (the lexer's Words, and the values of the rules inside);
a rule without a method is inlined into the one around it."""

from __future__ import annotations

from .statements import (Attack, Attr, Call, Edition, ExpectLine, Fortification, Hex, InterpretationLine,
                         Los, Move, Phase, QueryLine, Range, Roll, Scenario, SideLine, Statement, Unit,
                         Value, WindChange, Word)


def _words(tokens) -> tuple[Word, ...]:
    return tuple(t for t in tokens if t is not None)


def _attr(children) -> Attr:
    first = children[0]
    if first.type == "ATTACK_KIND":  # `mg` is the value of the attack's kind
        return Attr(Word("kind", first.line, first.column, "kind"), (first,))
    return Attr(first, _words(children[1:]))


class ToStatements:
    """One method per grammar rule."""

    def start(self, statements) -> list[Statement]:
        return statements

    def edition(self, c):
        return Edition(c[0])

    def interpretation(self, c):
        name, switch = c
        return InterpretationLine(name, switch)

    def scenario(self, attrs):
        return Scenario(tuple(attrs))

    def scenario_attr(self, c):
        return _attr(c)

    hex_attr = unit_attr = fort_attr = attack_attr = move_attr = los_state = scenario_attr

    def side(self, c):
        subject, side = c
        return SideLine(subject, side)

    def hex(self, c):
        hex_id, terrain, *attrs = c
        return Hex(hex_id, terrain, tuple(attrs))

    def los(self, c):
        a, b, state = c
        return Los(a, b, state)

    def range(self, c):
        a, b, n = c
        return Range(a, b, n)

    def unit(self, c):
        uid, nation, kind, strength, at, *attrs = c
        return Unit(uid, nation, kind,
                    strength,
                    at, tuple(attrs))

    def fortification(self, c):
        fid, nation, kind, at, *attrs = c
        return Fortification(fid, nation, kind, at, tuple(attrs))

    def attack(self, c):
        aid, firers, target, *attrs = c
        return Attack(aid, firers, target, tuple(attrs))

    def firers(self, c):
        return _words(c)

    def move(self, c):
        mid, unit, to, *attrs = c
        return Move(mid, unit, to, tuple(attrs))

    def roll(self, c):
        name, subject, dice = c
        return Roll(name, subject, dice)

    def wind_change(self, c):
        n, force, gusts = c
        return WindChange(n, force, gusts)

    def phase(self, c):
        name, nation = c
        return Phase(name, nation)

    def two_dice(self, c):
        return _words(c)

    one_die = two_dice

    def call(self, c):
        return Call(c[0], _words(c[1:]))

    def query(self, c):
        return QueryLine(c[0])

    def expect_value(self, c):
        keyword, call, _equals, value = c
        if not isinstance(value, Value):  # a single token: NUMBER, ID, yes, no, undecided
            kind = {"NUMBER": "number", "ID": "id"}.get(value.type, value.text)
            value = Value(kind, value)
        return ExpectLine(keyword, call, value)

    def expect_yes(self, c):
        keyword, call = c
        return ExpectLine(keyword, call, None)

    def expect_no(self, c):
        keyword, _not, call = c
        return ExpectLine(keyword, call, None, negated=True)

    def distribution(self, c):
        pairs = tuple(w for outcome in c for w in outcome)
        first = pairs[0]
        return Value("distribution", first.word if isinstance(first, Value) else first, pairs)

    def outcome(self, c):
        value, chance = c
        if isinstance(value, Value):  # a list: [R1]
            return (value, chance)
        kind = {"NUMBER": "number", "ID": "id"}.get(value.type, value.text)
        return (value._replace(type=kind), chance)

    def list(self, c):
        return Value("list", c[0], tuple(w for w in _words(c[1:-1]) if w.type == "ID"))
