"""The open/closed declaration of every kind of situation fact, read once from
rules/common/unknowns.lp (`%! open move/3 add: ...`, `%! closed unit_attr/2: ...`),
and the choice rules they give the engine (kb/engine/unknowns.py says what
an unknown is and how an answer depends on it)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

DECLARATIONS = "common/unknowns.lp"  # under the rules package
# `%! open move/3 add: move M {1} to HEX` and `%! closed unit_attr/2: reason`
_HEADER = re.compile(r"^%!\s+(open|closed)\s+(\w+/\d+)\s*(one\s+)?(?:add:\s*(.*?)\s*$|:\s*(.*?)\s*$)")


@dataclass(frozen=True)
class Declaration:
    status: str  # "open" or "closed"
    signature: str  # name/arity of the situation fact
    text: str  # open: the statement to add ({0}, {1}, ... stand for the atom's arguments); closed: the reason
    one: bool = False  # open and valued: exactly one value (the last argument) per key


@cache
def declarations() -> tuple[Declaration, ...]:
    """The open/closed declaration of every kind of situation fact."""
    import os

    from aslkb.knowledge.rulefiles import kb_root

    with open(os.path.join(kb_root(), "rules", DECLARATIONS), encoding="utf-8") as handle:
        return parse_declarations(handle.read())


def parse_declarations(text: str) -> tuple[Declaration, ...]:
    found = []
    for line in text.splitlines():
        if match := _HEADER.match(line):
            status, signature, one, add, reason = match.groups()
            found.append(Declaration(status, signature, add if status == "open" else reason or "", bool(one)))
    return tuple(found)


@cache
def open_templates() -> dict[str, str]:
    """name/arity of each open fact -> the statement that states it."""
    return {d.signature: d.text for d in declarations() if d.status == "open"}


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
