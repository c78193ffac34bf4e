"""Make every cited rule report when it fires and when an exception blocks it.

For each rule `H :- B.` (rule number I) this adds, through clingo's AST:

    _why(I, H, (P1, (P2, ... (Pn, ()))), (N1, ..., Nk)) :- B.
                                               the positive body atoms it used
                                               (a list: see DEMAND) and the
                                               atoms it needed absent
    _agg(I, H, (E1, (E2, ... (Em, ())))) :- B, Cond.
                                               for each body aggregate element
                                               that holds: the atoms it counted
    _looks(I, H, Pattern) :- B.                what an aggregate element looked
                                               for (element-local variables as
                                               the constant `_any`)
    _blocked(I, H, N) :- B with `not N` as N.  the body held except that N was
                                               true, for each N that an
                                               exception (EXC) rule derives
    _excluded(I, H, N) :- B, Cond with `not N` as N.
                                               an aggregate element was left
                                               out because N, which an EXC
                                               rule derives, was true (a Fire
                                               Group exempt when every member
                                               is: each member's exemption)

The added predicates feed nothing back, so the model of the rules is
unchanged; the engine reads them to cite the rules behind an answer. This is
the generic citation mechanism: no rule needs Python of its own.

The records are made for every derived atom (a record rule joins its rule's
body again), but a model shows only those an answer can cite: `_why(A)` (the
demand: why A?) holds for the answer and undecided atoms (DEMAND, kb/knowledge/demand.py: the
engine adds it) and, from each record of a demanded atom, for every atom it used or
counted, every exception atom that left an element out or (`_blocked`, kept
whole: a walk matches them by pattern) kept a rule from firing, and every
atom an aggregate looked for:

    _why(A) :- _why(H), B, A.                  for each atom A an aggregate
                                               element looks for
    _why(N) :- B with `not N` as N.            the exception atoms of each
                                               _blocked record whose pattern
                                               has `_any` (the others: DEMAND's
                                               `_why(N) :- _blocked(_, _, N)`)

kb/engine/solve.py shows a record only where its head is demanded (`_cited`):
in a 5,000-unit situation a tenth of them. A citing program has no record of
a predicate the demand cannot reach (demand_follows; KnowledgeBase._selection
in kb/knowledge/program.py), save `_blocked`, which a model shows whatever is
demanded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from clingo import Function, Number, ast
from clingo.ast import AST, ASTType, Sign

from aslkb.base.errors import RuleFileError, clingo_said, line_and_column

from aslkb.knowledge.patterns import ANY, DIRECTIVE, NEEDED, QUERY, READ, symbol_pattern

_REFUSED = {
    ASTType.Script: "#script",
    ASTType.External: "#external",
    ASTType.ShowSignature: "#show",
    ASTType.ShowTerm: "#show",
    ASTType.Minimize: "#minimize",
    ASTType.Heuristic: "#heuristic",
    ASTType.ProjectAtom: "#project",
    ASTType.ProjectSignature: "#project",
    ASTType.Edge: "#edge",
    ASTType.Defined: "#defined",
}


def variables(node: AST) -> set[str]:
    found: set[str] = set()

    class Collect(ast.Transformer):
        def visit_Variable(self, var: AST) -> AST:  # noqa: N802 (clingo's naming)
            found.add(var.name)
            return var

    Collect().visit(node)
    return found


def _tuple(loc: AST, terms: list[AST]) -> AST:
    return ast.Function(loc, "", terms, 0)


def _list(loc: AST, terms: list[AST]) -> AST:
    """`(T1, (T2, ... (Tn, ())))`: a list the demand reads with two rules
    whatever its length (kb/answers/read.py `items`)."""
    rest = _tuple(loc, [])
    for term in reversed(terms):
        rest = _tuple(loc, [term, rest])
    return rest


def _fact_atom(loc: AST, name: str, args: list[AST]) -> AST:
    return ast.Literal(loc, Sign.NoSign, ast.SymbolicAtom(ast.Function(loc, name, args, 0)))


def _plain_atom(literal: AST) -> AST | None:
    """The term of a literal `p(X)` / `not p(X)`, else None."""
    if literal.ast_type == ASTType.Literal and literal.atom.ast_type == ASTType.SymbolicAtom:
        return literal.atom.symbol
    return None


def _aggregate_elements(literal: AST) -> list[list[AST]]:
    """The condition literals of each element of a body aggregate."""
    if literal.ast_type != ASTType.Literal:
        return []
    atom = literal.atom
    if atom.ast_type == ASTType.BodyAggregate:
        return [list(element.condition) for element in atom.elements]
    if atom.ast_type == ASTType.Aggregate:
        return [[element.literal, *element.condition] for element in atom.elements]
    return []


def _pattern(term: AST, local: set[str]) -> AST:
    """The term with every subterm that uses a local variable as `_any`."""
    if not (variables(term) & local):
        return term
    if term.ast_type == ASTType.Function and term.name:
        return term.update(arguments=[_pattern(arg, local) for arg in term.arguments])
    return ast.SymbolicTerm(term.location, Function(ANY))


def _name_anonymous_variables(rule: AST) -> AST:
    """Each `_` outside a negated literal as a variable of its own name, so that
    a copy of a body atom in a bookkeeping head stays bound to what it matched."""
    count = 0

    class Rename(ast.Transformer):
        def visit_Literal(self, literal: AST) -> AST:  # noqa: N802 (clingo's naming)
            # `not p(_)` stays as it is: a named variable there would be unsafe
            return literal if literal.sign != Sign.NoSign else literal.update(**self.visit_children(literal))

        def visit_Variable(self, var: AST) -> AST:  # noqa: N802
            nonlocal count
            if var.name != "_":
                return var
            count += 1
            return var.update(name=f"Anonymous__{count}")

    return Rename().visit(rule)


def head_signature(rule: AST) -> str:
    """name/arity of a normal rule's head atom, or "" (constraints and others)."""
    head = rule.head
    if head.ast_type != ASTType.Literal or head.atom.ast_type != ASTType.SymbolicAtom \
            or head.sign != Sign.NoSign:
        return ""
    term = head.atom.symbol
    if term.ast_type == ASTType.Pool:
        term = term.arguments[0]
    if term.ast_type == ASTType.Function:
        return f"{term.name}/{len(term.arguments)}"
    return f"{term}/0"


def _atom_terms(term: AST) -> list[AST]:
    """The alternatives of an atom's term: `p(a;b)` is p(a) and p(b)."""
    return list(term.arguments) if term.ast_type == ASTType.Pool else [term]


def _arg_pattern(term: AST):
    """What an argument fixes, for choosing rules (kb/knowledge/program.py): "$X" for a
    variable; (name, (argument patterns)) for a constant or function; "" for
    anything else (a number, a string, arithmetic: no restriction)."""
    if term.ast_type == ASTType.Variable:
        return "" if term.name == "_" else "$" + term.name
    if term.ast_type == ASTType.Function and term.name:
        return (term.name, tuple(_arg_pattern(a) for a in term.arguments))
    if term.ast_type == ASTType.SymbolicTerm:
        return symbol_pattern(term.symbol)
    return ""


def atom_patterns(term: AST) -> list[tuple[str, tuple]]:
    """(name/arity, argument patterns) for each alternative of an atom."""
    found = []
    for alternative in _atom_terms(term):
        if alternative.ast_type == ASTType.SymbolicTerm:
            found.append((f"{alternative}/0", ()))
        elif alternative.ast_type == ASTType.Function:
            found.append((f"{alternative.name}/{len(alternative.arguments)}",
                          tuple(_arg_pattern(a) for a in alternative.arguments)))
    return found


def head_patterns(rule: AST) -> list[tuple[str, tuple]]:
    """The patterns of a normal rule's head atom; [] for a constraint and others."""
    return atom_patterns(rule.head.atom.symbol) if head_signature(rule) else []


def body_patterns(rule: AST) -> list[tuple[str, tuple, str]]:
    """Each atom a rule's body reads (aggregates included) as (name/arity,
    argument patterns, kind): QUERY for a positive `query(T)` condition of
    the body itself (only the queries asked make it true), NEEDED for another
    positive condition (the rule fires only if such an atom exists), READ for
    the rest (under `not`, in an aggregate or a conditional literal)."""
    found: list = []

    class Collect(ast.Transformer):
        def visit_SymbolicAtom(self, atom: AST) -> AST:  # noqa: N802 (clingo's naming)
            found.extend((name, args, READ) for name, args in atom_patterns(atom.symbol))
            return atom

    for literal in rule.body:
        atom = _plain_atom(literal)
        if atom is not None and literal.sign == Sign.NoSign and atom.ast_type == ASTType.Function \
                and atom.name == "query" and len(atom.arguments) == 1:
            found.append(("query/1", (_arg_pattern(atom.arguments[0]),), QUERY))
        elif atom is not None and literal.sign == Sign.NoSign:
            alternatives = atom_patterns(atom)  # p(X;Y) needs one of them
            kind = NEEDED if len(alternatives) == 1 else READ
            found.extend((name, args, kind) for name, args in alternatives)
        else:
            Collect().visit(literal)
    return found


def opaque_head(rule: AST) -> bool:
    """Does the rule derive atoms other than through a plain head (a choice,
    a disjunction)? Integrity constraints derive nothing."""
    head = rule.head
    if head.ast_type == ASTType.Literal:
        return head.atom.ast_type not in (ASTType.SymbolicAtom, ASTType.BooleanConstant)
    return True


def body_predicates(rule: AST) -> set[str]:
    """name/arity of every atom a rule's body reads."""
    return {name for name, _, _ in body_patterns(rule)}


def _literal_signature(literal: AST) -> str:
    atom = _plain_atom(literal)
    if atom is None:
        return ""
    if atom.ast_type == ASTType.Function:
        return f"{atom.name}/{len(atom.arguments)}"
    return f"{atom}/0"


def reify(rule: AST, number: int, exception_heads: frozenset[str] = frozenset(),
          demanded: bool = True) -> Iterator[AST]:
    """The rule as the engine runs it, with its bookkeeping (see module doc).

    `exception_heads` are the predicates (name/arity) that EXC rules derive.
    Where its head cannot be `demanded` (demand_follows), only the records a
    model shows whatever is demanded: `_blocked` and their demand.
    """
    if not head_signature(rule):
        yield rule  # integrity constraints derive nothing
        return
    rule = _name_anonymous_variables(rule)
    head = rule.head
    loc = rule.location
    head_term = head.atom.symbol
    body = list(rule.body)
    ident = ast.SymbolicTerm(loc, Number(number))

    def negated_pattern(index: int) -> AST:
        """A negated atom, its variables bound nowhere else (`_` too) as `_any`."""
        atom = _plain_atom(body[index])
        elsewhere = variables(head_term)
        for other, literal in enumerate(body):
            if other != index:
                elsewhere |= variables(literal)
        return _pattern(atom, (variables(atom) - elsewhere) | {"_"})

    positive = [atom for literal in body
                if literal.ast_type == ASTType.Literal and literal.sign == Sign.NoSign
                and (atom := _plain_atom(literal)) is not None]
    negated = {index: negated_pattern(index) for index, literal in enumerate(body)
               if literal.ast_type == ASTType.Literal and literal.sign == Sign.Negation
               and _plain_atom(literal) is not None}
    yield rule
    record = _fact_atom(loc, "_why", [ident, head_term, _list(loc, positive), _tuple(loc, list(negated.values()))])
    if demanded:
        yield ast.Rule(loc, record, body)

    global_vars = variables(head_term)
    for literal in body:
        if not _aggregate_elements(literal):
            global_vars |= variables(literal)
        elif literal.ast_type == ASTType.Literal:  # the guards of an aggregate are global
            for guard in (literal.atom.left_guard, literal.atom.right_guard):
                if guard is not None:
                    global_vars |= variables(guard.term)

    # The bookkeeping of an aggregate holds where the rule fired: where the
    # record's positive atoms bind every global variable, the record stands
    # for the body (the grounder then evaluates the aggregate once, not once
    # more for each element's `_agg`, `_looks` and demand statements)
    bound = set().union(*(variables(atom) for atom in positive))
    fired = [record] if global_vars <= bound and head_term.ast_type != ASTType.Pool else body

    for literal in body if demanded else ():
        for condition in _aggregate_elements(literal):
            if fired is body:  # beside the aggregate, its element-local variables would be global in it
                local = set().union(*(variables(c) for c in condition)) - global_vars - {"_"}
                condition = [_named(c, "Element", local, anonymous=False) for c in condition]
            atoms = [a for c in condition if c.sign == Sign.NoSign and (a := _plain_atom(c)) is not None]
            looked_for = [c for c in condition if _plain_atom(c) is not None]
            if atoms:
                yield ast.Rule(loc, _fact_atom(loc, "_agg", [ident, head_term, _list(loc, atoms)]),
                               fired + condition)
            for condition_literal in looked_for:
                atom = _plain_atom(condition_literal)
                local = variables(atom) - global_vars
                yield ast.Rule(loc, _fact_atom(loc, "_looks", [ident, head_term, _pattern(atom, local)]), fired)
                # what it found, where the head is demanded (its element-local
                # variables renamed: outside the element they would bind it)
                found = _named(condition_literal.update(sign=Sign.NoSign), "Looked", local)
                for alternative in _atom_terms(head_term):
                    yield ast.Rule(loc, _demand(loc, _plain_atom(found)), [_demand(loc, alternative), *fired, found])
            for k, condition_literal in enumerate(condition):
                if condition_literal.ast_type != ASTType.Literal or condition_literal.sign != Sign.Negation \
                        or _literal_signature(condition_literal) not in exception_heads:
                    continue
                as_positive = condition_literal.update(sign=Sign.NoSign)
                left_out = fired + condition[:k] + [as_positive] + condition[k + 1:]
                yield ast.Rule(loc, _fact_atom(loc, "_excluded", [ident, head_term, _plain_atom(condition_literal)]),
                               left_out)

    for index, pattern in negated.items():
        if _literal_signature(body[index]) not in exception_heads:
            continue
        as_positive = body[index].update(sign=Sign.NoSign)
        blocked_body = body[:index] + [as_positive] + body[index + 1:]
        yield ast.Rule(loc, _fact_atom(loc, "_blocked", [ident, head_term, pattern]), blocked_body)
        # the exception atoms that blocked it: a walk reads why they hold. Where
        # the pattern is the atom itself, the demand's `_why(N) :- _blocked(_, _, N)`
        # says so (one statement fewer: each costs the grounder about as much as a rule)
        if str(pattern) != str(_plain_atom(body[index])):
            stopper = _named(as_positive, "Stopper")
            yield ast.Rule(loc, _demand(loc, _plain_atom(stopper)), body[:index] + [stopper] + body[index + 1:])


def demand_follows(rule: AST, exception_heads: frozenset[str] = frozenset()) -> tuple[set[str], set[str]]:
    """What the demand (DEMAND, and the demand statements reify() adds) asks
    records of, by predicate (name/arity), from this rule's records: where
    the rule's head is demanded, its positive conditions and every atom of
    its aggregates' elements; whether or not it is, the exception atoms of
    its `_blocked` records. Not an ordinary `not` condition: a record names
    it, but nothing demands its records."""
    if not head_signature(rule):
        return set(), set()
    body = list(rule.body)
    when_demanded: set[str] = set()
    for literal in body:
        atom = _plain_atom(literal)
        if atom is not None and literal.sign == Sign.NoSign:
            when_demanded.update(name for name, _ in atom_patterns(atom))
        for condition in _aggregate_elements(literal):
            for condition_literal in condition:
                if (atom := _plain_atom(condition_literal)) is not None:
                    when_demanded.update(name for name, _ in atom_patterns(atom))
    always = {_literal_signature(literal) for literal in body
              if literal.ast_type == ASTType.Literal and literal.sign == Sign.Negation
              and _plain_atom(literal) is not None and _literal_signature(literal) in exception_heads}
    return when_demanded, always


def _demand(loc, atom: AST) -> AST:
    """`_why(Atom)`: the records of Atom are wanted."""
    return _fact_atom(loc, "_why", [atom])


def _named(literal: AST, prefix: str, also: set[str] = frozenset(), anonymous: bool = True) -> AST:
    """The literal with each `_`, and each variable in `also`, a variable of
    its own name (so that its atom can stand in a head); with `anonymous`
    False, `_` stays anonymous (a named one is unsafe in a `not` condition)."""
    count = 0

    class Rename(ast.Transformer):
        def visit_Variable(self, var: AST) -> AST:  # noqa: N802 (clingo's naming)
            nonlocal count
            if var.name in also:
                return var.update(name=f"{prefix}__{var.name}")
            if var.name != "_" or not anonymous:
                return var
            count += 1
            return var.update(name=f"{prefix}__{count}")

    return Rename().visit(literal)


def refuse_directives(text: str, path: str, where: str = "in the knowledge base") -> None:
    """RuleFileError at the first #include or #script anywhere in the text."""
    if match := DIRECTIVE.search(text):
        line, column = line_and_column(text, match.start())
        raise RuleFileError(f"{path}:{line}:{column}: #{match[1].lower()} is not allowed {where}")


# a string, a block or a line comment (skipped), or a character clingo's
# parser cannot take outside them: a non-ASCII one (a byte order mark, a
# letter with an accent), whose syntax error clingo reports with a cut UTF-8
# sequence and then aborts the process
_OUTSIDE_ASCII = re.compile(r'"(?:[^"\\\n]|\\.)*"|%\*.*?\*%|%[^\n]*|([^\x00-\x7f])', re.S)


def refuse_non_ascii(text: str, path: str) -> None:
    """RuleFileError at the first non-ASCII character outside a comment or a
    string (comments and strings may hold any UTF-8)."""
    for match in _OUTSIDE_ASCII.finditer(text):
        if match[1]:
            what = "a byte order mark" if match[1] == "\ufeff" else f"'{match[1]}' (U+{ord(match[1]):04X})"
            line, column = line_and_column(text, match.start())
            raise RuleFileError(f"{path}:{line}:{column}: {what} outside a comment or a "
                                "string: program text is ASCII there")


def parse_program(text: str, path: str, add) -> None:
    """clingo's parse of a program that passes refuse_directives and
    refuse_non_ascii, each statement to `add`; a syntax error raises
    RuleFileError naming the file."""
    refuse_directives(text, path)
    refuse_non_ascii(text, path)
    messages: list[str] = []
    try:
        ast.parse_string(text, add, logger=lambda _code, message: messages.append(message.strip()))
    except RuntimeError:
        said = clingo_said(messages, path, "syntax error")
        raise RuleFileError(said if said.startswith(f"{path}:") else f"{path}: {said}") from None


def parse_file(text: str, path: str, comments: list[AST] | None = None) -> list[AST]:
    """The statements of a rule file; refused statements raise RuleFileError.
    Its comments are added to `comments` when given (kb/knowledge/annotations.py reads them)."""
    out: list[AST] = []

    def visit(statement: AST) -> None:
        kind = statement.ast_type
        if kind in _REFUSED:
            line = statement.location.begin.line
            raise RuleFileError(f"{path}:{line}: {_REFUSED[kind]} is not allowed in the knowledge base")
        if kind == ASTType.Comment:
            if comments is not None:
                comments.append(statement)
        elif kind != ASTType.Program:
            out.append(statement)

    parse_program(text, path, visit)
    return out

