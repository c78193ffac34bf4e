"""The errors every layer raises, in one module at the bottom: what the command
line reports with exit status 2 (input it cannot take) and how (kb/cli/main.py)."""


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


class UsageError(Exception):
    """A command-line request the tool cannot take (exit status 2)."""


class TooManyRolls(UsageError):
    """More combinations of missing dice than kb/engine/odds.py's MODEL_LIMIT."""


class InconsistentSituation(Exception):
    """No model satisfies the situation together with the rules."""


class RuleFileError(Exception):
    """A rule file uses what the knowledge base does not allow."""
