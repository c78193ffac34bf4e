"""The playground's WSGI application: the page, its assets and the JSON API.

A request can name only what is listed here: the page, the packaged assets
(read once at start, looked up by exact name) and the API routes; nothing in
a path or a body is ever used as a file name. Bodies above MAX_BODY bytes are
refused with 413 before they are read, a body the JSON decoder refuses with
400, a charset other than UTF-8 with 415. Answers run in the worker pool, each
under its timeout (workers.py); one client address holds at most `per_client`
of the workers at once, and its further requests get 429 (Retry-After).
"""
from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path

from .workers import Busy, Timeout, WorkerDied

from aslkb.base.root import kb_root

MAX_BODY = 256 * 1024
SOLVES = ("answer", "explain", "odds", "diff", "complete", "hover")  # POST /api/KIND: one job for the workers each
STATUS = {200: "200 OK", 400: "400 Bad Request", 403: "403 Forbidden", 404: "404 Not Found", 405: "405 Method Not Allowed",
          411: "411 Length Required", 413: "413 Content Too Large", 415: "415 Unsupported Media Type",
          422: "422 Unprocessable Content", 429: "429 Too Many Requests", 500: "500 Internal Server Error",
          503: "503 Service Unavailable", 504: "504 Gateway Timeout"}
CHARSETS = ("utf-8", "utf8", "us-ascii", "ascii")  # JSON is UTF-8 (RFC 8259 section 8.1); ASCII is a part of it
MAX_DIGITS = 100  # no field takes a number; a longer one is refused before Python converts it (its limit: 4,300)
RETRY_AFTER = "1"  # seconds a client over its share waits: most answers take well under one
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


class ClientShares:
    """How many requests each client address has being answered or waiting
    for a worker, so that one client cannot hold every worker (429 past its share)."""

    def __init__(self, per_client: int):
        self.per_client = per_client
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, client: str) -> bool:
        """One more request of `client`, if its share allows it."""
        with self._lock:
            if self._held.get(client, 0) >= self.per_client:
                return False
            self._held[client] = self._held.get(client, 0) + 1
            return True

    def give_back(self, client: str) -> None:
        with self._lock:
            self._held[client] -= 1
            if not self._held[client]:
                del self._held[client]


def client_share(workers: int) -> int:
    """Workers one client address may hold at once: half of them, at least one,
    so that with two or more workers others always find one free."""
    return max(1, workers // 2)


def make_app(pool, assets: dict[str, tuple[bytes, str]] | None = None,
             hosts: frozenset[str] | None = LOOPBACK_NAMES, per_client: int | None = None) -> Callable:
    """The WSGI application answering through `pool` (a workers.WorkerPool,
    or anything with its run(job) -> (status, body)). With `hosts`, a request
    whose Host header names another host is refused (403): a web page cannot
    reach a server on this machine by pointing its own name at 127.0.0.1.
    With `per_client`, one client address has at most that many requests
    answered or waiting at once; past it, 429 with Retry-After."""
    assets = static_assets() if assets is None else assets
    shares = ClientShares(per_client) if per_client is not None else None
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
                    status, body = _shared_solve(shares, environ, pool, "interpretations", {})
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
        return _json(start_response, *_shared_solve(shares, environ, pool, kind, request))

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
    kind, *parameters = environ.get("CONTENT_TYPE", "").split(";")
    if kind.strip().lower() != "application/json":
        return 415, {"error": "send the request as application/json"}
    charset = _charset(parameters)
    if charset is not None and charset not in CHARSETS:
        return 415, {"error": f"the body must be UTF-8 (charset=utf-8), not charset={charset[:40]}"}
    try:
        request = decode_json(environ["wsgi.input"].read(length))
    except NotJSON as error:
        return 400, {"error": f"the body is not JSON this API takes: {error}"}
    if not isinstance(request, dict):
        return 400, {"error": "the body must be a JSON object"}
    return request


def _charset(parameters: list[str]) -> str | None:
    """The charset a Content-Type's parameters declare (lower case, unquoted), or None."""
    for parameter in parameters:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset":
            return value.strip().strip('"').lower()
    return None


class NotJSON(Exception):
    """A body the JSON decoder refuses, and why, in words."""


def decode_json(data: bytes) -> object:
    """The JSON value of a body, or NotJSON for whatever the decoder refuses:
    bytes that are not UTF-8, a syntax error, NaN or Infinity (not JSON), a
    number of more than MAX_DIGITS digits, nesting past Python's recursion limit."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise NotJSON(f"byte {error.start} (0x{data[error.start]:02x}) is not UTF-8") from None
    try:
        return json.loads(text, parse_int=_json_int, parse_constant=_not_json_constant)
    except json.JSONDecodeError as error:
        raise NotJSON(f"{error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:  # `[[[[...]]]]`: Python's decoder recurses, about a thousand levels at most
        raise NotJSON("arrays or objects nested too deeply (a request needs two levels)") from None


def _json_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise NotJSON(f"a number of {len(digits.lstrip('-')):,} digits (at most {MAX_DIGITS} are taken)")
    return int(digits)


def _not_json_constant(name: str) -> float:
    raise NotJSON(f"{name} is not a JSON value")


def _shared_solve(shares: ClientShares | None, environ: dict, pool, kind: str, request: dict) -> tuple[int, dict]:
    """_solve, within the client's share of the workers (ClientShares)."""
    client = environ.get("REMOTE_ADDR", "")
    if shares is None:
        return _solve(pool, kind, request)
    if not shares.take(client):
        return 429, {"error": f"this client already has {shares.per_client} request"
                              f"{'s' if shares.per_client != 1 else ''} being answered, its share of the "
                              f"workers; try again when an answer has come",
                     "retry_after": int(RETRY_AFTER)}
    try:
        return _solve(pool, kind, request)
    finally:
        shares.give_back(client)


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
    if status == 429:
        headers = [*(headers or []), ("Retry-After", RETRY_AFTER)]
    return _send(start_response, status, json.dumps(body).encode(), "application/json", headers=headers)


def _send(start_response: Callable, status: int, content: bytes, kind: str, headers: list | None = None,
          cache: bool = False) -> list[bytes]:
    start_response(STATUS[status], [
        ("Content-Type", kind), ("Content-Length", str(len(content))),
        ("X-Content-Type-Options", "nosniff"),
        # no other site may show the page in a frame (clickjacking): the CSP's word, and the older header's
        ("Content-Security-Policy",
         "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"),
        ("X-Frame-Options", "DENY"),
        ("Cache-Control", "max-age=3600" if cache else "no-cache"),
        *(headers or []),
    ])
    return [content]
