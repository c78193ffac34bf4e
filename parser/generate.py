"""Write parser/_situation_tables.py: the LALR(1) tables Lark builds for
situation.lark, as plain data (python -m aslkb.parser.generate).

Lark builds the tables and decides, rule by rule, how the parse tree is
shaped (which tokens are kept, which rules are inlined, where an optional
part leaves a None); the written module holds both as literals, and
parser/lalr.py runs them. A run then imports neither Lark nor its
stand-alone runtime (about 15 ms of every `aslkb query`: the runtime's code,
and rebuilding its objects from their serialized form). Only this generator
and the tests import Lark. tests/test_parser.py checks that the module matches
situation.lark (the generator records the grammar's digest; the numbering of
the parser states varies from one generation to the next). Regenerate it
after every change to the grammar.
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(__file__)
GRAMMAR = os.path.join(HERE, "situation.lark")
OUTPUT = os.path.join(HERE, "_situation_tables.py")


def lark_parser():
    """Lark's LALR parser for the grammar, as the tables are taken from it."""
    from lark import Lark

    with open(GRAMMAR, encoding="utf-8") as handle:
        grammar = handle.read()
    return Lark(grammar, parser="lalr", lexer="basic", maybe_placeholders=True)


def tables() -> dict:
    """The grammar's terminals, rules and parse table as plain data."""
    from lark.lexer import PatternStr
    from lark.parse_tree_builder import maybe_create_child_filter
    from lark.parsers.lalr_analysis import Shift

    lark = lark_parser()
    terminals = []
    for t in lark.terminals:
        words = _words(t.pattern.value) if not isinstance(t.pattern, PatternStr) else (t.pattern.value,)
        terminals.append((str(t.name), words, t.pattern.to_regexp()))
    rules = []
    number = {}
    for rule in lark.rules:
        options = rule.options
        made = maybe_create_child_filter(rule.expansion, options.keep_all_tokens, False, options.empty_indices)
        # Lark's ChildFilterLALR(to_include, append_none): which children a
        # reduction keeps, which it inlines (a rule named _x or __x_star_N),
        # and where it puts None for an optional part left out ([x])
        # (ChildFilterLALR_NoPlaceholders(to_include) where the rule has no [x]).
        kept = tuple((step[0], step[1], step[2] if len(step) > 2 else 0) for step in made.args[0]) if made else None
        rules.append((str(rule.origin.name), tuple(str(s.name) for s in rule.expansion),
                      str(rule.alias or options.template_source or rule.origin.name),
                      bool(options.expand1 and not rule.alias), kept, made.args[1] if made and len(made.args) > 1 else 0))
        number[rule] = len(number)
    table = lark.parser.parser.parser.parse_table
    states = {}
    for state, actions in table.states.items():
        states[state] = {str(symbol): arg if action is Shift else -1 - number[arg]
                         for symbol, (action, arg) in actions.items()}
    return {"terminals": terminals, "ignore": tuple(str(name) for name in lark.lexer_conf.ignore), "rules": rules,
            "states": [states[s] for s in range(len(states))],
            "start": table.start_states["start"], "end": table.end_states["start"]}


def _words(regexp: str):
    """The words of a keyword terminal's regexp, or None for a pattern (ID, NUMBER):
    Lark compiles `WEATHER: "clear" | "rain"` to the regexp (?:clear|rain)."""
    import re

    m = re.fullmatch(r"\(\?:([a-z0-9_]+(?:\|[a-z0-9_]+)*)\)", regexp)
    return tuple(m[1].split("|")) if m else None


def tables_source() -> str:
    data = tables()
    assert sorted(range(len(data["states"]))) == list(range(len(data["states"])))
    lines = [
        f'"""The LALR(1) tables of situation.lark, written by parser/generate.py with Lark {_lark_version()}:',
        "do not edit; regenerate after every change to the grammar (python -m aslkb.parser.generate).",
        "",
        "TERMINALS: (name, its keywords or None for a pattern, its regexp), in Lark's order.",
        "RULES: (origin, expansion, callback name, expand a single child, kept children as",
        "(index, inline it, Nones before it) or None for all, Nones after them).",
        "STATES: symbol -> N >= 0 to shift (or go to) state N, or -1 - R to reduce by rule R.",
        '"""',
        "",
        f"GRAMMAR_SHA256 = {grammar_digest()!r}",
        f"START = {data['start']!r}",
        f"END = {data['end']!r}",
        f"IGNORE = {data['ignore']!r}",
        "TERMINALS = (",
        *(f"    {t!r}," for t in data["terminals"]),
        ")",
        "RULES = (",
        *(f"    {r!r}," for r in data["rules"]),
        ")",
        "STATES = (",
        *(f"    {s!r}," for s in data["states"]),
        ")",
    ]
    return "\n".join(lines) + "\n"


def _lark_version() -> str:
    import lark

    return lark.__version__


def grammar_digest() -> str:
    import hashlib

    with open(GRAMMAR, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def main() -> None:
    source = tables_source()
    from aslkb.base.atomicwrite import write_text

    write_text(OUTPUT, source)
    print(f"wrote {os.path.relpath(OUTPUT)} ({len(source.splitlines())} lines)", file=sys.stderr)


if __name__ == "__main__":
    main()
