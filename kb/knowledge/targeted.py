"""Records for what was asked (issue 35): the citing program's records,
rewritten to be grounded after the values, for the asked answers' cone alone.

kb/knowledge/reify.py gives each rule its records (`_why/4`, `_agg`,
`_looks`, `_excluded`, `_blocked`), and kb/knowledge/demand.py's DEMAND picks,
inside one grounding, the records a citing model shows. That grounding
instantiates the records of every derived atom of a demanded predicate: at
5,000 units some 296,000, of which 35,000 are cited.

Here each record rule is rewritten for a second program part, grounded after
the values part (kb/engine/solve.py, Grounding's `records`):
- a record is guarded by a flat demand atom of its head (`_dm_drm_3(A, K, V)`
  for `drm(A, K, V)`), so only the records of demanded atoms are ever made;
- the demand is propagated rule by rule from a flat record of each rule's
  match (`_wr<statement>_<k>(Vars)`), so it is stratified wherever the rules
  are, and each guard is an index lookup;
- each guarded record rule is written as a chain of rules of one join each,
  in an order chosen from the rule body: inside one recursive component
  gringo's own join order can scan a large domain after the guard (one record
  rule took 9.6 s so; as a chain, 11-19 ms).

Its seeds and #show lines are demand.py's RECORDS_DEMAND. The shown atoms
are the same as the one-shot path's (tests/test_citations.py
compares them on every shipped example), so the walks cite alike.
"""
from __future__ import annotations

from collections.abc import Iterable

from clingo import SymbolType, ast
from clingo.ast import ASTType, ComparisonOperator, Sign

RECORDS = {("_why", 4), ("_agg", 3), ("_looks", 3), ("_blocked", 3), ("_excluded", 3)}

def recorded_heads(statements: Iterable) -> set[tuple[str, int]]:
    """The predicates (name, arity) that have `_why/4` records among these reified statements."""
    found = set()
    for statement in statements:
        term = _head_term(statement)
        if term is not None and _name_arity(term) == ("_why", 4):
            for head in _alternatives(term.arguments[1]):  # a fact's pool `p(a; b)`: each alternative
                if (kind := _name_arity(head)) is not None:
                    found.add(kind)
    return found


def targeted(statements: list, tag: int, recorded: set[tuple[str, int]]) -> tuple[str, str]:
    """One rule's reified statements (its rule, then its records) rewritten as
    the records part's rules: those of its demanded records, and those of its
    `_blocked` records (kept where no demand reaches the rule's head, as in
    KnowledgeBase._selection). `tag` (the statement's number) keeps its flat
    record names apart from every other statement's."""
    out: list[str] = []
    blocked: list[str] = []
    step = 0
    for statement in statements:
        term = _head_term(statement)
        if term is None:
            continue
        kind = _name_arity(term)
        body = list(statement.body)
        loc = statement.location
        if kind == ("_why", 1):  # a demand statement of reify.py (what a record looked at or stopped at)
            _demand(out, loc, recorded, term.arguments[0], [_demand_literal(loc, literal) for literal in body])
        elif kind == ("_why", 4):
            ident, head, positive, negated = term.arguments
            for one in _alternatives(head):
                one, values = _intervals_out(loc, one)
                guard = _guard(loc, one)
                record = _fn(loc, "_why", [ident, one, positive, negated])
                if guard is None:  # no flat demand for it: the record as it was
                    out.append(str(ast.Rule(loc, _literal(loc, record), [*values, *body])))
                    continue
                step += 1
                flat = _fn(loc, f"_wr{tag}_{step}", [ast.Variable(loc, v) for v in _variables(record)])
                _chained(out, loc, flat, guard, [*values, *body])
                out.append(str(ast.Rule(loc, _literal(loc, record), [_literal(loc, flat)])))
                for used in _list_items(positive):
                    _demand(out, loc, recorded, used, [_literal(loc, flat)])
        elif kind == ("_blocked", 3):  # shown whatever is demanded, as in DEMAND
            blocked.append(str(statement))
            if "_any" not in str(term.arguments[2]):
                _demand(blocked, loc, recorded, term.arguments[2], body)
        elif kind in RECORDS:  # _agg, _looks, _excluded: where their head is demanded
            ident, head, *rest = term.arguments
            for one in _alternatives(head):
                guard = _guard(loc, one)
                guarded = body if any(_is_record(literal) for literal in body) or guard is None else [guard, *body]
                out.append(str(ast.Rule(loc, _literal(loc, _fn(loc, term.name, [ident, one, *rest])), guarded)))
                if kind == ("_agg", 3):
                    for used in _list_items(rest[0]):
                        _demand(out, loc, recorded, used, guarded)
                elif kind == ("_excluded", 3):
                    _demand(out, loc, recorded, rest[0], guarded)
    return "\n".join(out), "\n".join(blocked)


def _demand(out: list[str], loc, recorded, atom, body: list) -> None:
    """`_dm_p_n(Args) :- body.` where the atom's predicate has records."""
    if atom.ast_type == ASTType.Pool:
        for alternative in atom.arguments:
            _demand(out, loc, recorded, alternative, body)
        return
    kind = _name_arity(atom)
    if kind in recorded:
        out.append(str(ast.Rule(loc, _literal(loc, _flat(loc, atom)), body)))


def _chained(out: list[str], loc, head, guard, body: list) -> None:
    """`head :- guard, body.` as a chain of rules of one join each: each next
    positive literal is the one with most of its variables bound, and each
    step carries every variable bound so far. Comparisons, negated literals
    and aggregates join the first step where their variables are bound."""
    guard, computed = _arguments_out(loc, guard)
    names = [(literal, frozenset(_variables(literal))) for literal in [*computed, *body]]
    positive = [(literal, vs) for literal, vs in names if _plain(literal) is not None and literal.sign == Sign.NoSign]
    pending = [(literal, vs) for literal, vs in names if not any(literal is p for p, _ in positive)]
    bound = set(_variables(guard))
    previous, steps = guard, 0
    while positive:
        literal, vs = max(positive, key=lambda item: _join_score(item[1], bound))
        positive = [item for item in positive if item[0] is not literal]
        bound |= vs
        ready = [o for o, ovs in pending if not positive or ovs <= bound]
        pending = [(o, ovs) for o, ovs in pending if not any(o is r for r in ready)]
        if not positive:
            out.append(str(ast.Rule(loc, _literal(loc, head), [previous, literal, *ready])))
            return
        steps += 1
        carried = _fn(loc, f"{head.name}_j{steps}", [ast.Variable(loc, v) for v in sorted(bound)])
        out.append(str(ast.Rule(loc, _literal(loc, carried), [previous, literal, *ready])))
        previous = _literal(loc, carried)
    out.append(str(ast.Rule(loc, _literal(loc, head), [previous, *(o for o, _ in pending)])))


def _join_score(names: frozenset[str], bound: set[str]):
    """The next join: a literal with no variables, then one all bound, then the most bound."""
    if not names:
        return (3, 0)
    inside = len(names & bound) / len(names)
    return (2 if inside == 1 else inside, -len(names - bound))


def _arguments_out(loc, literal):
    """The guard with each computed argument (`HL+UL`) a fresh variable, and
    the comparisons that check it once bound: a computed argument binds nothing."""
    found = []

    def walk(term):
        if term.ast_type in (ASTType.BinaryOperation, ASTType.UnaryOperation, ASTType.Interval, ASTType.Pool):
            variable = ast.Variable(loc, f"Ar__{len(found)}")
            found.append(_equal(loc, variable, term))
            return variable
        if term.ast_type == ASTType.Function:
            return term.update(arguments=[walk(a) for a in term.arguments])
        return term

    return literal.update(atom=ast.SymbolicAtom(walk(literal.atom.symbol))), found


def _intervals_out(loc, head):
    """The head with each interval `(1..2)` a fresh variable and the
    comparison that gives it its values (a guard with an interval would
    demand every value of it at once)."""
    found = []

    class Intervals(ast.Transformer):
        def visit_Interval(self, node):  # noqa: N802 (clingo's visitor names)
            variable = ast.Variable(loc, f"Iv__{len(found)}")
            found.append(_equal(loc, variable, node))
            return variable

    return Intervals().visit(head), found


def _equal(loc, variable, term):
    return ast.Literal(loc, Sign.NoSign, ast.Comparison(variable, [ast.Guard(ComparisonOperator.Equal, term)]))


def _guard(loc, head):
    flat = _flat(loc, head)
    return None if flat is None else _literal(loc, flat)


def _flat(loc, atom):
    """`_dm_p_2(X, Y)` for the atom `p(X, Y)`; None for a pool or a term that is not an atom."""
    kind = _name_arity(atom)
    if kind is None:
        return None
    return _fn(loc, f"_dm_{kind[0]}_{kind[1]}", _arguments(loc, atom))


def _demand_literal(loc, literal):
    """A body literal `_why(A)` (DEMAND's demand) as A's flat demand atom."""
    term = _plain(literal)
    if term is not None and literal.sign == Sign.NoSign and _name_arity(term) == ("_why", 1):
        guard = _guard(loc, term.arguments[0])
        if guard is not None:
            return guard
    return literal


def _alternatives(head) -> list:
    return list(head.arguments) if head.ast_type == ASTType.Pool else [head]


def _is_record(literal) -> bool:
    term = _plain(literal)
    return term is not None and _name_arity(term) == ("_why", 4)


def _head_term(statement):
    if statement.ast_type != ASTType.Rule:
        return None
    head = statement.head
    if head.ast_type == ASTType.Literal and head.sign == Sign.NoSign and head.atom.ast_type == ASTType.SymbolicAtom:
        return head.atom.symbol
    return None


def _plain(literal):
    if literal.ast_type == ASTType.Literal and literal.atom.ast_type == ASTType.SymbolicAtom:
        return literal.atom.symbol
    return None


def _name_arity(term) -> tuple[str, int] | None:
    if term.ast_type == ASTType.Function:
        return term.name, len(term.arguments)
    if term.ast_type == ASTType.SymbolicTerm and term.symbol.type == SymbolType.Function:
        return term.symbol.name, len(term.symbol.arguments)
    return None


def _arguments(loc, term) -> list:
    if term.ast_type == ASTType.Function:
        return list(term.arguments)
    return [ast.SymbolicTerm(loc, a) for a in term.symbol.arguments]


def _list_items(term) -> list:
    """The elements of a record's list `(A, (B, ()))`."""
    items = []
    while term.ast_type == ASTType.Function and term.name == "" and len(term.arguments) == 2:
        items.append(term.arguments[0])
        term = term.arguments[1]
    return items


def _fn(loc, name: str, arguments: list):
    return ast.Function(loc, name, arguments, 0)


def _literal(loc, term):
    return ast.Literal(loc, Sign.NoSign, ast.SymbolicAtom(term))


def _variables(node) -> list[str]:
    """The named variables of an AST node, in order, each once."""
    found: dict[str, None] = {}

    class Variables(ast.Transformer):
        def visit_Variable(self, variable):  # noqa: N802 (clingo's visitor names)
            if variable.name != "_":
                found[variable.name] = None
            return variable

    Variables().visit(node)
    return list(found)
