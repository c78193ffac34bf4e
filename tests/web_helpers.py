"""A playground server on a free loopback port, for the web tests."""
from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.request
from contextlib import contextmanager

from aslkb.web import service
from aslkb.web.app import make_app
from aslkb.web.server import make_server
from aslkb.web.workers import WorkerPool


@contextmanager
def running(workers: int = 2, timeout: float = 60.0, wait: float = 120.0):
    """The playground on 127.0.0.1:PORT, with real worker processes; yields its base URL."""
    pool = WorkerPool(service.handle, workers, timeout, wait=wait, warm=service.warm)
    sockets: dict = {}
    server = make_server(make_app(pool), sockets=sockets)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        stop(server, sockets, thread)
        pool.close()


def stop(server, sockets: dict, thread: threading.Thread) -> None:
    """End a server whose loop runs in `thread`. Its sockets are closed in that
    thread (waitress's trigger runs the closing there): closed from here, the
    loop could still wait on a descriptor number that the next socket made,
    such as a worker's pipe, reuses, and read from it."""
    def close_all() -> None:
        for dispatcher in list(sockets.values()):  # the listener, open connections, the trigger
            try:
                dispatcher.close()
            except OSError:  # a descriptor already closed (see below)
                pass

    try:
        server.trigger.pull_trigger(close_all)
    except OSError:  # the trigger's descriptor is already gone (seen once in a full run, cause not yet found):
        close_all()  # the loop cannot be woken, so close from here; the join below still proves it ended
    thread.join(timeout=60)
    server.task_dispatcher.shutdown()
    assert not thread.is_alive(), "the server's loop did not end"


def call(url: str, data: bytes | dict | None = None, method: str | None = None,
         content_type: str = "application/json", timeout: float = 120.0) -> tuple[int, dict | bytes]:
    """(status, JSON body or raw bytes) of one request; errors are answers too."""
    body = json.dumps(data).encode() if isinstance(data, dict) else data
    request = urllib.request.Request(url, data=body, method=method)
    if body is not None:
        request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw, kind = response.status, response.read(), response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        status, raw, kind = error.code, error.read(), error.headers.get("Content-Type", "")
    return status, json.loads(raw) if kind.startswith("application/json") else raw


def worker_size(_) -> int:
    """A worker's job: its resident memory, in bytes (a fresh worker's size)."""
    from aslkb.web.workers import resident_memory

    return resident_memory()


_KEPT: list[bytes] = []  # what grow() keeps, as a worker keeps what its answers cached


def grow(megabytes: int) -> int:
    """A worker's job for the memory tests: keep `megabytes` more memory
    (written, so resident); the worker's process id."""
    if megabytes:
        _KEPT.append(b"\x01" * (megabytes << 20))
    return os.getpid()
