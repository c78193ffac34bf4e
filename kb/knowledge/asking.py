"""What the knowledge layer derives from a question, so that rule files state rules.

A rule file may give an answer itself, left undecided (`undecided(Q, R)`),
or the reason a query program reads to leave it so (`unknown(Q, R)`). An
answer exists only for a question asked, so the knowledge layer adds
`query(Q)` to the body of every `undecided(Q, R)` rule; and where Q has a
variable that nothing in an `unknown(Q, R)` rule's body binds, only the
question asked can say which Q is meant, so it adds `query(Q)` there too. So
SL's "fire resolution is outside SL 49" is written
`undecided(fp(A), not_in_source(...)).`: the engine's condition is not a
rule's (docs/encoding.md, step 5).
"""
from __future__ import annotations

from clingo import ast
from clingo.ast import AST, ASTType, ComparisonOperator, Sign

from aslkb.knowledge.reify import head_signature, parse_file, variables
from aslkb.knowledge.rulefiles import is_query_program


def bound_by_question(rule: AST) -> AST:
    """The rule, with `query(Q)` first in its body where its head is
    `undecided(Q, R)`, or `unknown(Q, R)` and Q has a variable its body does not bind."""
    name, question = _answer(rule)
    if question is None or name == "unknown" and not (variables(question) - _bound(rule.body) - {"_"}):
        return rule
    if f"query({question})" in map(str, rule.body):  # written already (a query program's way)
        return rule
    loc = rule.location
    asked = ast.Literal(loc, Sign.NoSign, ast.SymbolicAtom(ast.Function(loc, "query", [question], 0)))
    return rule.update(body=[asked, *rule.body])


def rule_statements(path: str, root: str | None = None) -> list[AST]:
    """A rule file's statements as the knowledge base runs them (what build()
    reads, for the authors' tools that ground rule files of their own: the
    invariants, diverge's search); a query program of `root` states its own `query(Q)`."""
    with open(path, encoding="utf-8") as handle:
        statements = parse_file(handle.read(), path)
    if is_query_program(path, root):
        return statements
    return [bound_by_question(statement) for statement in statements]


def _answer(rule: AST) -> tuple[str, AST | None]:
    """The head's name and question, for an `unknown(Q, R)` or `undecided(Q, R)` head."""
    name = head_signature(rule) if rule.ast_type == ASTType.Rule else ""
    if name in ("unknown/2", "undecided/2") and rule.head.atom.symbol.ast_type == ASTType.Function:
        return name[:-2], rule.head.atom.symbol.arguments[0]
    return "", None


def _bound(body) -> set[str]:
    """The variables a body binds: those of its positive atoms, and the left
    side of an `X = ...` comparison or an aggregate's `X = #count {...}`."""
    bound: set[str] = set()
    for literal in body:
        if literal.ast_type != ASTType.Literal or literal.sign != Sign.NoSign:
            continue
        atom = literal.atom
        if atom.ast_type == ASTType.SymbolicAtom:
            bound |= variables(atom)
        elif atom.ast_type == ASTType.Comparison and atom.term.ast_type == ASTType.Variable \
                and len(atom.guards) == 1 and atom.guards[0].comparison == ComparisonOperator.Equal:
            bound.add(atom.term.name)
        elif atom.ast_type == ASTType.BodyAggregate and atom.left_guard is not None \
                and atom.left_guard.comparison == ComparisonOperator.Equal \
                and atom.left_guard.term.ast_type == ASTType.Variable:
            bound.add(atom.left_guard.term.name)
    return bound
