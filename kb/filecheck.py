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

LIMIT = 16 * 1024 * 1024  # bytes: far above any situation, golden snapshot or domain program

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class UnreadableFile(Exception):
    """A file the user named that cannot be taken (exit status 2)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path, reason)
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


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
        chunks, size = [], 0
        while True:  # st_size is 0 for /proc files: read to the end, but never past the limit
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise UnreadableFile(name, f"is too large for a {what} (more than {_size(limit)})")
        return b"".join(chunks)
    except OSError as error:
        raise UnreadableFile(name, f"cannot read: {error.strerror or error}") from None
    finally:
        os.close(fd)


def _size(limit: int) -> str:
    mib = 1024 * 1024
    return f"{limit // mib} MiB" if limit % mib == 0 else f"{limit} bytes"
