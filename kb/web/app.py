"""The playground's WSGI application: the page, its assets and the JSON API.

A request can name only what is listed here: the page, the packaged assets
(read once at start, looked up by exact name) and the API routes; nothing in
a path or a body is ever used as a file name. Bodies above MAX_BODY bytes are
refused with 413 before they are read. Answers run in the worker pool, each
under its timeout (workers.py).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path

from .workers import Busy, Timeout, WorkerDied

from aslkb.base.root import kb_root

MAX_BODY = 256 * 1024
SOLVES = ("answer", "explain", "odds", "diff")  # POST /api/KIND: one job for the workers each
STATUS = {200: "200 OK", 400: "400 Bad Request", 403: "403 Forbidden", 404: "404 Not Found", 405: "405 Method Not Allowed",
          411: "411 Length Required", 413: "413 Content Too Large", 415: "415 Unsupported Media Type",
          422: "422 Unprocessable Content", 500: "500 Internal Server Error", 503: "503 Service Unavailable",
          504: "504 Gateway Timeout"}
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".txt": "text/plain; charset=utf-8"}


def static_assets() -> dict[str, tuple[bytes, str]]:
    """URL path -> (content, type) for every file shipped in aslkb/web/static."""
    folder = resources.files("aslkb.web") / "static"
    assets = {}
    for item in folder.iterdir():
        suffix = "." + item.name.rsplit(".", 1)[-1]
        if item.is_file() and suffix in _TYPES:
            assets["/assets/" + item.name] = (item.read_bytes(), _TYPES[suffix])
    assets["/"] = assets.pop("/assets/index.html")
    return assets


def examples() -> list[dict]:
    """The shipped examples, the tutorial's steps, then the divergence
    witnesses, each with its text and the comment lines it opens with. Read
    from the copy of the knowledge base this process reads (kb/base/root.py): the
    checkout holding the current folder, else the installed aslkb.examples."""
    found = []
    root = Path(kb_root(), "examples")
    for group, folder in (("examples", root), ("tutorial", root / "tutorial"), ("divergences", root / "divergences")):
        for item in sorted(folder.iterdir(), key=lambda i: i.name):
            if item.is_file() and item.name.endswith(".sit"):
                text = item.read_text(encoding="utf-8")
                about = []
                for line in text.splitlines():
                    if not line.startswith("#"):
                        break
                    about.append(line.lstrip("# ").rstrip())
                found.append({"name": item.name, "group": group, "about": about, "text": text})
    return found


LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})


def make_app(pool, assets: dict[str, tuple[bytes, str]] | None = None,
             hosts: frozenset[str] | None = LOOPBACK_NAMES) -> Callable:
    """The WSGI application answering through `pool` (a workers.WorkerPool,
    or anything with its run(job) -> (status, body)). With `hosts`, a request
    whose Host header names another host is refused (403): a web page cannot
    reach a server on this machine by pointing its own name at 127.0.0.1."""
    assets = static_assets() if assets is None else assets
    gallery = json.dumps({"examples": examples()}).encode()
    known: dict[str, bytes] = {}  # answers that never change while the server runs

    def app(environ: dict, start_response: Callable) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "GET")
        if hosts is not None and _host_name(environ) not in hosts:
            return _json(start_response, 403, {"error": "this server answers only to the names of this machine "
                                                        "(localhost, 127.0.0.1); see aslkb serve --host"})
        if path in assets or path in ("/api/examples", "/api/interpretations"):
            if method not in ("GET", "HEAD"):
                return _json(start_response, 405, {"error": f"{path} takes GET"}, [("Allow", "GET, HEAD")])
            if path == "/api/examples":
                return _send(start_response, 200, gallery, "application/json")
            if path == "/api/interpretations":
                if path not in known:
                    status, body = _solve(pool, "interpretations", {})
                    if status != 200:
                        return _json(start_response, status, body)
                    known[path] = json.dumps(body).encode()
                return _send(start_response, 200, known[path], "application/json")
            content, kind = assets[path]
            return _send(start_response, 200, content, kind, cache=path != "/")
        kind = path.removeprefix("/api/")
        if not path.startswith("/api/") or kind not in SOLVES:
            return _json(start_response, 404, {"error": f"no such page or API route: {path[:200]}"})
        if method != "POST":
            return _json(start_response, 405, {"error": f"{path} takes POST"}, [("Allow", "POST")])
        request = _read_request(environ)
        if isinstance(request, tuple):  # (status, error body)
            return _json(start_response, *request)
        return _json(start_response, *_solve(pool, kind, request))

    return app


def _host_name(environ: dict) -> str:
    """The Host header's name, without its port: "[::1]:8000" -> "[::1]"."""
    host = environ.get("HTTP_HOST", "").lower()
    if host.startswith("["):
        return host.split("]")[0] + "]"
    return host.split(":")[0]


def _read_request(environ: dict) -> dict | tuple[int, dict]:
    """The JSON object of a POST body, or (status, error) when it is not one."""
    try:
        length = int(environ.get("CONTENT_LENGTH") or "")
    except ValueError:
        return 411, {"error": "the request needs a Content-Length"}
    if length > MAX_BODY:
        return 413, {"error": f"the request body is over {MAX_BODY // 1024} KB"}
    kind = environ.get("CONTENT_TYPE", "").split(";")[0].strip()
    if kind != "application/json":
        return 415, {"error": "send the request as application/json"}
    try:
        request = json.loads(environ["wsgi.input"].read(length).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        return 400, {"error": f"the body is not JSON: {error}"}
    if not isinstance(request, dict):
        return 400, {"error": "the body must be a JSON object"}
    return request


def _solve(pool, kind: str, request: dict) -> tuple[int, dict]:
    try:
        return pool.run((kind, request))
    except Timeout as error:
        return 504, {"error": f"timed out: {error}; ask about a smaller situation"}
    except Busy as error:
        return 503, {"error": f"busy: {error}; try again"}
    except WorkerDied as error:
        return 500, {"error": str(error)}
    except RuntimeError as error:  # the worker's own internal error, already reduced to text
        return 500, {"error": f"internal error: {error}"}


def _json(start_response: Callable, status: int, body: dict, headers: list | None = None) -> list[bytes]:
    return _send(start_response, status, json.dumps(body).encode(), "application/json", headers=headers)


def _send(start_response: Callable, status: int, content: bytes, kind: str, headers: list | None = None,
          cache: bool = False) -> list[bytes]:
    start_response(STATUS[status], [
        ("Content-Type", kind), ("Content-Length", str(len(content))),
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'"),
        ("Cache-Control", "max-age=3600" if cache else "no-cache"),
        *(headers or []),
    ])
    return [content]
