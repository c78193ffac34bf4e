"""`aslkb serve`: the playground on waitress, a pure-Python threaded WSGI
server from PyPI with no dependencies of its own (the `web` extra), which
also refuses bodies over SERVER_MAX_BODY with 413 before the application sees them.
The solves run in worker processes (workers.py), so the server's threads
only wait for them."""
from __future__ import annotations

import ipaddress

from waitress import create_server

from . import service
from .app import LOOPBACK_NAMES, MAX_BODY, client_share, make_app
from .workers import WorkerPool

from aslkb.base.progress import Progress

THREADS = 24  # a thread waiting on a worker costs only memory; 40 page loads at once stay prompt
# waitress refuses a larger body before the application sees it, in plain text;
# up to this size the application refuses it itself, in JSON as every other error
SERVER_MAX_BODY = 4 * MAX_BODY


def make_server(app, host: str = "127.0.0.1", port: int = 0, sockets: dict | None = None):
    """A waitress server for `app`, listening (port 0: a free one); run()
    serves until its `sockets` (waitress's map: fd -> dispatcher) are closed."""
    return create_server(app, map=sockets, host=host, port=port, threads=THREADS,
                         max_request_body_size=SERVER_MAX_BODY, ident="aslkb", clear_untrusted_proxy_headers=True)


def serve(host: str, port: int, workers: int, timeout: float) -> None:
    """Start the workers, say where the playground is, and serve until Ctrl-C.

    `aslkb serve` has said "starting" before it imported this module (kb/cli/main.py);
    the progress of the workers follows on stderr: on a cold cache the first
    worker builds the knowledge base, ten seconds or more (workers.py)."""
    pool = WorkerPool(service.handle, workers, timeout, warm=service.warm)
    with Progress("serve", workers, "workers ready") as progress:
        pool.start(ready=progress.advance)
    shown = f"[{host}]" if ":" in host else host
    app = make_app(pool, hosts=_names(host, shown), per_client=client_share(workers))
    server = make_server(app, host, port)
    print(f"aslkb playground on http://{shown}:{server.effective_port}/ "
          f"({workers} workers, {timeout:g} s per answer); Ctrl-C stops it", flush=True)
    try:
        server.run()
    finally:
        server.close()
        pool.close()


def _names(host: str, shown: str) -> frozenset[str] | None:
    """The Host names a loopback server answers to; None (any) when it
    listens on a network, whose names it cannot know."""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    return LOOPBACK_NAMES | {shown.lower()} if loopback else None
