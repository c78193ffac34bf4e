"""Answer a parsed situation: settle the edition and interpretations, solve,
read each query's answer with its rules, and check the expectations."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

import clingo

from aslkb.base.errors import UsageError
from aslkb.base.errors import SituationError
from aslkb.base.record import Record
from aslkb.parser import UNDECIDED, Distribution, Expect, Query, Situation

from aslkb.answers.read import (BLOCKED, EXCEPTION, MAY_APPLY, MAY_BLOCK, Answer, Derivations, Step, python_value,
                                reason_text)
from aslkb.base.errors import InconsistentSituation, UnalignedDice
from aslkb.engine.hints import hints
from aslkb.engine.solve import Grounding, Settings, dice_facts, in_force_facts
import aslkb.engine.unknowns as unknowns
from aslkb.knowledge.catalog import query_catalog
from aslkb.knowledge.declarations import declarations
from aslkb.knowledge.program import KnowledgeBase, Selection, knowledge_base

if TYPE_CHECKING:
    from aslkb.engine.odds import Outcome  # lazy: not on `aslkb query`'s path (its cold start)


class Checked(NamedTuple):
    expect: Expect
    answer: Answer
    passed: bool


class Result(Record):
    _fields = ("situation", "settings", "answers", "checked")

    def __init__(self, situation: Situation, settings: Settings, answers: list[Answer], checked: list[Checked]):
        self.situation = situation
        self.settings = settings
        self.answers = answers  # one per `query` line, in file order
        self.checked = checked  # one per `expect` line, in file order

    @property
    def failed(self) -> list[Checked]:
        return [c for c in self.checked if not c.passed]


def refuse_unknown_interpretations(names, known) -> None:
    """A command-line interpretation name the knowledge base does not have is
    refused, once, with the nearest known names (every command that takes
    --interpretation/--without, through the CLI, and settle())."""
    for name in names:
        if name not in known:
            raise UsageError(unknown_interpretation(name, known))


def unknown_interpretation(name: str, known) -> str:
    """The message for an interpretation name that is not one, on the command
    line or in a file's `interpretation` line alike."""
    from difflib import get_close_matches  # only for a wrong name: its import is not free

    near = get_close_matches(name, sorted(known), n=3)
    hint = f"did you mean {' or '.join(near)}? " if near else ""
    return f"unknown interpretation '{name}'; {hint}known: {', '.join(sorted(known))}"


def settle(situation: Situation, kb: KnowledgeBase, edition: str | None = None,
           switch_on: tuple[str, ...] = (), switch_off: tuple[str, ...] = ()) -> Settings:
    """The edition and the interpretations in force: defaults, then the file,
    then the command line."""
    known = kb.interpretations
    in_force = {name for name, i in known.items() if i.default}
    for stated in situation.interpretations:
        if stated.name not in known:
            raise SituationError(situation.filename, stated.line, stated.column,
                                 unknown_interpretation(stated.name, known))
        (in_force.add if stated.on else in_force.discard)(stated.name)
    refuse_unknown_interpretations((*switch_on, *switch_off), known)
    in_force |= set(switch_on)
    in_force -= set(switch_off)
    stated = {i.name: i for i in situation.interpretations if i.on}
    for name in sorted(in_force):
        for other in known[name].excludes:
            if other in in_force:
                message = (f"interpretations '{name}' and '{other}' exclude each other; "
                           f"switch one off (interpretation {other} off, or --without {other})")
                # the file's own lines (or a default) conflict: point at the file;
                # a command-line option is the command's problem
                in_file = [stated[n] for n in (name, other) if n in stated]
                if in_file and not {name, other} & set(switch_on):
                    where, *before = sorted(in_file, key=lambda i: (i.line, i.column), reverse=True)
                    raise SituationError(situation.filename, where.line, where.column, message,
                                         [(i.line, i.column, f"interpretation {i.name} is switched on here")
                                          for i in before])
                raise UsageError(message)
    return Settings(edition or situation.edition, tuple(sorted(in_force)))


def ask(situation: Situation, settings: Settings, kb: KnowledgeBase | None = None, cite: bool = True,
        whole: bool = False) -> Result:
    """Each query's answer with the rules behind it, on the ordinary path of
    kb/answers/run.py (callers go through run(), the one seam). `cite=False`
    (values only) skips the bookkeeping that cites rules and the solves that
    find the rules behind each possible value of an answer given as odds;
    `whole` grounds every rule of the edition instead of the selection."""
    kb = kb or knowledge_base()
    queries: dict[clingo.Symbol, Query] = {}
    for query in [*situation.queries, *(e.query for e in situation.expects)]:
        queries.setdefault(query.symbol, query)
    parts = given_facts(situation, settings, list(queries))
    given = [fact.symbol for fact in parts]
    # the facts the unknowns' program adds (given(F), ...) let the declarations' rules fire;
    # read once for the selection and the grounding, by the names the parser kept
    dice = dice_facts(given, [(fact.name, len(fact.args)) for fact in parts])
    selection = (kb.whole(settings.edition, list(settings.interpretations)) if whole else
                 kb.select(settings.edition, list(settings.interpretations), list(queries), [*given, *dice]))
    program, records = citing_program(selection, given, cite, kb)
    grounding = Grounding(program, given, cite=cite, dice_facts_given=dice, records=records)
    possible = unknowns.values(grounding, list(queries))
    if possible is None:  # name the statements that conflict, by line
        from aslkb.engine.conflict import conflicting_statements  # lazy: only an inconsistent situation needs it

        facts = query_facts(situation, settings, list(queries))  # conflict.py adds the interpretations
        raise conflicting_statements(situation, settings, selection, facts, kb) from None
    if cite:  # the rules behind a decided answer: those of one completion
        closed = unknowns.closed_completion(grounding)
        derivations = Derivations(_explained(grounding, closed), kb, selection.rules)
    else:  # values only: a decided answer is its atoms in any completion
        closed = None
        derivations = Derivations([a for v in possible.values() for a in v.brave], kb, selection.rules)
    answers = {symbol: answer_of(query, derivations, kb) for symbol, query in queries.items()
               if possible[symbol].decided}
    answers.update(_undecided(grounding, {s: q for s, q in queries.items() if s not in answers},
                              possible, closed, selection, kb, cite, cache(lambda: first_named(situation))))
    return Result(
        situation, settings,
        [answers[q.symbol] for q in situation.queries],
        [Checked(e, answers[e.query.symbol], holds(e.expected, answers[e.query.symbol]))
         for e in situation.expects],
    )


# From this many given facts the records of the asked cone, grounded after the
# values (kb/knowledge/targeted.py), cost less than one grounding with every
# record: measured in one process, paired rounds (docs/performance.md, "Citations").
RECORDS_AFTER_VALUES_FROM = 1000


def citing_program(selection: Selection, facts: Sequence[clingo.Symbol], cite: bool,
                   kb: KnowledgeBase) -> tuple[str, str | None]:
    """The program to ground and the records part grounded after it (None:
    the program holds its records, or there are none). A small situation's
    cone is small, and the records part's own rules (some 40 ms to ground at
    first-night) cost more than the records of every derived atom."""
    if not cite:
        return selection.plain, None
    if len(facts) >= RECORDS_AFTER_VALUES_FROM:
        return selection.plain, kb.records(selection)
    return selection.cited, None


def first_named(situation: Situation) -> dict[clingo.Symbol, int]:
    """Each id's first line in the file (a unit's, a hex's, an attack's): the
    order a user writes two places in, where a LOS is asked both ways round."""
    found: dict[clingo.Symbol, int] = {}
    for fact in situation.facts:
        for name in _ids(fact.symbol):
            found.setdefault(name, fact.line)
    return found


def _ids(term: clingo.Symbol):
    """The strings of a term (the ids: `attack_target("A1", hex("3A1"))`), in order."""
    if term.type == clingo.SymbolType.String:
        yield term
    elif term.type == clingo.SymbolType.Function:
        for argument in term.arguments:
            yield from _ids(argument)


class GivenFact(NamedTuple):
    """A fact a situation's program is given, with its name and arguments as
    the parser kept them (reading them back from the symbol is a call into
    clingo each: some 40 ms of 29,000 facts)."""

    symbol: clingo.Symbol
    name: str
    args: tuple[clingo.Symbol, ...]


def given_facts(situation: Situation, settings: Settings, queries: Sequence[clingo.Symbol],
                in_force: bool = True) -> list[GivenFact]:
    """The facts a situation's program is given, in order: the situation's own
    with the edition in force (the command line may override the file's), one
    `query` fact per query asked and, with `in_force`, in_force_facts (an
    `interpretation(Name)` per interpretation in force)."""
    facts = [GivenFact(fact.symbol, fact.name, fact.args) for fact in situation.facts if fact.name != "edition"]
    facts += [GivenFact(fact.symbol, fact.name, fact.args) for fact in situation.derived]
    edition = clingo.Function(settings.edition)
    facts.append(GivenFact(clingo.Function("edition", [edition]), "edition", (edition,)))
    facts += [GivenFact(clingo.Function("query", [symbol]), "query", (symbol,)) for symbol in queries]
    if in_force:
        facts += [GivenFact(symbol, symbol.name, tuple(symbol.arguments)) for symbol in in_force_facts(settings)]
    return facts


def query_facts(situation: Situation, settings: Settings, queries: Sequence[clingo.Symbol]) -> list[clingo.Symbol]:
    """given_facts' symbols, the interpretations in force left out."""
    return [fact.symbol for fact in given_facts(situation, settings, queries, in_force=False)]


def fact_signatures(situation: Situation, settings: Settings,
                    queries: Sequence[clingo.Symbol]) -> list[tuple[str, int]]:
    """The name and arity of each of given_facts' facts."""
    return [(fact.name, len(fact.args)) for fact in given_facts(situation, settings, queries)]


def answer_of(query: Query, d: Derivations, kb: KnowledgeBase) -> Answer:
    symbol = query.symbol
    answer = Answer(query.text, None)
    # the reasons and values in the order they are listed, not the model's:
    # that order is the grounder's, which the program's other rules change
    if reasons := d.undecided.get(symbol):
        answer.undecided = sorted({reason_text(r, kb) for r in reasons})
        answer.gaps = _gap_kinds(reasons)
        for reason in sorted(reasons, key=lambda r: (reason_text(r, kb), str(r))):
            answer.steps += d.explain(clingo.Function("undecided", [symbol, reason]))
        return answer
    values = sorted(d.answers.get(symbol, []), key=lambda v: (str(python_value(v)), str(v)))
    for value in values:
        answer.steps += _new(answer.steps, d.explain(clingo.Function("answer", [symbol, value])))
    if query_catalog()[query.name].answer == "list":
        answer.value = sorted((python_value(v) for v in values), key=str)
    elif len(values) == 1:
        answer.value = python_value(values[0])
    elif not values:
        answer.undecided = [f"no rule answers this query (queries/{query.name}.lp)"]
    else:
        shown = ", ".join(sorted(str(python_value(v)) for v in values))
        answer.undecided = [f"conflict: the rules give different answers ({shown})"]
    return answer


def _gap_kinds(reasons) -> tuple[str, ...]:
    return tuple(sorted({r.name for r in reasons if r.type == clingo.SymbolType.Function and r.name}))


def _explained(grounding: Grounding, closed: list) -> list[clingo.Symbol]:
    """The atoms of the completion whose rules explain a decided answer: the
    open facts absent where the situation allows it."""
    try:
        return grounding.solve(assumptions=closed)
    except InconsistentSituation:
        return grounding.solve()


def _undecided(grounding: Grounding, varying: dict[clingo.Symbol, Query], possible: dict,
               closed: list | None, selection, kb: KnowledgeBase, cite: bool,
               named_at: Callable[[], dict[clingo.Symbol, int]]) -> dict[clingo.Symbol, Answer]:
    """The answers that differ between completions of the unknowns: odds over
    the dice when only dice change them, else what to add (`named_at` reads
    each id's first line in the file, kb/engine/hints.py)."""
    answers: dict[clingo.Symbol, Answer] = {}
    by_dice: dict[frozenset, list[clingo.Symbol]] = {}
    gaps: dict[clingo.Symbol, list[clingo.Symbol]] = {}  # the gaps that change an answer given as odds
    sides: dict[tuple, list[Derivations]] = {}  # an unknown's completions, shared by the answers it changes
    if varying:  # the cones need the ground rules: recorded only now
        grounding = grounding.observed()

    def named(symbol: clingo.Symbol, opened: list[clingo.Symbol], rolls: list) -> Answer:
        """An answer the unknowns decide, naming them (a gap by its reason,
        the others as hints, kb/engine/hints.py), with the rules behind each
        value they give."""
        query = varying[symbol]
        answer = Answer(query.text, None)
        answer.hints = hints([a for a in opened if unknowns.gap_reason(a) is None], rolls, named_at)
        hint_of = {atom: hint for hint in answer.hints for atom in hint.atoms}
        said = [reason_text(reason, kb) if (reason := unknowns.gap_reason(a)) is not None else
                hint_of[a].text for a in opened] + [h.text for h in answer.hints if not h.atoms]
        answer.undecided = list(dict.fromkeys(said))  # the atoms of one hint: once
        brave = [a.arguments[1] for a in possible[symbol].brave if a.name == "undecided"]
        answer.undecided += sorted({reason_text(reason, kb) for reason in brave})
        answer.gaps = _gap_kinds([*brave, *(r for a in opened if (r := unknowns.gap_reason(a)) is not None)])
        if cite:  # the rules behind each value an unknown that changes it gives
            completions = []
            for atom in opened:
                others = _fixed(atom, found_of[symbol].open_atoms)
                if (atom, others) not in sides:
                    sides[atom, others] = [Derivations(side, kb, selection.rules)
                                           for side in _sides(grounding, atom, others)]
                completions += [answer_of(query, side, kb).steps for side in sides[atom, others]]
            answer.steps = merged_steps(completions)
        return answer

    found_of: dict[clingo.Symbol, unknowns.Unknowns] = {}
    for symbol in varying:
        found = found_of[symbol] = unknowns.unknowns_of(grounding, symbol)
        opened = unknowns.mattering(grounding, symbol, found)
        if found.rolls and all(unknowns.gap_reason(a) is not None for a in opened):
            # a fact that changes only which dice give which value is hidden
            # behind the gaps' values: judged again with the gaps set aside
            hidden = unknowns.mattering(grounding, symbol, found, [(a, False) for a in opened]) if opened else []
            if not hidden:  # only dice, and gaps no statement can fill: odds, the
                # share of the dice under which a gap decides nothing undecided
                by_dice.setdefault(frozenset(found.rolls), []).append(symbol)
                gaps[symbol] = opened
                continue
            opened = [*opened, *hidden]
        rolls = unknowns.rolls_mattering(grounding, symbol, found) if found.rolls else []
        if not opened and not rolls:  # no single unknown changes it: name them all
            opened, rolls = found.open_atoms, sorted(found.rolls)
        answers[symbol] = named(symbol, opened, rolls)
    if by_dice and closed is None:
        closed = unknowns.closed_completion(grounding)
    for rolls, symbols in by_dice.items():
        group_gaps = {gap for symbol in symbols for gap in gaps[symbol]}
        try:
            answers.update(_with_odds(symbols, varying, grounding, set(rolls), closed, selection, kb, cite,
                                      group_gaps))
        except UnalignedDice:  # a gap that changes which dice are rolled: no odds, the unknowns named
            answers.update({symbol: named(symbol, gaps[symbol], sorted(rolls)) for symbol in symbols})
    return answers


def _with_odds(waiting: list[clingo.Symbol], queries: dict[clingo.Symbol, Query], grounding: Grounding,
               rolls: set, closed: list, selection, kb: KnowledgeBase, cite: bool = True,
               gaps: set[clingo.Symbol] = frozenset()) -> dict[clingo.Symbol, Answer]:
    """The answers that only these missing rolls change, as exact
    distributions over their faces.

    One solve enumerates just these dice (kb/engine/odds.py); the rules behind each
    possible value come from one combination of dice that gives it, solved
    again on the same grounding.
    """
    from aslkb.engine.odds import outcomes as enumerate_outcomes  # lazy: not on `aslkb query`'s path (its cold start)

    grounding.count_only(rolls)
    try:
        # in an order of their own (not the solver's), so that the example
        # dice, and the rules they cite, are the same however it was grounded
        # the gaps that change an answer left free: a combination of dice under
        # which they give different values is the undecided share
        fixed = [(atom, held) for atom, held in closed if atom not in gaps]
        outcomes = sorted(enumerate_outcomes(grounding, waiting, fixed), key=lambda o: sorted(map(str, o.dice)))
        examples: dict[tuple, Derivations] = {}
        answers = {}
        for symbol in waiting:
            query = queries[symbol]
            listed = query_catalog()[query.name].answer == "list"
            chances, dice_for = outcome_chances(outcomes, symbol, listed)
            answer = Answer(query.text, None)
            answer.missing_roll = True
            for value, dice in dice_for.items():
                if not cite and value is not UNDECIDED:  # the reasons of an undecided value are its answer
                    continue
                if dice not in examples:
                    examples[dice] = Derivations(grounding.solve(dice, assumptions=closed), kb, selection.rules)
                example = answer_of(query, examples[dice], kb)
                answer.steps += _new(answer.steps, example.steps)
                answer.undecided += [r for r in example.undecided if r not in answer.undecided]
            if UNDECIDED in chances:  # the gaps that leave some dice undecided say why
                named = list(dict.fromkeys(reason_text(unknowns.gap_reason(g), kb) for g in sorted(gaps)))
                answer.undecided += [r for r in named if r not in answer.undecided]
            if len(chances) > 1:
                answer.distribution = chances
                if UNDECIDED not in chances:  # otherwise the reasons say why some dice decide nothing
                    answer.undecided = []
            elif (only := next(iter(chances))) is not UNDECIDED:
                answer.value, answer.undecided = (list(only) if listed else only), []
            answers[symbol] = answer
        return answers
    finally:
        grounding.count_all()


def outcome_chances(outcomes: Sequence[Outcome], symbol: clingo.Symbol,
                    listed: bool) -> tuple[dict[object, object], dict[object, tuple]]:
    """A query's values over these outcomes of the dice (kb/engine/odds.py):
    the chance of each, and the first dice that give it."""
    chances: dict[object, object] = {}
    dice_for: dict[object, tuple] = {}
    for outcome in outcomes:
        value = outcome_value(outcome.answers.get(symbol), listed)
        chances[value] = chances.get(value, 0) + outcome.weight
        dice_for.setdefault(value, outcome.dice)
    return chances, dice_for


def outcome_value(found: tuple[str, object] | None, listed: bool) -> object:
    """A query's value under one combination of dice, UNDECIDED when there is
    none."""
    if found is None:  # no answer atom: an empty list, for a list query
        return () if listed else UNDECIDED
    if found[0] == "undecided":
        return UNDECIDED
    values = [python_value(v) for v in found[1]]
    if listed:
        return tuple(sorted(values, key=str))
    return values[0] if len(values) == 1 else UNDECIDED


def _fixed(atom: clingo.Symbol, cone: list[clingo.Symbol]) -> tuple:
    """The other open facts of an answer's cone, each fixed one way: absent,
    or a valued one its first value. Not as the solver happens to find them:
    that depends on the rest of the program (the whole knowledge base or the
    selection), and so would the rules cited."""
    one = {d.signature for d in declarations() if d.status == "open" and d.one}
    fixed, first = [], set()
    for other in sorted(cone):
        if other == atom:
            continue
        valued = f"{other.name}/{len(other.arguments)}" in one
        key = (other.name, *other.arguments[:-1])
        fixed.append((other, valued and key not in first))
        if valued:
            first.add(key)
    return tuple(fixed)


def _sides(grounding: Grounding, atom: clingo.Symbol, others: tuple) -> list[list[clingo.Symbol]]:
    """One completion (its answers and bookkeeping) with this open atom held,
    then missing: where the values of an undecided answer it changes come
    from. The other open facts of the answer's cone as `others` fixes them
    where a completion allows it. A side no completion allows is left out."""
    sides = []
    for held in (True, False):
        for assumptions in ([*others, (atom, held)], [(atom, held)]):
            try:
                sides.append(grounding.solve(assumptions=assumptions))
                break
            except InconsistentSituation:
                continue
    return sides


def merged_steps(completions: list[list[Step]]) -> list[Step]:
    """The steps of several completions, each once in the order met; an
    exception (or the rule it blocked) that some completions have and others
    not only may apply."""
    merged: list[Step] = []
    for steps in completions:
        merged += _new(merged, steps)
    every = set.intersection(*(set(steps) for steps in completions)) if completions else set()
    maybe = {EXCEPTION: MAY_APPLY, BLOCKED: MAY_BLOCK}
    return [step._replace(role=maybe[step.role]) if step.role in maybe and step not in every else step
            for step in merged]


def _new(existing: list, steps: list) -> list:
    return [s for s in steps if s not in existing]


def holds(expected: object, answer: Answer) -> bool:
    """Does the answer match an `expect` line's value?"""
    if isinstance(expected, Distribution):
        actual = answer.distribution or ({hashable_value(answer.value): 1} if answer.value is not None else {})
        return {_key(v): c for v, c in expected.outcomes} == {_key(v): c for v, c in actual.items()}
    if expected is UNDECIDED:
        return answer.value is None and not answer.distribution and bool(answer.undecided)
    actual = answer.value
    if actual is None:
        return False
    if isinstance(expected, tuple):
        return isinstance(actual, list) and sorted(map(str, actual)) == sorted(expected)
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if _is_number(expected) and _is_number(actual):
        return expected == actual  # int and Fraction compare exactly

    return str(expected) == str(actual)


def _is_number(value: object) -> bool:
    """An int or a Fraction, not a bool (without importing fractions)."""
    return not isinstance(value, bool) and hasattr(value, "denominator")


def hashable_value(value: object) -> object:
    """A value as a distribution key: a list becomes a tuple."""
    return tuple(value) if isinstance(value, list) else value


def _key(value: object) -> str:
    """A value as one comparable word: yes/no, a number in lowest terms, a keyword, a sorted list."""
    if value is UNDECIDED:
        return "undecided"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(sorted(map(str, value))) + "]"
    if _is_number(value):
        return f"{value.numerator}/{value.denominator}"
    return str(value)
