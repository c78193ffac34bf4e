"""queries/catalog.toml, read once per process: query signatures, DRM sources, rolls."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files
from typing import Any, Optional


@cache
def catalog() -> dict[str, Any]:
    text = (files("aslkb.queries") / "catalog.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


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
