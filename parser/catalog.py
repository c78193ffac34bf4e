"""queries/catalog.toml, read once per process: query signatures, DRM sources, rolls."""

from __future__ import annotations

import os
from functools import cache
from typing import Any, Optional

from aslkb.base.root import kb_root


def catalog_path() -> str:
    """queries/catalog.toml of the copy this process reads (kb/base/root.py). A plain
    path: importlib.resources costs a cold run several ms of imports."""
    return os.path.join(kb_root(), "queries", "catalog.toml")


@cache
def catalog() -> dict[str, Any]:
    """The catalog, from the disk cache when the file has not changed (reading
    TOML costs a cold run about 4 ms, marshal a tenth of that)."""
    from aslkb.base import diskcache

    path = catalog_path()
    stat = os.stat(path)
    signature = f"{diskcache.fingerprint(path.encode())}{stat.st_mtime_ns:x}{stat.st_size:x}"
    data = diskcache.load("catalog", signature)
    if not isinstance(data, dict):
        import tomllib

        with open(path, "rb") as handle:
            data = tomllib.load(handle)
        diskcache.store("catalog", signature, data)
    return data


def query(name: str) -> Optional[dict[str, Any]]:
    """{"args": ["attack", "source?"], "answer": "integer", ...} or None."""
    return catalog()["query"].get(name)


def roll(name: str) -> Optional[dict[str, Any]]:
    """{"dice": "DR" | "dr", "subject": "none" | "unit" | "attack", ...} or None."""
    return catalog()["roll"].get(name)


def query_names() -> list[str]:
    return list(catalog()["query"])


def roll_names() -> list[str]:
    return list(catalog()["roll"])


def drm_sources() -> list[str]:
    return catalog()["drm_sources"]
