"""Worker processes end with their command (`aslkb check` forks them).

Two halves, because no single one covers every way a command ends:

- end_workers(), in the command's own process, on the ways out that skip
  Python's cleanup (--timeout's watchdog and Ctrl-C/SIGTERM end the process
  with os._exit): every child process multiprocessing started is killed and
  waited for, so none is left when the command's exit status is known.
- follow_parent(), in each forked worker (its executor's initializer): a
  thread that ends the worker as soon as its parent process ends, by any way
  at all (a SIGKILL too). A forked worker cannot notice that by itself: it
  waits on its job queue, whose pipe it holds both ends of (fork copies every
  open file), so the queue never reads end-of-file, and it waited for ever,
  re-parented to init.
"""
from __future__ import annotations

import os
import signal
import sys
import threading

PARENT_GONE = 1  # a worker's exit status when its command has ended: nobody reads it


def end_workers(grace: float = 2.0) -> None:
    """Kill every live child process of multiprocessing, then reap it
    (waiting at most `grace` seconds for each: another thread may reap it first)."""
    if "multiprocessing" not in sys.modules:  # no worker was ever started
        return
    import multiprocessing  # lazy: not on `aslkb query`'s path (its cold start)

    children = multiprocessing.active_children()
    for child in children:
        try:
            child.kill()
        except OSError:  # it ended meanwhile
            pass
    for child in children:
        child.join(grace)


def follow_parent() -> None:
    """In a worker process: end it when its parent process ends.

    multiprocessing gives the worker a sentinel that becomes ready when the
    parent ends: the read end of a pipe whose write end only the parent holds
    (and workers forked after this one, which follow their parent the same
    way: they end first, then this one sees the end of the pipe)."""
    import multiprocessing  # lazy: not on `aslkb query`'s path (its cold start)
    import multiprocessing.connection  # lazy: not on `aslkb query`'s path (its cold start)
    parent = multiprocessing.parent_process()
    if parent is None:  # not a worker
        return
    # A signal to the worker is the worker's own: the wake-up pipe it inherited
    # from the command (kb/base/interrupt.py) would hand it to the command's watcher.
    signal.set_wakeup_fd(-1)

    def wait_for_parent() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(PARENT_GONE)

    threading.Thread(target=wait_for_parent, name="follow-parent", daemon=True).start()
