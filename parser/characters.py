"""Characters a situation file may not hold, refused where they stand.

A control character (NUL, ESC, a form feed) or an invisible format character
(a zero-width space U+200B, a right-to-left override U+202E, a byte order
mark inside the text) would otherwise fuse with the word around it, and the
error would point at the word's first letter, or, inside a comment, hide
text that is read from text that is shown ("Trojan Source"). Each is named
(`U+202E RIGHT-TO-LEFT OVERRIDE`) at its own line and column, comments
included.

Line ends: LF, or CR LF. A CR alone is refused like the other control
characters, everywhere: read as a line end it would end a comment early
(the rest of the comment becoming statements), read as a space it would join
two lines some editors show apart. (Recorded in docs/reliability.md.)
"""
from __future__ import annotations

import re

from aslkb.base.errors import SituationError, line_and_column

# C0 controls but TAB and LF, a CR not before an LF, DEL and C1 controls, and
# the invisible format characters of Unicode (category Cf, the line and
# paragraph separators). A string: compiling it costs a run 0.7 ms (its
# ranges beyond ASCII), so an ASCII text, most files, is searched for the
# ASCII ones alone, which are the same there.
_REFUSED = ("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
            "\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"
            "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]|\r(?!\n)")
_REFUSED_ASCII = "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\r(?!\n)"


def refuse_invisible(text: str, filename: str) -> None:
    """SituationError at the first refused character, if any."""
    match = re.search(_REFUSED_ASCII if text.isascii() else _REFUSED, text)  # re keeps them compiled
    if match is None:
        return
    raise SituationError(filename, *line_and_column(text, match.start()), _message(match.group()))


_CONTROL_NAMES = {"\x00": "NULL", "\x07": "BELL", "\x08": "BACKSPACE", "\x0b": "LINE TABULATION",
                  "\x0c": "FORM FEED", "\x1b": "ESCAPE", "\x7f": "DELETE", "\x85": "NEXT LINE"}


def _message(char: str) -> str:
    code = f"U+{ord(char):04X}"
    if char == "\r":
        return (f"character {code} CARRIAGE RETURN without a line feed: end lines with LF "
                "or CR LF (a lone CR is not a line end)")
    import unicodedata

    name = unicodedata.name(char, "") or _CONTROL_NAMES.get(char, "")
    kind = "control character" if unicodedata.category(char) == "Cc" else "invisible character"
    return f"{kind} {code}{' ' + name if name else ''} is not allowed in a situation file, comments included; remove it"
