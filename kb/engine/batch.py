"""Many situations in one ground-and-solve (aslkb check's fast path): the
engine's half, which grounds and solves and gives atoms; kb/answers/batch.py
reads them into answers.

Every atom of the knowledge base's rules gets the situation it belongs to as
a first argument (`unit(C, "G1", german, squad)`), through clingo's AST, and
every rule reads a guard, `_on(C, K)`: K stands for the situations whose own
selection holds the rule, so each situation grounds just the rules its
questions reach, as the ordinary path would (before the guards, a situation
grounded every rule any other of its chunk reached: half again the atoms). The
situations of a chunk, of any edition and interpretations, then ground
together, each in its own corner of one model, and a check pays for clingo
reading the rules once per chunk instead of once per file.
"""
from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import clingo
from clingo import ast

from aslkb.base import diskcache
from aslkb.base.errors import TooManyRolls, UnalignedDice
from aslkb.engine.odds import Outcome, tally
from aslkb.engine.solve import ROLLS, GroundRules, grounded, new_control, one_model, two_dice_facts
from aslkb.knowledge.declarations import choices_program, open_signatures, open_templates
from aslkb.knowledge.patterns import holds_directive
from aslkb.knowledge.program import BOOKKEEPING, KnowledgeBase, files_signature, knowledge_base
from aslkb.knowledge.rulefiles import rule_files

CASE = "Case__"  # the variable that carries the situation through every rule


# A tagged rule's guard as clingo prints it, with the placeholder a chunk
# replaces by the number of the situations that select the rule (guarded()).
GUARD = "_on(Case__,_guard)"


@cache
def tagged_statements(kb: KnowledgeBase) -> list[str]:
    """Each statement of the knowledge base as a plain rule (no bookkeeping)
    with every atom tagged by its situation and the guard GUARD in its body;
    "" for one that has none. Cached on disk beside the knowledge base, and
    once per process (the workers of a check inherit it)."""
    signature = cache_signature(kb)
    tagged = _checked(diskcache.load("guarded", signature), "tagged rules")
    if not isinstance(tagged, list):
        tagged = _tag_statements(kb)
        diskcache.store("guarded", signature, tagged)
    return tagged


def _checked(texts, what: str):
    """Program text read back from the disk cache, checked for directives
    again as the rule files were (an entry forged with this user's key):
    None, to be made anew, when one is there."""
    if isinstance(texts, list) and holds_directive(texts):
        diskcache.warn(f"the cached {what} hold an #include or #script: they are made anew")
        return None
    return texts


def _tag_statements(kb: KnowledgeBase) -> list[str]:
    tagged = []
    for i in range(len(kb.data["rule"])):
        plain = [line for line in kb.pieces.text(i).splitlines() if line and not line.startswith(BOOKKEEPING)]
        out: list[str] = []
        ast.parse_string("\n".join(plain), lambda statement: out.append(str(_tag(statement, guard=True))))
        tagged.append("\n".join(line for line in out if not line.startswith("#program")))
        assert not tagged[-1] or GUARD in tagged[-1], tagged[-1]  # guarded() replaces it
    return tagged


def guarded(tagged: list[str], selections: dict[int, Sequence[int]]) -> tuple[str, list[clingo.Symbol]]:
    """The program for situations that select these statements (each
    situation's selection, by its number in the chunk), and the guard
    facts: the statements selected by the same situations share a guard
    number K, and `_on(C, K)` holds for each of them."""
    users: dict[int, list[int]] = {}  # statement -> the distinct selections that hold it
    distinct: dict[frozenset, list[int]] = {}  # a selection -> the situations that make it
    for case, selection in selections.items():
        distinct.setdefault(frozenset(selection), []).append(case)
    for number, selection in enumerate(distinct):
        for i in selection:
            users.setdefault(i, []).append(number)
    keys: dict[tuple[int, ...], int] = {}
    lines = []
    for i in sorted(users):  # file order, as a selection reads
        if tagged[i]:
            key = keys.setdefault(tuple(users[i]), len(keys))
            lines.append(tagged[i].replace(GUARD, f"_on({CASE},{key})"))
    cases = list(distinct.values())
    facts = [_on(case, key) for numbers, key in keys.items() for number in numbers for case in cases[number]]
    return "\n".join(lines), facts


@lru_cache(maxsize=1 << 15)
def _on(case: int, key: int) -> clingo.Symbol:
    """A guard fact: mostly the same few thousand in every chunk of a
    process (the situation's number in its chunk, the guard's number)."""
    return clingo.Function("_on", [clingo.Number(case), clingo.Number(key)])


def _tag(statement, guard: bool = False):
    """The statement with the situation as every atom's first argument; with
    `guard`, a rule reads GUARD first (which binds the situation), else a
    rule with no positive atom to bind it reads `_case(C)`."""
    from clingo.ast import ASTType, Sign  # lazy: clingo.ast, about 3 ms to import, only where this runs
    from clingox.ast import rewrite_symbolic_atoms  # lazy: clingo.ast, about 3 ms to import, only where this runs

    def _with_case(term):
        loc = term.location
        case = ast.Variable(loc, CASE)
        if term.ast_type == ASTType.Pool:
            return term.update(arguments=[_with_case(t) for t in term.arguments])
        if term.ast_type == ASTType.Function:
            return term.update(arguments=[case, *term.arguments])
        if term.ast_type == ASTType.SymbolicTerm:  # a constant atom: night
            return ast.Function(loc, str(term.symbol), [case], 0)
        return term

    if statement.ast_type == ASTType.ShowSignature:
        return statement.update(arity=statement.arity + 1)
    if statement.ast_type == ASTType.External:  # its condition binds the situation
        return rewrite_symbolic_atoms(statement, _with_case)
    if statement.ast_type != ASTType.Rule:
        return statement
    tagged = rewrite_symbolic_atoms(statement, _with_case)
    loc = statement.location
    if guard:
        on = ast.SymbolicAtom(ast.Function(loc, "_on", [ast.Variable(loc, CASE),
                                                         ast.SymbolicTerm(loc, clingo.Function("_guard"))], 0))
        return tagged.update(body=[ast.Literal(loc, Sign.NoSign, on), *tagged.body])
    positive = any(l.ast_type == ASTType.Literal and l.sign == Sign.NoSign
                   and l.atom.ast_type == ASTType.SymbolicAtom for l in tagged.body)
    if not positive:
        case_atom = ast.SymbolicAtom(ast.Function(loc, "_case", [ast.Variable(loc, CASE)], 0))
        tagged = tagged.update(body=[ast.Literal(loc, Sign.NoSign, case_atom), *tagged.body])
    return tagged


# The unknowns of kb/engine/solve.py for a batch: every missing die takes each face,
# every open fact the declarations allow may hold (kb/engine/unknowns.py); tagged
# like the rules, so each situation's completions stay its own.
_DICE_DECIDE = """
_rolled(N, S) :- roll_needed(N, S, _), not _stated(N, S).
""" + ROLLS


# The same for a second look at some situations (SecondLook): a die is rolled
# only where it is counted (an external, as kb/engine/solve.py's `_counted`),
# so that a situation's odds are enumerated over just the dice its answer
# depends on, the other dice of the look not rolled.
_DICE_COUNTED = """
#external _counted(N, S) : roll_needed(N, S, _).
_rolled(N, S) :- roll_needed(N, S, _), not _stated(N, S), _counted(N, S).
""" + ROLLS


@cache
def tagged_unknowns(counted: bool = False) -> str:
    """The unknowns' program tagged (`counted`: for a SecondLook). Cached
    on disk beside the tagged rules (the declarations are rule files): each
    worker of a check took about 25 ms to tag it again."""
    signature = cache_signature(knowledge_base())
    both = _checked(diskcache.load("tagged-unknowns", signature), "tagged unknowns")
    if not isinstance(both, list) or len(both) != 2:
        both = [_tag_unknowns(_DICE_DECIDE), _tag_unknowns(_DICE_COUNTED)]
        diskcache.store("tagged-unknowns", signature, both)
    return both[counted]


def _tag_unknowns(dice: str) -> str:
    out: list[str] = []
    ast.parse_string(dice + choices_program(), lambda statement: out.append(str(_tag(statement))))
    return "\n".join(line for line in out if not line.startswith("#program"))


def solve_batch(program: str, situations: Sequence[Sequence[tuple[str, Sequence[clingo.Symbol]]]],
                guards: Sequence[clingo.Symbol] = ()) -> list[Solved]:
    """For each situation's facts (name, arguments), under the program
    guarded() gives with its guards: the answer/2 and
    undecided/2 atoms of one completion of its unknowns (untagged), the
    queries whose atoms differ in another completion, and whether a die is
    missing.

    Rather than enumerate the brave and cautious consequences of a whole
    chunk (a model for each atom some completion adds), the solver is asked
    for a completion in which a query not yet known to vary differs from
    the first model; each such model names at least one more, and the last
    solve, finding none, proves the rest decided. The first model leaves
    the open facts out (clasp's default sign); the next ones are sought
    with the opposite sign, then the other ways round (SEEK_SIGNS), without
    clasp's saved phases, so that one model changes many situations' answers
    at once: about six solves a chunk, where one for each answer that varies
    took about 25 a 64-situation chunk."""
    facts = [fact for index, atoms in enumerate(situations) for fact in _tagged_facts(index, atoms)]
    facts += guards
    facts += _shared_facts()
    control = grounded(lambda c: c.add("base", [], program + tagged_unknowns() + _TWO_DICE + _SEEK), facts, 1)
    solver = control.configuration.solver
    solver.save_progress = "0"  # a saved phase would keep the next model close to the first
    first = one_model(control)
    if first is None:
        raise ValueError("no model")  # some situation is inconsistent: the caller checks them one by one
    found = [Solved([], set(), False) for _ in situations]
    for atom in first:  # _val(C, Q, a(V)) or _val(C, Q, u(R))
        case, query, value = atom.arguments
        control.assign_external(clingo.Function("_first", [case, query, value]), True)
        found[case.number].atoms.append(clingo.Function("answer" if value.name == "a" else "undecided",
                                                        [query, value.arguments[0]]))
    for atom in control.symbolic_atoms.by_signature("_rolled", 3):
        found[atom.symbol.arguments[0].number].dice_missing = True
    control.assign_external(clingo.Function("_seek"), True)
    for sign in itertools.chain(SEEK_SIGNS, itertools.repeat(SEEK_SIGNS[-1])):
        solver.sign_def = sign
        model = one_model(control)
        if model is None:
            break
        for atom in model:  # _new(C, Q): a query of case C that differs from the first model
            case, query = atom.arguments
            found[case.number].varying.add(query)
            control.assign_external(clingo.Function("_varying", [case, query]), True)
    return found


def _tagged_facts(index: int, atoms: Sequence[tuple[str, Sequence[clingo.Symbol]]]) -> list[clingo.Symbol]:
    """A situation's facts with its number as every atom's first argument,
    and what the unknowns read of them (engine.dice_facts), tagged alike:
    its stated rolls, its given open facts. (Which rolls take two dice is
    the same for every situation: _TWO_DICE, not a copy for each.)"""
    opened = open_signatures()
    function = clingo.Function
    case = clingo.Number(index)
    facts = [function("_case", [case])]
    add = facts.append
    for name, args in atoms:  # one pass: a chunk has some 8,000 facts
        add(function(name, [case, *args]))
        if name == "roll":
            add(function("_stated", [case, args[0], args[1]]))
        if (name, len(args)) in opened:
            add(function("given", [case, function(name, args)]))
    return facts


# Which rolls take two dice (engine.two_dice_facts), once for a chunk: every
# situation reads them (`_two_dice(C, N)` in the tagged unknowns), where a
# tagged copy for each was some 900 facts of a chunk's 9,000.
_TWO_DICE = "\n_two_dice(C, N) :- _case(C), _two_dice_roll(N).\n"


@cache
def _shared_facts() -> list[clingo.Symbol]:
    return [clingo.Function("_two_dice_roll", f.arguments) for f in two_dice_facts()]


class SecondLook:
    """Some situations of a chunk grounded again, each with the rules the
    ordinary path grounds for it (its questions reach and its facts let
    fire: guarded() with those selections), the ground rules recorded (an
    observer, as kb/engine/unknowns.py's cone): where an answer that varies
    has a missing die, what its ground dependency cone holds, and its odds.

    A situation's cone here is its cone on the ordinary path. No die in it:
    the answer varies with open facts alone, and the ordinary path says it is
    undecided and names them. Dice and no open fact (pure dice): the odds are
    enumerated here, as kb/answers/ask.py's _with_odds does (the dice of the
    cone counted, the others not rolled), each combination of the dice once
    (the models projected on the situation's dice and answers: _ENUMERATE)."""

    def __init__(self, program: str, situations: dict[int, Sequence[tuple[str, Sequence[clingo.Symbol]]]],
                 guards: Sequence[clingo.Symbol]):
        self.control = new_control("--project=project")
        self.rules = GroundRules()
        self.control.register_observer(self.rules)
        self.control.add("base", [], program + tagged_unknowns(counted=True) + _TWO_DICE + _ENUMERATE)
        with self.control.backend() as backend:
            for index, atoms in situations.items():
                for symbol in _tagged_facts(index, atoms):
                    backend.add_rule([backend.add_atom(symbol)])
            for symbol in [*guards, *_shared_facts()]:
                backend.add_rule([backend.add_atom(symbol)])
        self.control.ground([("base", [])])
        atoms = self.control.symbolic_atoms
        # the atoms unknowns() reads of a cone (dice counted, open facts), not all of them
        read = [("_counted", 3), *((name, arity + 1) for name, arity in sorted(open_signatures()))]
        self.symbols = {atom.literal: atom.symbol for name, arity in read
                        for atom in atoms.by_signature(name, arity) if not atom.is_fact}
        self.heads: dict[tuple[int, clingo.Symbol], list[int]] = {}
        for name in ("answer", "undecided"):
            for atom in atoms.by_signature(name, 3):
                case, query = atom.symbol.arguments[:2]
                self.heads.setdefault((case.number, query), []).append(atom.literal)

    def unknowns(self, case: int, query: clingo.Symbol) -> tuple[frozenset, bool]:
        """The missing rolls (name, subject) in the cone of a situation's
        answer, and whether an open fact is there too (one a declaration may
        open: kb/engine/unknowns.py unknowns_of)."""
        opened = open_templates()
        rolls, open_fact = set(), False
        for literal in self.rules.cone(self.heads.get((case, query), [])):
            symbol = self.symbols.get(literal)
            if symbol is None:
                continue
            name, args = symbol.name, symbol.arguments
            if name == "_counted" and len(args) == 3:
                rolls.add((args[1], args[2]))
            elif f"{name}/{len(args) - 1}" in opened and self.control.symbolic_atoms[
                    clingo.Function("open", [args[0], clingo.Function(name, args[1:])])] is not None:
                open_fact = True
        return frozenset(rolls), open_fact

    def outcomes(self, case: int, rolls: frozenset, queries: Iterable[clingo.Symbol]) -> list[Outcome] | None:
        """The outcomes (each combination of these missing rolls, with the
        answer atoms of these queries under it) of a situation whose answers
        only these rolls change, in the order kb/answers/ask.py's _with_odds
        reads them (the values as the dice first give them); None where there
        are too many combinations or the dice do not add up."""
        number = clingo.Number(case)
        switches = [clingo.Function("_counted", [number, *roll]) for roll in rolls]
        switches.append(clingo.Function("_enumerate", [number]))
        for switch in switches:
            self.control.assign_external(switch, True)
        self.control.configuration.solve.models = "0"
        try:
            with self.control.solve(yield_=True) as handle:
                outcomes = tally(([clingo.Function(_UNSHOWN[a.arguments[1].name], a.arguments[1].arguments)
                                   for a in model.symbols(shown=True)] for model in handle), queries)
        except (TooManyRolls, UnalignedDice, AssertionError):
            return None
        finally:
            for switch in switches:
                self.control.assign_external(switch, False)
        return sorted(outcomes, key=lambda o: sorted(map(str, o.dice)))


# What SecondLook.outcomes enumerates: one situation's dice and answers, the models
# projected on them (`#project`): the others' atoms are false while that one
# situation is switched on, so what the rest leaves free multiplies nothing.
_ENUMERATE = """
#external _enumerate(C) : _case(C).
_shown(C, d(N, S, K, F)) :- _chosen(C, N, S, K, F), _enumerate(C).
_shown(C, a(Q, V)) :- answer(C, Q, V), _enumerate(C).
_shown(C, u(Q, R)) :- undecided(C, Q, R), _enumerate(C).
#project _shown/2.
#show.
#show _shown/2.
"""
_UNSHOWN = {"d": "_chosen", "a": "answer", "u": "undecided"}


# The default sign of each solve that seeks a difference: the open facts the
# first model leaves out held, then left out again, then at random (clasp's
# seed: the same models run after run). Only the number of solves depends on
# it, never what they find.
SEEK_SIGNS = ("pos", "neg", "rnd")


@dataclass
class Solved:
    atoms: list[clingo.Symbol]  # answer/2 and undecided/2 of one completion
    varying: set[clingo.Symbol]  # the queries whose atoms another completion changes
    dice_missing: bool  # some rule may need a roll the situation does not give


# A query's value in a model is the set of its _val atoms; with _seek on, a
# model must change the value of a query not yet known to vary, and shows
# only those (_new), where the first model shows every value.
_SEEK = """
_val(C, Q, a(V)) :- answer(C, Q, V).
_val(C, Q, u(R)) :- undecided(C, Q, R).
_asked(C, Q) :- query(C, Q).
#external _first(C, Q, X) : _val(C, Q, X).
#external _varying(C, Q) : _asked(C, Q).
#external _seek.
_differs(C, Q) :- _val(C, Q, X), not _first(C, Q, X).
_differs(C, Q) :- _first(C, Q, X), not _val(C, Q, X).
_new(C, Q) :- _differs(C, Q), _asked(C, Q), not _varying(C, Q).
_new_difference :- _new(C, Q).
:- _seek, not _new_difference.
#show.
#show _val(C, Q, X) : _val(C, Q, X), not _seek.
#show _new(C, Q) : _new(C, Q), _seek.
"""


def cache_signature(kb: KnowledgeBase) -> str:
    """The disk cache's name for what this module makes of the knowledge base
    (tagged rules and unknowns, selections; and check's files that left the
    batches, kb/tools/check.py): the rule files' signature and
    this file's own, since the tagging and the dice programs are written here."""
    return f"{kb.signature or files_signature(rule_files())}-{_this_file()}"


@cache
def _this_file() -> str:
    stat = os.stat(__file__)
    return f"{stat.st_mtime_ns:x}-{stat.st_size:x}"


