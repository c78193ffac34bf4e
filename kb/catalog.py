"""The query catalog (queries/catalog.toml) as the engine needs it."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from aslkb.parser import catalog as parser_catalog


@dataclass(frozen=True)
class QuerySpec:
    name: str
    args: tuple[str, ...]
    answer: str  # integer, number, boolean, keyword, list
    doc: str


@cache
def query_catalog(root: Path | None = None) -> dict[str, QuerySpec]:
    """The installed catalog (read once, by the parser), or the one under `root`."""
    if root is None:
        data = parser_catalog.catalog()
    else:
        data = tomllib.loads((root / "queries" / "catalog.toml").read_text(encoding="utf-8"))
    return {name: QuerySpec(name, tuple(q["args"]), q["answer"], q.get("doc", ""))
            for name, q in data["query"].items()}
