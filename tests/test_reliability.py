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
from pathlib import Path

import pytest

from aslkb import atomicwrite
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
