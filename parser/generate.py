"""Write parser/_situation_parser.py: Lark's stand-alone LALR parser for
situation.lark (python -m aslkb.parser.generate).

The generated module carries Lark's runtime and the grammar's parse tables,
so a run imports a few thousand lines instead of all of Lark, and builds no
tables (about 30 ms less per `aslkb query`); its logger and Lark's own cache are
left out (see _LIGHTER). It is generated code under the
MPL 2.0 (its header says so); tests/test_parser.py checks that it matches
situation.lark (the generator records the grammar's digest; the numbering
of the parser states varies from one generation to the next). Regenerate it
after every change to the grammar.
"""
from __future__ import annotations

import io
import os
import sys

HERE = os.path.dirname(__file__)
GRAMMAR = os.path.join(HERE, "situation.lark")
OUTPUT = os.path.join(HERE, "_situation_parser.py")


def standalone_source() -> str:
    """The stand-alone parser's source, as Lark generates it from the grammar."""
    from lark import Lark
    from lark.tools.standalone import gen_standalone

    with open(GRAMMAR, encoding="utf-8") as handle:
        grammar = handle.read()
    # the basic lexer is replaced by parser/lexer.py's WordLexer at run time
    out = io.StringIO()
    gen_standalone(Lark(grammar, parser="lalr", lexer="basic", maybe_placeholders=True), out=out)
    source = out.getvalue()
    for old, new in _LIGHTER:
        if old not in source:
            raise SystemExit(f"this Lark's stand-alone code has changed: {old!r} not found; update _LIGHTER")
        source = source.replace(old, new, 1)
    return source + f"\n# the grammar these tables were generated from\nGRAMMAR_SHA256 = \"{grammar_digest()}\"\n"


# The generated module imports logging for a logger set to CRITICAL, and pickle
# for Lark's own cache and save/load, which a parse never uses: about 6 ms of
# every run. A quiet logger stands in; pickle is not imported. Its imports of
# Lark's sibling modules are taken out (tests/test_layers.py checks it too).
_LIGHTER = [
    ("import logging\n", ""),
    ('logger: logging.Logger = logging.getLogger("lark")\nlogger.addHandler(logging.StreamHandler())',
     "class _QuietLogger:  # aslkb: in place of logging.getLogger('lark'), which is set to CRITICAL\n"
     "    def _quiet(self, *args, **kwargs):\n"
     "        pass\n"
     "    debug = info = warning = error = exception = critical = setLevel = _quiet\n\n\n"
     "logger = _QuietLogger()"),
    ("logger.setLevel(logging.CRITICAL)\n", ""),
    ("import pickle, zlib, base64\n", "# aslkb: pickle, zlib and base64 are not imported (no cache, no compressed tables)\n"),
] + [
    # Lark's modules import each other; stand-alone, those names are this
    # module's own, and `from .lexer` / `from .` would reach aslkb.parser.lexer
    # (which imports this module: an import circle) and the aslkb.parser package.
    (f"{indent}from {module} import {name}\n", f"{indent}# aslkb: {name} is this module's own\n")
    for indent, module, name in (("        ", ".lexer", "Token"), ("                ", ".", "__version__"))
]


def grammar_digest() -> str:
    import hashlib

    with open(GRAMMAR, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def main() -> None:
    source = standalone_source()
    from aslkb.base.atomicwrite import write_text

    write_text(OUTPUT, source)
    print(f"wrote {os.path.relpath(OUTPUT)} ({len(source.splitlines())} lines)", file=sys.stderr)


if __name__ == "__main__":
    main()
