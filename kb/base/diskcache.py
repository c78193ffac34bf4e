"""The disk cache: marshal data derived from the installed files (the
transformed rules and, apart, their files' annotations, the tagged rules of
`check`, the query catalog, the rules behind each case), named by a
signature of what it was made from.

$ASLKB_CACHE_DIR, else $XDG_CACHE_HOME/aslkb, else ~/.cache/aslkb. Deleting it
is always safe: the next run rebuilds what it needs.

The cache holds the knowledge base's program text, which clingo later reads,
so a cache file is trusted only when it proves it was made here: each file
carries a keyed BLAKE2b digest of its kind, signature and content, and is
read only when the digest matches. The key is 32 random bytes in a file of
its own outside the cache folder ($ASLKB_CACHE_KEY_FILE, else
$XDG_CONFIG_HOME/aslkb/cache.key, else ~/.config/aslkb/cache.key), readable by
its owner only: whoever can write a shared cache folder cannot forge a file
that is read, and marshal never sees bytes this user did not write. A file
whose digest does not match is ignored (and said once); without a usable key
or a writable folder the run goes on without a cache, said once.

The key is made once: a process that finds none takes the cache folder's
lock (flock on its `cache.lock`) and makes one only if no other process has
made it meanwhile. This user's files made with another key (a key deleted
and made again) are removed when a file of their kind is stored: no key of
this user's can prove them again. A cache folder serves one key per user.
"""
from __future__ import annotations

import hmac
import marshal
import mmap
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from hashlib import blake2b

try:
    import fcntl
except ImportError:  # Windows: no flock; the key is made without the lock
    fcntl = None

from aslkb.base.atomicwrite import write_bytes
from aslkb.base.errors import WriteFailed
from aslkb.base.terminal import escape_controls

KEEP = 4  # files per kind and key: a few versions or checkouts side by side, not every one ever made
LOCK = "cache.lock"  # in the cache folder: the processes that find no key make one, in turn
_MAGIC = b"aslkb-cache 2\n"
_TAG = 32  # bytes of digest
_state: dict = {}  # the key (or the reason there is none) and the warnings said, once per process
_QUIET = "_ASLKB_CACHE_WARNED"  # set once a warning is said, so that a check's workers do not repeat it


def cache_dir() -> str:
    configured = os.environ.get("ASLKB_CACHE_DIR")
    if configured:
        return configured
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "aslkb")


def key_file() -> str:
    configured = os.environ.get("ASLKB_CACHE_KEY_FILE")
    if configured:
        return configured
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "aslkb", "cache.key")


def load(kind: str, signature: str):
    """The cached value, or None when there is none, it cannot be read, or
    its digest does not prove it was written with this user's key."""
    key = _key()
    if key is None:
        return None
    path = _path(kind, signature, key)
    try:
        data = _contents(path)
    except OSError:
        return None
    head = len(_MAGIC) + _TAG
    with memoryview(data) as view:
        payload = view[head:]  # not copied (the knowledge base's file is about 1 MB)
        if view[:len(_MAGIC)] != _MAGIC or not hmac.compare_digest(view[len(_MAGIC):head],
                                                                 _digest(key, kind, signature, payload)):
            warn(f"the cache file {path} does not carry this user's digest (damaged, or written by someone "
                 "else): ignored and rebuilt")
            return None
        try:
            return marshal.loads(payload)  # marshal.load(file) is ~5x slower
        except (ValueError, EOFError, TypeError):
            return None
        finally:
            payload.release()


def _contents(path: str):
    """The file's bytes. Mapped, not read (a copy of the knowledge base's 1 MB
    costs a cold run about 0.3 ms), where only this user can change the file:
    it belongs to this user, no one else may write it, and this module
    replaces a cache file whole (a rename), never writes into one; so the
    bytes the digest proves are the bytes marshal reads. Any other file is
    read into memory, where no one can change it after its digest."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(fd)
        if hasattr(os, "geteuid") and info.st_uid == os.geteuid() and not info.st_mode & 0o022 and info.st_size:
            try:
                return mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):  # a file system that cannot map it: read it
                pass
        with open(fd, "rb", closefd=False) as handle:
            return handle.read()
    finally:
        os.close(fd)


def store(kind: str, signature: str, value) -> None:
    """Write the value with its digest, atomically; a folder that cannot be
    written is said once and the run goes on. The oldest files of the same
    kind beyond KEEP are removed."""
    key = _key()
    if key is None:
        return
    try:
        payload = marshal.dumps(value)
    except ValueError:  # a value marshal cannot write: nothing to keep
        return
    path = _path(kind, signature, key)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_bytes(path, _MAGIC + _digest(key, kind, signature, payload) + payload, private=True, through_links=False)
    except (OSError, WriteFailed) as error:
        reason = error.reason if isinstance(error, WriteFailed) else (error.strerror or str(error))
        warn(f"cannot write the cache folder {cache_dir()} ({reason}): running without a cache, so each "
             "run rebuilds the rules (about 2 s); set ASLKB_CACHE_DIR to a writable folder")
        return
    _prune(os.path.dirname(path), kind, _key_id(key))


def fingerprint(data: bytes) -> str:
    """A short digest of `data`, to name what a cache file was made from."""
    return blake2b(data, digest_size=10).hexdigest()


def warn(message: str) -> None:
    """Say a cache problem once per run (and not again in its worker processes)."""
    if os.environ.get(_QUIET):
        return
    os.environ[_QUIET] = "1"
    print(f"aslkb: warning: {escape_controls(message)}", file=sys.stderr)  # it names the cache folder


def _key() -> bytes | None:
    """This user's cache key, made on first use; None (said once) when it
    cannot be read or made, or cannot be trusted."""
    if "key" in _state:
        return _state["key"]
    path = key_file()
    key = None
    try:
        key = _read_key(path)
    except FileNotFoundError:
        try:
            key = _made_key(path)
        except (OSError, WriteFailed, ValueError) as error:
            warn(f"cannot make the cache key {path} ({_why(error)}): running without a cache; "
                 "set ASLKB_CACHE_KEY_FILE to a file in a writable private folder")
    except (OSError, ValueError) as error:
        warn(f"cannot use the cache key {path} ({_why(error)}): running without a cache")
    _state["key"] = key
    return key


def _made_key(path: str) -> bytes:
    """A new key, made once: under the cache folder's lock, the key another
    process made while this one waited is read instead. Six processes
    starting at once on an empty cache made 3 or 4 keys, each read by some
    of them, whose files then stood side by side."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    with _locked(cache_dir()):
        try:
            return _read_key(path)
        except FileNotFoundError:
            write_bytes(path, os.urandom(32), private=True, through_links=False)
            return _read_key(path)


@contextmanager
def _locked(folder: str) -> Iterator[None]:
    """Hold the cache folder's lock (fcntl.flock on its lock file); where
    the folder or the file cannot be made, go on without it (the run goes on
    without a cache there, said when it first stores)."""
    fd = None
    if fcntl is not None:
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            fd = os.open(os.path.join(folder, LOCK), os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            if fd is not None:
                os.close(fd)
            fd = None
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)  # closing it releases the lock


def _read_key(path: str) -> bytes:
    """The key, if the file is this user's alone and lies outside the cache folder."""
    folder = os.path.realpath(cache_dir())
    if os.path.commonpath([folder, os.path.realpath(path)]) == folder:
        raise ValueError("it lies inside the cache folder, where anyone who can write the cache could change it")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        info = os.fstat(fd)
        if hasattr(os, "geteuid") and (info.st_uid != os.geteuid() or info.st_mode & 0o077):
            raise ValueError("it must belong to this user and be readable by this user only (chmod 600)")
        key = os.read(fd, 64)
    finally:
        os.close(fd)
    if len(key) != 32:
        raise ValueError(f"it holds {len(key)} bytes, not 32; delete it to make a new one")
    return key


def _why(error: Exception) -> str:
    return getattr(error, "reason", None) or getattr(error, "strerror", None) or str(error)


def _digest(key: bytes, kind: str, signature: str, payload) -> bytes:
    digest = blake2b(f"{kind}\0{signature}\0".encode(), key=key, digest_size=_TAG)
    digest.update(payload)
    return digest.digest()


def _key_id(key: bytes) -> str:
    """A short public name of the key: users sharing a cache folder keep their own files."""
    return _digest(key, "id", "", b"").hex()[:8]


def _path(kind: str, signature: str, key: bytes) -> str:
    return os.path.join(cache_dir(), f"{kind}-{signature}-{_key_id(key)}.marshal")


def _prune(folder: str, kind: str, key_id: str) -> None:
    """Remove this kind's files beyond the KEEP newest of this key, and this
    user's files of the kind made with another key: a key that was replaced
    (or, before the lock, lost a race to be made) can prove none of them, so
    they would never be read again. Another user's files are theirs to keep."""
    try:
        names = [name for name in os.listdir(folder) if name.startswith(f"{kind}-") and name.endswith(".marshal")]
        mine = [os.path.join(folder, name) for name in names if name.endswith(f"-{key_id}.marshal")]
        mine.sort(key=os.path.getmtime, reverse=True)
        lost = [os.path.join(folder, name) for name in names if not name.endswith(f"-{key_id}.marshal")]
        lost = [path for path in lost if _own_file(path)]
    except OSError:
        return
    for stale in mine[KEEP:] + lost:
        try:
            os.remove(stale)
        except OSError:
            pass


def _own_file(path: str) -> bool:
    """Whether the file (not a link) belongs to this user."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return not hasattr(os, "geteuid") or info.st_uid == os.geteuid()
