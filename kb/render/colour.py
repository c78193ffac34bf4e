"""Colour for a terminal, in one place: the renderers write plain text and
take a `style` function, `plain` (the default) or `style`; the command line
picks one per stream (docs/cli.md). JSON, pictures and written files never
pass through here, so they never carry escape codes.

Whether to colour follows the conventions Python's own tools share
(https://no-color.org, pytest, ruff, CPython 3.13): `--color always` and
`--color never` decide; with `auto` (the default) a non-empty NO_COLOR turns
colour off, else a non-empty FORCE_COLOR turns it on, else TERM=dumb turns it
off, else the stream decides: a terminal yes, a pipe or a file no."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Callable, TextIO

    Style = Callable[[str, str], str]  # style(text, role) -> text

WHEN = ("auto", "always", "never")

# Select Graphic Rendition codes: only the words a reader looks for.
_CODES = {
    "ok": "32",           # green: an expectation held, every one passed
    "fail": "1;31",       # bold red: an expectation failed
    "answer": "1",        # bold: the QUERY = VALUE line among its details
    "undecided": "33",    # yellow: no value, and what would decide it
    "error": "1;31",      # bold red: the word `error:`
    "warning": "1;35",    # bold magenta, as compilers show it
    "where": "1",         # bold: FILE:LINE:COLUMN of a message, a file's header
}

def plain(text: str, role: str) -> str:
    """No colour: the text as it is."""
    return text


def style(text: str, role: str) -> str:
    """The text in the colour of its role (a key of _CODES)."""
    return f"\x1b[{_CODES[role]}m{text}\x1b[0m" if text else text


def colour_wanted(when: str, stream: TextIO) -> bool:
    """Whether to colour what is written to `stream` (`when`: one of WHEN)."""
    if when != "auto":
        return when == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def styler(when: str, stream: TextIO) -> Style:
    """`style` or `plain`, for what is written to `stream`."""
    return style if colour_wanted(when, stream) else plain
