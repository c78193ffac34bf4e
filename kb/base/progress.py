"""Progress on a terminal for work that can take more than a few seconds.

One line on standard error, redrawn in place: what is being done, how far,
and an estimate of the time left (`check: 120/668 files, 18%, about 40 s
left`). It is drawn only when standard error is a terminal (never into a pipe,
a file or a CI log), not before `delay` seconds have passed (a quick run shows
nothing), at most ten times a second, and it is erased when the work ends, so
the command's own output is what stays on the screen.

ASLKB_PROGRESS_DELAY (seconds, default 1) changes the delay: 0 draws from
the first step (the tests of the commands' progress use it).

Work done in a lower layer is counted there through an iterator the command
lends it (`progress.over(items, total, unit)`) or a callback
(`progress.advance`), so that only the command writes to the terminal.

Written here rather than taken from tqdm: the few lines below are all aslkb
needs, and tqdm's import (it reads its own version through importlib.metadata)
costs a run 30-60 ms on this project's two-core machines.
"""
from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")
# (items, total, unit) -> the same items, counted as they are taken: what a
# command lends a lower layer (Progress.over), or untracked
Track = Callable[[Iterable, int | None, str], Iterable]
DELAY = 1.0  # seconds of work before a line is drawn
# The width of the line on the terminal now (0: none), for what ends the
# process without unwinding it (Ctrl-C, kb/base/interrupt.py; --timeout,
# kb/base/limits.py): erase_line() clears it before their one line.
_ON_SCREEN = {"width": 0}


def delay_from_environment() -> float:
    """ASLKB_PROGRESS_DELAY when it is a number of seconds, else DELAY."""
    try:
        seconds = float(os.environ.get("ASLKB_PROGRESS_DELAY", DELAY))
    except ValueError:
        return DELAY
    return seconds if seconds >= 0 else DELAY


def on_terminal(stream: TextIO) -> bool:
    """Whether progress may be drawn on `stream`: a terminal that can move the
    cursor back (not TERM=dumb)."""
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


class Progress:
    """`with Progress("check", total, "files") as progress: ... progress.advance()`.

    Without a total, the line says how many are done and for how long.
    `delay`: None for ASLKB_PROGRESS_DELAY or one second."""

    def __init__(self, what: str, total: int | None = None, unit: str = "", *,
                 stream: TextIO | None = None, delay: float | None = None):
        self.what, self.total, self.unit = what, total, unit
        self.stream = sys.stderr if stream is None else stream
        self.shown = on_terminal(self.stream)
        self.delay = delay_from_environment() if delay is None else delay
        self.done = 0
        self.started = self.stage_started = time.monotonic()
        self._drawn_at = 0.0
        self._width = 0

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def advance(self, count: int = 1) -> None:
        self.done += count
        self._draw()

    def stage(self, total: int | None, unit: str = "") -> None:
        """A new stage of the same work (`invariants` situations, then their
        checks): its own count, unit and estimate, on the same line. The
        delay still counts from the start of the work."""
        self.total, self.unit, self.done = total, unit, 0
        self.stage_started = time.monotonic()
        self._drawn_at = 0.0
        self._draw()

    def over(self, items: Iterable[T], total: int | None = None, unit: str = "") -> Iterator[T]:
        """The items, one step each, as a new stage (what a lower layer is
        lent to count its work without printing)."""
        self.stage(total, unit)
        for item in items:
            yield item
            self.advance()

    def _draw(self) -> None:
        if not self.shown:
            return
        now = time.monotonic()
        if now - self.started < self.delay or now - self._drawn_at < 0.1:
            return
        self._drawn_at = now
        self._write("\r" + self.line(now - self.stage_started).ljust(self._width))

    def line(self, elapsed: float) -> str:
        """The progress line after `elapsed` seconds."""
        unit = f" {self.unit}" if self.unit else ""
        if not self.total:
            return f"{self.what}: {self.done}{unit}, {_duration(elapsed)}"
        share = min(self.done / self.total, 1.0)
        text = f"{self.what}: {self.done}/{self.total}{unit}, {share:.0%}"
        if 0 < self.done < self.total:
            text += f", about {_duration(elapsed / self.done * (self.total - self.done))} left"
        return text

    def clear(self) -> None:
        """Erase the line (only if one was drawn), so that the caller can print
        on the terminal; the next advance draws it again."""
        if self._width:
            self._write("\r" + " " * self._width + "\r")
            self._width = _ON_SCREEN["width"] = 0

    def close(self) -> None:
        """Erase the line for good."""
        self.clear()
        self.shown = False

    def _write(self, text: str) -> None:
        self._width = _ON_SCREEN["width"] = max(self._width, len(text) - 1)
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: the work goes on without
            self.shown = False


def erase_line(fd: int) -> None:
    """Erase the progress line on the terminal, if one is there, writing to
    the descriptor `fd` (standard error, or a copy of it)."""
    width, _ON_SCREEN["width"] = _ON_SCREEN["width"], 0
    if width:
        try:
            os.write(fd, ("\r" + " " * width + "\r").encode())
        except OSError:  # the terminal went away
            pass


def untracked(items: Iterable[T], _total: int | None = None, _unit: str = "") -> Iterable[T]:
    """A Track that counts nothing: a lower layer's default."""
    return items


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds} s" if seconds < 60 else f"{seconds // 60} min {seconds % 60:02d} s"
