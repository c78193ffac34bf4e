"""The disk cache: marshal data derived from the installed files (the
transformed rules, the tagged rules of `check`, the query catalog), named by
a signature of what it was made from.

$ASLKB_CACHE_DIR, else $XDG_CACHE_HOME/aslkb, else ~/.cache/aslkb. Deleting it
is always safe: the next run rebuilds what it needs. Marshal data only, never
code: a cache file can give wrong data at worst, and the signature in its name
makes that a stale file nobody reads.
"""
from __future__ import annotations

import marshal
import os

KEEP = 4  # files per kind: a few versions or checkouts side by side, not every one ever made


def cache_dir() -> str:
    configured = os.environ.get("ASLKB_CACHE_DIR")
    if configured:
        return configured
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "aslkb")


def load(kind: str, signature: str):
    """The cached value, or None when there is none (or it cannot be read)."""
    try:
        with open(_path(kind, signature), "rb") as handle:
            return marshal.loads(handle.read())  # marshal.load(file) is ~5x slower
    except (OSError, ValueError, EOFError, TypeError):
        return None


def store(kind: str, signature: str, value) -> None:
    """Write the value; a read-only home or a race only costs a rebuild next
    time. The oldest files of the same kind beyond KEEP are removed."""
    import tempfile  # only on a cache miss

    path = _path(kind, signature)
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{kind}-", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(marshal.dumps(value))
        os.replace(tmp, path)
        _prune(folder, kind)
    except (OSError, ValueError):  # ValueError: a value marshal cannot write
        pass


def _path(kind: str, signature: str) -> str:
    return os.path.join(cache_dir(), f"{kind}-{signature}.marshal")


def _prune(folder: str, kind: str) -> None:
    mine = [os.path.join(folder, name) for name in os.listdir(folder)
            if name.startswith(f"{kind}-") and name.endswith(".marshal")]
    mine.sort(key=os.path.getmtime, reverse=True)
    for stale in mine[KEEP:]:
        try:
            os.remove(stale)
        except OSError:
            pass
