"""The open/closed declaration of every kind of situation fact, the `%! open`
and `%! closed` lines of rules/common/unknowns.lp (read with the other
annotations, kb/knowledge/annotations.py), and the choice rules they give the
engine (kb/engine/unknowns.py says what an unknown is and how an answer
depends on it); and the same file's `%! alternatives` and `%! symmetric`
lines, how an answer asks for an open fact (kb/engine/hints.py)."""
from __future__ import annotations

from functools import cache

from aslkb.knowledge.headers import Alternatives, Declaration
from aslkb.knowledge.program import knowledge_base

DECLARATIONS = "rules/common/unknowns.lp"  # as the knowledge base names its files

__all__ = ["DECLARATIONS", "Alternatives", "Declaration", "alternatives", "choices_program", "declarations",
           "open_signatures", "open_templates", "parse_declarations", "symmetric_signatures"]


@cache
def declarations() -> tuple[Declaration, ...]:
    """The open/closed declaration of every kind of situation fact."""
    return knowledge_base().declarations(DECLARATIONS)


def parse_declarations(text: str) -> tuple[Declaration, ...]:
    """The declarations of a program text (parsed with clingo)."""
    from aslkb.knowledge.annotations import read_text  # lazy: not on `aslkb query`'s path (its cold start)

    return read_text(text).declarations


@cache
def alternatives() -> tuple[Alternatives, ...]:
    """The open facts that are values of one thing (`%! alternatives`)."""
    return knowledge_base().alternatives(DECLARATIONS)


@cache
def symmetric_signatures() -> frozenset[str]:
    """The name/arity of each fact stated once in either direction (`%! symmetric`)."""
    return frozenset(knowledge_base().symmetric(DECLARATIONS))


@cache
def open_templates() -> dict[str, str]:
    """name/arity of each open fact -> the statement that states it."""
    return {d.signature: d.text for d in declarations() if d.status == "open"}


@cache
def open_signatures() -> frozenset[tuple[str, int]]:
    """The (name, arity) of each open fact, as read from a symbol or the parser."""
    return frozenset((name, int(arity)) for name, arity in (s.rsplit("/", 1) for s in open_templates()))


@cache
def choices_program() -> str:
    """One choice per open predicate: an atom the declarations let a rule
    look at may hold or not. Built from the shipped declarations only."""
    rules = []
    for declared in declarations():
        if declared.status != "open":
            continue
        name, arity = declared.signature.rsplit("/", 1)
        args = [f"X{i}" for i in range(int(arity))]
        atom = f"{name}({','.join(args)})"
        rules.append(f"{{ {atom} }} :- open({atom}).")
        if declared.one:  # a valued fact left open takes exactly one value
            key = ",".join(args[:-1])
            rules.append(f":- open({name}({key},_)), #count {{ V : {name}({key},V) }} != 1.")
    return "\n" + "\n".join(rules) + "\n"
