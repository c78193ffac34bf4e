"""The vocabulary shared by the transformation of the rules (reify.py), the
program that selects them (program.py) and the reading of a model
(kb/answers/read.py): here, below all three, so none imports another for it."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clingo import Symbol

ANY = "_any"  # stands for any value in a bookkeeping pattern (reify.py)

# How a rule's body reads an atom (reify.py body_patterns).
QUERY, NEEDED, READ = "query", "needed", "read"


def symbol_pattern(symbol: Symbol):
    """A ground term as a pattern (see program.py _unify): numbers and strings left open."""
    if symbol.type.name == "Function" and symbol.name:
        return (symbol.name, tuple(symbol_pattern(a) for a in symbol.arguments))
    return ""
