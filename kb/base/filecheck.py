"""Reading a file the user named: a regular file under a size limit, or a
clear refusal that names it.

A FIFO would block a run forever, /dev/zero (or a symlink to it) would read
until memory runs out, /proc/self/mem fails with a bare "Input/output
error". The file is opened without blocking (a FIFO with no writer opens at
once), checked with fstat on the open descriptor (no race with a rename),
and read up to the limit.
"""
from __future__ import annotations

import os
import stat
import sys

from aslkb.base.errors import UnreadableFile

LIMIT = 16 * 1024 * 1024  # bytes: far above any situation, golden snapshot or domain program

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def read_regular(path: str | os.PathLike, what: str = "situation file", limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (default LIMIT)."""
    name = os.fspath(path)
    limit = LIMIT if limit is None else limit
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise UnreadableFile(name, f"cannot open: {error.strerror or error}") from None
    except ValueError:  # a NUL in the name
        raise UnreadableFile(name.replace("\0", "\\0"), "cannot open: a file name cannot hold a NUL character") from None
    try:
        info = os.fstat(fd)
        for test, kind in _KINDS:
            if test(info.st_mode):
                raise UnreadableFile(name, f"is {kind}, not a regular file: a {what} must be a regular file")
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(name, f"is not a regular file: a {what} must be a regular file")
        if info.st_size > limit:
            raise UnreadableFile(name, f"is too large for a {what} ({info.st_size} bytes; "
                                       f"the limit is {_size(limit)})")
        # st_size is 0 for /proc files: read to the end, but never past the limit
        return _read_to_limit(lambda size: os.read(fd, size), name, what, limit)
    except OSError as error:
        raise UnreadableFile(name, f"cannot read: {error.strerror or error}") from None
    finally:
        os.close(fd)


def read_standard_input(name: str = "<stdin>", what: str = "situation", limit: int | None = None) -> bytes:
    """Standard input to its end (a pipe, a redirected file, a terminal until
    Ctrl-D), at most `limit` bytes (default LIMIT); `name` stands for it in messages."""
    limit = LIMIT if limit is None else limit
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise UnreadableFile(name, "cannot read: there is no standard input")
    try:
        return _read_to_limit(stream.read, name, what, limit)
    except OSError as error:  # `aslkb query - < folder`: Is a directory
        raise UnreadableFile(name, f"cannot read: {error.strerror or error}") from None


def _read_to_limit(read, name: str, what: str, limit: int) -> bytes:
    """Chunks from `read(size)` until it returns nothing; past the limit, a refusal."""
    chunks, size = [], 0
    while True:
        chunk = read(min(1 << 20, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise UnreadableFile(name, f"is too large for a {what} (more than {_size(limit)})")
    return b"".join(chunks)


def _size(limit: int) -> str:
    mib = 1024 * 1024
    return f"{limit // mib} MiB" if limit % mib == 0 else f"{limit} bytes"
