"""`aslkb check --shard K/N`: the K-th of N parts of a suite, for CI jobs or
machines that each check one part.

A file's shard depends only on the files found and the order of the PATH
arguments, never on the machine: the files are ordered by PATH argument,
then by their path relative to it, compared part by part as plain strings
(not the file system's listing order, nor a locale's or a case-insensitive
file system's collation), and shard K takes the K-th file, the (K+N)-th,
and so on. So every file is in exactly one shard, the shards' sizes differ by
one at most, and each shard holds files from every part of the suite (a
folder of dear cases is spread over all the shards, not given to one). A file
named twice (a folder and a file in it) is counted once, where it is first found.
"""
from __future__ import annotations

import argparse
import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple


class Shard(NamedTuple):
    index: int  # 1 to count
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def shard_option(text: str) -> Shard:
    """argparse type for --shard: K/N with 1 <= K <= N."""
    index, slash, count = text.partition("/")
    try:
        shard = Shard(int(index), int(count))
    except ValueError:
        shard = None
    if not slash or shard is None:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a shard: give K/N, the K-th of N shards, like 2/4")
    if shard.count < 1:
        raise argparse.ArgumentTypeError(f"'{text}': the number of shards must be at least 1")
    if not 1 <= shard.index <= shard.count:
        raise argparse.ArgumentTypeError(
            f"'{text}': shards are numbered from 1 to {shard.count}, got {shard.index}")
    return shard


def shard_key(argument: str, path: Path) -> tuple[str, ...]:
    """The path as its parts relative to the PATH argument it was found under
    (a file named itself: its own parts), in the same form on every system."""
    where = Path(argument)
    relative = path.relative_to(where) if where != path and where in path.parents else path
    return relative.as_posix().split("/")


def in_shard(found: Iterable[tuple[str, Path]], shard: Shard) -> list[Path]:
    """The files of `shard` among (PATH argument, file) pairs, in the order found."""
    arguments: dict[str, int] = {}  # each PATH argument's place on the command line
    seen: set[str] = set()
    files, keys = [], []
    for argument, path in found:
        same = os.path.normcase(os.path.abspath(path))
        if same in seen:
            continue
        seen.add(same)
        files.append(path)
        keys.append((arguments.setdefault(argument, len(arguments)), shard_key(argument, path)))
    ordered = sorted(range(len(files)), key=keys.__getitem__)
    return [files[i] for i in sorted(ordered[shard.index - 1::shard.count])]
