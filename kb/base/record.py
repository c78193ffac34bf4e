"""Record: a plain class's equality and repr from its named fields.

For the few records on the cold path of `aslkb query` (an Answer, a Result,
an answer's Values and Unknowns) in place of dataclasses, whose import brings
inspect, ast and dis (about 5 ms) and which builds each class with exec. The
same behaviour as a dataclass's: equal when of the same class with equal
fields, a repr that names them, unhashable (the fields are mutable)."""
from __future__ import annotations


class Record:
    __slots__ = ()
    _fields: tuple[str, ...] = ()
    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return tuple(getattr(self, f) for f in self._fields) == tuple(getattr(other, f) for f in self._fields)

    def __repr__(self) -> str:
        shown = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{self.__class__.__qualname__}({shown})"
