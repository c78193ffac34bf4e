"""A situation printed back as canonical text: the facts, not the lines, decide.

    from aslkb.parser import parse
    from canonical_printer import canonical
    text = canonical(parse(original))   # parse(text) has the same facts

Canonical means: one statement per fact group, in a fixed order (edition,
interpretations, scenario, sides, hexes, units, LOS, ranges, attacks, moves, wind,
rolls, queries, expectations), each group sorted, single spaces, no comments.
Two files that state the same situation print the same. The printer reads the
facts of docs/design.md section 1 back into statements; it is what the fuzz
tests (tests/test_fuzz.py) use to check that nothing is lost or changed on
the way from text to facts, and only they: it lives beside them.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from clingo import Symbol, SymbolType

from aslkb.parser.model import UNDECIDED, Distribution, Situation


class NotPrintable(ValueError):
    """A fact the printer does not know how to write as a statement."""


def canonical(situation: Situation) -> str:
    facts = defaultdict(list)
    for f in situation.facts:
        facts[(f.symbol.name, len(f.symbol.arguments))].append(f.symbol)
    known = {("edition", 1), ("scenario", 1), ("scenario", 2), ("scenario", 3), ("scenario", 4),
             ("hex", 2), ("hex_attr", 2), ("hex_attr", 3), ("unit", 3), ("strength", 2), ("at", 2),
             ("unit_attr", 2), ("unit_attr", 3), ("los", 3), ("los_hindrance", 3), ("range", 3),
             ("attack", 1), ("attack_by", 2), ("attack_target", 2), ("attack_kind", 2),
             ("attack_attr", 2), ("attack_attr", 3), ("attack_hexside", 2), ("attack_vertex", 2),
             ("move", 3), ("move_attr", 2), ("move_attr", 3), ("wind_change", 2),
             ("wind_change_gusts", 1), ("roll", 4), ("unit_side", 2), ("scenario_side", 2),
             ("fortification", 3), ("fortification_at", 2), ("fortification_attr", 2),
             ("phase", 1), ("phasing", 1)}
    if unknown := sorted(set(facts) - known):
        raise NotPrintable(f"no statement prints the facts {', '.join(f'{n}/{a}' for n, a in unknown)}")

    lines = [f"edition {situation.edition}"]
    lines += [f"interpretation {i.name} {'on' if i.on else 'off'}"
              for i in sorted(situation.interpretations, key=lambda i: i.name)]
    lines += sorted("scenario " + " ".join(word(a) for a in s.arguments)
                    for n in (1, 2, 3, 4) for s in facts[("scenario", n)])
    lines += [" ".join(["phase", word(p.arguments[0]), *(word(n.arguments[0]) for n in facts[("phasing", 1)])])
              for p in facts[("phase", 1)]]
    lines += sorted(f"side {word(who)} {word(side)}"
                    for n in ("scenario_side", "unit_side") for who, side in (s.arguments for s in facts[(n, 2)]))
    lines += _hexes(facts)
    lines += _units(facts)
    lines += _fortifications(facts)
    hindrance = {(s.arguments[0], s.arguments[1]): s.arguments[2] for s in facts[("los_hindrance", 3)]}
    lines += sorted(f"los {word(a)} {word(b)} {word(state)}"
                    + (f" {word(hindrance[(a, b)])}" if (a, b) in hindrance else "")
                    for a, b, state in (s.arguments for s in facts[("los", 3)]))
    lines += sorted(f"range {word(a)} {word(b)} {word(n)}" for a, b, n in (s.arguments for s in facts[("range", 3)]))
    lines += _attacks(facts)
    lines += _owned("move", facts, lambda m, u, h: f"move {word(m)} {word(u)} to {word(h)}")
    gusts = {s.arguments[0] for s in facts[("wind_change_gusts", 1)]}
    lines += sorted(f"wind_change {word(n)} {word(w)}" + (" gusts" if n in gusts else "")
                    for n, w in (s.arguments for s in facts[("wind_change", 2)]))
    lines += _rolls(facts)
    lines += [f"query {q.text}" for q in situation.queries]
    lines += [f"expect {e.query.text} = {value(e.expected)}" for e in situation.expects]
    return "\n".join(lines) + "\n"


def word(symbol: Symbol) -> str:
    """A fact's argument as the word a file writes for it."""
    if symbol.type == SymbolType.String:
        return symbol.string
    if symbol.type == SymbolType.Number:
        return str(symbol.number)
    name, args = symbol.name, symbol.arguments
    if not args:
        return name
    if name in ("unit", "hex") and len(args) == 1:  # a place
        return args[0].string
    if name == "frac" and len(args) == 2:
        return decimal(Fraction(args[0].number, args[1].number))
    if name == "squad" and len(args) == 3:
        return "-".join(str(a.number) for a in args)
    if name == "leader" and len(args) == 2:
        morale, modifier = args[0].number, args[1].number
        return f"{morale}{'+' if modifier > 0 else '-'}{abs(modifier)}"
    raise NotPrintable(f"no word stands for the term {symbol}")


def decimal(value: Fraction) -> str:
    """A fraction with a finite decimal expansion, as a decimal: 5/2 -> 2.5."""
    if value.denominator == 1:
        return str(value.numerator)
    for places in range(1, 64):
        scaled = value * 10 ** places
        if scaled.denominator == 1:
            sign, digits = ("-" if scaled < 0 else ""), str(abs(scaled.numerator)).rjust(places + 1, "0")
            return f"{sign}{digits[:-places]}.{digits[-places:]}"
    raise NotPrintable(f"{value} has no short decimal form")


def value(expected: object) -> str:
    """An `expect` line's value, as written after `=`."""
    if expected is UNDECIDED:
        return "undecided"
    if isinstance(expected, bool):
        return "yes" if expected else "no"
    if isinstance(expected, Fraction):
        return decimal(expected)
    if isinstance(expected, tuple):
        return "[" + ", ".join(expected) + "]"
    if isinstance(expected, Distribution):
        return ", ".join(f"{value(v)} {c.numerator}/{c.denominator}" for v, c in expected.outcomes)
    return str(expected)


def _attrs(flags: list[Symbol], valued: list[Symbol]) -> list[str]:
    """The attributes of one owner: `broken`, `level 1`, sorted."""
    return sorted([word(s.arguments[1]) for s in flags]
                  + [f"{word(s.arguments[1])} {word(s.arguments[2])}" for s in valued])


def _by_owner(facts, name: str) -> tuple[dict, dict]:
    flags, valued = defaultdict(list), defaultdict(list)
    for s in facts[(name, 2)]:
        flags[s.arguments[0]].append(s)
    for s in facts[(name, 3)]:
        valued[s.arguments[0]].append(s)
    return flags, valued


def _hexes(facts) -> list[str]:
    flags, valued = _by_owner(facts, "hex_attr")
    terrains = defaultdict(list)
    for s in facts[("hex", 2)]:
        terrains[s.arguments[0]].append(word(s.arguments[1]))
    lines = []
    for h in sorted(terrains, key=word):
        first, *rest = sorted(terrains[h])
        lines.append(" ".join([f"hex {word(h)} {first}", *_attrs(flags[h], valued[h])]))
        lines += [f"hex {word(h)} {t}" for t in rest]
    return lines


def _units(facts) -> list[str]:
    flags, valued = _by_owner(facts, "unit_attr")
    strength = {s.arguments[0]: s.arguments[1] for s in facts[("strength", 2)]}
    at = {s.arguments[0]: s.arguments[1] for s in facts[("at", 2)]}
    lines = []
    for s in sorted(facts[("unit", 3)], key=lambda s: word(s.arguments[0])):
        u, nation, kind = s.arguments
        words = [f"unit {word(u)} {word(nation)} {word(kind)}"]
        if u in strength:
            words.append(word(strength[u]))
        if u in at:
            words.append(f"at {word(at[u])}")
        lines.append(" ".join(words + _attrs(flags[u], valued[u])))
    return lines


def _fortifications(facts) -> list[str]:
    at = {s.arguments[0]: s.arguments[1] for s in facts[("fortification_at", 2)]}
    flags = defaultdict(list)
    for s in facts[("fortification_attr", 2)]:
        flags[s.arguments[0]].append(word(s.arguments[1]))
    return [" ".join([f"fortification {word(f)} {word(nation)} {word(kind)} at {word(at[f])}"] + sorted(flags[f]))
            for f, nation, kind in sorted((s.arguments for s in facts[("fortification", 3)]), key=lambda a: word(a[0]))]


def _attacks(facts) -> list[str]:
    flags, valued = _by_owner(facts, "attack_attr")
    by, target, kind, sides = defaultdict(list), {}, {}, defaultdict(list)
    for s in facts[("attack_by", 2)]:
        by[s.arguments[0]].append(word(s.arguments[1]))
    for s in facts[("attack_target", 2)]:
        target[s.arguments[0]] = s.arguments[1]
    for s in facts[("attack_kind", 2)]:
        kind[s.arguments[0]] = s.arguments[1]
    for name in ("hexside", "vertex"):
        for s in facts[(f"attack_{name}", 2)]:
            sides[s.arguments[0]].append(f"{name} {word(s.arguments[1])}")
    lines = []
    for s in sorted(facts[("attack", 1)], key=lambda s: word(s.arguments[0])):
        a = s.arguments[0]
        words = [f"attack {word(a)} by {','.join(sorted(by[a]))} at {word(target[a])}"]
        if a in kind:
            words.append(word(kind[a]))
        lines.append(" ".join(words + sorted(sides[a]) + _attrs(flags[a], valued[a])))
    return lines


def _owned(name: str, facts, head) -> list[str]:
    flags, valued = _by_owner(facts, f"{name}_attr")
    lines = []
    for s in sorted(facts[(name, 3)], key=lambda s: word(s.arguments[0])):
        owner = s.arguments[0]
        lines.append(" ".join([head(*s.arguments), *_attrs(flags[owner], valued[owner])]))
    return lines


def _rolls(facts) -> list[str]:
    dice = defaultdict(dict)
    for s in facts[("roll", 4)]:
        name, subject, face, die = s.arguments
        dice[(word(name), subject)][face.name] = word(die)
    lines = []
    for (name, subject), faces in sorted(dice.items(), key=lambda item: (item[0][0], str(item[0][1]))):
        said = name if subject.type == SymbolType.Function and subject.name == "none" else f"{name} {word(subject)}"
        if "dr" in faces:
            lines.append(f"roll {said} {faces['dr']}")
        else:
            lines.append(f"roll {said} colored {faces.get('colored')} white {faces.get('white')}")
    return lines
