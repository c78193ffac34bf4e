"""Ctrl-C: exit status 130 and one line, whatever the run is doing.

Python turns SIGINT into KeyboardInterrupt only between bytecodes of the main
thread: not during a long grounding inside clingo, and when it lands in a
destructor (clingo's Control.__del__) Python prints "Exception ignored" and
the run carries on to exit 0. So the `aslkb` program (entry() in kb/cli/main.py)
takes SIGINT itself: the signal's wake-up byte reaches a watcher thread at
once (clingo releases the GIL while it works), which removes the temporary
files of writes in progress (kb/base/atomicwrite.py: the old files stay whole),
says `aslkb: interrupted` and ends the process with 130. The forked workers
of `check` inherit the handler and end quietly with the same status (and
are ended by the main process when the signal reached it alone); only the
main process speaks.

The watcher is a bare `_thread`: the threading module (with weakref) costs a
cold run about 1 ms to import, and nothing else on that path needs it.
"""
from __future__ import annotations

import _signal as signal  # what the signal module wraps: its enums cost a cold run 0.4 ms to import
import _thread
import os
import sys

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
MESSAGE = b"aslkb: interrupted\n"
_main_pid: list[int] = []
_stopping = _thread.allocate_lock()  # the watcher and the main thread's handler may both get the signal


def install() -> None:
    """Handle SIGINT as above (main thread only; a no-op where there is no SIGINT)."""
    if not hasattr(signal, "SIGINT"):
        return
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:  # started to ignore it (nohup, `cmd &`): keep to that
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
    signal.signal(signal.SIGINT, _on_signal)
    _thread.start_new_thread(_watch, (read,))  # ends with the process, as a daemon thread does


def wait_forever() -> None:
    """Block this thread until the process ends (another thread is ending it)."""
    lock = _thread.allocate_lock()
    lock.acquire()
    lock.acquire()


def _watch(read: int) -> None:
    while True:
        try:
            data = os.read(read, 64)
        except OSError:
            return
        if not data:
            return
        if signal.SIGINT in data:  # the wake-up fd carries the signal numbers
            stop()


def _on_signal(_signum, _frame) -> None:
    """The Python-level handler: where the main thread runs Python, it gets here first."""
    stop()


def stop() -> None:
    """Clean up, say it once (from the main process), and end with 130."""
    from aslkb.base import atomicwrite

    if not _stopping.acquire(False):  # the other one is ending the process
        wait_forever()
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C does not cut the cleanup short
    except ValueError:  # not the main thread: the handler is already ours
        pass
    speaker = _silence_others()  # the main thread may still be running: it says nothing more
    atomicwrite.discard_pending()
    if "multiprocessing" in sys.modules:  # check's workers, when only this process got the signal
        for child in sys.modules["multiprocessing"].active_children():
            child.kill()
    if speaker is not None:
        progress = sys.modules.get("aslkb.base.progress")  # not loaded: no progress line was drawn
        if progress is not None:
            progress.erase_line(speaker)  # the line on the terminal, erased: the message starts clean
        try:
            os.write(speaker, MESSAGE)
        except OSError:
            pass
    os._exit(EXIT_INTERRUPTED)


def stopping() -> bool:
    """Whether Ctrl-C's cleanup has begun (the process is about to end with 130)."""
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
