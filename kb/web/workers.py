"""Run requests in worker processes, each under a timeout.

Grounding is one call into clingo that Python cannot interrupt, so a request
that runs too long is ended by killing its worker process (kb/base/limits.py ends
the whole command for the same reason); a fresh worker takes its place. The
workers are started with `spawn` (no copy of the server's threads) and keep
the knowledge base loaded between requests.
"""
from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import sys
from collections.abc import Callable
from typing import Any

try:
    import resource
except ImportError:  # Windows: no getrusage, so no memory limit
    resource = None


class Timeout(Exception):
    """The request ran longer than the pool's timeout; its worker was ended."""


class Busy(Exception):
    """No worker became free in time."""


class WorkerDied(Exception):
    """The worker ended before it answered (a crash, or out of memory)."""


STARTUP = 120.0  # seconds a new worker may take to import and load the knowledge base
# a worker's resident memory past which it is replaced after its answer (docs/playground.md):
# a loaded worker holds about 32 MB, one that answered the largest shipped case 40 MB, 400 units 58 MB
MEMORY_LIMIT = 512 * 1024 * 1024


class _Worker:
    """One worker process (its start is not counted in any request's
    timeout): launched by the constructor, ready once wait_ready() returns."""

    def __init__(self, context, handler: Callable[[Any], Any], warm: Callable[[], None] | None,
                 memory_limit: int = MEMORY_LIMIT):
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, handler, warm, memory_limit), daemon=True)
        self.process.start()
        theirs.close()

    def wait_ready(self) -> _Worker:
        """Wait for the worker to say it is ready; a worker that does not is ended."""
        try:
            ready = self.connection.poll(STARTUP) and self.connection.recv() == "ready"
        except (EOFError, OSError):
            ready = False
        if not ready:
            self.kill()
            raise WorkerDied(f"a worker did not start within {STARTUP:g} seconds")
        return self

    def kill(self) -> None:
        self.process.kill()
        self.process.join()
        self.connection.close()


class WorkerPool:
    """`size` workers; run(job) sends the job to a free one and returns
    handler(job), or raises Timeout, Busy or WorkerDied. A worker whose peak
    memory passes `memory_limit` bytes is replaced after its answer."""

    def __init__(self, handler: Callable[[Any], Any], size: int, timeout: float, wait: float = 60.0,
                 warm: Callable[[], None] | None = None, memory_limit: int = MEMORY_LIMIT):
        self.handler, self.timeout, self.wait, self.warm = handler, timeout, wait, warm
        self.memory_limit = memory_limit
        self._context = multiprocessing.get_context("spawn")
        self._free: queue.Queue[_Worker | None] = queue.Queue()
        for _ in range(size):
            self._free.put(None)  # a place for a worker, started when first needed

    def start(self, ready: Callable[[], None] | None = None) -> None:
        """Start every worker now rather than at its first request; `ready`
        is called as each is. The first starts alone: on a cold cache it
        builds the knowledge base (ten seconds or more) and stores it, and
        the others, started together, then read it from the disk cache
        instead of each building it again on the same cores."""
        places = []
        while True:
            try:
                places.append(self._free.get_nowait())
            except queue.Empty:
                break
        empty = [index for index, worker in enumerate(places) if worker is None]
        failure: Exception | None = None
        try:
            for group in (empty[:1], empty[1:]):
                launched = {}
                for index in group:
                    try:
                        launched[index] = self._launch()
                    except OSError as error:  # no process could be made: the place stays empty
                        failure = failure or error
                for index, worker in launched.items():
                    try:
                        places[index] = worker.wait_ready()
                    except WorkerDied as error:
                        failure = failure or error
                        continue
                    if ready is not None:
                        ready()
        finally:
            for worker in places:
                self._free.put(worker)
        if failure is not None:
            raise failure

    def run(self, job: Any) -> Any:
        try:
            worker = self._free.get(timeout=self.wait)
        except queue.Empty:
            raise Busy(f"every worker stayed busy for {self.wait:g} seconds") from None
        try:
            if worker is not None and not worker.process.is_alive():  # it died between requests
                worker.kill()
                worker = None
            if worker is None:
                worker = self._launch().wait_ready()
            worker.connection.send(job)
            if not worker.connection.poll(self.timeout):
                worker.kill()
                worker = None
                raise Timeout(f"no answer within {self.timeout:g} seconds")
            ok, result, retiring = worker.connection.recv()
            if retiring:  # over its memory limit: it ends now, the next request starts a fresh one
                worker.kill()
                worker = None
        except (EOFError, OSError):
            worker.kill()
            worker = None
            raise WorkerDied("the worker ended before it answered") from None
        finally:
            self._free.put(worker)
        if not ok:
            raise RuntimeError(result)
        return result

    def _launch(self) -> _Worker:
        return _Worker(self._context, self.handler, self.warm, self.memory_limit)

    def close(self) -> None:
        while True:
            try:
                worker = self._free.get_nowait()
            except queue.Empty:
                return
            if worker is not None:
                worker.kill()


def _serve(connection, handler: Callable[[Any], Any], warm: Callable[[], None] | None, memory_limit: int) -> None:
    """A worker's life: answer jobs until the server closes the pipe, or
    until its memory has passed `memory_limit` (it says so with its answer)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    if warm is not None:
        warm()
    connection.send("ready")
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return
        try:
            reply = (True, handler(job))
        except Exception as error:  # reported to the server as an internal error, the worker lives on
            reply = (False, f"{type(error).__name__}: {error}")
        retiring = resident_memory() > memory_limit
        connection.send((*reply, retiring))
        if retiring:
            return


def resident_memory() -> int:
    """This process's resident memory now, in bytes: what it holds after an
    answer (memory it kept: caches, a fragmented heap). Not getrusage's peak:
    on Linux a process started by fork and exec inherits its parent's peak, so
    a worker of a large parent would seem large from its start. Where there is
    no /proc (macOS), the peak (getrusage: bytes there); 0 where neither can
    be known."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        pass
    if resource is None:
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024
