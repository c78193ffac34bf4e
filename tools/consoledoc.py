"""The console blocks of README.md and docs/*.md, run as they are written.

A console block (```console) shows commands (`$ aslkb ...`, `$ pytest ...`)
each followed by what it prints, stdout and stderr together. Every block of
every page is run, and what it shows must be what the commands print today:
tests/test_docs.py runs them, and `python tools/consoledoc.py --write`
rewrites the shown output after a change that moves it (a rule's line, a
citation). Without --write it lists the stale commands and exits 1.

- A block runs in the checkout, or, after a line `<!-- console: in FOLDER -->`
  (FOLDER relative to the checkout, e.g. docs/console/regression), in a
  temporary copy of FOLDER: the files the block names are there, and what its
  commands write (check --update, -o) is thrown away with the copy. A block
  that runs in the checkout may not write (its commands take no output option).
- A line `...` in the shown output, indented or not and maybe followed by a
  note in brackets (`    ... (the firer's elevation)`), stands for any lines
  (none included); a shown line ending in ` ...` for any line that starts
  with what precedes it.
  --write leaves a block with such elisions as it is and names it stale.
- A `# comment` after a command is the page's, not the command's.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRITES = {"-o", "--output", "--examples", "--report", "--update", "--svg", "--dot", "--plot", "--junit-xml"}
_BLOCK = re.compile(r"^(?: *<!-- console: in (?P<folder>\S+) -->\n)?(?P<indent> *)```console\n(?P<body>.*?)^(?P=indent)```",
                    re.M | re.S)
_PROGRAMS = ("aslkb", "pytest")


@dataclass
class Run:
    command: str  # as shown after `$ `, comment included
    shown: str  # the lines shown after it, each ending in a newline

    @property
    def words(self) -> list[str]:
        return shlex.split(self.command, comments=True)


@dataclass
class Block:
    page: Path
    line: int
    folder: str | None
    indent: str
    runs: list[Run] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found = []
    for match in _BLOCK.finditer(text):
        indent = match["indent"]
        body = "".join(line[len(indent):] if line.startswith(indent) else line
                       for line in match["body"].splitlines(keepends=True))
        block = Block(page, text.count("\n", 0, match.start("body")), match["folder"], indent)
        for chunk in re.split(r"^(?=\$ )", body, flags=re.M):
            if chunk.startswith("$ "):
                command, _, shown = chunk.partition("\n")
                block.runs.append(Run(command[2:], shown))
        found.append(block)
    return found


def problems(block: Block) -> list[str]:
    """What makes a block unrunnable: a command of another program, or one
    that would write into the checkout."""
    said = []
    for run in block.runs:
        words = run.words
        if not words or words[0] not in _PROGRAMS:
            said.append(f"{block.name}: `$ {run.command}`: only aslkb and pytest commands are run")
        elif block.folder is None and WRITES & {w.split("=")[0] for w in words}:
            said.append(f"{block.name}: `$ {run.command}` writes files: give the block a folder "
                        "(<!-- console: in FOLDER -->) or show it as a ```sh block")
    return said


def outputs(block: Block) -> list[str]:
    """What each command of the block prints today, run in order."""
    if block.folder is None:
        return [_run(run.words, ROOT) for run in block.runs]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "work"
        shutil.copytree(ROOT / block.folder, folder)
        return [_run(run.words, folder) for run in block.runs]


def _run(words: list[str], folder: Path) -> str:
    program = [sys.executable, "-m", words[0]]
    environment = {**os.environ, "PYTEST_ADDOPTS": "-p no:cacheprovider", "NO_COLOR": "1", "COLUMNS": "80"}
    environment.pop("PYTEST_XDIST_WORKER", None)  # a docs test under xdist runs a plain pytest
    done = subprocess.run([*program, *words[1:]], cwd=folder, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, env=environment)
    return done.stdout


def matches(shown: str, printed: str) -> bool:
    """Does the printed output fit the shown one, elisions (`...`) included?"""
    pattern = []
    for line in shown.splitlines():
        if _skips(line):
            pattern.append(r"(?:[^\n]*\n)*?")
        elif line.endswith(" ..."):
            pattern.append(re.escape(line[:-3]) + r"[^\n]*\n")
        else:
            pattern.append(re.escape(line) + r"\n")
    return re.fullmatch("".join(pattern), printed) is not None


def _skips(line: str) -> bool:
    return re.fullmatch(r" *\.\.\.(?: \(.*\))?", line) is not None


def elided(shown: str) -> bool:
    return any(_skips(line) or line.endswith(" ...") for line in shown.splitlines())


def _rewritten(block_text: str, block: Block, printed: list[str]) -> str:
    """The block's body with each command's shown output replaced by today's."""
    body = "".join(f"$ {run.command}\n{now}" for run, now in zip(block.runs, printed))
    return "".join(block.indent + line if line.strip() else line for line in body.splitlines(keepends=True))


def main(argv: list[str]) -> int:
    write = "--write" in argv
    stale, failing = [], []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        pieces, at = [], 0
        for block, match in zip(blocks(page), _BLOCK.finditer(text)):
            if said := problems(block):
                failing += said
                continue
            printed = outputs(block)
            if all(matches(run.shown, now) for run, now in zip(block.runs, printed)):
                continue
            if not write or any(elided(run.shown) for run in block.runs):
                stale.append(block)
                continue
            pieces += [text[at:match.start("body")], _rewritten(match["body"], block, printed)]
            at = match.end("body")
            print(f"rewritten: {block.name}")
        if pieces:
            page.write_text("".join(pieces) + text[at:], encoding="utf-8")
    for block in stale:
        print(f"stale{' (elided: mend it by hand)' if write else ''}: {block.name}: "
              + "; ".join(f"$ {run.command}" for run in block.runs))
    for said in failing:
        print(said)
    return 1 if failing or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
