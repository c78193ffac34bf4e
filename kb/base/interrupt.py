"""Ctrl-C: exit status 130 and one line, whatever the run is doing; SIGTERM
the same way, with 143 (128 + SIGTERM, as shells report a process it ended),
and SIGHUP (a closed terminal) with 129: each removes the temporary files of
writes in progress.

Python turns SIGINT into KeyboardInterrupt only between bytecodes of the main
thread: not during a long grounding inside clingo, and when it lands in a
destructor (clingo's Control.__del__) Python prints "Exception ignored" and
the run carries on to exit 0. So the `aslkb` program (entry() in kb/cli/main.py)
takes SIGINT itself: the signal's wake-up byte reaches a watcher thread at
once (clingo releases the GIL while it works), which removes the temporary
files of writes in progress (kb/base/atomicwrite.py: the old files stay whole),
writes out the output already printed (stdout to a pipe holds it in a
block), says `aslkb: interrupted` and ends the process with 130. The forked workers
of `check` inherit the handler and end quietly with the same status, and the
main process kills and reaps them before it ends (kb/base/workers.py), so
none outlives the command when the signal reached it alone (`kill PID`, a
supervisor's SIGTERM); only the main process speaks.
"""
from __future__ import annotations

import os
import signal
import sys
import threading

from aslkb.base import atomicwrite
from aslkb.base.workers import end_workers

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
EXIT_TERMINATED = 143  # 128 + SIGTERM
EXIT_HUNG_UP = 129  # 128 + SIGHUP
MESSAGES = {signal.SIGINT: b"aslkb: interrupted\n", signal.SIGTERM: b"aslkb: terminated\n"}
EXITS = {signal.SIGINT: EXIT_INTERRUPTED, signal.SIGTERM: EXIT_TERMINATED}
if hasattr(signal, "SIGHUP"):  # not on Windows
    MESSAGES[signal.SIGHUP] = b"aslkb: hung up\n"
    EXITS[signal.SIGHUP] = EXIT_HUNG_UP
_main_pid: list[int] = []
_stopping = threading.Lock()  # the watcher and the main thread's handler may both get the signal


def install() -> None:
    """Handle SIGINT, SIGTERM and SIGHUP as above (main thread only; a no-op where there are none)."""
    taken = [number for number in EXITS if signal.getsignal(number) != signal.SIG_IGN]
    if not taken:  # started to ignore them (nohup, `cmd &` for SIGINT): keep to that
        return
    read, write = os.pipe()
    os.set_blocking(write, False)
    try:
        signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    except ValueError:  # not the main thread (an in-process caller): signals are not its to take
        os.close(read)
        os.close(write)
        return
    _main_pid[:] = [os.getpid()]
    for number in taken:
        signal.signal(number, _on_signal)
    threading.Thread(target=_watch, args=(read,), name="aslkb-signals", daemon=True).start()


def wait_forever() -> None:
    """Block this thread until the process ends (another thread is ending it)."""
    threading.Event().wait()


def _watch(read: int) -> None:
    while True:
        try:
            data = os.read(read, 64)
        except OSError:
            return
        if not data:
            return
        for number in data:  # the wake-up fd carries the signal numbers
            if number in EXITS:
                stop(number)


def _on_signal(signum, _frame) -> None:
    """The Python-level handler: where the main thread runs Python, it gets here first."""
    stop(signum)


def stop(signum: int = signal.SIGINT) -> None:
    """Clean up, say it once (from the main process), and end with 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP)."""
    if not _stopping.acquire(False):  # the other one is ending the process
        wait_forever()
    for number in EXITS:
        try:
            signal.signal(number, signal.SIG_IGN)  # a second Ctrl-C does not cut the cleanup short
        except ValueError:  # not the main thread: the handler is already ours
            pass
    if _main_pid and os.getpid() == _main_pid[0]:
        _flush_stdout()  # what was printed before the signal, still in the buffer of a pipe's stdout
    speaker = _silence_others()  # the main thread may still be running: it says nothing more
    atomicwrite.discard_pending()
    end_workers()  # check's workers, when only this process got the signal
    if speaker is not None:
        # not loaded, or still being imported (the signal came during the imports): no progress
        # line was drawn
        erase_line = getattr(sys.modules.get("aslkb.base.progress"), "erase_line", None)
        if erase_line is not None:
            erase_line(speaker)  # the line on the terminal, erased: the message starts clean
        try:
            os.write(speaker, MESSAGES[signum])
        except OSError:
            pass
    os._exit(EXITS[signum])


def _flush_stdout() -> None:
    """Write out what sys.stdout holds: to a pipe or a file it is written in
    blocks, and os._exit drops the last one (the answers printed since).
    From a thread of its own, waited for a second at most: the main thread
    may hold stdout's lock, or write to a pipe no one reads."""
    def flush() -> None:
        try:
            sys.stdout.flush()
        except Exception:  # a closed pipe, a full disk: nothing more can be said there
            pass

    flushing = threading.Thread(target=flush, name="aslkb-flush", daemon=True)
    flushing.start()
    flushing.join(1.0)


def stopping() -> bool:
    """Whether the cleanup of Ctrl-C or SIGTERM has begun (the process is about to end with 130 or 143)."""
    return _stopping.locked()


def _silence_others() -> int | None:
    """Point stdout and stderr at the null device, so that nothing another
    thread prints from now on (a summary of a run cut short) reaches the
    user; in the main process, return a copy of stderr for the one line."""
    speaker = None
    try:
        if _main_pid and os.getpid() == _main_pid[0]:
            speaker = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
    except OSError:
        pass
    return speaker
