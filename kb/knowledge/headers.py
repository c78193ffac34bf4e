"""What a run reads of the rule files' `%!` header lines: an interpretation's
header and the declarations of rules/common/unknowns.lp (open/closed, and how
an answer asks for an open fact: alternatives, symmetric), as
kb/knowledge/annotations.py reads them when the knowledge base is built.
Apart from the other annotations, which a query does not read: importing
that module cost every cold query about 0.8 ms."""
# Annotations are evaluated, not strings (see annotations.py).

from typing import NamedTuple


class Declaration(NamedTuple):
    status: str  # "open" or "closed"
    signature: str  # name/arity of the situation fact
    text: str  # open: the statement to add ({0}, {1}, ... stand for the atom's arguments); closed: the reason
    one: bool = False  # open and valued: exactly one value (the last argument) per key


class Alternatives(NamedTuple):
    """`%! alternatives los/3 los_hindrance/3: clear blocked`: the open facts
    of one thing, the values a file gives it once; the key of one thing is
    every argument but the last."""
    signatures: tuple[str, ...]  # name/arity: the first takes the values; each further one adds its own statement
    values: tuple[str, ...]  # the first signature's last argument, every one of them offered; () the values opened


class Interpretation(NamedTuple):
    name: str
    path: str  # relative to the knowledge base root
    rule: str = ""
    default: bool = False
    reason: str = ""
    excludes: tuple[str, ...] | list[str] = ()
