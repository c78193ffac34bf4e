"""The query catalog (queries/catalog.toml) as the engine needs it."""
from __future__ import annotations

import os
from functools import cache
from typing import NamedTuple

from aslkb.parser import catalog as parser_catalog


class QuerySpec(NamedTuple):
    name: str
    args: tuple[str, ...]
    answer: str  # integer, number, boolean, keyword, list
    doc: str


@cache
def query_catalog(root: str | os.PathLike | None = None) -> dict[str, QuerySpec]:
    """The installed catalog (read once, by the parser), or the one under `root`."""
    if root is None:
        data = parser_catalog.catalog()
    else:
        import tomllib  # lazy: only another checkout's catalog is read here

        with open(os.path.join(root, "queries", "catalog.toml"), "rb") as handle:
            data = tomllib.load(handle)
    return {name: QuerySpec(name, tuple(q["args"]), q["answer"], q.get("doc", ""))
            for name, q in data["query"].items()}
