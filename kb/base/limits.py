"""Limits on one run of the command: `--timeout SECONDS`.

Grounding is one long call into clingo that Python cannot interrupt, so the
limit is a watchdog thread (clingo releases the GIL while it works): when the
time is up it ends the command's worker processes (kb/base/workers.py: os._exit
skips every cleanup that would), says so on stderr and ends the process with
exit status 2, whatever stage the run is in. The output already printed stays
printed.
"""
from __future__ import annotations

import argparse
import os
import sys
import threading

from aslkb.base.workers import end_workers

EXIT_INPUT = 2


def timeout_message(seconds: float) -> str:
    return (f"aslkb: timed out after {seconds:g} seconds (--timeout {seconds:g}) before an answer: "
            "the situation is too large for the rules it reaches, or a rule grounds too much; "
            "give a longer --timeout, or ask about a smaller situation (fewer units, places or queries)")


def start_watchdog(seconds: float) -> threading.Timer:
    """End the process with a message after `seconds`; returns the timer (cancel() to stop it)."""
    def expire() -> None:
        end_workers()  # first: no worker's answer is waited for, or outlives the command
        flushed = threading.Thread(target=_flush, daemon=True)
        flushed.start()
        flushed.join(1.0)  # the main thread may hold stdout; do not wait for it forever
        # not loaded, or still being imported (the timer fired during the imports): no progress
        # line was drawn
        erase_line = getattr(sys.modules.get("aslkb.base.progress"), "erase_line", None)
        if erase_line is not None:
            erase_line(sys.stderr.fileno())  # the line on the terminal, erased: the message starts clean
        os.write(sys.stderr.fileno(), (timeout_message(seconds) + "\n").encode())
        os._exit(EXIT_INPUT)

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()
    return timer


def _flush() -> None:
    try:
        sys.stdout.flush()
    except Exception:  # a closed pipe: nothing more to say there
        pass


def positive_seconds(text: str) -> float:
    """argparse type for --timeout: a number of seconds above 0."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds (like 30 or 2.5)") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"--timeout must be above 0 seconds, got '{text}'")
    return seconds


# diverge's --max-nvr, --max-range and --max-light: each the top of an interval
# its scenes choose from, so a large one grounds as many situations (100000000
# ran out of memory). The rules tell no range apart past 17 hexes (A12.12,
# A12.14: within 16 or beyond), and no NVR or Illumination reach comes near 20.
MAX_SCENE_BOUND = 20


def scene_bound(text: str) -> int:
    """argparse type for diverge's --max-nvr, --max-range, --max-light: 1 to MAX_SCENE_BOUND."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text[:24]}' is not a whole number") from None
    if not 1 <= value <= MAX_SCENE_BOUND:
        raise argparse.ArgumentTypeError(f"must be between 1 and {MAX_SCENE_BOUND} (the rules tell no range "
                                         f"apart past 17 hexes), got {value}")
    return value
