"""Read answers out of a model and cite the rules behind each one.

The citations come from the bookkeeping atoms of kb/knowledge/reify.py: starting at the
answer atom, walk back through the rules that derived it (`_why`, `_agg`), and
at each rule look at what it needed to be absent: where a rule that would have
derived such an atom was stopped by an exception (`_blocked`), that exception
applied; where nothing derived it, the rules that could have are cited as not
applying. An aggregate element an exception left out (`_excluded`) cites that
exception: a Fire Group exempt because each member is.

The walk is a function of one model's bookkeeping and the answer atom, and
follows only this answer's own derivation: an atom several rule instances
derive (a shared helper such as `value64_needed(384)`, derived once per
attack whose FP or column is 6) rests on the instance whose conditions the
answer's derivation already holds, not on every instance that fired for
another attack, unit or query (Derivations.support).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple
from weakref import WeakKeyDictionary

from clingo import Symbol, SymbolType

from aslkb.base.record import Record
from aslkb.knowledge.patterns import ANY, open_text, shape_pattern, term_text
from aslkb.knowledge.program import KnowledgeBase, RuleInfo


APPLIED = "applied"
EXCEPTION = "exception applied"
BLOCKED = "blocked by an exception"
NOT_MET = "conditions not met"
# an exception (or the rule it blocked) in some of an undecided answer's
# completions, not in all: it may apply, as the unknowns fall
MAY_APPLY = "exception may apply"
MAY_BLOCK = "may be blocked by an exception"



# The reason an undecided answer gives when it was read from a batch
# (kb/answers/batch.py), which does not name the open facts it varies with (the
# ordinary path does).
VARIES = "it varies with facts the situation leaves open"

class Step(NamedTuple):
    rule: RuleInfo
    role: str

    def to_json(self) -> dict:
        return {"rule": self.rule.rule_id, "exception": self.rule.exception, "note": self.rule.note,
                "where": self.rule.where, "role": self.role}


class Answer(Record):
    _fields = ("query", "value", "undecided", "steps", "distribution", "missing_roll", "hints")

    def __init__(self, query: str, value: object, undecided: list[str] | None = None,
                 steps: list[Step] | None = None, distribution: dict[object, object] | None = None,
                 missing_roll: bool = False, hints: list | None = None):
        self.query = query  # as written after `query`
        self.value = value  # bool, int, Fraction, str, list, or None when undecided or uncertain
        self.undecided = [] if undecided is None else undecided  # the reasons, each hint's text among them
        self.hints = [] if hints is None else hints  # what the file could add to decide it (kb/engine/hints.py Hint)
        self.steps = [] if steps is None else steps
        # the exact chance of each value when a roll is missing (kb/engine/odds.py); a
        # value the rules cannot decide under some dice is the key UNDECIDED
        self.distribution = distribution
        self.missing_roll = missing_roll  # undecided only for want of a roll

    # the kinds of the rules' own undecided reasons (not_in_source,
    # not_applicable, damaged, conflict, not_encoded), not a fact's or a
    # roll's: what `aslkb diff` sorts a one-sided answer by
    gaps: tuple[str, ...] = ()

    @property
    def rules(self) -> list[str]:
        """The rule ids behind the answer, in the order the walk met them: the
        rules that applied (exceptions and the rules they blocked included);
        for an answer that only the absence of something gives, the rules
        that could have given the opposite."""
        cited = [s for s in self.steps if s.rule.rule_id not in ("DEF", "query", "?", "")]
        behind = [s for s in cited if s.role != NOT_MET] or cited
        return list(dict.fromkeys(s.rule.rule_id for s in behind))

    @property
    def exceptions(self) -> list[Step]:
        """Exceptions that applied and the rules they blocked, each citation once."""
        shown: dict[tuple, Step] = {}
        for step in self.steps:
            if step.role in (EXCEPTION, BLOCKED, MAY_APPLY, MAY_BLOCK):
                shown.setdefault((step.role, step.rule.rule_id, step.rule.note), step)
        return list(shown.values())

    @property
    def interpretations(self) -> list[str]:
        return sorted({s.rule.interpretation for s in self.steps if s.rule.interpretation})


class Derivations:
    """The bookkeeping atoms of one model, indexed for the walk."""

    def __init__(self, atoms: Sequence[Symbol], kb: KnowledgeBase, loaded: set[int]):
        """`atoms`: the shown atoms of one model (its answers and records,
        kb/engine/solve.py), nothing else."""
        self.kb = kb
        self.loaded = loaded
        # head -> (rule, positive atoms, atoms needed absent); the two tuples are
        # read (one call into clingo each) only when a walk reaches the head
        self.why: dict[Symbol, list[tuple[int, Symbol, Symbol]]] = defaultdict(list)
        self._records: dict[Symbol, list[tuple[int, Sequence[Symbol], Sequence[Symbol]]]] = {}
        self.agg: dict[Symbol, list[tuple[int, Sequence[Symbol]]]] = defaultdict(list)
        self.looks: dict[Symbol, list[tuple[int, Symbol]]] = defaultdict(list)
        self.blocked: dict[tuple[str, int], list[tuple[Symbol, int, Symbol]]] = defaultdict(list)
        self.excluded: dict[Symbol, list[tuple[int, Symbol]]] = defaultdict(list)
        self.answers: dict[Symbol, list[Symbol]] = defaultdict(list)
        self.undecided: dict[Symbol, list[Symbol]] = defaultdict(list)
        self._matching: dict[Symbol, list[Symbol]] = {}
        # each pattern's answers, kept: a walk and its support both ask them,
        # and each asking would call into clingo again (a Symbol's str, name
        # and arguments are each a call through cffi)
        self._texts: dict[Symbol, str] = {}
        self._blockers_of: dict[Symbol, list[tuple[int, Symbol]]] = {}
        self._exception_made: dict[Symbol, bool] = {}
        self._could: dict[Symbol, list[int]] = {}
        self._could_by_shape: dict[str, list[int]] = {}
        self._noting: set[int] | None = None
        self._steps: dict[tuple[int, str], Step] = {}  # one Step per (rule, role), shared by the answers
        self._absent: dict[Symbol, list[tuple[int, str] | Symbol]] = {}
        self._counted_of: dict[Symbol, list[tuple[int, Sequence[Symbol]]]] = {}
        self._roles: dict[int, str] = {}
        self._blocked_by_head: dict[Symbol, list[tuple[int, Symbol]]] | None = None
        self._why_by_first: dict[tuple[str, int], dict[Symbol, list[Symbol]]] = {}
        self._why_by_signature: dict[tuple[str, int], list[Symbol]] = defaultdict(list)
        signatures: dict[str, tuple[str, int]] = {}  # "drm/3" -> ("drm", 3)
        # a rule's number by its Symbol: a lookup (hashing and comparing it, a call
        # into clingo each) costs half of reading the number (an allocation and a call)
        numbers: dict[Symbol, int] = {}

        def head_signature(rule: int) -> tuple[str, int]:
            """A head's predicate, from its rule (not from the atom: no call into clingo)."""
            text = kb.rules[rule].head
            if text not in signatures:
                name, arity = text.rsplit("/", 1)
                signatures[text] = (name, int(arity))
            return signatures[text]

        for atom in atoms:
            args = atom.arguments
            name = atom.name
            if name == "_why" and len(args) == 4:  # a record; _why/1 marks a demanded head (explain shows both)
                rule, head = numbers.get(args[0]), args[1]
                if rule is None:
                    rule = numbers[args[0]] = args[0].number
                records = self.why.get(head)
                if records is None:
                    records = self.why[head] = []
                    self._why_by_signature[head_signature(rule)].append(head)
                records.append((rule, args[2], args[3]))
            elif name == "_agg":
                self.agg[args[1]].append((args[0].number, items(args[2])))
            elif name == "_looks":
                self.looks[args[1]].append((args[0].number, args[2]))
            elif name == "_excluded":
                self.excluded[args[1]].append((args[0].number, args[2]))
            elif name == "_blocked":
                self.blocked[head_signature(args[0].number)].append((args[1], args[0].number, args[2]))
            elif name == "answer" and len(args) == 2:
                self.answers[args[0]].append(args[1])
            elif name == "undecided" and len(args) == 2:
                self.undecided[args[0]].append(args[1])

    def records(self, head: Symbol) -> list[tuple[int, Sequence[Symbol], Sequence[Symbol]]]:
        """The rule instances that derived an atom: (rule, positive atoms used,
        atoms needed absent)."""
        records = self._records.get(head)  # one lookup: each hashes the Symbol, a call into clingo
        if records is None:
            # in the rules' own order, not the grounding's: the program a
            # question selects must not change the order of the citations
            records = [(rule, items(positive), negated.arguments)
                       for rule, positive, negated in self.why.get(head, ())]
            if len({rule for rule, _, _ in records}) == len(records):  # the rule numbers alone order them
                records.sort(key=lambda record: record[0])
            else:  # one rule's instances: by their atoms, as text (the costly key, only where needed)
                records.sort(key=lambda record: (record[0], listed_text(record[1]), listed_text(record[2])))
            self._records[head] = records
        return records

    def explain(self, atom: Symbol) -> list[Step]:
        """The steps behind an atom, depth first, each rule instance once."""
        support = self.support(atom)
        steps: list[Step] = []
        seen_atoms: set[Symbol] = set()
        seen_steps: set[tuple[int, str]] = set()

        def add(rule_number: int, role: str) -> None:
            key = (rule_number, role)
            if key not in seen_steps:
                seen_steps.add(key)
                steps.append(self._step(key))

        def walk(current: Symbol) -> None:
            met = len(seen_atoms)
            seen_atoms.add(current)  # one hashing of the atom (a call into clingo), not two
            if len(seen_atoms) == met:
                return
            records = support.get(current, ())
            rules = {rule for rule, _, _ in records}
            for rule, positive, negated in records:
                add(rule, self._role(rule))
                for child in positive:
                    walk(child)
                for absent in negated:
                    why_absent(absent)
            if self._noting_rules().isdisjoint(rules):
                return
            for rule, counted in self._counted(current):
                if rule in rules:
                    for child in counted:
                        walk(child)
            for rule, pattern in sorted(self.looks.get(current, ())):
                if rule in rules:
                    why_absent(pattern)
            for rule, left_out in sorted(self.excluded.get(current, ())):
                if rule in rules:
                    walk(left_out)

        def why_absent(pattern: Symbol) -> None:
            for step in self._why_absent(pattern):
                if type(step) is tuple:
                    add(*step)
                else:
                    walk(step)

        walk(atom)
        return steps

    def _role(self, rule: int) -> str:
        return _kept(self._roles, rule, lambda n: EXCEPTION if self.kb.rules[n].exception else APPLIED)

    def _why_absent(self, pattern: Symbol) -> list[tuple[int, str] | Symbol]:
        """An atom (or pattern) a rule needed absent or looked for: who was
        stopped by an exception, or else who could have derived it. What a
        walk does for it, in order: a step (rule, role) to add, or an atom to
        walk on to (an exception's); the same for every answer, kept."""
        return _kept(self._absent, pattern, self._find_why_absent)

    def _find_why_absent(self, pattern: Symbol) -> list[tuple[int, str] | Symbol]:
        found: list[tuple[int, str] | Symbol] = []
        blockers = self._blockers(pattern)
        for rule, stopper in blockers:
            if self._from_exception(stopper):
                found.append((rule, BLOCKED))
                found += self._matching_atoms(stopper)
            else:  # an ordinary `not` condition of the rule failed
                found.append((rule, NOT_MET))
        if not blockers:
            found += [(rule, NOT_MET) for rule in self._could_derive(pattern)]
        return found

    def support(self, atom: Symbol) -> dict[Symbol, list[tuple[int, Sequence[Symbol], Sequence[Symbol]]]]:
        """The rule instances the derivation of an atom rests on, for each atom
        it reaches. An atom one rule instance derives rests on it; an atom
        several derive waits until the rest of the derivation is known, then
        rests on the instances whose positive conditions that derivation
        already holds (value64_needed(384) on this attack's column of 6, not
        on another attack's), or, when none does, on all of them. A held
        instance whose conditions rest on the atom itself (a positive loop:
        Locations reached from each other) is no support of it."""
        chosen: dict[Symbol, list] = {}
        pending: dict[Symbol, None] = {}  # in the order met

        def visit(current: Symbol) -> None:
            if current in chosen or (pending and current in pending):  # mostly none pending: no hashing
                return
            records = self.records(current)
            if len(records) > 1:
                pending[current] = None
            else:
                rest_on(current, records)

        def rest_on(current: Symbol, records: list) -> None:
            chosen[current] = records
            for child in self._reached(current, records):
                visit(child)

        def rests_on(start: Symbol, target: Symbol) -> bool:
            """Does the support chosen so far for `start` use `target`?"""
            stack, seen = [start], set()
            while stack:
                current = stack.pop()
                if current == target:
                    return True
                if current not in seen:
                    seen.add(current)
                    stack += [p for _rule, positive, _ in chosen.get(current, ()) for p in positive]
            return False

        def held(current: Symbol) -> list:
            return [record for record in self.records(current)
                    if all(p in chosen or p in pending for p in record[1])
                    and not any(rests_on(p, current) for p in record[1])]

        visit(atom)
        while pending:
            for current in pending:
                if records := held(current):
                    break
            else:
                current = next(iter(pending))
                records = self.records(current)
            del pending[current]
            rest_on(current, records)
        return chosen

    def _reached(self, current: Symbol, records: list) -> list[Symbol]:
        """The atoms the walk goes on to from an atom's rule instances: what
        they used, what they counted, and the exceptions that kept something
        absent or left an element out."""
        rules = {rule for rule, _, _ in records}
        found: list[Symbol] = []
        for _rule, positive, negated in records:
            found += positive
            for absent in negated:
                found += self._stoppers(absent)
        if self._noting_rules().isdisjoint(rules):
            return found
        for rule, counted in self._counted(current):
            if rule in rules:
                found += counted
        for rule, pattern in sorted(self.looks.get(current, ())):
            if rule in rules:
                found += self._stoppers(pattern)
        found += [left_out for rule, left_out in sorted(self.excluded.get(current, ())) if rule in rules]
        return found

    def _counted(self, current: Symbol) -> list[tuple[int, Sequence[Symbol]]]:
        """An aggregate's counted elements in the order of the rules that
        derive them (the rule files' order: a total's parts A7 before E1
        before F11), so that an answer cites them in an order a reader can
        follow, whatever the atoms' values."""
        def key(element: tuple[int, Sequence[Symbol]]) -> tuple:
            rule, counted = element
            derived_by = [r for atom in counted for r, _, _ in self.records(atom)]
            return rule, min(derived_by, default=-1), listed_text(counted)
        return _kept(self._counted_of, current, lambda c: sorted(self.agg.get(c, ()), key=key))

    def _noting_rules(self) -> set[int]:
        """The rules with an aggregate's elements, a look or an excluded
        element recorded: an atom none of whose rules is one has none of
        them (a test on the rule numbers at hand, where a test of the atom
        would hash it: a call into clingo)."""
        if self._noting is None:
            self._noting = {rule for table in (self.agg, self.looks, self.excluded)
                            for noted in table.values() for rule, _ in noted}
        return self._noting

    def _step(self, key: tuple[int, str]) -> Step:
        return _kept(self._steps, key, lambda k: Step(self.kb.rules[k[0]], k[1]))

    def _blockers(self, pattern: Symbol) -> list[tuple[int, Symbol]]:
        """The rule instances that would have derived an atom of the pattern
        but for an atom of their `not` conditions: (rule, that atom)."""
        return _kept(self._blockers_of, pattern, self._find_blockers)

    def _find_blockers(self, pattern: Symbol) -> list[tuple[int, Symbol]]:
        if self._is_ground(pattern):  # it matches only an equal head, found by hashing (a scan of
            # the signature's records for each pattern grew with the square of the situation)
            return sorted(self._blocked_at().get(pattern, ()))
        return sorted((rule, stopper) for head, rule, stopper in self.blocked.get(_signature(pattern), ())
                      if matches(pattern, head))

    def _is_ground(self, pattern: Symbol) -> bool:
        return ANY not in self._text(pattern)

    def _text(self, pattern: Symbol) -> str:
        return _kept(self._texts, pattern, str)

    def _blocked_at(self) -> dict[Symbol, list[tuple[int, Symbol]]]:
        """The blocked rule instances by the head they would have derived."""
        if self._blocked_by_head is None:
            self._blocked_by_head = defaultdict(list)
            for records in self.blocked.values():
                for head, rule, stopper in records:
                    self._blocked_by_head[head].append((rule, stopper))
        return self._blocked_by_head

    def _stoppers(self, pattern: Symbol) -> list[Symbol]:
        """The exceptions' atoms that kept an atom of the pattern absent."""
        return [atom for _rule, stopper in self._blockers(pattern) if self._from_exception(stopper)
                for atom in self._matching_atoms(stopper)]

    def _from_exception(self, pattern: Symbol) -> bool:
        """Was the atom derived by a rule cited as an exception (EXC)?"""
        return _kept(self._exception_made, pattern, lambda p: any(
            self.kb.rules[rule].exception for atom in self._matching_atoms(p) for rule, _, _ in self.why.get(atom, ())))

    def _matching_atoms(self, pattern: Symbol) -> list[Symbol]:
        """The derived atoms a pattern stands for (itself when it is ground)."""
        return _kept(self._matching, pattern, lambda p: [p] if self._is_ground(p) else
                     sorted(atom for atom in self._candidates(p) if matches(p, atom)))

    def _candidates(self, pattern: Symbol) -> list[Symbol]:
        """The derived atoms of the pattern's predicate, only those with its
        first argument where that is ground (an attack's `drm("A1", _any, _any)`
        scanning every attack's drm grew with the square of the situation)."""
        signature = _signature(pattern)
        first = pattern.arguments[0] if signature[1] else None
        if first is None or not self._is_ground(first):
            return self._why_by_signature.get(signature, [])
        if signature not in self._why_by_first:  # indexed per predicate, when a pattern first asks
            by_first = self._why_by_first[signature] = defaultdict(list)
            for atom in self._why_by_signature.get(signature, ()):
                by_first[atom.arguments[0]].append(atom)
        return self._why_by_first[signature].get(first, [])

    def _could_derive(self, pattern: Symbol) -> list[int]:
        """Loaded rules whose head can be an atom of the pattern, when none
        derived one: by the head's constants, not only its predicate (a rule
        for `drm(A, leadership, N)` could not give an absent `drm("A1", dust, _)`)."""
        return _kept(self._could, pattern, lambda p: [] if not _is_function(self._text(p)) or any(
            a in self.why for a in self._matching_atoms(p)) else self._could_give(p))

    def _could_give(self, pattern: Symbol) -> list[int]:
        """The loaded rules whose head can be an atom of the pattern, kept by
        the pattern's shape: each attack's `drm("An", dust, _any)` asks the
        same. The shape is read from the pattern's text, which the walk has
        read already (its strings and numbers taken out, as the selection
        reads facts): a dozen calls into clingo a pattern otherwise."""
        return _kept(self._could_by_shape, open_text(self._text(pattern)), self._rules_giving)

    def _rules_giving(self, shape: str) -> list[int]:
        return [n for n in rules_giving(self.kb, shape) if n in self.loaded]


# the rules whose head can be an atom of a shape, by knowledge base: the same
# for every answer, selection and situation of a process (a server's, a
# check's worker's); about a tenth of a small situation's walk
_GIVING: WeakKeyDictionary[KnowledgeBase, dict[str, list[int]]] = WeakKeyDictionary()


def rules_giving(kb: KnowledgeBase, shape: str) -> list[int]:
    """The rules (loaded or not) whose head can be an atom of the shape
    (patterns.open_text's) by its constants, not only its predicate."""
    known = _GIVING.get(kb)
    if known is None:
        known = _GIVING[kb] = {}
    found = known.get(shape)
    if found is None:
        if len(known) >= 4096:  # a long-lived process (the web service) meeting many kinds of pattern
            known.clear()
        head = shape_pattern(shape)
        if not head:  # a tuple: no rule's head
            found = []
        else:
            signature = f"{head[0]}/{len(head[1])}"
            wanted = tuple(_opened(a) for a in head[1])
            found = [n for n in kb.rules_deriving(signature) if kb.head_can_be(n, signature, wanted)]
        known[shape] = found
    return found


def _kept(table: dict, key, compute):
    """table[key], computed once: a walk and its support ask the same of a
    pattern, and each asking would call into clingo again (a Symbol's str,
    name, arguments and hash are each a call through cffi); one lookup
    where it is kept."""
    found = table.get(key)
    if found is None:
        found = table[key] = compute(key)
    return found


def items(listed: Symbol) -> list[Symbol]:
    """The atoms of a record's list `(A, (B, ... ()))` (kb/knowledge/reify.py)."""
    found = []
    while pair := listed.arguments:
        found.append(pair[0])
        listed = pair[1]
    return found


def listed_text(symbols: Sequence[Symbol]) -> str:
    """str() of a list of symbols, the key one rule's instances have always
    been sorted by: the same text as the symbols' repr (Function('f',
    [Number(1)], True)), which reads a symbol's type up to five times, each a
    call into clingo; here its type, name, arguments and sign once each."""
    return "[" + ", ".join(map(_symbol_repr, symbols)) + "]"


def _symbol_repr(symbol: Symbol) -> str:
    kind = symbol.type
    if kind == SymbolType.Function:
        return f"Function({symbol.name!r}, {listed_text(symbol.arguments)}, {symbol.positive!r})"
    if kind == SymbolType.Number:
        return f"Number({symbol.number!r})"
    if kind == SymbolType.String:
        return f"String({symbol.string!r})"
    return repr(symbol)  # Infimum, Supremum


def _signature(symbol: Symbol) -> tuple[str, int]:
    if symbol.type == SymbolType.Function:
        return symbol.name, len(symbol.arguments)
    return str(symbol), 0


def _is_function(text: str) -> bool:
    """Is the symbol of this text a function (not a string, number, #inf or #sup)?"""
    return text[0] not in '"#' and not text.lstrip("-")[:1].isdigit()


def _opened(pattern):
    """A term's pattern (patterns.symbol_pattern) as kb/knowledge/program.py
    matches heads: `_any` open too, as numbers and strings are."""
    if not pattern or pattern[0] == ANY:
        return ""
    return (pattern[0], tuple(_opened(a) for a in pattern[1]))


def matches(pattern: Symbol, symbol: Symbol) -> bool:
    if pattern.type == SymbolType.Function and pattern.name == ANY and not pattern.arguments:
        return True
    if pattern.type != SymbolType.Function or symbol.type != SymbolType.Function:
        return pattern == symbol
    return (pattern.name == symbol.name and len(pattern.arguments) == len(symbol.arguments)
            and all(matches(p, s) for p, s in zip(pattern.arguments, symbol.arguments)))


def python_value(symbol: Symbol) -> object:
    """An answer term as a Python value (see docs/design.md §3)."""
    kind = symbol.type  # each of a Symbol's type, name and arguments is a call into clingo: read once
    if kind == SymbolType.Number:
        return symbol.number
    if kind == SymbolType.String:
        return symbol.string
    if kind == SymbolType.Function:
        name, arguments = symbol.name, symbol.arguments
        if name == "frac" and len(arguments) == 2:
            from fractions import Fraction  # rare, and its import is not free

            return Fraction(arguments[0].number, arguments[1].number)
        if not arguments and name in ("yes", "no"):
            return name == "yes"
        if not arguments:
            return name
    return str(symbol)


def reason_text(reason: Symbol, kb: KnowledgeBase) -> str:
    """An undecided reason term as a sentence (docs/design.md §3)."""
    name = reason.name if reason.type == SymbolType.Function else ""
    args = reason.arguments if name else []
    text = [term_text(a) for a in args]
    if name == "not_encoded" and len(args) == 1:
        return f"{text[0]} not encoded"
    if name == "damaged" and len(args) == 2:
        choices = sorted(n for n, i in kb.interpretations.items() if i.rule == text[0])
        hint = f"; interpretations on {text[0]}: {', '.join(choices)}" if choices else ""
        return f"{text[0]} damaged: {text[1]}{hint}"
    if name == "not_in_source" and len(args) == 2:
        return f"{text[0]}: {text[1]}"
    if name == "not_applicable" and len(args) == 2:
        return f"{text[0]}: {text[1]}"
    if name == "conflict" and len(args) == 2:
        choices = sorted(n for n, i in kb.interpretations.items() if i.rule in (text[0], text[1]))
        hint = f" (interpretation: {', '.join(choices)})" if choices else ""
        return f"{text[0]} and {text[1]} disagree and no interpretation in force decides{hint}"
    return term_text(reason)
