"""The situation language parser: text -> facts (clingo symbols), queries, expectations.

    from aslkb.base.errors import QueryLineError, SituationError

    from aslkb.parser import parse, parse_file
    situation = parse_file("night.sit")

The grammar is situation.lark; the facts are those of docs/design.md section 1;
the language is described in docs/language.md.
"""

from __future__ import annotations

import os
from typing import Union


from . import characters, grammar, validate
from .lalr import UnexpectedToken
from aslkb.base.errors import QueryLineError, SituationError
from .model import UNDECIDED, Distribution, Expect, Fact, Interpretation, Query, Situation

__all__ = ["parse", "parse_asking", "parse_file", "parse_stdin", "STDIN", "SituationError", "QueryLineError",
           "Situation", "Query", "Expect", "Fact", "Interpretation", "UNDECIDED", "Distribution"]


def parse(text: str, filename: str = "<string>") -> Situation:
    """Parse a situation; raises SituationError at the first problem."""
    text = text.removeprefix("\ufeff")  # a byte order mark is not part of line 1
    characters.refuse_invisible(text, filename)  # at their own column, before they fuse with a word
    if not text.endswith("\n"):
        text += "\n"  # every statement ends with a newline in the grammar
    try:
        statements = grammar.parser().parse(text)
    except UnexpectedToken as e:
        from . import messages  # only on this error path

        raise messages.syntax_error(e, text, filename) from None
    situation = validate.build(statements, filename)
    situation.text = text
    return situation


def parse_asking(text: str, query: str, filename: str = "<string>") -> Situation:
    """The situation of `text` asking only `query` (as after `query` in a file).

    The query is read as one more line of the text, so that its ids resolve
    there; an error in that line raises QueryLineError, one in the text its
    own SituationError. (The callers refuse a query holding a line break.)"""
    body = text.removeprefix("\ufeff").rstrip("\n")
    try:
        asked = parse(f"{body}\nquery {query}\n", filename)
    except SituationError as error:
        if error.line > body.count("\n") + 1:  # the added line is the last
            raise QueryLineError(error.message) from None
        raise
    asked.queries = asked.queries[-1:]
    asked.expects = []
    return asked


def parse_file(path: Union[str, os.PathLike]) -> Situation:
    """Read a UTF-8 situation file and parse it; a file that is not a regular
    file under the size limit raises aslkb.base.filecheck.UnreadableFile."""
    from aslkb.base.filecheck import read_regular

    filename = os.fspath(path)
    return _parse_bytes(read_regular(filename), filename)


#: The name standard input goes by in messages: `<stdin>:LINE:COLUMN: ...`.
STDIN = "<stdin>"


def parse_stdin() -> Situation:
    """Read a UTF-8 situation from standard input (`aslkb query -`) and parse it;
    more than the size limit raises aslkb.base.filecheck.UnreadableFile."""
    from aslkb.base.filecheck import read_standard_input

    return _parse_bytes(read_standard_input(STDIN), STDIN)


def _parse_bytes(data: bytes, filename: str) -> Situation:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[start:e.start].decode("utf-8", errors="replace")) + 1
        raise SituationError(filename, line, column,
                             f"invalid UTF-8: byte 0x{data[e.start]:02x} cannot be decoded; "
                             "save the file as UTF-8") from None
    return parse(text, filename)
