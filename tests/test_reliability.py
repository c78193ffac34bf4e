"""Hostile surroundings (issue 18): writes that fail half-way, corrupt golden
snapshots, poisoned caches, special files, option-like values reaching
another program, invisible characters, interrupts. docs/reliability.md says
what is promised; each promise has its test here."""
from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from aslkb.base import atomicwrite
from aslkb.cli.main import main
from cli_helpers import run, write

ROOT = Path(__file__).resolve().parent.parent
CASE = "scenario night nvr 2\nexpect base_nvr = 2\n"


# --- atomic writes ------------------------------------------------------------------

def _full_disk(monkeypatch, after: int = 4096):
    """os.write fails with ENOSPC once `after` bytes are written (a full disk)."""
    real = os.write
    written = {"n": 0}

    def write(fd, data):
        if fd > 2:  # not stdout/stderr
            if written["n"] + len(data) > after:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            written["n"] += len(data)
        return real(fd, data)

    monkeypatch.setattr(atomicwrite.os, "write", write)


def test_a_failed_write_leaves_the_old_file_whole_and_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    target.write_text("old content\n")
    _full_disk(monkeypatch, after=10)
    with pytest.raises(atomicwrite.WriteFailed) as info:
        atomicwrite.write_text(target, "new content that does not fit\n" * 100)
    assert str(info.value).startswith(f"{target}: cannot write: No space left on device")
    assert target.read_text() == "old content\n"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_a_write_replaces_the_file_and_keeps_its_mode(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    atomicwrite.write_text(target, "new\n")
    assert target.read_text() == "new\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert os.listdir(tmp_path) == ["out.txt"]


def test_check_update_on_a_full_disk_keeps_the_old_snapshot_and_names_it(tmp_path, capsys, monkeypatch):
    case = write(tmp_path, CASE)
    assert run(capsys, "check", "--update", case)[0] == 0
    golden = tmp_path / "case.sit.golden.json"
    before = golden.read_bytes()
    write(tmp_path, CASE + "query base_nvr\nquery cloud_cover\n")  # a new answer: the snapshot would grow
    _full_disk(monkeypatch, after=len(before) // 2)
    code, out, err = run(capsys, "check", "--update", case)
    assert code == 2
    assert err.strip() == f"aslkb: error: {golden}: cannot write: No space left on device (any previous file is unchanged)"
    assert golden.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["case.sit", "case.sit.golden.json"]
    assert run(capsys, "check", case)[0] == 1  # the old snapshot still reads, and differs


@pytest.mark.parametrize("option", [["--junit-xml", "{out}"], ["coverage-output"]])
def test_other_outputs_go_through_the_same_write(option, tmp_path, capsys, monkeypatch):
    case = write(tmp_path, CASE)
    out = tmp_path / "report.out"
    out.write_text("old\n")
    _full_disk(monkeypatch, after=0)
    if option == ["coverage-output"]:
        argv = ["coverage", "--cases", case, "-o", out]
    else:
        argv = ["check", case, option[0], out]
    code, _, err = run(capsys, *argv)
    assert code == 2 and f"{out}: cannot write: No space left on device" in err
    assert out.read_text() == "old\n"
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".kb-tmp")]


def _small_tmpfs(tmp_path: Path) -> Path:
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs root")
    folder = tmp_path / "tiny"
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    return folder


def test_a_really_full_disk_keeps_the_old_snapshot(tmp_path, capsys):
    folder = _small_tmpfs(tmp_path)
    try:
        case = write(folder, CASE)
        assert run(capsys, "check", "--update", case)[0] == 0
        golden = folder / "case.sit.golden.json"
        before = golden.read_bytes()
        filler = folder / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        try:  # fill the disk to the last byte
            while os.write(fd, b"x" * 1024):
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        code, _, err = run(capsys, "check", "--update", case)
        assert code == 2 and f"{golden}: cannot write" in err, err
        assert golden.read_bytes() == before
        assert not [p for p in os.listdir(folder) if p.endswith(".kb-tmp")]
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


# --- corrupt golden snapshots -------------------------------------------------------

@pytest.mark.parametrize("content, reason", [
    (b'{"version": 1, "answers": [{"line": 2, "ki', "invalid JSON at line 1 column"),
    (b"[]", "a JSON array where an object is expected"),
    (b'{"answers": 5}', "version None, expected 1"),
    (b'{"version": 1, "answers": 5}', "'answers' is a JSON number, not a list"),
    (b'{"version": 1, "answers": [{"line": "2"}]}', "answer 1 lacks a line, kind or query"),
    (b'\xff\xfe{"version": 1}', "byte 0 is not UTF-8"),
    (b"", "invalid JSON at line 1 column 1"),
    (b'{"version": 1,\n "answers": [{"line": ' + b"9" * 5000 + b"}]}",  # past what Python converts (issue 37)
     "a number of more digits than any answer has at line 2"),
])
def test_a_corrupt_golden_snapshot_is_named_as_such(content, reason, tmp_path, capsys):
    case = write(tmp_path, CASE)
    golden = tmp_path / "case.sit.golden.json"
    golden.write_bytes(content)
    other = write(tmp_path, CASE, "other.sit")  # the other files are still checked
    code, out, err = run(capsys, "check", case, other)
    assert code == 2
    assert f"{golden}: not a golden snapshot: {reason}" in out, out
    assert "2 files, 1 unreadable" in out and "internal error" not in out + err
    assert golden.read_bytes() == content  # only --update rewrites it
    assert run(capsys, "check", "--update", case)[0] == 0  # --update replaces it
    assert run(capsys, "check", case)[0] == 0


def test_a_golden_snapshot_that_is_a_fifo_is_refused(tmp_path, capsys):
    case = write(tmp_path, CASE)
    os.mkfifo(tmp_path / "case.sit.golden.json")
    code, out, _ = run(capsys, "check", case)
    assert code == 2 and "case.sit.golden.json: is a FIFO (named pipe), not a regular file" in out


# --- special files --------------------------------------------------------------------

def _special(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "odd.sit"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "dir":
        path.mkdir()
    return path


@pytest.mark.parametrize("kind, said", [("fifo", "is a FIFO (named pipe), not a regular file"),
                                        ("dev-zero", "is a character device, not a regular file")])
@pytest.mark.parametrize("command", [["query"], ["odds", "base_nvr"], ["explain", "base_nvr"], ["diff"]])
def test_special_files_are_refused_at_once_with_their_name(kind, said, command, tmp_path, capsys):
    path = _special(tmp_path, kind)
    code, out, err = run(capsys, command[0], path, *command[1:])
    assert code == 2 and err.strip() == f"{path}: {said}: a situation file must be a regular file"


def test_check_of_a_folder_refuses_its_special_files_and_checks_the_rest(tmp_path, capsys):
    fifo = _special(tmp_path, "fifo")
    (tmp_path / "zero.sit").symlink_to("/dev/zero")
    write(tmp_path, CASE)
    code, out, _ = run(capsys, "check", tmp_path)
    assert code == 2
    assert f"{fifo}: is a FIFO (named pipe), not a regular file" in out
    assert f"{tmp_path / 'zero.sit'}: is a character device" in out
    assert "3 files, 2 unreadable" in out and "1 passed" in out


def test_proc_files_and_unreadable_files_are_named(tmp_path, capsys):
    code, _, err = run(capsys, "query", "/proc/self/mem")
    assert code == 2 and err.startswith("/proc/self/mem: cannot read: "), err
    code, _, err = run(capsys, "query", tmp_path / "missing.sit")
    assert code == 2 and err.strip() == f"{tmp_path / 'missing.sit'}: cannot open: No such file or directory"


def test_a_file_over_the_size_limit_is_refused(tmp_path, capsys, monkeypatch):
    from aslkb.base import filecheck

    path = write(tmp_path, CASE * 10)
    monkeypatch.setattr(filecheck, "LIMIT", 100)
    code, _, err = run(capsys, "query", path)
    assert code == 2 and err.strip() == f"{path}: is too large for a situation file (410 bytes; the limit is 100 bytes)"


def test_a_proc_file_is_read_only_up_to_the_limit(tmp_path):
    from aslkb.base.errors import UnreadableFile
    from aslkb.base.filecheck import read_regular

    assert read_regular("/proc/self/status", limit=1 << 20)  # size 0 in stat, read to its end
    with pytest.raises(UnreadableFile, match="more than 10 bytes"):
        read_regular("/proc/self/status", limit=10)


# --- the disk cache is data this user wrote, never program text from elsewhere --------

@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """A fresh cache folder and key; warnings said again."""
    from aslkb.base import diskcache
    from aslkb.knowledge.program import knowledge_base

    monkeypatch.setenv("ASLKB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ASLKB_CACHE_KEY_FILE", str(tmp_path / "config" / "cache.key"))
    monkeypatch.delenv(diskcache._QUIET, raising=False)
    diskcache._state.clear()
    knowledge_base.cache_clear()
    yield tmp_path / "cache"
    diskcache._state.clear()
    knowledge_base.cache_clear()
    os.environ.pop(diskcache._QUIET, None)


def _poison(cache: Path, kind: str = "kb") -> Path:
    """Replace the program text in a cache file by an #include of another file,
    keeping the file's header (as an attacker who can write the folder could)."""
    import marshal

    from aslkb.base import diskcache

    [path] = cache.glob(f"{kind}-*.marshal")
    data = path.read_bytes()
    head = len(diskcache._MAGIC) + diskcache._TAG
    value = marshal.loads(data[head:])
    value["text"] = b'#include "/etc/hostname".\n' + value["text"]  # the program text is stored as UTF-8
    path.write_bytes(data[:head] + marshal.dumps(value))
    return path


def test_a_link_planted_under_a_cache_files_name_is_replaced_and_its_target_kept(own_cache, tmp_path, capsys):
    """Issue 37: in a shared cache folder another user may plant a link under
    a cache file's predictable name; the store replaces the link by the file
    and never writes through it."""
    from aslkb.knowledge.program import knowledge_base

    case = write(tmp_path, CASE)
    assert run(capsys, "query", case)[0] == 0
    [stored] = own_cache.glob("kb-*.marshal")
    stored.unlink()
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n", encoding="utf-8")
    stored.symlink_to(victim)
    knowledge_base.cache_clear()
    code, out, _ = run(capsys, "query", case)
    assert code == 0 and "base_nvr = 2" in out
    assert victim.read_text(encoding="utf-8") == "the user's own file\n"
    assert not stored.is_symlink() and stored.stat().st_mode & 0o777 == 0o600


def test_check_update_never_writes_through_a_planted_golden_link(tmp_path, capsys):
    folder = tmp_path / "cases"
    folder.mkdir()
    case = write(folder, CASE)
    victim = tmp_path / "outside.txt"
    victim.write_text("kept\n", encoding="utf-8")
    (folder / "case.sit.golden.json").symlink_to(victim)
    assert run(capsys, "check", "--update", case)[0] == 0
    assert victim.read_text(encoding="utf-8") == "kept\n"
    golden = folder / "case.sit.golden.json"
    assert not golden.is_symlink() and '"base_nvr"' in golden.read_text(encoding="utf-8")


def test_a_user_named_output_is_still_written_through_its_link(tmp_path):
    target = tmp_path / "report.md"
    target.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    atomicwrite.write_text(link, "new\n")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "new\n"


def test_a_poisoned_cache_is_not_read(own_cache, tmp_path, capsys):
    from aslkb.knowledge.program import knowledge_base

    case = write(tmp_path, CASE)
    assert run(capsys, "query", case)[0] == 0
    poisoned = _poison(own_cache)
    knowledge_base.cache_clear()
    code, out, err = run(capsys, "query", case)
    assert code == 0 and "base_nvr = 2" in out
    assert f"aslkb: warning: the cache file {poisoned} does not carry this user's digest" in err
    assert "hostname" not in out + err
    assert b"#include" not in poisoned.read_bytes()  # rebuilt and rewritten


def test_a_cache_entry_forged_with_the_users_own_key_is_checked_again(own_cache, tmp_path, capsys):
    """Issue 37: with the user's key (a synced dotfile, a shared home) a forged
    entry passes the digest; its program text is checked for directives again."""
    from aslkb.base import diskcache
    from aslkb.knowledge.program import knowledge_base

    case = write(tmp_path, CASE)
    assert run(capsys, "query", case)[0] == 0
    kb = knowledge_base()
    forged = dict(kb.data, text=b'#include "/etc/hostname".\n' + kb.data["text"])
    diskcache.store("kb", kb.signature, {k: v for k, v in forged.items() if k != "annotations"})
    knowledge_base.cache_clear()
    diskcache._state.clear()
    code, out, err = run(capsys, "query", case)
    assert code == 0 and "base_nvr = 2" in out
    assert "holds an #include or #script: it is rebuilt from the rule files" in err
    assert "hostname" not in out + err.replace('"/etc/hostname"', "")


def test_a_cache_file_with_a_forged_header_or_another_key_is_not_read(own_cache, tmp_path, capsys):
    from aslkb.base import diskcache

    diskcache.store("demo", "sig", {"text": "a."})
    [path] = own_cache.glob("demo-*.marshal")
    assert diskcache.load("demo", "sig") == {"text": "a."}
    path.write_bytes(path.read_bytes()[:-1] + b"b")  # one byte changed
    assert diskcache.load("demo", "sig") is None
    diskcache.store("demo", "sig", {"text": "a."})
    os.rename(path, own_cache / path.name.replace("demo-sig", "demo-other"))  # another signature's name
    assert diskcache.load("demo", "other") is None


def test_the_key_lives_outside_the_cache_and_is_private(own_cache, tmp_path, monkeypatch, capsys):
    from aslkb.base import diskcache

    diskcache.store("demo", "sig", [1])
    key = tmp_path / "config" / "cache.key"
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_bytes()) == 32
    assert not [p for p in os.listdir(own_cache) if "key" in p]
    key.chmod(0o644)  # others could read it, so could have forged a file
    diskcache._state.clear()
    assert diskcache.load("demo", "sig") is None
    assert "cannot use the cache key" in capsys.readouterr().err
    monkeypatch.setenv("ASLKB_CACHE_KEY_FILE", str(own_cache / "cache.key"))
    monkeypatch.delenv(diskcache._QUIET)
    diskcache._state.clear()
    diskcache.store("demo", "sig", [1])
    assert "inside the cache folder" in capsys.readouterr().err


_STORE_AT = """
import sys, time
from aslkb.base import diskcache
time.sleep(max(0.0, float(sys.argv[1]) - time.time()))  # all at once
diskcache.store("demo" + sys.argv[2], "sig", int(sys.argv[2]))  # a kind each: KEEP is per kind
"""


def test_processes_starting_at_once_on_an_empty_cache_make_one_key(tmp_path, monkeypatch):
    """Six processes, no key yet: one makes it, under the cache folder's lock,
    and every one stores with it (issue 37: they made 3 or 4 keys)."""
    env = {**os.environ, "ASLKB_CACHE_DIR": str(tmp_path / "cache"),
           "ASLKB_CACHE_KEY_FILE": str(tmp_path / "config" / "cache.key")}
    for attempt in range(3):
        shutil.rmtree(tmp_path / "cache", ignore_errors=True)
        shutil.rmtree(tmp_path / "config", ignore_errors=True)
        start = time.time() + 1.5  # after every process has imported the cache
        processes = [subprocess.Popen([sys.executable, "-c", _STORE_AT, str(start), str(i)], env=env)
                     for i in range(6)]
        assert [process.wait(timeout=60) for process in processes] == [0] * 6
        names = sorted(p.name for p in (tmp_path / "cache").glob("demo*.marshal"))
        assert len(names) == 6 and len({name.rsplit("-", 1)[1] for name in names}) == 1, names
    from aslkb.base import diskcache

    monkeypatch.setenv("ASLKB_CACHE_DIR", env["ASLKB_CACHE_DIR"])
    monkeypatch.setenv("ASLKB_CACHE_KEY_FILE", env["ASLKB_CACHE_KEY_FILE"])
    diskcache._state.clear()
    try:
        assert [diskcache.load(f"demo{i}", "sig") for i in range(6)] == list(range(6))  # with the one key
    finally:
        diskcache._state.clear()


def test_this_users_files_made_with_a_key_that_lost_are_pruned(own_cache):
    from aslkb.base import diskcache

    diskcache.store("demo", "sig", 1)
    [kept] = own_cache.glob("demo-*.marshal")
    lost = own_cache / kept.name.replace(kept.name.rsplit("-", 1)[1], "0badc0de.marshal")
    lost.write_bytes(kept.read_bytes())  # a file of another key of this user's: never provable again
    other_kind = own_cache / "other-sig-0badc0de.marshal"
    other_kind.write_bytes(b"")
    diskcache.store("demo", "sig2", 2)
    assert not lost.exists() and kept.exists() and other_kind.exists()
    assert diskcache.load("demo", "sig") == 1 and diskcache.load("demo", "sig2") == 2


def test_an_unwritable_cache_folder_is_said_once_and_the_run_goes_on(own_cache, tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("ASLKB_CACHE_DIR", str(blocker / "cache"))  # cannot be made: a file is in the way
    first = write(tmp_path, CASE)
    other = write(tmp_path, CASE, "other.sit")
    code, out, err = run(capsys, "check", first, other)
    assert code == 0, out + err
    assert err.count("aslkb: warning: cannot write the cache folder") == 1, err
    assert "running without a cache" in err


def test_a_full_cache_folder_leaves_no_temporary_file(own_cache, tmp_path, monkeypatch, capsys):
    from aslkb.base import diskcache

    diskcache._key()  # the key is made before the disk fills
    _full_disk(monkeypatch, after=0)
    code, _, err = run(capsys, "query", write(tmp_path, CASE))
    assert code == 0 and err.count("aslkb: warning: cannot write the cache folder") == 1, err
    assert "No space left on device" in err
    assert not [p for p in os.listdir(own_cache) if not p.endswith(".marshal") and p != diskcache.LOCK]
    assert not list(own_cache.glob("kb-*"))


# --- programs from disk: only the shipped rules, and --domain through the same filter --

@pytest.mark.parametrize("text, said", [
    ('#include "/etc/hostname".\n', "1:1: #include is not allowed"),
    ('a("%"). #include "/etc/hostname".\n', "1:9: #include is not allowed"),  # '%' in a string is no comment
    ('% a comment\n#script (python)\nimport os\n#end.\n', "2:1: #script is not allowed"),
    ("a :- b(.\n", "syntax error"),
    ("a(X) :- not b(X).\n", "cannot ground the domain"),
    # clingo aborted the process on these (issue 37): refused before it reads them
    ("\ufeffscenario(night).\n", "1:1: a byte order mark outside a comment or a string"),
    ("% caf\u00e9 is fine in a comment\na(\"\u00bd\").\nb(\u00e9).\n", "3:3: '\u00e9' (U+00E9) outside a comment"),
])
def test_a_domain_program_passes_the_rule_files_filter(text, said, tmp_path, capsys):
    domain = tmp_path / "domain.lp"
    domain.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "diverge", "--domain", domain, "--examples", tmp_path / "out", "--limit", "1")
    assert code == 2, out + err
    assert err.startswith(f"aslkb: error: {domain}") and said in err, err
    assert "hostname" not in err.replace("/etc/hostname", "") and "internal error" not in err
    assert "<string>" not in err  # clingo's name for parsed text: the file is named instead (issue 37)


@pytest.mark.parametrize("text, said", [
    # issue 37: these ended in "internal error: MemoryError"; refused before the rule files are read
    ("n(1..100000000).\n", "1:3: interval 1..100000000 holds 100000000 values: a domain's intervals hold at most 100"),
    ("a.\n#const k = 5000000.\n", "2:12: number 5000000 is beyond what a domain may ground"),
    ("b(X) :- X = -2001.\n", "1:14: number 2001 is beyond what a domain may ground"),
])
def test_a_domain_that_would_ground_too_much_is_refused_at_its_number(text, said, tmp_path, capsys):
    domain = tmp_path / "domain.lp"
    domain.write_text(text, encoding="utf-8")
    start = time.monotonic()
    code, out, err = run(capsys, "diverge", "--domain", domain, "--limit", "1")
    assert code == 2 and out == ""
    assert err == f"aslkb: error: {domain}:{said}" + err.split(said, 1)[1], err
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("option", ["--max-nvr", "--max-range", "--max-light"])
@pytest.mark.parametrize("value", ["100000000", "21", "0", "-3"])
def test_a_scene_bound_beyond_the_games_is_refused(option, value, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["diverge", option, value])
    assert stopped.value.code == 2
    assert f"argument {option}: must be between 1 and 20" in capsys.readouterr().err


def test_a_domain_that_is_a_fifo_is_refused(tmp_path, capsys):
    domain = tmp_path / "domain.lp"
    os.mkfifo(domain)
    code, _, err = run(capsys, "diverge", "--domain", domain, "--examples", tmp_path / "out")
    assert code == 2 and f"{domain}: is a FIFO (named pipe), not a regular file: a domain program" in err


def test_a_rule_file_with_an_include_behind_a_string_is_refused():
    from aslkb.base.errors import RuleFileError
    from aslkb.knowledge.reify import parse_file

    with pytest.raises(RuleFileError, match=r"x.lp:2:9: #include is not allowed in the knowledge base"):
        parse_file('a.\nb("%"). #include "/etc/hostname".\n', "x.lp")


@pytest.mark.parametrize("argv", [["query", "F"], ["check", "F"], ["odds", "F", "q"], ["explain", "F", "q"],
                                  ["diff", "F"], ["diverge"], ["invariants"], ["lint"], ["impact", "F"],
                                  ["rules"], ["coverage"]])
def test_every_solving_command_takes_a_timeout(argv):
    from aslkb.cli.main import _parser

    assert _parser(argv[0]).parse_args([*argv, "--timeout", "2.5"]).timeout == 2.5


def test_diverge_stops_at_its_timeout(tmp_path):
    case = write(tmp_path, CASE)
    done = subprocess.run([sys.executable, "-m", "aslkb", "diverge", "--timeout", "0.01",
                           "--examples", str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 2 and "timed out after 0.01 seconds" in done.stderr
    assert case.exists()


# --- values that look like options never reach another program as options -------------

def test_impact_against_an_option_like_revision_is_refused_and_writes_nothing(tmp_path, capsys, monkeypatch):
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    monkeypatch.chdir(ROOT)
    case = write(tmp_path, CASE)
    for revision in (f"--output={victim}", "-o", f"--remote={tmp_path}"):
        code, _, err = run(capsys, "impact", case, f"--against={revision}")
        assert code == 2 and f"--against '{revision}': not a git revision" in err, err
    assert victim.read_text() == "precious\n"


def test_impact_against_a_revision_that_is_no_commit_is_named(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, _, err = run(capsys, "impact", write(tmp_path, CASE), "--against", "no-such-branch-xyz")
    assert code == 2 and "--against 'no-such-branch-xyz': no such commit" in err


# --- positions: the offending character, named, at its own column -----------------------

@pytest.mark.parametrize("text, line, column, said", [
    ("scenario night\0 nvr 2\n", 1, 15, "control character U+0000 NULL is not allowed"),
    ("scenario night\u202e nvr 2\n", 1, 15, "invisible character U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("scenario night\u200b nvr 2\n", 1, 15, "invisible character U+200B ZERO WIDTH SPACE"),
    ("scenario night nvr 2\nunit G1 ger\u200dman squad\n", 2, 12, "U+200D ZERO WIDTH JOINER"),
    ("# a comment \u202e hiding\nscenario night\n", 1, 13, "U+202E RIGHT-TO-LEFT OVERRIDE"),  # comments too
    ("scenario night\x1b[31m nvr 2\n", 1, 15, "control character U+001B ESCAPE"),
    ("scenario night\x0cnvr 2\n", 1, 15, "U+000C FORM FEED"),
    ("scenario night\u2028nvr 2\n", 1, 15, "U+2028 LINE SEPARATOR"),
    ("scenario night nvr 2\n\ufeffquery base_nvr\n", 2, 1, "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    ("# comment\r scenario day\nscenario night\n", 1, 10, "U+000D CARRIAGE RETURN without a line feed"),
    ("scenario night\rnvr 2\n", 1, 15, "U+000D CARRIAGE RETURN without a line feed"),
])
def test_control_and_invisible_characters_are_named_at_their_own_column(text, line, column, said):
    from aslkb.base.errors import SituationError
    from aslkb.parser import parse

    with pytest.raises(SituationError) as info:
        parse(text, "f.sit")
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    assert said in info.value.message


def test_a_bare_cr_in_a_comment_does_not_end_it_but_is_refused(tmp_path, capsys):
    path = tmp_path / "cr.sit"
    path.write_bytes(b"scenario night nvr 2\n# old: \rscenario day\nquery base_nvr\n")
    code, out, err = run(capsys, "query", path)
    assert code == 2 and err.startswith(f"{path}:2:8: character U+000D CARRIAGE RETURN") and not out


def test_crlf_line_ends_and_a_leading_byte_order_mark_are_still_read(tmp_path, capsys):
    path = tmp_path / "crlf.sit"
    path.write_bytes(b"\xef\xbb\xbfscenario night nvr 2\r\n# x\r\nexpect base_nvr = 2\r\n")
    assert run(capsys, "check", path)[0] == 0


def test_an_invisible_character_in_a_command_line_query_is_the_command_lines(tmp_path, capsys):
    code, _, err = run(capsys, "odds", write(tmp_path, CASE), "base\u200b_nvr")
    assert code == 2 and "query 'base\u200b_nvr': invisible character U+200B ZERO WIDTH SPACE" in err


@pytest.mark.parametrize("command", [["odds"], ["explain"]])
def test_a_line_break_in_a_command_line_query_adds_no_statement(command, tmp_path, capsys):
    """Issue 37: `odds F $'base_nvr\\nroll nvr_table colored 1 white 1'` answered from the injected roll."""
    case = write(tmp_path, "scenario night\nquery base_nvr\n")
    code, out, err = run(capsys, *command, case, "base_nvr\nroll nvr_table colored 1 white 1")
    assert code == 2 and out == "" and "a query argument is one line" in err, err


# --- conflicts name every statement involved -------------------------------------------

@pytest.mark.parametrize("text, here, first", [
    ("roll recon 2\nscenario night\nroll recon 3\n", "3:6: roll recon is given twice", "1:6"),
    ("wind_change 1 breeze\nwind_change 1 none\n", "2:13: wind_change 1 is given twice", "1:13"),
    ("unit G1 german squad\nunit R1 russian squad\nlos G1 R1 clear\nlos G1 R1 blocked\n",
     "4:11: los G1 R1 is given twice with different values", "3:11"),
    ("hex 3G6 woods level 1\nhex 3G6 woods level 2\n", "2:21: hex 3G6 level is given twice", "1:21"),
    ("interpretation nvr_row5_as_row6\ninterpretation nvr_row5_as_row6 off\n",
     "2:33: interpretation nvr_row5_as_row6 is switched off here but on at line 1", "1:16"),
    ("edition asl\nedition sl4\n", "2:9: edition is given twice", "1:9"),
    ("unit G1 german squad\nunit G1 russian squad\n", "2:6: 'G1' is already defined", "1:6"),
    ("expect cloud_cover = none 1/2, none 1/2\n", "1:32: 'none' is given twice in this distribution", "1:22"),
])
def test_a_duplicate_names_both_statements(text, here, first, tmp_path, capsys):
    path = write(tmp_path, text)
    code, out, err = run(capsys, "query", path)
    assert code == 2 and not out
    lines = err.rstrip("\n").split("\n")
    assert len(lines) == 2, err
    assert lines[0].startswith(f"{path}:{here}"), err
    assert lines[1].startswith(f"{path}:{first}: note: first "), err


def test_interpretations_that_exclude_each_other_name_both_lines(tmp_path, capsys):
    path = write(tmp_path, "interpretation nvr_row5_as_row6\ninterpretation nvr_row5_as_row34\n")
    code, _, err = run(capsys, "query", path)
    assert code == 2
    assert err.splitlines() == [
        f"{path}:2:16: interpretations 'nvr_row5_as_row34' and 'nvr_row5_as_row6' exclude each other; "
        "switch one off (interpretation nvr_row5_as_row6 off, or --without nvr_row5_as_row6)",
        f"{path}:1:16: note: interpretation nvr_row5_as_row6 is switched on here"], err


def test_a_solver_level_conflict_names_every_statement(tmp_path, capsys):
    path = write(tmp_path, "scenario night nvr 2\nunit G1 german squad\nunit R1 russian squad\n"
                           "range G1 R1 2\n# between\n  range R1 G1 3\nquery base_nvr\n")
    code, _, err = run(capsys, "query", path)
    assert code == 2
    first, note = err.rstrip("\n").split("\n")
    assert first.startswith(f"{path}:6:3: inconsistent situation: these statements conflict: ")
    assert note == f"{path}:4:1: note: in conflict with it: range G1 R1 2"


def test_the_notes_reach_check_and_junit(tmp_path, capsys):
    path = write(tmp_path, "roll recon 2\nroll recon 3\n")
    junit = tmp_path / "out.xml"
    code, out, _ = run(capsys, "check", path, "--junit-xml", junit)
    assert code == 2 and f"{path}:1:6: note: first given here" in out
    assert "note: first given here" in junit.read_text()


# --- Ctrl-C ---------------------------------------------------------------------------------

def _aslkb_with_sigint(disposition: str) -> list[str]:
    """The command that runs `python -m aslkb` with SIGINT set to `disposition`
    (SIG_DFL, SIG_IGN), which an exec keeps: set in a Python that then execs
    the same process (same pid) into aslkb, where a preexec_fn would run
    Python between fork and exec in a test process that may hold threads."""
    setup = (f"import os, signal, sys; signal.signal(signal.SIGINT, signal.{disposition}); "
             "signal.signal(signal.SIGHUP, signal.SIG_DFL); "
             "os.execv(sys.executable, [sys.executable, '-m', 'aslkb', *sys.argv[1:]])")
    return [sys.executable, "-c", setup]


def _interrupt(argv: list[str], after: float, cwd: Path, signum: int | None = None) -> subprocess.CompletedProcess | None:
    """Run `aslkb ARGV`, send SIGINT (or `signum`) after `after` seconds; None when it ended first.

    The child takes SIGINT as a terminal's Ctrl-C reaches it: a suite started
    in the background (`pytest &`, a CI step) ignores SIGINT, its children
    inherit that, and aslkb keeps to it (test_an_ignored_sigint_stays_ignored)."""
    import signal
    import time

    process = subprocess.Popen([*_aslkb_with_sigint("SIG_DFL"), *map(str, argv)], cwd=cwd,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(3000):  # until the interrupt watcher runs: the process's second thread
        if process.poll() is not None or len(os.listdir(f"/proc/{process.pid}/task")) >= 2:
            break
        time.sleep(0.01)
    time.sleep(after)
    if process.poll() is not None:
        process.communicate()
        return None
    process.send_signal(signal.SIGINT if signum is None else signum)
    out, err = process.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, process.returncode, out, err)


@pytest.mark.parametrize("signum, status, said", [
    (None, 130, "aslkb: interrupted\n"),  # Ctrl-C
    (getattr(__import__("signal"), "SIGHUP", None), 129, "aslkb: hung up\n"),  # the terminal closed (issue 37)
    (getattr(__import__("signal"), "SIGTERM", None), 143, "aslkb: terminated\n"),
], ids=["sigint", "sighup", "sigterm"])
def test_ctrl_c_during_check_update_ends_with_130_one_line_and_whole_snapshots(signum, status, said, tmp_path):
    cases = tmp_path / "cases"
    shutil.copytree(ROOT / "tests" / "cases" / "asl", cases)
    for golden in cases.rglob("*.golden.json"):
        golden.write_text('{"version": 1, "answers": []}\n')  # the old snapshots: whole, and recognisable
    interrupted = 0
    for after in (0.5, 1.5, 3.0):
        done = _interrupt(["check", "--update", cases], after, tmp_path, signum)
        if done is None:
            continue
        interrupted += 1
        assert done.returncode == status, done.stderr
        assert done.stderr == said, done.stderr
        assert not [p for p in cases.rglob("*") if p.name.endswith(".kb-tmp")]
        for golden in cases.rglob("*.golden.json"):
            json.loads(golden.read_text())  # old or new, never torn
    assert interrupted, "the check ended before any interrupt"


def test_ctrl_c_keeps_the_lines_already_printed_to_a_pipe(tmp_path):
    """stdout to a pipe is written in blocks: Ctrl-C after the first block
    still delivers every line printed before it (issue 37: os._exit dropped
    the block being filled, and the output ended inside a line)."""
    import signal

    cases = tmp_path / "cases"
    cases.mkdir()
    for i in range(600):  # `check -v` prints a line per file, about 24 KB in all
        shutil.copy(ROOT / "examples" / "first-night.sit", cases / f"night-{i:03}.sit")
    buffered = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}  # as a shell runs it
    process = subprocess.Popen([*_aslkb_with_sigint("SIG_DFL"), "check", "-v", str(cases)], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=buffered)
    first = os.read(process.stdout.fileno(), 1 << 20)  # the first block, once the buffer filled
    time.sleep(0.5)  # more lines printed meanwhile, into the next block
    if process.poll() is not None:
        process.communicate()
        pytest.skip("the check ended before the interrupt")
    process.send_signal(signal.SIGINT)
    rest, err = process.communicate(timeout=60)
    out = (first + rest).decode()
    assert process.returncode == 130 and err == b"aslkb: interrupted\n", err
    whole = subprocess.run([sys.executable, "-m", "aslkb", "check", "-v", str(cases)], cwd=tmp_path,
                           capture_output=True, text=True).stdout
    assert whole.startswith(out) and len(out) > len(first)
    assert out.endswith(" expectations\n")  # the last line printed is whole, not cut at a block's end


def test_ctrl_c_during_a_parallel_check_ends_its_workers_too(tmp_path):
    cases = tmp_path / "cases"
    shutil.copytree(ROOT / "tests" / "cases" / "asl", cases)
    for golden in cases.rglob("*.golden.json"):
        golden.unlink()  # every file on the parallel fast path
    done = _interrupt(["check", cases], 0.3, tmp_path)  # returns only once no worker holds its output open
    if done is None:
        pytest.skip("the check ended before the interrupt")
    assert done.returncode == 130 and done.stderr == "aslkb: interrupted\n" and "passed" not in done.stdout


def test_an_ignored_sigint_stays_ignored(tmp_path):
    """Started with SIGINT ignored (`nohup`, `cmd &` in a script), aslkb does
    not take it back (kb/base/interrupt.py install): the check runs to its end."""
    import signal
    import time

    process = subprocess.Popen([*_aslkb_with_sigint("SIG_IGN"), "check", ROOT / "tests" / "cases" / "asl"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(3000):  # until the exec into aslkb (SIGINT is ignored from there on)
        try:
            if process.poll() is not None or b"-m\0aslkb\0" in Path(f"/proc/{process.pid}/cmdline").read_bytes():
                break
        except OSError:  # it ended between the two
            break
        time.sleep(0.01)
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0 and err == "" and " 0 failed" in out, (out, err)


def test_ctrl_c_inside_a_long_grounding_ends_at_once(tmp_path):
    done = _interrupt(["diverge", "--examples", tmp_path / "out"], 0.8, tmp_path)
    if done is None:
        pytest.skip("diverge ended before the interrupt")
    assert done.returncode == 130 and done.stderr == "aslkb: interrupted\n", done.stderr
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr


def test_ctrl_c_in_process_is_130_with_one_line(tmp_path, capsys, monkeypatch):
    import aslkb.cli.main as cli

    def interrupted(_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_query", interrupted)
    code, out, err = run(capsys, "query", write(tmp_path, CASE))
    assert (code, out, err) == (130, "", "aslkb: interrupted\n")


def test_a_write_never_replaces_a_device_or_a_fifo_and_keeps_a_symlink(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(atomicwrite.WriteFailed, match="not a regular file"):
        atomicwrite.write_text(tmp_path, "x")  # a folder
    with pytest.raises(atomicwrite.WriteFailed, match=f"{fifo}: cannot write: a FIFO that no process is reading"):
        atomicwrite.write_text(fifo, "x")  # refused at once, not waited for
    atomicwrite.write_text("/dev/null", "x")  # a device is written in place, never replaced
    with pytest.raises(atomicwrite.WriteFailed, match="/dev/full: cannot write: No space left on device"):
        atomicwrite.write_text("/dev/full", "x")
    assert fifo.is_fifo() and Path("/dev/null").is_char_device() and Path("/dev/full").is_char_device()
    assert os.listdir(tmp_path) == ["pipe"]
    real = tmp_path / "real.md"
    real.write_text("old\n")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    atomicwrite.write_text(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"


def test_a_deeply_nested_snapshot_and_a_nul_in_a_name_are_refused_by_name(tmp_path, capsys):
    case = write(tmp_path, CASE)
    golden = tmp_path / "case.sit.golden.json"
    golden.write_text("[" * 100_000 + "]" * 100_000)
    code, out, _ = run(capsys, "check", case)
    assert code == 2 and f"{golden}: not a golden snapshot: JSON nested too deeply" in out
    code, _, err = run(capsys, "explain", case, "base_nvr", "--dot", "x\0y")
    assert code == 2 and err.endswith("aslkb: error: x\\0y: cannot write: a file name cannot hold a NUL character "
                                      "(any previous file is unchanged)\n"), err
    with pytest.raises(atomicwrite.WriteFailed, match="cannot hold a NUL"):
        atomicwrite.write_text("x\0y", "z")


# --- the fuzz campaign over the surroundings, a small bounded run ----------------------------

def test_a_bounded_campaign_over_goldens_caches_options_special_files_controls_links_and_domains():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import fuzz_surroundings
    finally:
        sys.path.remove(str(ROOT / "tools"))
    report = fuzz_surroundings.campaign(56, seed=5, max_seconds=150)
    assert set(report.trials) == {"golden", "cache", "option", "special", "controls", "links", "domain"}
    assert not report.failures, fuzz_surroundings.summary(report, 0)


def test_pytest_reports_a_fifo_or_a_corrupt_snapshot_among_the_cases_instead_of_hanging(tmp_path):
    write(tmp_path, CASE, "good.sit")
    os.mkfifo(tmp_path / "pipe.sit")
    write(tmp_path, CASE, "torn.sit")
    (tmp_path / "torn.sit.golden.json").write_text('{"version": 1, "answ')
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rf"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr  # the FIFO is passed over (pytest collects files)
    assert "torn.sit.golden.json: not a golden snapshot: invalid JSON" in done.stdout
    assert "1 passed" in done.stdout and "1 failed" in done.stdout


def test_an_os_error_without_a_file_name_leaves_no_empty_name(tmp_path, capsys, monkeypatch):
    import aslkb.cli.main as cli

    def failing(_args):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(cli, "_query", failing)
    code, _, err = run(capsys, "query", write(tmp_path, CASE))
    assert (code, err) == (2, "aslkb: error: Input/output error\n")


# --- coverage --source: read only, and only a real source text ---

@pytest.mark.parametrize("make, said", [
    (lambda d: d / "missing", "not a folder"),
    (lambda d: d, "no .txt file there"),
    (lambda d: (d / "notes.txt").write_text("\n" * 60_000 + "no paragraph here\n") and d,  # once quadratic
     "no rule paragraph in its .txt files"),
    (lambda d: os.mkfifo(d / "a.txt") or d, "is a FIFO (named pipe), not a regular file"),
])
def test_coverage_source_refuses_what_is_no_source_text_and_keeps_the_paragraph_list(make, said, tmp_path, capsys):
    """Issue 37: an empty or mistyped folder left 0 paragraphs (and lint 430
    problems until a reinstall), a FIFO hung it."""
    from aslkb.tools import paragraphs

    before = Path(paragraphs.__file__).read_bytes()
    folder = tmp_path / "source"
    folder.mkdir()
    code, out, err = run(capsys, "coverage", "--source", make(folder), "--cases", tmp_path)
    assert code == 2 and said in err, err
    assert Path(paragraphs.__file__).read_bytes() == before


def test_coverage_source_is_read_only_and_writes_the_list_only_where_asked(tmp_path, capsys):
    """Issue 37: `--source` rewrote the program's own kb/tools/paragraphs.py. It now
    makes this run's matrix from the folder's paragraphs, and `--paragraphs-out FILE`
    alone writes the list."""
    from aslkb.tools import paragraphs

    before = Path(paragraphs.__file__).read_bytes()
    source = tmp_path / "source"
    source.mkdir()
    (source / "e1.txt").write_text("1.1 NIGHT VISIBILITY RANGE: a paragraph heading\n", encoding="utf-8")
    code, out, err = run(capsys, "coverage", "--json", "--source", source, "--cases", tmp_path)
    assert code == 0 and "1 paragraphs from" in err, err
    assert [row["rule"] for row in json.loads(out)["paragraphs"]] == ["E1.1"]
    assert Path(paragraphs.__file__).read_bytes() == before
    written = tmp_path / "paragraphs.py"
    code, _, err = run(capsys, "coverage", "--source", source, "--paragraphs-out", written, "--cases", tmp_path)
    assert code == 0 and "('E1.1', 'NIGHT VISIBILITY RANGE'" in written.read_text(encoding="utf-8")
    assert Path(paragraphs.__file__).read_bytes() == before
    code, _, err = run(capsys, "coverage", "--paragraphs-out", written)
    assert code == 2 and "give --source too" in err
