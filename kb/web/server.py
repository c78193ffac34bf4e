"""`aslkb serve`: the playground on waitress, a pure-Python threaded WSGI
server from PyPI with no dependencies of its own (the `web` extra). The
solves run in worker processes (workers.py), so the server's threads only
wait for them."""
from __future__ import annotations

from waitress import create_server

from . import service
from .app import MAX_BODY, make_app
from .workers import WorkerPool

THREADS = 24  # waiting on workers costs a thread nothing but memory


def serve(host: str, port: int, workers: int, timeout: float) -> None:
    pool = WorkerPool(service.handle, workers, timeout, warm=service.warm)
    pool.start()
    server = create_server(make_app(pool), host=host, port=port, threads=THREADS,
                           max_request_body_size=MAX_BODY, ident="aslkb")
    shown = f"[{host}]" if ":" in host else host
    print(f"aslkb playground on http://{shown}:{server.effective_port}/ "
          f"({workers} workers, {timeout:g} s per answer); Ctrl-C stops it", flush=True)
    try:
        server.run()
    finally:
        server.close()
        pool.close()
