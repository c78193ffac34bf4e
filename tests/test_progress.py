"""kb/base/progress.py: a line on a terminal only, erased at the end."""
import io

from aslkb.base.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_nothing_is_drawn_into_a_pipe():
    pipe = io.StringIO()
    with Progress("check", 3, "files", stream=pipe, delay=0) as progress:
        for _ in range(3):
            progress.advance()
    assert pipe.getvalue() == ""


def test_a_terminal_sees_how_far_and_the_line_is_erased(monkeypatch):
    monkeypatch.delenv("TERM", raising=False)
    terminal = Terminal()
    with Progress("check", 4, "files", stream=terminal, delay=0) as progress:
        progress.advance()
        drawn = terminal.getvalue()
    assert "check: 1/4 files, 25%, about" in drawn
    assert terminal.getvalue().endswith("\r")
    assert terminal.getvalue().rsplit("\r", 2)[-2].strip() == ""  # the last thing written is blanks


def test_a_quick_run_shows_nothing():
    terminal = Terminal()
    with Progress("rules", 2, stream=terminal, delay=60) as progress:
        progress.advance(2)
    assert terminal.getvalue() == ""


def test_without_a_total_it_counts():
    assert Progress("serve", stream=io.StringIO()).line(3.2) == "serve: 0, 3 s"
    assert Progress("impact", 10, "cases", stream=io.StringIO()).line(75).startswith("impact: 0/10 cases, 0%")
