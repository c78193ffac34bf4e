"""Text from outside the program, made safe to print on a terminal.

A golden snapshot, a file name or a clingo message can hold ESC and the
other control characters; printed as they are, `ESC ] 0 ; ... BEL` retitles
the terminal and `ESC [ 2 J` clears it. Every such text the command line
prints passes through escape_controls() (kb/cli/main.py's error messages,
`check`'s report lines, the other commands' report lines), and the colour
aslkb adds itself (kb/render/colour.py) is applied after it, so it still works.
"""
from __future__ import annotations

import re

# C0 controls but TAB and LF, DEL, C1 controls, and the surrogates Python
# decodes a file name's non-UTF-8 bytes to (surrogateescape: byte 0xff is U+DCFF).
# A string, compiled (and kept by re) at the first use (about 1.5 ms): a run that prints no
# outside text, most `aslkb query` runs, does not pay for it
_CONTROLS = "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]"


def escape_controls(text: str) -> str:
    """`text` with each control character but TAB and LF written as `\\xNN`
    (ESC as `\\x1b`), and each byte of a file name that is not UTF-8 as that
    byte (`\\xff`): shown, never obeyed by the terminal, and printable in any
    encoding. Line breaks stay: a message may span lines."""
    return re.sub(_CONTROLS, _escaped, text)


def _escaped(match: re.Match) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, as surrogateescape keeps it
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"
