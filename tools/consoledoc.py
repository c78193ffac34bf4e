"""Rewrite the output of every `$ aslkb ...` line in the console blocks of
the pages tests/test_docs.py runs in full, from a run of the command today:
`python tools/consoledoc.py --write` after a change that moves what a page
shows (a rule's line, a citation). Without --write it lists the commands
whose shown output is stale and exits 1 if there are any. A command that
writes files is left as it stands (the test never runs one)."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "docs" / "tutorial.md", ROOT / "docs" / "answers.md", ROOT / "docs" / "editions.md"]
WRITES = {"-o", "--output", "--examples", "--report", "--update", "--svg", "--dot", "--plot", "--junit-xml"}


def _run(command: str) -> str:
    done = subprocess.run([sys.executable, "-m", "aslkb", *shlex.split(command)], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return done.stdout


def _block(block: str, stale: list[str]) -> str:
    chunks = re.split(r"^(?=\$ )", block, flags=re.M)
    out = []
    for chunk in chunks:
        if chunk.startswith("$ aslkb "):
            line, _, shown = chunk.partition("\n")
            command = line[len("$ aslkb "):]
            if not WRITES & {word.split("=")[0] for word in shlex.split(command)}:
                now = _run(command)
                if now != shown:
                    stale.append(command)
                    chunk = f"{line}\n{now}"
        out.append(chunk)
    return "".join(out)


def main(argv: list[str]) -> int:
    write = "--write" in argv
    stale: list[str] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        new = re.sub(r"(^```console\n)(.*?)(^```)", lambda m: m[1] + _block(m[2], stale) + m[3], text,
                     flags=re.M | re.S)
        if write and new != text:
            page.write_text(new, encoding="utf-8")
    for command in stale:
        print(f"{'rewritten' if write else 'stale'}: aslkb {command}")
    return 1 if stale and not write else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
