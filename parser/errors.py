"""The one exception the parser raises: a position in the file and a message."""


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
