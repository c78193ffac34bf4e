"""The vocabulary shared by the transformation of the rules (reify.py), the
program that selects them (program.py) and the reading of a model
(kb/answers/read.py), and how a term reads to a player (term_text): here,
below all of them, so none imports another for it."""
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


def term_text(symbol: Symbol) -> str:
    """A term as a player writes it: unit("G1") as G1, scenario(nvr) as `scenario nvr`."""
    if symbol.type.name == "String":
        return symbol.string
    if symbol.type.name == "Function":
        if symbol.name in ("unit", "hex") and len(symbol.arguments) == 1:
            return term_text(symbol.arguments[0])
        if symbol.name == "" or symbol.arguments:
            parts = [symbol.name] if symbol.name else []
            parts += [term_text(arg) for arg in symbol.arguments if str(arg) != "none"]
            return " ".join(parts)
    return str(symbol)
