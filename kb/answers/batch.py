"""Many situations answered together (aslkb check's fast path): the
answers' half. kb/engine/batch.py grounds and solves a chunk and gives each
situation's atoms; here they become Results, and the selections each
situation grounds are kept between runs.

Only values are read here (a failed expectation is reported from them); the
rules behind an answer (kb/answers/read.py) are computed by the ordinary path
where they are asked for, and it answers what a batch cannot: odds beside a
gap or an open fact, an open fact to name, a situation that no model
satisfies (the odds of an answer only dice change are the batch's own:
SecondLook). Callers come through kb/answers/run.py, the one seam.
"""
from __future__ import annotations

from array import array
from collections.abc import Sequence
from hashlib import blake2b

import clingo

from aslkb.parser import UNDECIDED, Query, Situation

from aslkb.answers.ask import Checked, Result, answer_of, given_facts, holds, outcome_chances, query_facts
from aslkb.answers.read import VARIES, Answer, Derivations
from aslkb.base import diskcache
from aslkb.engine.batch import SecondLook, Solved, cache_signature, guarded, solve_batch, tagged_statements
from aslkb.engine.odds import Outcome
from aslkb.engine.solve import Settings, dice_facts, in_force_facts
from aslkb.knowledge.catalog import query_catalog
from aslkb.knowledge.patterns import symbol_pattern
from aslkb.knowledge.program import KnowledgeBase


# Situations per solve: large enough to share clingo's reading of the rules,
# small enough that the union of what they ask stays small. A worker's memory
# peaks with its chunk's ground program: `aslkb check` of 2,400 files peaked at
# 301 MB (every process) with 128, 212 MB with 64 and 179 MB with 32, in the
# same time with 64 and 10-15% more with 32 (2026-12-04).
CHUNK = 64


def answer_chunk(chunk: Sequence[tuple[Situation, Settings]], kb: KnowledgeBase,
                 whole: bool = False, expectations_only: bool = False) -> list[Result | None]:
    """The values of up to CHUNK situations, of any editions and
    interpretations, solved together: for each, its Result without
    citations, or None where the ordinary path must answer (a query whose
    answer varies with an open fact it must name, or with dice beside a gap
    or an open fact: SecondLook gives the odds of those only dice change).

    An `expect ... = undecided` whose answer varies with open facts alone
    holds without naming them: its Answer says only that it varies.
    `whole`: every rule of the edition, unselected; `expectations_only`:
    the `query` lines are not answered (kb/answers/run.py)."""
    asked = [{q.symbol for q in situation.queries} | {e.query.symbol for e in situation.expects}
             for situation, _ in chunk]
    facts = [[(fact.name, fact.args) for fact in given_facts(situation, settings, list(symbols))]
             for (situation, settings), symbols in zip(chunk, asked)]
    tagged = tagged_statements(kb)
    # each situation's rules are those its questions reach, not pruned by its facts:
    # the pruning costs more than it saves, and the selections are shared by many
    selections = {index: _reached(kb, settings, symbols, whole)
                  for index, ((_, settings), symbols) in enumerate(zip(chunk, asked))}
    program, guards = guarded(tagged, selections)
    try:
        solved_chunk = solve_batch(program, facts, guards)
    except ValueError:  # some situation is inconsistent: each one on its own
        return [None] * len(chunk)
    lines = [[] if expectations_only else situation.queries for situation, _ in chunk]  # their facts stay
    open_only = [({e.query.symbol for e in situation.expects if e.expected is UNDECIDED}
                  - {e.query.symbol for e in situation.expects if e.expected is not UNDECIDED}
                  - {q.symbol for q in asking}) for (situation, _), asking in zip(chunk, lines)]
    # an answer that varies where a die is missing: a second look at those situations
    # tells whether the die is in its cone, and gives its odds where only dice are
    answered = [{q.symbol for q in asking} | {e.query.symbol for e in situation.expects}
                for (situation, _), asking in zip(chunk, lines)]
    second = [index for index, solved in enumerate(solved_chunk)
              if solved.dice_missing and solved.varying & answered[index]]
    look = None
    if second:
        selected = {index: _looked(kb, *chunk[index], asked[index], whole) for index in second}
        program, guards = guarded(tagged, selected)
        look = SecondLook(program, {index: facts[index] for index in second}, guards)
    results: list[Result | None] = []
    for index, ((situation, settings), solved) in enumerate(zip(chunk, solved_chunk)):
        results.append(_result(situation, settings, solved, lines[index], open_only[index],
                               look if index in second else None, index, kb))
    return results


def _result(situation: Situation, settings: Settings, solved: Solved, lines: list[Query], open_only: set,
            look: SecondLook | None, index: int, kb: KnowledgeBase) -> Result | None:
    """A situation's Result from its share of the chunk (`lines`: the `query`
    lines answered), or None where the ordinary path must answer."""
    queries = {q.symbol: q for q in [*lines, *(e.query for e in situation.expects)]}
    answers: dict[clingo.Symbol, Answer] = {}
    by_dice: dict[frozenset, dict[clingo.Symbol, Query]] = {}  # the answers only these dice change
    for symbol, query in queries.items():
        if symbol not in solved.varying:
            continue
        rolls, open_fact = look.unknowns(index, symbol) if look is not None else (frozenset(), True)
        if not rolls and symbol in open_only:
            # an `expect = undecided` alone, no die in its cone: what varies is an
            # open fact, and the ordinary path says undecided (kb/answers/ask.py)
            answers[symbol] = Answer(query.text, None, undecided=[VARIES])
        elif rolls and not open_fact:
            by_dice.setdefault(rolls, {})[symbol] = query
        else:
            return None  # the unknowns to name, or odds beside open facts: the ordinary path
    for rolls, waiting in by_dice.items():
        outcomes = look.outcomes(index, rolls, waiting)
        odds = None if outcomes is None else _odds(outcomes, waiting)
        if odds is None:
            return None
        answers.update(odds)
    derivations = Derivations(solved.atoms, kb, frozenset())
    for symbol, query in queries.items():
        if symbol not in answers:
            answers[symbol] = answer_of(query, derivations, kb)
    return Result(situation, settings, [answers[q.symbol] for q in lines],
                  [Checked(e, answers[e.query.symbol], holds(e.expected, answers[e.query.symbol]))
                   for e in situation.expects])


def _odds(outcomes: list[Outcome], queries: dict[clingo.Symbol, Query]) -> dict[clingo.Symbol, Answer] | None:
    """The answers of these queries, which only the outcomes' dice change,
    with their exact odds; None where the ordinary path must say more (a
    share of the dice that decides nothing, and why)."""
    answers = {}
    for symbol, query in queries.items():
        listed = query_catalog()[query.name].answer == "list"
        chances, _ = outcome_chances(outcomes, symbol, listed)
        if UNDECIDED in chances:  # the reasons of that share: the ordinary path
            return None
        answer = Answer(query.text, None, missing_roll=True)
        if len(chances) > 1:
            answer.distribution = chances
        else:
            only = next(iter(chances))
            answer.value = list(only) if listed else only
        answers[symbol] = answer
    return answers


# A situation's selection by the patterns it asks (as KnowledgeBase.select
# reads them): the situations of a check ask the same questions of different
# facts, and select() remembers only its newest 64. Kept on disk between
# runs (remember_selections, keep_selections): each worker of a check made
# the selections its files need again, about a sixth of its time. The
# second look's selections (_looked: by the facts too) are kept with them.
# Each is an array of statement numbers, on disk its bytes: as tuples, the
# few hundred a check's cache holds took about 90 MB of every worker, an int
# object for each of some 900,000 numbers; as arrays they take 4 MB.
_REACHED: dict[tuple, array] = {}
_KEPT = {"signature": None, "size": 0}  # the knowledge base they belong to; how many the disk holds


def _reached(kb: KnowledgeBase, settings: Settings, asked: set[clingo.Symbol], whole: bool) -> Sequence[int]:
    """The statements a situation's questions reach (select() without its
    facts), or with `whole` every statement of its edition."""
    key = (settings.edition, tuple(settings.interpretations), whole,
           frozenset((q.name, symbol_pattern(q)) for q in asked))
    edition, interpretations = settings.edition, list(settings.interpretations)
    return _remembered(kb, key, lambda: (kb.whole(edition, interpretations) if whole else
                                         kb.select(edition, interpretations, sorted(asked))).statements)


def _looked(kb: KnowledgeBase, situation: Situation, settings: Settings, asked: set[clingo.Symbol],
            whole: bool) -> Sequence[int]:
    """The statements the ordinary path selects for a situation (its
    questions and its facts), for a second look; remembered with the
    selections by patterns, under the digest of the facts select() reads."""
    if whole:
        return tuple(kb.whole(settings.edition, list(settings.interpretations)).statements)
    facts = _ordinary_facts(situation, settings, asked)
    said = "\n".join(sorted(map(str, [*facts, *asked]))).encode()
    key = ("facts", settings.edition, tuple(settings.interpretations), blake2b(said, digest_size=20).hexdigest())
    return _remembered(kb, key, lambda: kb.select(settings.edition, list(settings.interpretations), sorted(asked),
                                                  facts).statements)


def _remembered(kb: KnowledgeBase, key: tuple, select) -> Sequence[int]:
    """The selection kept under `key`, made by `select()` if none is (the
    kept ones dropped when the knowledge base is another)."""
    signature = cache_signature(kb)
    if _KEPT["signature"] != signature:
        _REACHED.clear()
        _KEPT.update(signature=signature, size=0)
    found = _REACHED.get(key)
    if found is None:
        if len(_REACHED) >= 4096:  # a long-lived process answering many kinds of question
            _REACHED.clear()
        found = _REACHED[key] = array("I", select())
    return found


def remember_selections(kb: KnowledgeBase, again: bool = False) -> None:
    """The selections the disk cache keeps for this knowledge base, into
    this process (check's, before its workers fork; `again`: before a
    fresh worker forks, what the workers before it kept)."""
    signature = cache_signature(kb)
    if _KEPT["signature"] == signature and not again:
        return
    kept = _from_disk(diskcache.load("selections", signature))
    if kept is not None:
        if _KEPT["signature"] != signature:
            _REACHED.clear()
        _REACHED.update(kept)
        _KEPT.update(signature=signature, size=len(_REACHED))


def keep_selections(kb: KnowledgeBase) -> None:
    """Store this process's selections on disk if it made new ones (a
    worker of check, after a block), with those the disk holds already:
    two workers store theirs in turn. (Two storing at once: the last one's
    stay; a selection lost is made again next time.)"""
    signature = cache_signature(kb)
    if _KEPT["signature"] == signature and len(_REACHED) > _KEPT["size"]:
        kept = _from_disk(diskcache.load("selections", signature))
        if kept is not None and len(_REACHED) < 4096:
            _REACHED.update({key: value for key, value in kept.items() if key not in _REACHED})
        diskcache.store("selections", signature, {key: value.tobytes() for key, value in _REACHED.items()})
        _KEPT["size"] = len(_REACHED)


def _from_disk(kept) -> dict[tuple, array] | None:
    """The selections as the disk cache holds them (their bytes), as arrays;
    None for anything else (an older cache's tuples: made again)."""
    if not isinstance(kept, dict) or not all(isinstance(value, bytes) for value in kept.values()):
        return None
    selections = {}
    for key, value in kept.items():
        selections[key] = statements = array("I")
        try:
            statements.frombytes(value)
        except ValueError:  # not a whole number of them
            return None
    return selections


def _ordinary_facts(situation: Situation, settings: Settings, asked: set[clingo.Symbol]) -> list[clingo.Symbol]:
    """The facts the ordinary path selects a situation's rules by (kb/answers/ask.py)."""
    given = [*query_facts(situation, settings, list(asked)), *in_force_facts(settings)]
    return [*given, *dice_facts(given)]
