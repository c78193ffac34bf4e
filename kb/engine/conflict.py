"""Why no model satisfies a situation: the smallest set of its statements that conflict.

When the rules have no model for a situation (it breaks an integrity
constraint, e.g. rules/common/consistency.lp), the answer is not "no answer"
but the statements to correct. Each line of the file becomes an assumption:
its facts hold only while `_stmt(LINE)` does, and `_stmt(LINE)` is a free
choice that the solve assumes true. clingo's unsatisfiable core names the
lines it needed; the core is then shrunk to a minimal conflicting subset
(drop any one line and the others are consistent) by QuickXplain, which
tries halves of the lines together (every line outside the set tried is
assumed absent): a few conflicting lines among 3,200 take a few dozen solves,
where taking the lines out one at a time took one solve per line.

The program is the one every solve of the situation has, the unknowns'
choices included (an open fact may hold or not, a missing die takes each
face): without them, a question whose rules need an unstated fact to take a
value (a DRM reads the LOS) made the attack's line alone look inconsistent.
The constraints of the program are relaxed to `_violated(RULE)` while an
`_enforce` assumption forbids them; a last solve with the minimal set and
without `_enforce` tells which constraints it breaks (in a completion that
breaks the fewest), to name their rules.
Nothing from the file becomes program text: its facts and the `_stmt` atoms
go in through clingo's backend, like every other solve (kb/engine/solve.py).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

import clingo
from clingo import ast

from aslkb.parser import Situation

from aslkb.base.errors import InconsistentSituation

from aslkb.engine.solve import (Settings, grounded, in_force_facts, stated_dice_facts, two_dice_facts,
                                unknowns_program)
from aslkb.knowledge.program import KnowledgeBase, RuleInfo, Selection

_ENFORCE = clingo.Function("_enforce")
_OWN = "\n{ _enforce }.\n#false :- _violated(I), _enforce.\n"  # a named variable: clingo 5.8 projected `_violated(_)` over part of the atoms only
# the constraints to name: those of a completion that breaks the fewest (an open
# fact left without a value breaks a rule of its own beside the real conflict)
_FEWEST = "#minimize { 1,I : _violated(I) }.\n"


class ConflictingStatements(InconsistentSituation):
    """The situation's statements that no model satisfies together."""

    def __init__(self, filename: str, lines: list[tuple[int, str]], rules: list[RuleInfo],
                 columns: dict[int, int] | None = None) -> None:
        self.filename = filename
        self.lines = lines  # (line number, the line as written), in file order
        self.rules = rules  # the constraints they break
        self.located = tuple((n, (columns or {}).get(n, 1), text) for n, text in lines)
        super().__init__(self._message())

    def _message(self) -> str:
        said = "; ".join(f"{number}: {text}" for number, text in self.lines)
        broken = "; ".join(f"{r.rule_id}{' EXC' if r.exception else ''}: {r.note} ({r.where})" for r in self.rules)
        against = f" (against {broken})" if broken else ""
        if not self.lines:
            return ("the rules have no model for these queries even without the file's statements"
                    f"{against}; this is a bug in the knowledge base: please report it")
        if len(self.lines) == 1:
            return f"this statement contradicts itself: {said}{against}; correct it"
        return f"these statements conflict: {said}{against}; correct or remove one of them"

    def __str__(self) -> str:
        return self.args[0]


def conflicting_statements(situation: Situation, settings: Settings, selection: Selection,
                           facts: Sequence[clingo.Symbol], kb: KnowledgeBase) -> InconsistentSituation:
    """The error to raise for a situation with no model: its minimal conflicting lines."""
    line_of = {f.symbol: f.line for f in situation.facts if f.line > 0 and f.symbol.name != "edition"}
    by_line: dict[int, list[clingo.Symbol]] = defaultdict(list)
    background = []
    for symbol in facts:
        if symbol in line_of:
            by_line[line_of[symbol]].append(symbol)
        else:
            background.append(symbol)
    background += [*stated_dice_facts(background), *two_dice_facts(), *in_force_facts(settings)]
    program, constraints = _relaxed(selection, kb)

    def add(control: clingo.Control) -> None:
        # the unknowns as every solve has them (see the module's docstring)
        control.add("base", [], program + unknowns_program() + _OWN + _FEWEST)
        with control.backend() as backend:
            for line, symbols in by_line.items():
                statement = backend.add_atom(_stmt(line))
                backend.add_rule([statement], choice=True)
                for symbol in [*symbols, *stated_dice_facts(symbols)]:
                    backend.add_rule([backend.add_atom(symbol)], [statement])

    control = grounded(add, background, 1)
    line_literal = {line: control.symbolic_atoms[_stmt(line)].literal for line in by_line}
    literal_line = {literal: line for line, literal in line_literal.items()}
    enforce = control.symbolic_atoms[_ENFORCE].literal

    def solve(kept: set[int]) -> tuple[bool, list[int]]:
        """Whether the lines kept (the others assumed absent) have no model, and the lines of its core."""
        # solver literals, made once: a symbol per line and solve cost seconds at 3,200 lines
        assumptions = [literal if line in kept else -literal for line, literal in line_literal.items()] + [enforce]
        with control.solve(assumptions=assumptions, yield_=True) as handle:
            if not handle.get().unsatisfiable:
                return False, []
            return True, [literal_line[lit] for lit in handle.core() if lit in literal_line]

    unsat, core = solve(set(by_line))
    if not unsat:  # cannot happen: the facts as assumptions are the facts
        return InconsistentSituation("no model satisfies the situation and the rules")
    kept = _minimal(set(core), lambda lines: solve(lines)[0])
    violated = sorted({a.arguments[0].number for a in _model(control, kept, by_line) if a.name == "_violated"})
    source = situation.text.splitlines()
    lines = [(line, _statement_text(source, line)) for line in sorted(kept)]
    column = {line: _statement_column(source, line) for line in kept}
    return ConflictingStatements(situation.filename, lines, [kb.rules[n] for n in violated if n in constraints],
                                 column)


def _minimal(lines: set[int], conflict: Callable[[set[int]], bool]) -> set[int]:
    """A minimal subset of `lines` (which conflict) that still conflicts:
    drop any one line of it and the rest is consistent. QuickXplain (Junker,
    2004): halves of the lines are tried together, so a few conflicting lines
    among thousands take a few dozen solves, not one solve per line."""
    def needed(background: set[int], added: bool, candidates: list[int]) -> set[int]:
        # the lines of `candidates` a minimal conflict needs beside `background`
        if added and conflict(background):
            return set()
        if len(candidates) == 1:
            return set(candidates)
        first, second = candidates[:len(candidates) // 2], candidates[len(candidates) // 2:]
        from_second = needed(background | set(first), bool(first), second)
        from_first = needed(background | from_second, bool(from_second), first)
        return from_first | from_second

    if not lines or conflict(set()):
        return set()
    # the later lines first: where several minimal sets conflict, the one kept is the one
    # taking the earliest lines out one at a time would keep (a stated range, not the hexes
    # of the units it was stated between)
    return needed(set(), False, sorted(lines, reverse=True))


def _model(control: clingo.Control, kept: set[int], by_line: dict[int, list[clingo.Symbol]]) -> list[clingo.Symbol]:
    """The atoms of a model of the lines kept with the constraints relaxed, in
    a completion that breaks the fewest (_FEWEST): which of them break."""
    assumptions = [(_stmt(line), line in kept) for line in by_line] + [(_ENFORCE, False)]
    control.configuration.solve.models = "0"  # every model, the last one optimal
    found: list[clingo.Symbol] = []
    with control.solve(assumptions=assumptions, yield_=True) as handle:
        for model in handle:
            found = list(model.symbols(atoms=True))
    return found


def _stmt(line: int) -> clingo.Symbol:
    return clingo.Function("_stmt", [clingo.Number(line)])


def _relaxed(selection: Selection, kb: KnowledgeBase) -> tuple[str, set[int]]:
    """The selected program with each integrity constraint `#false :- B.`
    (rule number I) as `_violated(I) :- B.`, and the numbers relaxed."""
    texts, relaxed = [], set()
    for i in selection.statements:
        piece = kb.pieces.piece(i)
        text = _violated(piece.text, piece.rule) if piece.rule is not None and not piece.head else None
        if text is None:
            texts.append(piece.text)
        else:
            texts.append(text)
            relaxed.add(piece.rule)
    return "\n".join(texts), relaxed


def _violated(text: str, number: int) -> str | None:
    """A constraint's text with `_violated(number)` as its head, rewritten
    through clingo's AST; None when the statement is no `#false :- B.`."""
    out: list[str] = []

    def relax(statement: ast.AST) -> None:
        if statement.ast_type != ast.ASTType.Rule:
            return
        head = statement.head
        if head.ast_type == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.BooleanConstant \
                and not head.atom.value:
            loc = head.location
            term = ast.Function(loc, "_violated", [ast.SymbolicTerm(loc, clingo.Number(number))], 0)
            out.append(str(statement.update(head=ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(term)))))

    ast.parse_string(text, relax)
    return out[0] if len(out) == 1 else None


def _statement_text(source: list[str], line: int) -> str:
    """A line as written, without its comment."""
    if not 0 < line <= len(source):
        return "(not in the file)"
    return source[line - 1].split("#", 1)[0].strip()


def _statement_column(source: list[str], line: int) -> int:
    """Where the statement starts on its line (1-based): its first word."""
    if not 0 < line <= len(source):
        return 1
    text = source[line - 1]
    return len(text) - len(text.lstrip()) + 1
