"""Progress on a terminal for work that can take more than a few seconds.

One line on standard error, redrawn in place: what is being done, how far,
and an estimate of the time left (`check: 120/668 files, 18%, about 40 s
left`). It is drawn only when standard error is a terminal (never into a pipe,
a file or a CI log), not before `delay` seconds have passed (a quick run shows
nothing), at most ten times a second, and it is erased when the work ends, so
the command's own output is what stays on the screen.

Written here rather than taken from tqdm: the few lines below are all aslkb
needs, and tqdm's import (it reads its own version through importlib.metadata)
costs a run 30-60 ms on this project's two-core machines.
"""
from __future__ import annotations

import os
import sys
import time
from typing import TextIO


def on_terminal(stream: TextIO) -> bool:
    """Whether progress may be drawn on `stream`: a terminal that can move the
    cursor back (not TERM=dumb)."""
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


class Progress:
    """`with Progress("check", total, "files") as progress: ... progress.advance()`.

    Without a total, the line says how many are done and for how long."""

    def __init__(self, what: str, total: int | None = None, unit: str = "", *,
                 stream: TextIO | None = None, delay: float = 1.0):
        self.what, self.total, self.unit = what, total, unit
        self.stream = sys.stderr if stream is None else stream
        self.shown = on_terminal(self.stream)
        self.delay = delay
        self.done = 0
        self.started = time.monotonic()
        self._drawn_at = 0.0
        self._width = 0

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def advance(self, count: int = 1) -> None:
        self.done += count
        self._draw()

    def _draw(self) -> None:
        if not self.shown:
            return
        now = time.monotonic()
        if now - self.started < self.delay or now - self._drawn_at < 0.1:
            return
        self._drawn_at = now
        self._write("\r" + self.line(now - self.started).ljust(self._width))

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
            self._width = 0

    def close(self) -> None:
        """Erase the line for good."""
        self.clear()
        self.shown = False

    def _write(self, text: str) -> None:
        self._width = max(self._width, len(text) - 1)
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: the work goes on without
            self.shown = False


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds} s" if seconds < 60 else f"{seconds // 60} min {seconds % 60:02d} s"
