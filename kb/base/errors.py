"""The one exception the parser raises: a position in the file and a message."""


class SituationError(Exception):
    """Input the tool cannot take, located at FILE:LINE:COLUMN (1-based)."""

    def __init__(self, filename: str, line: int, column: int, message: str) -> None:
        super().__init__(filename, line, column, message)  # keeps it picklable
        self.filename = filename
        self.line = line
        self.column = column
        self.message = message

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.column}: {self.message}"
