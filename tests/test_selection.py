"""The rule selection's own machinery (kb/knowledge/selection.py): the facts
read as patterns from their text, the interpretations in force, the memos.
That a selection answers as the whole program does is tests/test_seam.py's
and tests/test_engine.py's."""
from __future__ import annotations

from pathlib import Path

from clingo import Function, Infimum, Number, String, Supremum, Tuple_

from aslkb.answers.ask import fact_signatures, query_facts, settle
from aslkb.engine.solve import dice_facts, in_force_facts
from aslkb.knowledge.patterns import fact_patterns, symbol_pattern
from aslkb.knowledge.program import KnowledgeBase, knowledge_base
from aslkb.parser import parse, parse_file

ROOT = Path(__file__).resolve().parent.parent

SITUATION = """scenario night nvr 3 year 1944
hex 12A1 woods
unit G1 german squad 4-6-7 at 12A1
unit R1 russian squad 4-4-7 at 12A1
range G1 R1 2
attack A1 by G1 at R1
query drm A1 night_lv
query within_nvr G1 R1
expect night_class G1 = non_nvr
"""


def _by_symbol_pattern(facts) -> list:
    """What fact_patterns must give: symbol_pattern of each fact, each once, in order."""
    found = {}
    for fact in facts:
        if pattern := symbol_pattern(fact):
            found[(f"{pattern[0]}/{len(pattern[1])}", pattern[1])] = None
    return list(found)


def test_facts_read_from_their_text_are_the_patterns_of_their_symbols():
    facts = [
        Function("f", [Number(-3), String('a"b(,)\\'), Tuple_([Number(1), Number(2)]), Tuple_([Function("x")]),
                       Function("g", [Number(1)], False), Infimum, Supremum,
                       Function("h", [Function("i", [Function("j", [String("x")])]), Tuple_([])])]),
        Function("a1b", [Function("c2"), String("")]),  # digits in names stay
        Function("p", [Function("q")], False),  # -p(q): read as p(q), as symbol_pattern does
        Function("night"),
        Tuple_([Function("a"), Function("b")]),  # no atom: no pattern
        Function("f", [Tuple_([Tuple_([Number(1), Number(2)]), Number(3)]), Function("g")]),
        Function("x'y", [Number(10)]),
        Function("s", [String("line\nbreak,)(")]),
        Function("unit", [String("G1"), Function("german"), Function("squad")]),
        Function("unit", [String("R1"), Function("german"), Function("squad")]),  # the same pattern: once
        Function("night"),
    ]
    assert fact_patterns(facts) == _by_symbol_pattern(facts)
    assert ("night/0", ()) in fact_patterns(facts)
    assert fact_patterns([]) == []


def test_a_situations_facts_read_as_their_symbols_are():
    kb = knowledge_base()
    situation = parse(SITUATION, "selection.sit")
    settings = settle(situation, kb)
    asked = [q.symbol for q in situation.queries] + [e.query.symbol for e in situation.expects]
    facts = [*query_facts(situation, settings, asked), *in_force_facts(settings)]
    facts += dice_facts(facts)
    assert fact_patterns(facts) == _by_symbol_pattern(facts)


def test_the_facts_the_unknowns_read_are_the_same_by_the_parsers_names():
    """dice_facts reads each fact's name and arity from the parser where
    ask.py has them: the same facts as read from the symbols."""
    kb = knowledge_base()
    for path in [*sorted(ROOT.glob("examples/*.sit")), *sorted(ROOT.glob("tests/cases/asl/**/*.sit"))[:60]]:
        situation = parse_file(path)
        settings = settle(situation, kb)
        asked = list(dict.fromkeys([q.symbol for q in situation.queries] + [e.query.symbol for e in situation.expects]))
        facts = [*query_facts(situation, settings, asked), *in_force_facts(settings)]
        signatures = fact_signatures(situation, settings, asked)
        assert signatures == [(f.name, len(f.arguments)) for f in facts], path
        assert dice_facts(facts, signatures) == dice_facts(facts), path


def _range(kb: KnowledgeBase, path: str) -> set[int]:
    return set(range(*kb.data["path_range"][path]))


def test_an_interpretation_is_selected_only_when_in_force():
    """One index serves every set of interpretations: those not in force are skipped."""
    kb = knowledge_base()
    defaults = sorted(name for name, i in kb.interpretations.items() if i.default)
    row6 = _range(kb, kb.interpretations["nvr_row5_as_row6"].path)
    on = kb.select("asl", [*defaults, "nvr_row5_as_row6"], ["base_nvr"])
    off = kb.select("asl", defaults, ["base_nvr"])
    assert row6 and row6 <= set(on.statements)
    assert not row6 & set(off.statements)
    assert set(off.statements) < set(on.statements)


def test_a_query_asked_twice_selects_as_asked_once():
    kb = knowledge_base()
    night_lv = Function("drm", [String("A1"), Function("night_lv")])
    other = Function("drm", [String("A2"), Function("night_lv")])  # strings are open: the same pattern
    assert kb.select("asl", [], [night_lv, other, night_lv]) == kb.select("asl", [], [night_lv])


def test_a_selection_remembered_is_the_selection_made_afresh():
    kb = knowledge_base()
    situation = parse(SITUATION, "selection.sit")
    settings = settle(situation, kb)
    asked = [q.symbol for q in situation.queries] + [e.query.symbol for e in situation.expects]
    facts = [*query_facts(situation, settings, asked), *in_force_facts(settings)]
    first = kb.select(settings.edition, list(settings.interpretations), asked, facts)
    again = kb.select(settings.edition, list(settings.interpretations), asked, facts)
    fresh = KnowledgeBase(kb.data).select(settings.edition, list(settings.interpretations), asked, facts)
    assert first == again == fresh
    assert len(first.statements) < len(kb.select(settings.edition, list(settings.interpretations), asked).statements)
