"""Every file the project writes is written here: whole, or not at all.

The new content goes to a temporary file in the same folder (so that the
rename stays on one file system), is flushed to the disk (fsync), and then
replaces the old file with os.replace, which is atomic on POSIX and Windows.
A failed write (a full disk, a read-only folder, Ctrl-C) leaves the old file
as it was, removes the temporary file, and raises WriteFailed naming the
file the user asked for.
"""
from __future__ import annotations

import errno
import os
import stat
import threading

from aslkb.base.errors import WriteFailed

_pending: set[str] = set()  # temporary files of writes in progress (kb/base/interrupt.py removes them)
# Held from a temporary file's creation to its rename or removal. Ctrl-C's
# cleanup takes it and never gives it back, so no temporary file can appear
# after the cleanup looked (reentrant: the handler may run inside a write).
_writing = threading.RLock()
_stopped = threading.Event()  # set by the cleanup: a write that gets the lock after it waits for the exit


def write_text(path: str | os.PathLike, text: str) -> None:
    """Write `text` as UTF-8 to `path`, atomically."""
    write_bytes(path, text.encode("utf-8"))


def write_bytes(path: str | os.PathLike, data: bytes, private: bool = False, through_links: bool = True) -> None:
    """Write `data` to `path`, atomically. The file keeps the mode of the
    file it replaces; a new file gets the usual mode (0666 less the umask),
    or 0600 when `private` (cache files).

    A name the user gave (`-o FILE`) is written through a symbolic link: the
    link stays a link. A name the program makes up (a cache file, a golden
    snapshot beside a case) is written with `through_links` off: a link
    found there, which someone else may have planted, is replaced by the
    file, and its target is never touched."""
    import secrets  # only when writing

    path = asked = os.fspath(path)
    tmp, held = None, False
    try:
        path, stream = _target(path) if through_links else _own_target(path)
        if stream:
            return _write_stream(path, data)
        folder = os.path.dirname(path)
        mode = _mode_for(path, private, through_links)
        _writing.acquire()
        held = True
        if _stopped.is_set():  # Ctrl-C's cleanup gave up waiting for the lock: write nothing more
            threading.Event().wait()
        # The name is registered before the file exists: a Ctrl-C handled
        # between the two still finds it (mkstemp would create it first).
        candidate = os.path.join(folder, f".{os.path.basename(path)[:40]}.{secrets.token_hex(6)}.kb-tmp")
        _pending.add(candidate)
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
        except OSError:
            _pending.discard(candidate)  # not ours to remove: it was never created, or is another's
            raise
        tmp = candidate
        try:
            if hasattr(os, "fchmod"):  # not on Windows
                os.fchmod(fd, mode)
            view = memoryview(data)
            while view:  # os.write may write less than asked
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        _pending.discard(tmp)
        tmp = None
    except OSError as error:
        raise WriteFailed(asked, error.strerror or str(error)) from None
    except ValueError:  # a NUL in the name: no file can be called that
        raise WriteFailed(asked.replace("\0", "\\0"), "a file name cannot hold a NUL character") from None
    finally:
        if tmp is not None:  # a failure (or an interrupt) before the rename
            try:
                os.remove(tmp)
            except OSError:
                pass
        _pending.discard(tmp)
        if held:
            _writing.release()


def discard_pending(wait: float = 2.0) -> None:
    """Remove the temporary files of unfinished writes (on Ctrl-C), after
    stopping every later write. A write in progress in another thread may
    finish first (up to `wait` seconds: its holder may itself be parked in the
    signal handler, and can then write nothing more)."""
    _stopped.set()
    _writing.acquire(timeout=wait)
    for tmp in list(_pending):
        try:
            os.remove(tmp)
        except OSError:
            pass


def _target(path: str) -> tuple[str, bool]:
    """The file to replace, a symlink's final target (the link stays a link),
    and whether it is a stream (a character device such as /dev/stdout or
    /dev/null, or a FIFO), written in place: renaming over it would replace
    the device or the pipe itself. Anything else that is not a regular file
    (a folder, a socket) is refused."""
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target, False
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return target, True
    if not stat.S_ISREG(mode):
        raise OSError(0, "not a regular file: an output is written to a regular file (or a new one)")
    return target, False


def _own_target(path: str) -> tuple[str, bool]:
    """The name itself, never a link's target: a regular file, a symbolic
    link (replaced, not followed) or nothing yet. Anything else there (a
    folder, a FIFO, a device) is refused: a name the program chose is never
    a stream."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return path, False
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise OSError(0, "not a regular file: the program's own files are regular files")
    return path, False


def _write_stream(path: str, data: bytes) -> None:
    """A device or a FIFO: written as it is (nothing to replace); a FIFO that
    no process reads is refused at once rather than waited for."""
    try:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        if error.errno == errno.ENXIO:
            raise OSError(error.errno, "a FIFO that no process is reading") from None
        raise
    try:
        os.set_blocking(fd, True)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _mode_for(path: str, private: bool, through_links: bool = True) -> int:
    try:
        status = os.stat(path) if through_links else os.lstat(path)
        if stat.S_ISREG(status.st_mode):  # a link replaced (not followed) lends no mode
            return status.st_mode & 0o7777
    except FileNotFoundError:
        pass
    if private:
        return 0o600
    umask = os.umask(0)  # the only way to read it
    os.umask(umask)
    return 0o666 & ~umask
