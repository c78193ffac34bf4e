"""Which statements a situation grounds (docs/design.md, "Which rules a
situation grounds"): top down from the terms asked, then bottom up from the
facts, over argument patterns. KnowledgeBase.select (program.py) runs it.

A pattern stands for ground terms: "" for any (a number, a string, a
variable left open), else (name, argument patterns). A template is an
argument of a rule's atom as kb/knowledge/reify.py reads it, its variables
numbered when the knowledge base is built (`compile_statement`): an int is
the variable's slot in the statement's binding, a list of patterns with None
where a variable is unbound. Plain lists, tuples and ints keep both passes
cheap and the cache small. A head is named by (statement, which atom of the
head): a head pools several atoms (`a; b :- c.`).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from aslkb.knowledge.patterns import NEEDED, QUERY

DEPTH = 4  # patterns are cut below this depth, so that demands stay finitely many
JOINS = 64  # bindings followed per new atom pattern; beyond, the variables are left open


def compile_statement(heads: list, body: list) -> tuple[list, list, int, int]:
    """A statement's head and body patterns (reify.py: "$X" for a variable)
    with each variable replaced by its slot, the head's first; the number of
    slots, and of those the head's variables take."""
    slots: dict[str, int] = {}

    def number(template):
        if isinstance(template, str):
            return slots.setdefault(template, len(slots)) if template[:1] == "$" else template
        return (template[0], tuple(number(t) for t in template[1]))

    heads = [(name, tuple(number(a) for a in args)) for name, args in heads]
    in_head = len(slots)
    body = [(name, tuple(number(a) for a in args), kind) for name, args, kind in body]
    return heads, body, len(slots), in_head


def rule_index(data: dict, paths: Iterable[str]) -> tuple[list[int], dict[str, list], dict[str, list]]:
    """For the rule files of every edition and every interpretation (select()
    skips those not in force): the statements always considered
    (constraints, rules that answer directly) and the others by the
    predicate of their head; one index for both editions, stored in the
    cached knowledge base, so a run only reads it.

    A head is (statement, which atom of the head): `every` name/arity -> its heads; `by_first` "name/arity\0functor" -> the heads
    whose first argument has that functor, then those where it is open,
    and "name/arity\0" -> those where it is open, only for the predicates
    some of whose heads fix it (a demand with its first argument fixed
    reads one list)."""
    always: list[int] = []
    # name/arity -> the functor of the first argument ("" open) -> heads
    heads_of: dict[str, dict[str, list[tuple[int, int]]]] = {}
    every: dict[str, list[tuple[int, int]]] = {}
    for path in paths:
        first, end = data["path_range"][path]
        for i in range(first, end):
            heads = data["heads"][i]
            if not heads or heads[0][0] in ("answer/2", "undecided/2"):  # rules in rules/ that answer themselves
                always.append(i)
                continue
            for j, (name, args) in enumerate(heads):
                every.setdefault(name, []).append((i, j))
                heads_of.setdefault(name, {}).setdefault(first_functor(args), []).append((i, j))
    by_first: dict[str, list[tuple[int, int]]] = {}
    for name, by_functor in heads_of.items():
        if set(by_functor) != {""}:
            opened = by_functor.get("", [])
            for functor, found in by_functor.items():
                by_first[f"{name}\0{functor}"] = found + opened if functor else found
    return always, every, by_first


def reached(data: dict, in_force: bytearray, asked: dict[str, dict], starts: Iterable[int]) -> list[int]:
    """Top down: the statements the asked queries can depend on, in the order
    reached. `starts` are the statements of the query programs asked; `asked`
    maps each query name to the patterns asked, as keys ("" where any term of
    the name may be). A rule is reached by what a reached body reads, argument by
    argument, its head's variables bound by that demand; a statement whose
    `query(T)` condition no asked query meets is not."""
    always, every, by_first = data["index"]
    heads_of, body_of, slots = data["heads"], data["body"], data["slots"]
    asking = data["asking"]
    chosen: list[int] = []
    chosen_set: set[int] = set()
    wanted: list[tuple[str, tuple]] = []
    seen: set[tuple[str, tuple]] = set()
    opened: set[str] = set()  # the predicates demanded with every argument open
    done: set[tuple] = set()

    def reach(i: int, binding: list) -> None:
        key = (i, *binding)
        if key in done:  # the same statement under the same binding demands the same
            return
        done.add(key)
        bindings = [binding]
        for template in asking.get(i, ()):  # query(T): only the queries asked are facts
            bindings = [b for bound in bindings for b in _query_bindings(template, asked, bound)]
        if not bindings:
            return
        if i not in chosen_set:
            chosen_set.add(i)
            chosen.append(i)
        body = body_of[i]
        for bound in bindings:
            if any(bound):  # (a bound slot holds a pattern other than "")
                for name, args, kind in body:
                    if kind != QUERY:
                        wanted.append((name, bind_args(args, bound)))
            else:
                for name, args, kind in body:
                    if kind != QUERY:
                        wanted.append((name, open_args(args)))

    for i in always:
        if in_force[i]:
            reach(i, [None] * slots[i])
    for i in starts:
        reach(i, [None] * slots[i])
    while wanted:
        demand = wanted.pop()
        if demand in seen:
            continue
        name, args = demand
        if name in opened:
            continue
        seen.add(demand)
        if not any(args):  # every head can be of it, its variables unbound
            opened.add(name)
            for i, _ in every.get(name, ()):
                if in_force[i]:
                    reach(i, [None] * slots[i])
            continue
        heads = None
        if first := first_functor(args):  # the first argument fixed: its functor's heads, and the open ones
            heads = by_first.get(f"{name}\0{first}")
            if heads is None:
                heads = by_first.get(f"{name}\0")
        if heads is None:
            heads = every.get(name, ())
        for i, j in heads:
            if in_force[i]:
                binding = [None] * slots[i]
                if unify_args(heads_of[i][j][1], args, binding):
                    reach(i, binding)
    return chosen


def can_fire(chosen: Sequence[int], patterns: Iterable[tuple[str, tuple]], heads_of: list, body_of: list,
             slots: list[int], head_slots: list[int]) -> set[int]:
    """Bottom up: those of the chosen statements whose positive conditions can
    all be met, from the facts' `patterns` up (semi-naive), each statement
    that can fire adding its head with the variables its conditions bind
    (`dr_colored(N, S, V) :- roll(N, S, colored, V)` gives dr_colored for the
    rolls there are, not for any roll).

    Each condition keeps the patterns that can meet it, as the variable
    occurrences they bind (see `occurrences`): a pattern is matched against
    a condition once, however many joins it takes part in."""
    # (name/arity, the functor of the first argument or "" where that is open)
    # -> the conditions reading such atoms, as (statement, condition, templates)
    readers: dict[tuple[str, str], list[tuple[int, int, tuple]]] = {}
    every: dict[str, list[tuple[int, int, tuple]]] = {}  # name/arity -> all of those
    met: dict[int, list[dict]] = {}  # statement -> for each condition, what the patterns meeting it bind, each once
    alive: set[int] = set()
    quiet: set[int] = set()  # of those, the ones whose heads no condition reads: they matter only in that they fire
    events: list[list] = []  # per new pattern, the conditions it meets, to join
    filed: set[tuple[str, tuple]] = set()

    def add(name: str, pattern: tuple) -> None:
        key = (name, pattern)
        if key in filed:
            return
        filed.add(key)
        meeting = []
        first = pattern[0] if pattern else ""
        if first:  # only the conditions whose first argument can take its functor
            reading = readers.get((name, first[0]), []) + readers.get((name, ""), [])
        else:
            reading = every.get(name, ())
        for i, k, args in reading:
            found: list = []
            if occurrences(args, pattern, found):
                binds = tuple(found)
                if binds not in met[i][k]:  # else it joins as a pattern met before did
                    met[i][k][binds] = None
                    meeting.append((i, k, binds))
        if meeting:
            events.append(meeting)

    def fires(i: int) -> bool:
        """Statement i can fire: does anything read what it derives?"""
        alive.add(i)
        if any(name in every for name, _ in heads_of[i]):
            return True
        quiet.add(i)
        return False

    unconditional = []
    for i in chosen:
        k = 0
        for name, args, kind in body_of[i]:
            if kind == NEEDED:
                reader = (i, k, args)
                readers.setdefault((name, args[0][0] if args and args[0].__class__ is tuple else ""), []).append(reader)
                every.setdefault(name, []).append(reader)
                k += 1
        if k:
            met[i] = [{} for _ in range(k)]
        else:
            unconditional.append(i)
    for name, pattern in patterns:
        add(name, pattern)
    for i in unconditional:
        if fires(i):
            for name, args in heads_of[i]:
                add(name, bind_args(args, [None] * slots[i]))
    derived: set[tuple] = set()  # (statement, its head's binding): each derives once
    while events:
        for i, k, found in events.pop():
            if i in quiet:
                continue
            bindings = _joins(met[i], k, found, slots[i])
            if bindings and (i in alive or fires(i)):
                in_head = head_slots[i]
                for bound in bindings:
                    key = (i, *bound[:in_head])
                    if key not in derived:
                        derived.add(key)
                        for name, args in heads_of[i]:
                            add(name, bind_args(args, bound))
    return alive


def _joins(conditions: list[dict], fixed: int, found: tuple, size: int) -> list[list]:
    """The bindings under which every condition meets a pattern filed for
    it, condition `fixed` bound by the occurrences `found`; [] when one
    cannot be met."""
    if len(conditions) > 1 and not all(conditions):  # a condition nothing meets yet
        return []
    binding = [None] * size
    if not _replay(found, binding):
        return []
    bindings = [binding]
    for k, options in enumerate(conditions):
        if k == fixed:
            continue
        grown = []
        for bound in bindings:
            for occurring in options:
                if not occurring:  # binds nothing: met as it is
                    grown.append(bound)
                    continue
                extended = bound.copy()
                for slot, pattern in occurring:  # _replay, inline: the innermost loop
                    was = extended[slot]
                    if was is None:
                        extended[slot] = pattern
                    elif was != pattern and not _fits(was, pattern):
                        break
                else:
                    grown.append(extended)
        if not grown:
            return []
        bindings = grown if len(grown) <= JOINS else [binding]  # too many: met, and left open
    return bindings


def occurrences(templates: tuple, pattern: tuple, found: list) -> bool:
    """Can an atom with these argument templates be one of this pattern,
    whatever its variables are bound to? Collects (slot, pattern) for each
    variable occurrence the pattern fixes, in order, for `_replay`."""
    if len(templates) != len(pattern):
        return False
    for template, part in zip(templates, pattern):
        if not part:  # open
            continue
        kind = template.__class__
        if kind is int:
            found.append((template, part))
        elif kind is tuple and (template[0] != part[0] or not occurrences(template[1], part[1], found)):
            return False
    return True


def _replay(found: list, binding: list) -> bool:
    """unify_args's binding, from the occurrences `occurrences` collected."""
    for slot, pattern in found:
        bound = binding[slot]
        if bound is None:
            binding[slot] = pattern
        elif bound != pattern and not _fits(bound, pattern):
            return False
    return True


def unify_args(templates: tuple, pattern: tuple, binding: list) -> bool:
    """Can an atom with these argument templates be one of this pattern? Binds
    the variables: a variable takes the first pattern it meets; a later one
    must fit that (the occurrences, then their replay)."""
    found: list = []
    return occurrences(templates, pattern, found) and _replay(found, binding)


def _fits(one, other) -> bool:
    """Can a term be of both patterns?"""
    if not one or not other:
        return True
    if one[0] != other[0] or len(one[1]) != len(other[1]):
        return False
    for a, b in zip(one[1], other[1]):
        if a != b and not _fits(a, b):
            return False
    return True


def first_functor(pattern: tuple) -> str:
    """The functor of a pattern's first argument, "" when it is open or a variable."""
    return pattern[0][0] if pattern and pattern[0].__class__ is tuple else ""


def open_args(templates: tuple) -> tuple:
    """An atom's argument templates as patterns, their variables open (most are a variable)."""
    return tuple(["" if template.__class__ is not tuple else open_pattern(template) for template in templates])


def open_pattern(template):
    """A template as a pattern, its variables open."""
    if template.__class__ is tuple:
        return (template[0], tuple(map(open_pattern, template[1])))
    return ""


def bind_args(templates: tuple, binding: list) -> tuple:
    """An atom's argument templates as patterns (bind, at DEPTH): most are a
    variable, bound or not, or open."""
    bound = []
    for template in templates:
        if template.__class__ is int:
            pattern = binding[template]
            bound.append("" if pattern is None else pattern if not pattern[1] else _cut(pattern, DEPTH))
        else:
            bound.append(bind(template, binding, DEPTH))
    return tuple(bound)


def bind(template, binding: list, depth: int):
    """A template as a pattern: its bound variables replaced by what they
    were bound to, the rest left open; cut below `depth`."""
    if template == "" or depth == 0:
        return ""
    if template.__class__ is int:
        bound = binding[template]
        return "" if bound is None else _cut(bound, depth)
    return (template[0], tuple([bind(t, binding, depth - 1) for t in template[1]]))


def _cut(pattern, depth: int):
    if pattern == "" or depth > 0 and not pattern[1]:
        return pattern
    if depth == 0:
        return ""
    return (pattern[0], tuple([_cut(p, depth - 1) for p in pattern[1]]))


def _query_bindings(template, asked: dict[str, dict], binding: list) -> list[list]:
    """The bindings under which a `query(T)` condition meets a query asked."""
    if template.__class__ is tuple:
        candidates = asked.get(template[0], ())
    elif template.__class__ is int:  # query(Q): any query
        candidates = [pattern for patterns in asked.values() for pattern in patterns]
    else:
        return []
    found = []
    for pattern in candidates:
        bound = binding.copy()
        if unify_args((template,), (pattern,), bound):
            found.append(bound)
    return found
