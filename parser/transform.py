"""Lark Transformer: the parse of a situation file -> a list of statements."""

from __future__ import annotations

from ._situation_parser import Token, Transformer

from .statements import (Attack, Attr, Call, Edition, ExpectLine, Fortification, Hex, InterpretationLine,
                         Los, Move, QueryLine, Range, Roll, Scenario, SideLine, Statement, Unit,
                         Value, WindChange, Word)


def _word(token: Token) -> Word:
    return Word(str(token), token.line, token.column, token.type)


def _words(tokens) -> tuple[Word, ...]:
    return tuple(_word(t) for t in tokens if t is not None)


def _attr(children) -> Attr:
    first = _word(children[0])
    if first.type == "ATTACK_KIND":  # `mg` is the value of the attack's kind
        return Attr(Word("kind", first.line, first.column, "kind"), (first,))
    return Attr(first, _words(children[1:]))


class ToStatements(Transformer):
    """One method per grammar rule."""

    def start(self, statements) -> list[Statement]:
        return statements

    def edition(self, c):
        return Edition(_word(c[0]))

    def interpretation(self, c):
        name, switch = c
        return InterpretationLine(_word(name), _word(switch) if switch is not None else None)

    def scenario(self, attrs):
        return Scenario(tuple(attrs))

    def scenario_attr(self, c):
        return _attr(c)

    hex_attr = unit_attr = fort_attr = attack_attr = move_attr = los_state = scenario_attr

    def side(self, c):
        subject, side = c
        return SideLine(_word(subject), _word(side))

    def hex(self, c):
        hex_id, terrain, *attrs = c
        return Hex(_word(hex_id), _word(terrain), tuple(attrs))

    def los(self, c):
        a, b, state = c
        return Los(_word(a), _word(b), state)

    def range(self, c):
        a, b, n = c
        return Range(_word(a), _word(b), _word(n))

    def unit(self, c):
        uid, nation, kind, strength, at, *attrs = c
        return Unit(_word(uid), _word(nation), _word(kind),
                    _word(strength) if strength is not None else None,
                    _word(at) if at is not None else None, tuple(attrs))

    def fortification(self, c):
        fid, nation, kind, at, *attrs = c
        return Fortification(_word(fid), _word(nation), _word(kind), _word(at), tuple(attrs))

    def attack(self, c):
        aid, firers, target, *attrs = c
        return Attack(_word(aid), firers, _word(target), tuple(attrs))

    def firers(self, c):
        return _words(c)

    def move(self, c):
        mid, unit, to, *attrs = c
        return Move(_word(mid), _word(unit), _word(to), tuple(attrs))

    def roll(self, c):
        name, subject, dice = c
        return Roll(_word(name), _word(subject) if subject is not None else None, dice)

    def wind_change(self, c):
        n, force, gusts = c
        return WindChange(_word(n), _word(force), _word(gusts) if gusts is not None else None)

    def two_dice(self, c):
        return _words(c)

    one_die = two_dice

    def call(self, c):
        return Call(_word(c[0]), _words(c[1:]))

    def query(self, c):
        return QueryLine(c[0])

    def expect_value(self, c):
        keyword, call, _equals, value = c
        if not isinstance(value, Value):  # a single token: NUMBER, ID, yes, no, undecided
            kind = {"NUMBER": "number", "ID": "id"}.get(value.type, str(value))
            value = Value(kind, _word(value))
        return ExpectLine(_word(keyword), call, value)

    def expect_yes(self, c):
        keyword, call = c
        return ExpectLine(_word(keyword), call, None)

    def expect_no(self, c):
        keyword, _not, call = c
        return ExpectLine(_word(keyword), call, None, negated=True)

    def distribution(self, c):
        pairs = tuple(w for outcome in c for w in outcome)
        first = pairs[0]
        return Value("distribution", first.word if isinstance(first, Value) else first, pairs)

    def outcome(self, c):
        value, chance = c
        if isinstance(value, Value):  # a list: [R1]
            return (value, _word(chance))
        kind = {"NUMBER": "number", "ID": "id"}.get(value.type, str(value))
        return (_word(value)._replace(type=kind), _word(chance))

    def list(self, c):
        return Value("list", _word(c[0]), tuple(w for w in _words(c[1:-1]) if w.type == "ID"))
