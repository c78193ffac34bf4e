"""The engine: settling the interpretations, asking, matching expectations,
citations, the rule selection and the disk cache."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import clingo
import pytest

import aslkb.answers.ask
import aslkb.knowledge.program
from aslkb.answers.read import EXCEPTION, Answer
from aslkb.base.errors import UsageError
from aslkb.answers.ask import ask, holds, settle
from aslkb.knowledge.catalog import query_catalog
from aslkb.engine.solve import Settings
from aslkb.base.errors import SituationError
from aslkb.parser import UNDECIDED, parse, parse_file
from aslkb.knowledge.program import KnowledgeBase, knowledge_base

ROOT = Path(__file__).resolve().parent.parent
FIRST_NIGHT = ROOT / "examples" / "first-night.sit"
CASES = ROOT / "tests" / "cases" / "asl"

# The NVR Table with a white dr of 5: that row is missing from the text (E1.11).
ROW5 = "scenario night dyo month june\nroll nvr_table colored 1 white 5\nquery moon_phase\nquery base_nvr\n"


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return knowledge_base()


def defaults(kb: KnowledgeBase) -> set[str]:
    return {name for name, interp in kb.interpretations.items() if interp.default}


def answer_to(text: str, kb: KnowledgeBase, **options) -> Answer:
    """The answer to the one query of a situation."""
    situation = parse(text, "case.sit")
    [answer] = ask(situation, settle(situation, kb, **options), kb).answers
    return answer


# --- settle -------------------------------------------------------------------

def test_settle_defaults(kb):
    settings = settle(parse("query base_nvr\n"), kb)
    assert settings == Settings("asl", tuple(sorted(defaults(kb))))
    assert {"lax_over_stealthy", "vehicular_nvr_one_and_half"} <= defaults(kb)
    assert not {"nvr_row5_as_row6", "nvr_row5_as_row34", "vehicular_nvr_literal_half"} & defaults(kb)


def test_settle_file_switches_on_and_off(kb):
    situation = parse("interpretation nvr_row5_as_row6\ninterpretation lax_over_stealthy off\n")
    in_force = set(settle(situation, kb).interpretations)
    assert in_force == defaults(kb) - {"lax_over_stealthy"} | {"nvr_row5_as_row6"}
    situation = parse("interpretation nvr_row5_as_row6 on\ninterpretation nvr_row5_as_row6\n")
    assert "nvr_row5_as_row6" in settle(situation, kb).interpretations


def test_settle_command_line_switches_on_and_off_over_the_file(kb):
    situation = parse("interpretation nvr_row5_as_row6\ninterpretation lax_over_stealthy off\n")
    settings = settle(situation, kb, switch_on=("lax_over_stealthy",), switch_off=("nvr_row5_as_row6",))
    assert set(settings.interpretations) == defaults(kb)
    settings = settle(parse(""), kb, switch_on=("nvr_row5_as_row34",), switch_off=("lax_over_stealthy",))
    assert set(settings.interpretations) == defaults(kb) - {"lax_over_stealthy"} | {"nvr_row5_as_row34"}
    assert list(settings.interpretations) == sorted(settings.interpretations)


def test_settle_edition(kb):
    assert settle(parse(""), kb).edition == "asl"
    assert settle(parse("edition sl4\n"), kb).edition == "sl4"
    assert settle(parse("edition sl4\n"), kb, edition="asl").edition == "asl"
    assert settle(parse(""), kb, edition="sl4").edition == "sl4"


@pytest.mark.parametrize("text, options", [
    ("", dict(switch_on=("nvr_row5_as_row6", "nvr_row5_as_row34"))),
    ("interpretation nvr_row5_as_row6\n", dict(switch_on=("nvr_row5_as_row34",))),
    ("", dict(switch_on=("vehicular_nvr_literal_half",))),  # vehicular_nvr_one_and_half is on by default
])
def test_settle_refuses_interpretations_that_exclude_each_other(text, options, kb):
    with pytest.raises(UsageError, match="exclude each other"):
        settle(parse(text), kb, **options)


def test_settle_allows_one_of_two_excluding_interpretations(kb):
    settings = settle(parse(""), kb, switch_on=("vehicular_nvr_literal_half",),
                      switch_off=("vehicular_nvr_one_and_half",))
    assert "vehicular_nvr_literal_half" in settings.interpretations
    assert "vehicular_nvr_one_and_half" not in settings.interpretations


def test_settle_unknown_name_in_the_file_is_a_situation_error_at_its_position(kb):
    situation = parse("scenario night nvr 2\ninterpretation  nvr_row5_as_row7 off\n", "club.sit")
    with pytest.raises(SituationError) as info:
        settle(situation, kb)
    error = info.value
    assert (error.filename, error.line, error.column) == ("club.sit", 2, 17)
    assert "unknown interpretation 'nvr_row5_as_row7'; did you mean nvr_row5_as_row6" in error.message
    assert str(error).startswith("club.sit:2:17: ")


@pytest.mark.parametrize("option", ["switch_on", "switch_off"])
def test_settle_unknown_name_on_the_command_line_is_a_usage_error(option, kb):
    with pytest.raises(UsageError, match="unknown interpretation 'nosuch'"):
        settle(parse(""), kb, **{option: ("nosuch",)})


# --- ask ------------------------------------------------------------------------

def test_ask_answers_the_queries_in_file_order(kb):
    situation = parse_file(FIRST_NIGHT)
    result = ask(situation, settle(situation, kb), kb)
    assert [(a.query, a.value) for a in result.answers] == [
        ("base_nvr", 4),
        ("within_nvr G1 R1", True),
        ("night_class G2", "normal"),
        ("drm A1 night_lv", 1),
        ("drm A2 night_lv", 0),
        ("san russian", 6),
    ]
    assert [(c.expect.line, c.passed) for c in result.checked] == [(27, True), (28, True), (29, True), (30, True)]
    assert result.failed == []


def test_an_expect_only_query_is_answered_but_not_listed(kb):
    situation = parse("scenario night nvr 3\nunit G1 german squad 4-6-7\nquery nvr G1\nexpect base_nvr = 3\n")
    result = ask(situation, settle(situation, kb), kb)
    assert [a.query for a in result.answers] == ["nvr G1"]
    [checked] = result.checked
    assert checked.answer.query == "base_nvr" and checked.answer.value == 3 and checked.passed


def test_a_query_asked_twice_and_expected_once_is_solved_once(kb, monkeypatch):
    calls = []
    real_grounding = aslkb.answers.ask.Grounding

    def spy(program, facts, **options):
        facts = list(facts)
        calls.append(facts)
        return real_grounding(program, facts, **options)

    monkeypatch.setattr(aslkb.answers.ask, "Grounding", spy)
    situation = parse("scenario night nvr 3\nquery base_nvr\nquery  base_nvr\nexpect base_nvr = 3\n")
    result = ask(situation, settle(situation, kb), kb)
    [facts] = calls
    assert [str(f) for f in facts].count("query(base_nvr)") == 1
    first, second = result.answers
    assert first is second or (first.value, first.rules) == (second.value, second.rules)
    assert first.value == 3 and first.query == second.query == "base_nvr"
    [checked] = result.checked
    assert checked.answer is first and checked.passed


def test_facts_reach_clingo_as_symbols_never_as_program_text(kb, monkeypatch):
    seen = {}
    real_grounding = aslkb.answers.ask.Grounding

    def spy(program, facts, **options):
        seen["program"], seen["facts"] = program, list(facts)
        return real_grounding(program, seen["facts"], **options)

    monkeypatch.setattr(aslkb.answers.ask, "Grounding", spy)
    situation = parse("scenario night nvr 3\nunit Qzx9 german squad 4-6-7 at 3A1\nquery nvr Qzx9\n")
    [answer] = ask(situation, settle(situation, kb), kb).answers
    assert answer.value == 3
    assert "Qzx9" not in seen["program"] and "3A1" not in seen["program"]
    assert all(isinstance(fact, clingo.Symbol) for fact in seen["facts"])
    assert clingo.Function("unit", [clingo.String("Qzx9"), clingo.Function("german"),
                                    clingo.Function("squad")]) in seen["facts"]


def test_the_edition_in_force_is_the_edition_fact(kb, monkeypatch):
    seen = []
    real_grounding = aslkb.answers.ask.Grounding

    def spy(program, facts, **options):
        facts = list(facts)
        seen.extend(str(f) for f in facts if f.name == "edition")
        return real_grounding(program, facts, **options)

    monkeypatch.setattr(aslkb.answers.ask, "Grounding", spy)
    situation = parse("scenario night nvr 3\nquery base_nvr\n")
    ask(situation, settle(situation, kb, edition="sl4"), kb)
    assert seen == ["edition(sl4)"]


# --- holds ------------------------------------------------------------------------

def test_holds_booleans():
    assert holds(True, Answer("q", True)) and holds(False, Answer("q", False))
    assert not holds(True, Answer("q", False))
    assert not holds(True, Answer("q", 1)) and not holds(1, Answer("q", True))
    assert not holds(False, Answer("q", 0))


def test_holds_integers_and_decimals():
    assert holds(3, Answer("q", 3)) and not holds(3, Answer("q", 4))
    assert holds(3, Answer("q", Fraction(3)))
    assert holds(Fraction(5, 2), Answer("q", Fraction(5, 2)))
    assert not holds(Fraction(5, 2), Answer("q", 2)) and not holds(2, Answer("q", Fraction(5, 2)))
    # as the parser reads them: `= 2.5` is 5/2, `= 2.0` the integer 2
    unit_and_move = "unit G1 german squad 4-6-7\nmove M1 G1 to 3A1\n"
    [half] = parse(unit_and_move + "expect mf_cost M1 = 2.5\n").expects
    [whole] = parse(unit_and_move + "expect mf_cost M1 = 2.0\n").expects
    assert holds(half.expected, Answer("mf_cost M1", Fraction(5, 2)))
    assert not holds(half.expected, Answer("mf_cost M1", 2))
    assert holds(whole.expected, Answer("mf_cost M1", 2))


def test_holds_keywords():
    assert holds("lax", Answer("q", "lax"))
    assert not holds("lax", Answer("q", "stealthy"))


def test_holds_lists_in_any_order():
    assert holds(("G1", "R2"), Answer("q", ["R2", "G1"]))
    assert holds((), Answer("q", []))
    assert not holds(("G1",), Answer("q", []))
    assert not holds(("G1", "R2"), Answer("q", ["G1"]))
    assert not holds((), Answer("q", None, ["E1.55 not encoded"]))
    [expect] = parse("unit G1 german squad 4-6-7\nunit R2 russian squad 4-4-7\n"
                     "expect jitter_fire G1 = [R2, G1]\n").expects
    assert holds(expect.expected, Answer("jitter_fire G1", ["G1", "R2"]))


def test_holds_undecided():
    undecided = Answer("q", None, ["E1.53 not encoded"])
    assert holds(UNDECIDED, undecided)
    assert not holds(UNDECIDED, Answer("q", 3))
    assert not holds(UNDECIDED, Answer("q", False))
    assert not holds(3, undecided) and not holds(False, undecided) and not holds("lax", undecided)


# --- citations ------------------------------------------------------------------------

def test_an_applied_exception_is_in_the_answer_and_its_rule_cited(kb):
    answer = answer_to("scenario night nvr 2\nunit G1 german squad 4-6-7 at 3A1\n"
                       "unit R1 russian squad 4-4-7 at 3C1\nattack A1 by G1 at R1 sniper\n"
                       "query drm A1 night_lv\n", kb)
    assert answer.value == 0
    assert answer.exceptions
    assert all(step.rule.rule_id == "E1.7" and step.rule.exception and step.role == EXCEPTION
               for step in answer.exceptions)
    assert all(step.rule.path == "rules/asl/E1/E1.7.lp" for step in answer.exceptions)
    assert "E1.7" in answer.rules


def test_no_exception_where_the_base_rule_applies(kb):
    answer = answer_to("scenario night nvr 2\nhex 3C1 open\nunit G1 german squad 4-6-7 at 3A1\n"
                       "unit R1 russian squad 4-4-7 at 3C1\nattack A1 by G1 at R1\n"
                       "query drm A1 night_lv\n", kb)
    assert answer.value == 1
    assert answer.exceptions == []
    assert answer.rules[0] == "E1.7"


def test_the_interpretation_that_decided_an_answer_is_named(kb):
    moon = answer_to(ROW5.replace("query base_nvr\n", ""), kb, switch_on=("nvr_row5_as_row6",))
    assert moon.value == "none"
    assert moon.interpretations == ["nvr_row5_as_row6"]
    assert "E1.11" in moon.rules

    moon = answer_to(ROW5.replace("query base_nvr\n", ""), kb, switch_on=("nvr_row5_as_row34",))
    assert (moon.value, moon.interpretations) == ("half", ["nvr_row5_as_row34"])

    moon = answer_to(ROW5.replace("query base_nvr\n", ""), kb)
    assert moon.value is None and moon.interpretations == []
    [reason] = moon.undecided
    assert reason.startswith("E1.11 damaged") and "nvr_row5_as_row34, nvr_row5_as_row6" in reason


def test_an_interpretation_in_force_but_not_used_is_not_named(kb):
    answer = answer_to("scenario night nvr 3\nquery base_nvr\n", kb, switch_on=("nvr_row5_as_row6",))
    assert answer.value == 3 and answer.interpretations == []


# --- the rule selection ---------------------------------------------------------------

def _paths(kb: KnowledgeBase, queries: list[str]) -> set[str]:
    selection = kb.select("asl", sorted(defaults(kb)), queries)
    return {kb.rules[number].path for number in selection.rules}


def test_select_loads_only_the_asked_query_programs(kb):
    paths = _paths(kb, ["san"])
    assert "queries/san.lp" in paths and "rules/asl/E1/E1.76.lp" in paths
    assert not {p for p in paths if p.startswith("queries/")} - {"queries/san.lp"}
    everything = _paths(kb, list(query_catalog()))
    assert paths < everything


def test_select_leaves_out_the_rules_a_query_cannot_reach(kb):
    paths = _paths(kb, ["san"])  # E1.76: nothing of the desert or of fire combat
    assert "rules/asl/E1/E1.76.lp" in paths
    assert not {p for p in paths if p.startswith(("rules/asl/F11/", "rules/asl/A7/", "rules/asl/A12/"))}


def test_select_for_san_does_not_load_e1_7(kb):
    assert "rules/asl/E1/E1.7.lp" not in _paths(kb, ["san"])


def test_select_follows_the_asked_term_into_the_rules(kb):
    """drm A night_lv reaches E1.7's Night LV rules, not every DRM source's."""
    night_lv = clingo.Function("drm", [clingo.String("A1"), clingo.Function("night_lv")])
    paths = {kb.rules[n].path for n in kb.select("asl", sorted(defaults(kb)), [night_lv]).rules}
    assert "rules/asl/E1/E1.7.lp" in paths
    assert not {p for p in paths if p.startswith(("rules/asl/F11/", "rules/asl/A7/"))}
    any_drm = {kb.rules[n].path for n in kb.select("asl", sorted(defaults(kb)), ["drm"]).rules}
    assert {"rules/asl/F11/F11.7.lp", "rules/asl/A7/A7.7.lp"} <= any_drm


def test_a_rule_whose_query_condition_no_asked_query_meets_is_left_out(kb):
    """A7.8 rolls the MC only when `pinned U` is asked (its query(pinned(U)) condition)."""
    def mc_roll_loaded(queries):
        return any(kb.rules[n].path == "rules/asl/A7/A7.8.lp" and kb.rules[n].head == "roll_needed/3"
                   for n in kb.select("asl", sorted(defaults(kb)), queries).rules)

    assert mc_roll_loaded([clingo.Function("pinned", [clingo.String("R1")])])
    assert not mc_roll_loaded([clingo.Function("affected", [clingo.String("R1")])])


_SAMPLE = sorted(CASES.parent.glob("*/*.sit"))[::9]  # every 9th case file, all three folders


@pytest.mark.parametrize("path", [
    FIRST_NIGHT,
    CASES / "E1.7-EX.sit",
    CASES / "E1.7-exceptions.sit",
    CASES / "E1.14-wheeled-damaged.sit",
    CASES / "E1.6-lax-over-stealthy.sit",
    CASES / "not-encoded.sit",
    *_SAMPLE,
], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_selection_gives_the_answers_of_the_whole_knowledge_base(path, kb, monkeypatch):
    situation = parse_file(path)
    settings = settle(situation, kb)
    selected = ask(situation, settings, kb)

    select = KnowledgeBase.select
    monkeypatch.setattr(KnowledgeBase, "select",
                        lambda self, edition, interps, _queries, _facts=None: select(
                            self, edition, interps, list(query_catalog())))
    whole = ask(situation, settings, kb)

    def summary(result):
        return [(a.query, a.value, a.undecided, a.rules, [s.rule.where for s in a.exceptions], a.interpretations)
                for a in [*result.answers, *(c.answer for c in result.checked)]]

    assert summary(selected) == summary(whole)
    assert [c.passed for c in selected.checked] == [c.passed for c in whole.checked]


# --- the disk cache -----------------------------------------------------------------------

@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ASLKB_CACHE_DIR", str(tmp_path / "cache"))
    knowledge_base.cache_clear()
    yield tmp_path / "cache"
    knowledge_base.cache_clear()  # the next user reads the ordinary cache again


def test_the_disk_cache_is_written_then_read(fresh_cache, monkeypatch):
    built = knowledge_base()
    [cache_file] = fresh_cache.glob("kb-*.marshal")
    assert not list(fresh_cache.glob(".kb-*"))  # no temporary file left behind

    knowledge_base.cache_clear()

    def no_build(*_args, **_kwargs):
        raise AssertionError("the knowledge base was rebuilt instead of read from the cache")

    monkeypatch.setattr(aslkb.knowledge.program, "build", no_build)
    read = knowledge_base()
    assert read is not built
    assert read.rules == built.rules
    assert read.pieces == built.pieces
    assert read.interpretations == built.interpretations
    assert list(fresh_cache.glob("kb-*.marshal")) == [cache_file]

    situation = parse_file(FIRST_NIGHT)
    answers = ask(situation, settle(situation, read), read).answers
    assert [a.value for a in answers] == [4, True, "normal", 1, 0, 6]


def test_a_damaged_cache_file_is_rebuilt(fresh_cache):
    knowledge_base()
    [cache_file] = fresh_cache.glob("kb-*.marshal")
    cache_file.write_bytes(b"{not marshal")
    knowledge_base.cache_clear()
    kb = knowledge_base()
    assert kb.rules and "nvr_row5_as_row6" in kb.interpretations
    from aslkb.base import diskcache

    assert isinstance(diskcache.load("kb", kb.signature), dict)  # rewritten whole, with its digest
    knowledge_base.cache_clear()
    assert knowledge_base().rules == kb.rules


def test_the_disk_cache_keeps_a_few_files_of_a_kind(tmp_path, monkeypatch):
    """Every change to the rules makes a new cache file: the oldest go."""
    import os

    from aslkb.base import diskcache

    monkeypatch.setenv("ASLKB_CACHE_DIR", str(tmp_path))
    mine = diskcache._key_id(diskcache._key())
    for n in range(diskcache.KEEP + 3):
        diskcache.store("kb", f"sig{n}", {"n": n})
        os.utime(tmp_path / f"kb-sig{n}-{mine}.marshal", (n, n))  # ages in the order written
    diskcache.store("other", "sig", [1])
    kept = sorted(p.name for p in tmp_path.glob("kb-*.marshal"))
    assert kept == [f"kb-sig{n}-{mine}.marshal" for n in range(3, diskcache.KEEP + 3)]
    assert diskcache.load("kb", f"sig{diskcache.KEEP + 2}") == {"n": diskcache.KEEP + 2}
    assert diskcache.load("kb", "sig0") is None and diskcache.load("other", "sig") == [1]
