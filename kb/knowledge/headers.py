"""What a run reads of the rule files' `%!` header lines: an interpretation's
header and the open/closed declarations of rules/common/unknowns.lp, as
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


class Interpretation(NamedTuple):
    name: str
    path: str  # relative to the knowledge base root
    rule: str = ""
    default: bool = False
    reason: str = ""
    excludes: tuple[str, ...] | list[str] = ()
