"""Shell completion for bash, zsh and fish, through argcomplete.

`aslkb completion SHELL` prints argcomplete's shell code for the `aslkb`
program (docs/cli.md says where to put it). When the shell then asks, it runs
`aslkb` with _ARGCOMPLETE set: kb/cli/main.py builds the whole parser and
hands it to complete(), which prints the completions and ends the process.
Nothing here is imported by a run the shell did not start (a cold query
never builds the parser), and argcomplete only inside complete() and
shell_code().

The parser's actions name what completes them (completes()): situation files
and folders for FILE; for QUERY, the catalog's query names, then the ids of
FILE that the query's arguments take; interpretation names for
--interpretation, those on by default for --without."""
from __future__ import annotations

from typing import TYPE_CHECKING

from aslkb.base.errors import SituationError, UnreadableFile
from aslkb.api import knowledge_base
from aslkb.parser import catalog, grammar, parse_file

if TYPE_CHECKING:
    import argparse


def completes(action: argparse.Action, kind: str) -> argparse.Action:
    """Mark `action` to be completed with the names of `kind` (a Completer's method)."""
    action.completer = Completer(kind)  # type: ignore[attr-defined]  # argcomplete reads it
    return action


def complete(parser: argparse.ArgumentParser) -> None:
    """Answer the shell's request (its _ARGCOMPLETE protocol) and end the process."""
    import argcomplete  # lazy: not on `aslkb query`'s path (its cold start)
    from argcomplete.completers import FilesCompleter  # lazy: not on `aslkb query`'s path (its cold start)

    # options when a `-` is typed, as bash's own completions offer them
    argcomplete.autocomplete(parser, always_complete_options=False, default_completer=FilesCompleter())


def shell_code(shell: str) -> str:
    """The code that makes `shell` (bash, zsh or fish) complete `aslkb`."""
    import argcomplete  # lazy: not on `aslkb query`'s path (its cold start)

    return argcomplete.shellcode(["aslkb"], shell=shell)


class Completer:
    """argcomplete's completer for one kind of name: called with the word
    being typed and what was read before it, returns the candidates."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __call__(self, prefix: str, parsed_args: argparse.Namespace, **_context) -> list[str]:
        return getattr(self, self.kind)(prefix, parsed_args)

    def situation(self, prefix: str, parsed_args: argparse.Namespace) -> list[str]:
        """Situation files (.sit) and folders."""
        from argcomplete.completers import FilesCompleter  # lazy: not on `aslkb query`'s path (its cold start)

        return list(FilesCompleter(allowednames=("sit",), directories=True)(prefix))

    def interpretation(self, prefix: str, parsed_args: argparse.Namespace) -> list[str]:
        return sorted(knowledge_base().interpretations)

    def default_interpretation(self, prefix: str, parsed_args: argparse.Namespace) -> list[str]:
        return sorted(name for name, i in knowledge_base().interpretations.items() if i.default)

    def query(self, prefix: str, parsed_args: argparse.Namespace) -> list[str]:
        """A query name first; then, for each argument, what the catalog says it takes."""
        words = getattr(parsed_args, "query", None) or []
        if not words:
            return catalog.query_names()
        spec = catalog.query(words[0])
        if spec is None or len(words) > len(spec["args"]):
            return []
        return _arguments(spec["args"][len(words) - 1].rstrip("?"), getattr(parsed_args, "file", None))


def _arguments(kind: str, path: str | None) -> list[str]:
    """The words a query argument of `kind` can be: ids of the file, or keywords."""
    if kind == "nation":
        return list(grammar.keywords("NATION"))
    if kind == "source":
        return list(catalog.drm_sources())
    ids = _ids(path)
    if kind == "target":
        return sorted({*ids.get("unit", ()), *ids.get("hex", ())})
    if kind == "attack_or_unit":
        return sorted({*ids.get("attack", ()), *ids.get("unit", ())})
    return sorted(ids.get(kind, ()))


def _ids(path: str | None) -> dict[str, set[str]]:
    """The ids FILE defines, by kind (unit, attack, fortification, move, hex); none if it cannot be read."""
    if not path or path == "-":
        return {}
    try:
        situation = parse_file(path)
    except (SituationError, UnreadableFile):
        return {}
    ids: dict[str, set[str]] = {}
    for fact in situation.facts:
        if fact.name in ("unit", "attack", "fortification", "move", "hex") and fact.args:
            ids.setdefault(fact.name, set()).add(fact.args[0].string)
    return ids
