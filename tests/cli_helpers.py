"""Helpers shared by the tests that drive the `aslkb` command in-process."""
from __future__ import annotations

from pathlib import Path

from aslkb.cli.main import main


def run(capsys, *argv) -> tuple[int, str, str]:
    """Run `aslkb ARGV...` in-process: (exit status, stdout, stderr)."""
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def write(folder: Path, text: str, name: str = "case.sit") -> Path:
    """A situation file in a test's folder."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path
