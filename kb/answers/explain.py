"""Why, and why not: an answer's derivation as a tree (aslkb explain).

Why: from the answer atom down through every rule that derived it and every
atom those rules used, to the situation's own statements (FILE:LINE). A rule
that needed something absent shows it: an exception that was considered and
did not apply, or one that applied and blocked a rule.

Why not: for each atom the answer rests on, the rules that could have derived
it with another value (E1.7's +1 where the answer is 0) and, for each, the
first of its conditions that failed, found by a small diagnosis solve over the
model. All of it is generic: built from the rules' own citations and ASTs.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import clingo
from clingo import ast
from clingo.ast import AST, ASTType, Sign

from aslkb.parser import Situation

from aslkb.answers.ask import query_facts
from aslkb.answers.read import Answer, Derivations, matches, python_value
from aslkb.answers.run import run
from aslkb.engine import unknowns
from aslkb.engine.solve import Grounding, Settings, ground_statements, in_force_facts
from aslkb.knowledge.patterns import ANY
from aslkb.knowledge.program import KnowledgeBase, RuleInfo

MAX_DEPTH = 14
WHY_NOT_DEPTH = 3


@dataclass
class Node:
    """One line of an explanation."""

    kind: str  # answer, rule, atom, fact, exception, blocked, absent, why_not, failed, seen, input
    label: str  # what the line says
    rule: RuleInfo | None = None
    where: str = ""  # the rule's file:line, or the situation's FILE:LINE for a fact
    children: list[Node] = field(default_factory=list)

    def to_json(self) -> dict:
        data: dict = {"kind": self.kind, "text": self.label}
        if self.rule:
            data.update(rule=self.rule.rule_id, exception=self.rule.exception, note=self.rule.note,
                        interpretation=self.rule.interpretation)
        if self.where:
            data["where"] = self.where
        if self.children:
            data["because"] = [child.to_json() for child in self.children]
        return data


@dataclass
class Explanation:
    answer: Answer
    why: list[Node]
    why_not: list[Node]

    # its JSON: explanation_json in kb/render/tree.py (rendering is the layer above)


class Explainer:
    def __init__(self, situation: Situation, kb: KnowledgeBase, facts: list[clingo.Symbol],
                 atoms: Sequence[clingo.Symbol], derivations: Derivations, full: bool = False):
        self.full = full  # every derivation and every vocabulary (DEF) step, not the compact tree
        self.kb = kb
        self.d = derivations
        self.model = list(atoms)
        self.true = set(atoms)
        self.positions = {fact.symbol: f"{situation.filename}:{fact.line}" for fact in situation.facts}
        self.inputs = set(facts)
        self.expanded: set[clingo.Symbol] = set()
        self.diagnosed: set[tuple[int, clingo.Symbol]] = set()
        self._rules_ast: dict[int, AST] = {}
        # the rule instances each atom of the answer's own derivation rests on (Derivations.support)
        self.support: dict[clingo.Symbol, list] = {}

    # -- why ----------------------------------------------------------------------------
    def why(self, atom: clingo.Symbol, depth: int = 0) -> Node:
        label = _atom_text(atom)
        if atom in self.positions:
            return Node("fact", label, where=self.positions[atom])
        if atom in self.inputs:
            return Node("input", label + " (given to the engine: edition, interpretation or query)")
        if atom in self.expanded or depth > MAX_DEPTH:
            return Node("seen", label + " (explained above)")
        self.expanded.add(atom)
        node = Node("atom", label)
        if atom not in self.support:  # reached by a why-not: its own derivation
            self.support.update((a, r) for a, r in self.d.support(atom).items() if a not in self.support)
        records = self.support.get(atom, [])
        for number, positive, negated in records if self.full else records[:1]:
            rule = self.kb.rules[number]
            step = Node("exception" if rule.exception else "rule", _rule_label(rule), rule, rule.where)
            step.children += [self.why(child, depth + 1) for child in positive]
            for number_, counted in self.d.agg.get(atom, ()):
                if number_ == number:
                    step.children += [self.why(child, depth + 1) for child in counted]
            for number_, left_out in self.d.excluded.get(atom, ()):
                if number_ == number and left_out not in positive:  # an element an exception left out
                    step.children.append(self.why(left_out, depth + 1))
            vocabulary = rule.rule_id == "DEF" and not self.full
            if not vocabulary:
                step.children += [self.absent(pattern, depth + 1) for pattern in negated]
                node.children.append(step)
            else:  # a definition of the vocabulary: its reasons stand directly under the atom
                node.children += step.children
        return node

    def absent(self, pattern: clingo.Symbol, depth: int) -> Node:
        """A condition `not X` that held: which exception was considered, and why it did not apply."""
        node = Node("absent", f"not {_atom_text(pattern)}: holds")
        if depth <= MAX_DEPTH:
            node.children = self.why_not(pattern, WHY_NOT_DEPTH - 1)
        return node

    # -- why not ------------------------------------------------------------------------
    def why_not(self, pattern: clingo.Symbol, depth: int = WHY_NOT_DEPTH) -> list[Node]:
        """Each loaded rule that could derive an atom matching the pattern, did not
        for it, and the first of its conditions that failed."""
        nodes = []
        signature = f"{pattern.name}/{len(pattern.arguments)}" if pattern.type == clingo.SymbolType.Function else ""
        for number in self.kb.rules_deriving(signature):
            if number not in self.d.loaded or self._fired_for(number, pattern):
                continue
            rule = self.kb.rules[number]
            failed = self.diagnose(number, pattern)
            if failed is None:
                continue  # its head cannot give this atom
            text, literal, binding = failed
            if (number, pattern) in self.diagnosed:
                nodes.append(Node("seen", f"{_rule_label(rule)}: {text} (explained above)", rule, rule.where))
                continue
            self.diagnosed.add((number, pattern))
            node = Node("why_not", f"{_rule_label(rule)}: would give {_head_text(rule, self)} but {text}",
                        rule, rule.where)
            if literal is not None and depth > 0:
                if literal.sign == Sign.Negation:  # the `not X` failed: X holds, e.g. an exception applied
                    for atom in self._instances(literal.atom.symbol, binding):
                        node.children.append(self.why(atom))
                elif literal.atom.ast_type == ASTType.SymbolicAtom:
                    for child in self._instances(literal.atom.symbol, binding, absent=True):
                        node.children += self.why_not(child, depth - 1)
            nodes.append(node)
        return nodes

    def _fired_for(self, number: int, pattern: clingo.Symbol) -> bool:
        return any(rule == number for head in self.d._matching_atoms(pattern)
                   for rule, _, _ in self.d.why.get(head, ()))

    def diagnose(self, number: int, target: clingo.Symbol):
        """The first condition of rule `number` that fails for a head matching
        `target`: (text, literal AST or None, binding) — or None if its head
        cannot match the target at all."""
        rule = self._rule_ast(number)
        equalities = _unify(rule.head.atom.symbol, target)
        if equalities is None:
            return None
        ordered = _safe_order(list(rule.body), {name for name, _ in equalities})
        loc = rule.location
        binding_literals = [_equal(loc, name, value) for name, value in equalities]
        prefixes = []  # _diag(k, Vars) :- the binding and the first k conditions
        for k in range(len(ordered) + 1):
            variables = sorted(_variables_of(binding_literals + ordered[:k]))
            head = ast.Function(loc, "_diag", [ast.SymbolicTerm(loc, clingo.Number(k)),
                                               ast.Function(loc, "", [ast.Variable(loc, v) for v in variables], 0)], 0)
            prefixes.append(ast.Rule(loc, ast.Literal(loc, Sign.NoSign, ast.SymbolicAtom(head)),
                                     binding_literals + ordered[:k]))
        try:
            control = ground_statements(prefixes, self.model)
        except RuntimeError:
            return ("its conditions could not be checked one by one", None, {})
        reached: dict[int, dict[str, clingo.Symbol]] = {}
        for atom in control.symbolic_atoms.by_signature("_diag", 2):
            k = atom.symbol.arguments[0].number
            if k not in reached:
                values = atom.symbol.arguments[1].arguments
                names = sorted(_variables_of(binding_literals + ordered[:k]))
                reached[k] = dict(zip(names, values))
        for k in range(len(ordered) + 1):
            if k not in reached:
                if k == 0:
                    return ("its head does not fit", None, {})
                literal = ordered[k - 1]
                binding = reached[k - 1]
                return (f"`{_literal_text(literal, binding)}` fails", literal, binding)
        return ("all its conditions hold (derived elsewhere)", None, reached.get(len(ordered), {}))

    def _rule_ast(self, number: int) -> AST:
        if number not in self._rules_ast:
            info = self.kb.rules[number]
            piece = next(p for p in self.kb.pieces[info.path] if p.rule == number)
            found: list[AST] = []
            ast.parse_string(piece.text.split("\n", 1)[0], found.append)
            self._rules_ast[number] = next(s for s in found if s.ast_type == ASTType.Rule)
        return self._rules_ast[number]

    def _instances(self, term: AST, binding: dict, absent: bool = False) -> list[clingo.Symbol]:
        """The atom a literal stands for under a binding: its true instances, or,
        for an absent one, a pattern with its unbound variables as `_any`."""
        pattern = _substitute(term, binding)
        if pattern is None:
            return []
        if absent:
            return [pattern]
        return [atom for atom in self.model if matches(pattern, atom)][:4]


_SHOWN = {"answer", "undecided", "_why", "_agg", "_looks", "_blocked", "_excluded"}  # what Derivations reads


def explain_query(asked: Situation, settings: Settings, kb: KnowledgeBase,
                  full: bool = False) -> tuple[Answer, Explanation]:
    """The answer to the one query `asked` asks, and its explanation: what
    `aslkb explain` prints and the playground's Why panel shows."""
    [answer] = run(asked, settings, kb).answers
    [query] = asked.queries
    facts = query_facts(asked, settings, [query.symbol])
    selection = kb.select(settings.edition, list(settings.interpretations), [query.symbol])
    return answer, explain_answer(asked, settings, query.symbol, answer, kb, selection.text, facts,
                                  selection.rules, full=full)


def explain_answer(situation: Situation, settings: Settings, query_symbol: clingo.Symbol,
                   answer: Answer, kb: KnowledgeBase, program: str, facts: list[clingo.Symbol],
                   loaded, full: bool = False) -> Explanation:
    """Solve once more with every atom shown, and build the why and why-not trees."""
    given = [*facts, *in_force_facts(settings)]
    # the completion that explains a decided answer (ask.py's): the open facts
    # absent where they may be, a valued one (a gap of the text, a SAN) its first value
    grounding = Grounding(program, given)
    atoms = grounding.every_atom(unknowns.closed_completion(grounding)) or grounding.every_atom()
    derivations = Derivations([a for a in atoms if a.name in _SHOWN], kb, loaded)
    explainer = Explainer(situation, kb, given, atoms, derivations, full)
    for root in _answer_atoms(derivations, query_symbol):
        explainer.support.update(derivations.support(root))
    why = []
    outcomes = _outcomes(grounding, query_symbol) if answer.value is None and not answer.distribution else []
    if len(outcomes) > 1:  # undecided between completions: the derivation of each value they give
        for outcome in outcomes:
            completion = grounding.every_atom([(outcome, True)])
            shown = Derivations([a for a in completion if a.name in _SHOWN], kb, loaded)
            case = Explainer(situation, kb, given, completion, shown, full)
            case.support.update(shown.support(outcome))
            why.append(Node("case", _case_label(answer, outcome), children=[case.why(outcome)]))
    else:  # an undecided atom wins over an answer (docs/design.md §3): it alone is the reason
        reasons = derivations.undecided.get(query_symbol, [])
        for value in derivations.answers.get(query_symbol, []) if not reasons else ():
            why.append(explainer.why(clingo.Function("answer", [query_symbol, value])))
        for reason in reasons:
            why.append(explainer.why(clingo.Function("undecided", [query_symbol, reason])))
    why_not = []
    for node_atom in _answer_atoms(derivations, query_symbol):
        for record in derivations.records(node_atom):
            for used in record[1]:
                # the same atom with another value (its last argument); an atom of one
                # argument has no value to vary: that argument names its instance
                if used.type == clingo.SymbolType.Function and used.name != "query" and len(used.arguments) > 1:
                    sibling = clingo.Function(used.name, [*used.arguments[:-1], clingo.Function(ANY)])
                    why_not += explainer.why_not(sibling)
            for absent in record[2]:
                why_not += explainer.why_not(absent)
    return Explanation(answer, why, why_not)


def _outcomes(grounding: Grounding, query_symbol: clingo.Symbol) -> list[clingo.Symbol]:
    """The answer and undecided atoms of a query that some completion of the
    unknowns gives, in order: an answer undecided because they vary is
    explained by each."""
    def outcomes(mode: str) -> list[clingo.Symbol]:
        return sorted((a for a in grounding.consequences(mode) or ()
                       if a.name in ("answer", "undecided") and a.arguments[0] == query_symbol), key=str)

    if any(a.name == "undecided" for a in outcomes("cautious")):
        return []  # undecided in every completion (a rule says so): one derivation explains it
    return outcomes("brave")


def _case_label(answer: Answer, outcome: clingo.Symbol) -> str:
    if outcome.name == "answer":
        return f"where the unknowns make it {answer.query} = {python_value(outcome.arguments[1])}"
    return f"where the unknowns leave it undecided: {_atom_text(outcome.arguments[1])}"


def _answer_atoms(d: Derivations, query_symbol: clingo.Symbol) -> list[clingo.Symbol]:
    atoms = [clingo.Function("answer", [query_symbol, v]) for v in d.answers.get(query_symbol, [])]
    atoms += [clingo.Function("undecided", [query_symbol, r]) for r in d.undecided.get(query_symbol, [])]
    return atoms


# -- AST helpers -------------------------------------------------------------------------

def _unify(head: AST, target: clingo.Symbol):
    """Equalities Variable = value that make the head match the target, or None."""
    if head.ast_type == ASTType.Pool:
        for option in head.arguments:
            if (found := _unify(option, target)) is not None:
                return found
        return None
    if target.type == clingo.SymbolType.Function and target.name == ANY and not target.arguments:
        return []
    if head.ast_type == ASTType.Variable:
        return [] if head.name == "_" else [(head.name, target)]
    if head.ast_type == ASTType.SymbolicTerm:
        return [] if head.symbol == target else None
    if head.ast_type == ASTType.Function:
        if target.type != clingo.SymbolType.Function or head.name != target.name \
                or len(head.arguments) != len(target.arguments):
            return None
        found: list = []
        for sub, value in zip(head.arguments, target.arguments):
            part = _unify(sub, value)
            if part is None:
                return None
            found += part
        return found
    return []  # a computed head argument (E + 1): left to the body to bind


def _equal(loc: AST, name: str, value: clingo.Symbol) -> AST:
    comparison = ast.Comparison(ast.Variable(loc, name),
                                [ast.Guard(ast.ComparisonOperator.Equal, ast.SymbolicTerm(loc, value))])
    return ast.Literal(loc, Sign.NoSign, comparison)


def _variables_of(nodes: list[AST]) -> set[str]:
    found: set[str] = set()

    class Collect(ast.Transformer):
        def visit_Variable(self, var: AST) -> AST:  # noqa: N802
            if var.name != "_":
                found.add(var.name)
            return var

        def visit_BodyAggregate(self, aggregate: AST) -> AST:  # noqa: N802
            for guard in (aggregate.left_guard, aggregate.right_guard):
                if guard is not None:
                    self.visit(guard.term)
            return aggregate

    for node in nodes:
        Collect().visit(node)
    return found


def _safe_order(body: list[AST], bound: set[str]) -> list[AST]:
    """The body in written order, but a literal that needs a variable bound waits
    until an earlier positive atom (or an equality) binds it."""
    ordered, pending, bound = [], list(body), set(bound)
    while pending:
        for literal in pending:
            if _can_add(literal, bound):
                ordered.append(literal)
                pending.remove(literal)
                bound |= _binds(literal)
                break
        else:
            ordered += pending
            break
    return ordered


def _can_add(literal: AST, bound: set[str]) -> bool:
    if literal.ast_type != ASTType.Literal:
        return _variables_of([literal]) <= bound
    atom = literal.atom
    if literal.sign == Sign.NoSign and atom.ast_type == ASTType.SymbolicAtom:
        return True
    if literal.sign == Sign.NoSign and atom.ast_type == ASTType.Comparison and len(atom.guards) == 1 \
            and atom.guards[0].comparison == ast.ComparisonOperator.Equal:
        left = _variables_of([atom.term])
        right = _variables_of([atom.guards[0].term])
        return left <= bound or right <= bound
    if atom.ast_type == ASTType.BodyAggregate:  # it may bind one guard variable
        guards = [g for g in (atom.left_guard, atom.right_guard) if g is not None]
        return len(_variables_of([g.term for g in guards]) - bound) <= 1
    return _variables_of([literal]) <= bound


def _binds(literal: AST) -> set[str]:
    if literal.ast_type != ASTType.Literal or literal.sign != Sign.NoSign:
        return set()
    atom = literal.atom
    if atom.ast_type == ASTType.BodyAggregate:
        return _variables_of([g.term for g in (atom.left_guard, atom.right_guard) if g is not None])
    return _variables_of([literal])


def _substitute(term: AST, binding: dict) -> clingo.Symbol | None:
    if term.ast_type == ASTType.Variable:
        return binding.get(term.name, clingo.Function(ANY))
    if term.ast_type == ASTType.SymbolicTerm:
        return term.symbol
    if term.ast_type == ASTType.Function:
        args = [_substitute(a, binding) for a in term.arguments]
        if any(a is None for a in args):
            return None
        return clingo.Function(term.name, args)
    return clingo.Function(ANY)


def _literal_text(literal: AST, binding: dict) -> str:
    class Replace(ast.Transformer):
        def visit_Variable(self, var: AST) -> AST:  # noqa: N802
            value = binding.get(var.name)
            if value is not None:
                return ast.SymbolicTerm(var.location, value)
            return var.update(name="_") if var.name.startswith("Anonymous__") else var

    return str(Replace().visit(literal))


def _atom_text(atom: clingo.Symbol) -> str:
    return str(atom).replace("_any", "_")


def _rule_label(rule: RuleInfo) -> str:
    tag = f"{rule.rule_id} EXC" if rule.exception else rule.rule_id
    note = rule.note
    if rule.rule_id == "query":
        tag = f"query program {rule.path.rsplit('/', 1)[-1]}"
        note = note.split(". ", 1)[0].rstrip(".")  # its first sentence says what it answers
    extra = f" [interpretation {rule.interpretation}]" if rule.interpretation else ""
    return f"{tag}: {note}{extra}" if note else f"{tag}{extra}"


def _head_text(rule: RuleInfo, explainer: Explainer) -> str:
    return str(explainer._rule_ast(rule.number).head)

