"""Ground and solve one situation. new_control() is the one place a clingo
Control is made (the authors' tools in kb/tools/ take theirs from it too)."""
from __future__ import annotations

import atexit
import functools
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

import clingo

from aslkb.base.errors import InconsistentSituation
from aslkb.knowledge.declarations import choices_program, open_signatures, open_templates
from aslkb.knowledge.demand import DEMAND
from aslkb.parser import catalog


class Settings(NamedTuple):
    edition: str
    interpretations: tuple[str, ...]  # in force, sorted


def solve(program: str, facts: Iterable[clingo.Symbol], settings: Settings) -> Sequence[clingo.Symbol]:
    """The answers and bookkeeping atoms of the single model of the program
    plus these facts and the interpretations in force."""
    return Grounding(program, [*facts, *in_force_facts(settings)]).solve()


def first_model(program: str) -> list[clingo.Symbol] | None:
    """The shown atoms of one model of a program of the rule files and an
    authors' tool's own rules (an invariant's search, never situation text),
    or None when it has none."""
    control = new_control("--models=1")
    control.add("base", [], program)
    control.ground([("base", [])])
    return one_model(control)


def one_model(control: clingo.Control) -> list[clingo.Symbol] | None:
    """The shown atoms of the next model a grounded control finds, or None when it has none."""
    with control.solve(yield_=True) as handle:
        for model in handle:
            return model.symbols(shown=True)
    return None


def ground_atoms(program: str, predicate: str, arity: int) -> list[clingo.Symbol]:
    """The atoms of one predicate that grounding a program of the rules'
    own facts gives (lint reads a declared table's rows so)."""
    control = new_control()
    control.add("base", [], program)
    control.ground([("base", [])])
    return [atom.symbol for atom in control.symbolic_atoms.by_signature(predicate, arity)]


def ground_statements(statements: Iterable, facts: Iterable[clingo.Symbol]) -> clingo.Control:
    """A grounded Control for statements built as clingo AST (never from text):
    the why-not diagnosis reads what its rules derive from the facts."""
    from clingo import ast  # lazy: clingo.ast costs a cold query about 3 ms, and it grounds no AST

    def add(control: clingo.Control) -> None:
        with ast.ProgramBuilder(control) as builder:
            for statement in statements:
                builder.add(statement)

    return grounded(add, facts, 1)


def new_control(*options: str, logger=None) -> clingo.Control:
    """A clingo Control with these command-line options; warnings stay quiet
    (the rules' authors read them through `aslkb lint`) unless a `logger`
    collects clingo's messages."""
    control = clingo.Control(["--warn=none", *options], logger=logger)
    if _kept is not None:
        _kept.append(control)
    return control


_kept: list[clingo.Control] | None = None


def keep_controls() -> None:
    """Leave every Control made from now on for the end of the process to
    free: for a command that makes a few and then ends with os._exit (a cold
    `aslkb query` spends about 2 ms freeing one's ground program otherwise)."""
    global _kept
    if _kept is None:
        _kept = []


# Statements of a program (one a line, as kb/knowledge/program.py writes
# them) that clingo parsed before in this process, as its AST: handed to it
# through a ProgramBuilder they cost less than half their text's parsing (a
# second question in the process, a test suite, check's files that leave its
# batches, the web service). A line is parsed into AST the second time it is
# seen: a cold query sees each once and pays nothing more (nor imports
# clingo.ast). The most recently used few thousand are kept (about 4 KB
# each). A line that is not one whole statement is kept as None: it stays text.
_parsed: dict[str, object] = {}
_seen: dict[str, None] = {}
_KEPT = 3000
_freed_at_exit = False


def add_statements(control: clingo.Control, program: str) -> None:
    """Add a program of one statement a line to the base part, in order."""
    lines = program.split("\n")
    if not _seen and not _parsed:  # the process's first program
        _seen.update(dict.fromkeys(lines))
        control.add("base", [], program)
        return
    if again := [line for line in lines if line in _seen]:
        _parse(again)
    known = [line for line in lines if _parsed.get(line) is not None]
    for line in known:  # the most recently used last: the first are dropped
        _parsed[line] = _parsed.pop(line)
    while len(_parsed) > _KEPT:
        del _parsed[next(iter(_parsed))]
    fresh = [line for line in lines if line not in _parsed]
    if len(_seen) + len(fresh) > 4 * _KEPT:
        _seen.clear()
    _seen.update(dict.fromkeys(fresh))
    if not known:
        control.add("base", [], program)
        return
    from clingo import ast  # lazy: clingo.ast costs a cold query about 3 ms, and it grounds no AST

    # in the program's order: each run of parsed statements through a builder, each other run as text
    start = 0
    while start < len(lines):
        parsed = _parsed.get(lines[start]) is not None
        end = start + 1
        while end < len(lines) and (_parsed.get(lines[end]) is not None) == parsed:
            end += 1
        if parsed:
            with ast.ProgramBuilder(control) as builder:
                for line in lines[start:end]:
                    builder.add(_parsed[line])
        else:
            control.add("base", [], "\n".join(lines[start:end]))
        start = end


def _parse(lines: list[str]) -> None:
    """Keep each line's statement as AST (clingo parses them as one text)."""
    from clingo import ast  # lazy: clingo.ast costs a cold query about 3 ms, and it grounds no AST

    global _freed_at_exit
    if not _freed_at_exit:  # before the interpreter's teardown, which frees clingo's library first
        atexit.register(_parsed.clear)
        _freed_at_exit = True

    found: dict[int, list] = {}

    def collect(statement) -> None:
        if statement.ast_type != ast.ASTType.Program:
            found.setdefault(statement.location.begin.line, []).append(statement)

    try:
        ast.parse_string("\n".join(lines), collect, logger=lambda _code, _message: None)
    except RuntimeError:  # not clingo's to parse alone: the lines stay text
        found.clear()
    for number, line in enumerate(lines, 1):
        statements = found.get(number, ())
        whole = len(statements) == 1 and statements[0].location.end.line == number \
            and statements[0].ast_type != ast.ASTType.Comment
        _parsed[line] = statements[0] if whole else None
        _seen.pop(line, None)


def grounded(add_program, facts: Iterable[clingo.Symbol], limit: int) -> clingo.Control:
    control = new_control(f"--models={limit}")
    add_program(control)
    with control.backend() as backend:
        for symbol in facts:
            backend.add_rule([backend.add_atom(symbol)])
    control.ground([("base", [])])
    return control


# The engine's own program (never situation text) beside the rules of one
# situation: the unknowns. A missing die takes each face (`_counted` is an
# external, true unless kb/engine/odds.py narrows the dice to one query's), and an
# open fact the declarations (rules/common/unknowns.lp) let a rule look at
# may hold or not (kb/engine/unknowns.py adds one choice per open predicate). The
# bookkeeping is shown only for the solves that cite rules.
# A rolled die takes each face (kb/engine/batch.py's batches roll theirs alike).
ROLLS = """
_face(1..6).
1 { _chosen(N, S, colored, F) : _face(F) } 1 :- _rolled(N, S), _two_dice(N).
1 { _chosen(N, S, white, F) : _face(F) } 1 :- _rolled(N, S), _two_dice(N).
1 { _chosen(N, S, dr, F) : _face(F) } 1 :- _rolled(N, S), not _two_dice(N).
roll(N, S, K, F) :- _chosen(N, S, K, F).
"""
_DICE = """
#external _counted(N, S) : roll_needed(N, S, _). [true]
#external _explain.
_rolled(N, S) :- roll_needed(N, S, _), not _stated(N, S), _counted(N, S).
""" + ROLLS + """
#show _chosen/4.
#show answer/2. #show undecided/2.
#show _why(I, H, P, N) : _cited(I, H, P, N), _explain.
#show _agg(I, H, E) : _agg(I, H, E), _why(H), _explain.
#show _looks(I, H, P) : _looks(I, H, P), _why(H), _explain.
#show _blocked(I, H, N) : _blocked(I, H, N), _explain.
#show _excluded(I, H, N) : _excluded(I, H, N), _why(H), _explain.
"""


def unknowns_program() -> str:
    """The engine's program of the unknowns: a missing die takes each face,
    an open fact may hold or not (each solve of a situation has it)."""
    return _DICE + choices_program()


def dice_facts(facts: Sequence[clingo.Symbol],
               signatures: Iterable[tuple[str, int]] | None = None) -> list[clingo.Symbol]:
    """What the unknowns' program reads of a situation: the rolls it states,
    which roll names take two dice, and `given(F)` for each stated fact of a
    kind the declarations may open (so that a declaration can tell a stated
    fact from one its choice gives). `signatures`: each fact's name and
    arity, in order, where the caller has them (the parser's Fact.name and
    args): read from a symbol, each is a call into clingo (some 40 ms of
    29,000 facts)."""
    return [*stated_dice_facts(facts, signatures), *two_dice_facts()]


def stated_dice_facts(facts: Sequence[clingo.Symbol],
                      signatures: Iterable[tuple[str, int]] | None = None) -> list[clingo.Symbol]:
    """dice_facts without the roll names that take two dice: only what these
    facts themselves make the unknowns' program read (kb/engine/conflict.py
    ties them to the line that states them)."""
    opened = open_signatures()
    kinds = {name for name, _ in opened}
    if signatures is None:
        signatures = ((f.name, -1) for f in facts)  # the arity read only for a kind that may be opened
    stated, given = set(), []
    for f, (name, arity) in zip(facts, signatures, strict=True):  # out of step: an error, not a wrong fact
        if name == "roll":
            stated.add((f.arguments[0], f.arguments[1]))
        if name in kinds and (name, len(f.arguments) if arity < 0 else arity) in opened:
            given.append(clingo.Function("given", [f]))
    return [*(clingo.Function("_stated", [n, subject]) for n, subject in stated), *given]


@functools.cache
def two_dice_facts() -> list[clingo.Symbol]:
    """`_two_dice(Name)` for each roll that is a DR (queries/catalog.toml)."""
    return [clingo.Function("_two_dice", [clingo.Function(name)])
            for name in catalog.roll_names() if catalog.roll(name)["dice"] == "DR"]


class GroundRules:
    """The ground program as clingo hands it to the solver (an observer):
    for each atom, the bodies of the rules that can derive it, and which
    atoms a choice rule leaves open. kb/engine/unknowns.py walks it back from an
    answer to the unknowns the answer can depend on."""

    def __init__(self) -> None:
        self.bodies: dict[int, list[Sequence[int]]] = {}
        self.chosen: set[int] = set()

    def rule(self, choice: bool, head: Sequence[int], body: Sequence[int]) -> None:
        for atom in head:
            self.bodies.setdefault(atom, []).append(body)
        if choice:
            self.chosen.update(head)

    def weight_rule(self, choice: bool, head: Sequence[int], _lower: int, body: Sequence[tuple[int, int]]) -> None:
        self.rule(choice, head, [literal for literal, _ in body])

    def cone(self, atoms: Iterable[int]) -> set[int]:
        """Every atom the given atoms' truth can depend on, themselves included."""
        seen: set[int] = set()
        todo = [abs(a) for a in atoms]
        while todo:
            atom = todo.pop()
            if atom in seen:
                continue
            seen.add(atom)
            for body in self.bodies.get(atom, ()):
                todo.extend(abs(literal) for literal in body if abs(literal) not in seen)
        return seen


class Grounding:
    """One situation's program with its unknowns, grounded once (multi-shot).
    kb/engine/unknowns.py asks which values each query takes over every completion
    of the unknowns (brave and cautious consequences); kb/engine/odds.py enumerates
    the faces of just the dice one query depends on; the rules behind a value
    come from a solve under assumptions on the same grounding."""

    def __init__(self, program: str, facts: Sequence[clingo.Symbol], observe: bool = False,
                 cite: bool = True, dice_facts_given: Sequence[clingo.Symbol] | None = None,
                 records: str | None = None):
        """The unknowns are always part of the grounding. `observe`: record the ground rules
        (GroundRules), which only an answer that varies needs (observed()).
        `cite`: the program has bookkeeping (kb/knowledge/reify.py); a solve
        that explains shows the records the answers can cite (DEMAND).
        `dice_facts_given`: dice_facts(facts), where the caller has read them already.
        `records`: the records as a part of their own (KnowledgeBase.records), grounded
        after the program, which then has none (kb/knowledge/targeted.py)."""
        self.program, self.facts, self.records = program, facts, records
        self.cite = cite or records is not None
        self.dice_facts = dice_facts(facts) if dice_facts_given is None else dice_facts_given
        self.rules = GroundRules() if observe else None
        self.control = new_control("--models=1")
        if self.rules is not None:
            self.control.register_observer(self.rules)
        add_statements(self.control, program)
        self.control.add("base", [], unknowns_program() + (DEMAND if cite and records is None else ""))
        with self.control.backend() as backend:
            for symbol in [*facts, *self.dice_facts]:
                backend.add_rule([backend.add_atom(symbol)])
        self.control.ground([("base", [])])
        if records is not None:
            self.control.add("records", [], records)
            self.control.ground([("records", [])])
        self._atoms: dict[int, clingo.Symbol] | None = None
        self._unknown: list[clingo.Symbol] | None = None
        # the one model's answers and records, where nothing is unknown (consequences)
        self._only_model: list[clingo.Symbol] | None = None

    def observed(self) -> Grounding:
        """This grounding with its ground rules recorded (grounded again if they were not)."""
        return self if self.rules is not None else \
            Grounding(self.program, self.facts, observe=True, cite=self.cite, dice_facts_given=self.dice_facts,
                      records=self.records)

    def unknown_atoms(self) -> list[clingo.Symbol]:
        """The atoms a choice may make true: the missing dice and the open facts
        (not an atom that only a body mentions: no rule can make it true, its
        solver literal is 0)."""
        if self._unknown is None:  # the grounding does not change: read once
            self._unknown = []
            for signature in ["_chosen/4", *open_templates()]:
                name, arity = signature.rsplit("/", 1)
                self._unknown += [a.symbol for a in self.control.symbolic_atoms.by_signature(name, int(arity))
                                  if not a.is_fact and a.literal != 0
                                  and (name == "_chosen" or self.may_open(a.symbol))]
        return self._unknown

    def may_open(self, atom: clingo.Symbol) -> bool:
        """An atom of an open kind is an unknown only where a declaration may
        open it (`open(Atom)` grounded): one a rule only reads under `not` is
        not (the grounder keeps it, since the kind has a choice rule)."""
        return self.control.symbolic_atoms[clingo.Function("open", [atom])] is not None

    def symbols(self) -> dict[int, clingo.Symbol]:
        """Program atom -> symbol, for the atoms that are not facts."""
        if self._atoms is None:
            self._atoms = {a.literal: a.symbol for a in self.control.symbolic_atoms if not a.is_fact}
        return self._atoms

    def literal(self, symbol: clingo.Symbol) -> int | None:
        found = self.control.symbolic_atoms[symbol]
        return found.literal if found is not None else None

    def solve(self, dice: Sequence[clingo.Symbol] = (), explain: bool = True,
              assumptions: Sequence[tuple[clingo.Symbol, bool]] = (),
              every_atom: bool = False) -> Sequence[clingo.Symbol]:
        """The answers (and with `explain` the bookkeeping atoms; with
        `every_atom` every atom) of one completion of the unknowns: these
        `_chosen` dice and assumptions, the rest as the solver finds them."""
        if explain and not dice and not assumptions and not every_atom and self._only_model is not None:
            return self._only_model
        self.control.assign_external(clingo.Function("_explain"), explain)
        try:
            wanted = [*((d, True) for d in dice), *assumptions]
            with self.control.solve(assumptions=wanted, yield_=True) as handle:
                for model in handle:
                    return [a for a in model.symbols(atoms=every_atom, shown=not every_atom)
                            if a.name != "_chosen"]
        finally:
            self.control.assign_external(clingo.Function("_explain"), False)
        raise InconsistentSituation("no model satisfies the situation and the rules")

    def consequences(self, mode: str, assumptions: Sequence[tuple[clingo.Symbol, bool]] = ()
                     ) -> Sequence[clingo.Symbol] | None:
        """The shown atoms true in some completion (`brave`) or in every one
        (`cautious`) under the assumptions, or of one model (`auto`); None
        when none satisfies them."""
        config = self.control.configuration.solve
        config.enum_mode, config.models = mode, "0" if mode != "auto" else "1"
        # with nothing unknown the program has one model: it shows its records
        # too, and the solve that explains (solve()) is this one
        only = mode == "auto" and not assumptions and self.cite and not self.unknown_atoms()
        if only:
            self.control.assign_external(clingo.Function("_explain"), True)
        try:
            last = None
            with self.control.solve(assumptions=list(assumptions), yield_=True) as handle:
                for model in handle:
                    last = model.symbols(shown=True)
            if only and last is not None:
                self._only_model = last
            return last
        finally:
            config.enum_mode, config.models = "auto", "1"
            if only:
                self.control.assign_external(clingo.Function("_explain"), False)

    def completion(self, assumptions: Sequence[tuple[clingo.Symbol, bool]], atoms: Sequence[clingo.Symbol]
                   ) -> list[tuple[clingo.Symbol, bool]] | None:
        """The values of these atoms in one model under the assumptions, as
        assumptions; None when no model satisfies them."""
        literals = [(atom, self.literal(atom)) for atom in atoms]
        with self.control.solve(assumptions=list(assumptions), yield_=True) as handle:
            for model in handle:
                return [(atom, model.is_true(literal)) for atom, literal in literals if literal is not None]
        return None

    def count_only(self, rolls: set[tuple[clingo.Symbol, clingo.Symbol]]) -> None:
        """Let only these missing rolls take their faces in the solves that follow."""
        for atom in self.control.symbolic_atoms.by_signature("_counted", 2):
            self.control.assign_external(atom.symbol, tuple(atom.symbol.arguments) in rolls)

    def every_atom(self, assumptions: Sequence[tuple[clingo.Symbol, bool]] = ()) -> Sequence[clingo.Symbol]:
        """Every atom of one completion of the open facts under the assumptions,
        the missing dice left unrolled (an explanation reads every atom: it
        explains the rules, not one face of the dice); [] when there is none."""
        self.count_only(set())
        try:
            return self.solve(assumptions=assumptions, every_atom=True)
        except InconsistentSituation:
            return []
        finally:
            self.count_all()

    def count_all(self) -> None:
        for atom in self.control.symbolic_atoms.by_signature("_counted", 2):
            self.control.assign_external(atom.symbol, True)

    def models(self, assumptions: Sequence[tuple[clingo.Symbol, bool]] = ()) -> Iterator[Sequence[clingo.Symbol]]:
        """The answers and dice of every model (no bookkeeping)."""
        config = self.control.configuration.solve
        config.models = "0"
        try:
            with self.control.solve(assumptions=list(assumptions), yield_=True) as handle:
                for model in handle:
                    yield model.symbols(shown=True)
        finally:
            config.models = "1"


def in_force_facts(settings: Settings) -> list[clingo.Symbol]:
    """`interpretation(Name)` for each interpretation in force."""
    return [clingo.Function("interpretation", [clingo.Function(name)]) for name in settings.interpretations]
