"""The errors every layer raises, in one module at the bottom: what the command
line reports with exit status 2 (input it cannot take) and how (kb/cli/main.py)."""

import os
from collections.abc import Sequence


class SituationError(Exception):
    """Input the tool cannot take, located at FILE:LINE:COLUMN (1-based).

    `notes` locate the other statements involved, as a compiler does: a
    duplicate is reported where it is given again, with a second line
    `FILE:LINE:COLUMN: note: first given here` at the first."""

    def __init__(self, filename: str, line: int, column: int, message: str,
                 notes: Sequence[tuple[int, int, str]] = ()) -> None:
        notes = tuple(tuple(n) for n in notes)
        super().__init__(filename, line, column, message, notes)  # keeps it picklable
        self.filename = filename
        self.line = line
        self.column = column
        self.message = message
        self.notes = notes  # (line, column, text)

    def __str__(self) -> str:
        return "\n".join([f"{self.filename}:{self.line}:{self.column}: {self.message}",
                          *(located_note(self.filename, *note) for note in self.notes)])


def located_note(filename: str, line: int, column: int, text: str) -> str:
    """The second (third ...) line of a located message."""
    return f"{filename}:{line}:{column}: note: {text}"


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """The line and column of an offset into a text, both counted from 1."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


class QueryLineError(Exception):
    """An error in the query written beside a file (`aslkb explain FILE QUERY`,
    the playground's one-query requests): its message, without a place, since
    the line is the caller's, not the file's."""


class UsageError(Exception):
    """A command-line request the tool cannot take (exit status 2)."""


class TooManyRolls(UsageError):
    """More combinations of missing dice than kb/engine/odds.py's MODEL_LIMIT."""


class UnalignedDice(Exception):
    """A gap of the text changes which dice are rolled: no odds over one set of dice."""


class InconsistentSituation(Exception):
    """No model satisfies the situation together with the rules."""

    # the statements involved, as (line, column, statement as written); kb/engine/conflict.py finds them
    located: tuple[tuple[int, int, str], ...] = ()

    def report(self, filename: object) -> str:
        """`FILE:LINE:COLUMN: inconsistent situation: ...` at the last statement
        involved, and a `note:` line at each of the others, as a compiler does."""
        if not self.located:
            return f"{filename}: inconsistent situation: {self}"
        *others, (line, column, _) = self.located
        return "\n".join([f"{filename}:{line}:{column}: inconsistent situation: {self}",
                          *(located_note(str(filename), n, c, f"in conflict with it: {text}") for n, c, text in others)])


class RuleFileError(Exception):
    """A rule file uses what the knowledge base does not allow."""


def clingo_said(messages: Sequence[str], name: str, otherwise: str) -> str:
    """clingo's messages about a program, `otherwise` if it gave none, joined:
    clingo names text it parsed from a string "<string>", so the file's own
    name stands there instead."""
    return "; ".join(messages or [otherwise]).replace("<string>:", f"{name}:")


class FileProblem(Exception):
    """A named file and why it could not be taken or written."""

    def __init__(self, path: str | os.PathLike, reason: str) -> None:
        super().__init__(path, reason)
        self.path = path
        self.reason = reason


class WriteFailed(FileProblem):
    """A file could not be written; the old one, if any, is unchanged."""

    def __str__(self) -> str:
        return f"{self.path}: cannot write: {self.reason} (any previous file is unchanged)"


class UnreadableFile(FileProblem):
    """A file the user named that cannot be taken (exit status 2)."""

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


class NotASnapshot(FileProblem):
    """A golden snapshot file that cannot be read as one (exit status 2)."""

    def __str__(self) -> str:
        return f"{self.path}: not a golden snapshot: {self.reason}; fix it, or delete it and run check --update"
