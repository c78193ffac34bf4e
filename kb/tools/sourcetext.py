"""The rule paragraphs of the source text, by full rule id.

The five source files (see the project's ruletext INDEX) print rule numbers
without their chapter letter. A paragraph starts a line with its number and
a space: "1.53 STRAYING6: At the start ...", "12.122 CONCEALMENT dr: ...",
" 49.1 During night scenarios ...". Extraction:

- a line that starts (after spaces) with `N.N...` followed by a space and at
  least three more characters is a paragraph; this drops the page-header
  fragments "7.7" and "7.7 A" of the A7 file and the continuation
  "11.74-.761)." of the F11 file (no space after the number);
- the chapter number gives the full id: 1 -> E1, 7 -> A7, 12 -> A12,
  11 -> F11, 49 -> SL 49 (from the file's section in the INDEX);
- the title is the heading before the first colon when it is written in
  capitals ("STRAYING"), with the footnote numbers fused into words removed
  ("STRAYING6" -> "STRAYING"); the SL text has no headings;
- a paragraph that starts inside a line is found only where the extraction
  kept its bold heading: "... FG. **7.55 MANDATORY FG:** If Good Order ...";
- a number met twice keeps its first paragraph.

The ids and titles are kept in kb/tools/paragraphs.py (no rule text), so that an
installed knowledge base knows them without the source files. `aslkb coverage
--source DIR` reads a source folder's paragraphs for one run, and writes that
module only where `--paragraphs-out FILE` says.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from aslkb.base.atomicwrite import write_text
from aslkb.base.errors import UsageError
from aslkb.base.filecheck import read_regular
from aslkb.tools.paragraphs import PARAGRAPHS, REFERENCES

# chapter number as printed -> the full id's prefix
CHAPTERS = {"1": "E1", "7": "A7", "11": "F11", "12": "A12", "49": "SL 49"}
SECTIONS = ("E1", "A7", "A12", "F11", "SL 49")

_PARAGRAPH = re.compile(r"(?m)^[^\S\n]*(?P<chapter>\d{1,2})\.(?P<rest>\d+)[^\S\n]+(?P<text>\S.{2,})$")
_INLINE = re.compile(r"\*\*(?P<chapter>\d{1,2})\.(?P<rest>\d+)\s+(?P<text>[^*]+?):?\*\*")


@dataclass(frozen=True)
class Paragraph:
    rule_id: str  # "E1.53", "SL 49.23"
    title: str  # "STRAYING", or "" where the text has no heading
    source: str  # the source file's name
    line: int

    @property
    def section(self) -> str:
        return section_of(self.rule_id)


def section_of(rule_id: str) -> str:
    """E1.53 -> E1, SL 49.23 -> SL 49, A12.122 -> A12."""
    return rule_id.split(".")[0]


def source_texts(folder: str) -> list[tuple[str, str]]:
    """(name, text) of each .txt file of the folder, in name order: regular
    files only, each within the size limit (a FIFO or a link to /dev/zero
    there is refused, not read forever)."""
    if not os.path.isdir(folder):
        raise UsageError(f"--source {folder}: not a folder (the folder of the source text's .txt files)")
    names = sorted(name for name in os.listdir(folder) if name.endswith(".txt"))
    if not names:
        raise UsageError(f"--source {folder}: no .txt file there (the source text's files end in .txt)")
    texts = []
    for name in names:
        text = read_regular(os.path.join(folder, name), "source text file").decode("utf-8", "replace")
        texts.append((name, text.replace("\r\n", "\n").replace("\r", "\n")))  # as a text-mode read gives it
    return texts


def extract(folder: str) -> list[Paragraph]:
    """Every paragraph of the .txt files of a folder, in file order."""
    return _paragraphs(source_texts(folder))


def _paragraphs(texts: list[tuple[str, str]]) -> list[Paragraph]:
    found: dict[str, Paragraph] = {}
    for name, text in texts:
        for number, line in enumerate(text.split("\n"), start=1):
            match = _PARAGRAPH.match(line)
            inline = [m for m in _INLINE.finditer(line) if not match or m.start() > 0]
            for found_match in ([match] if match else []) + inline:
                if found_match["chapter"] not in CHAPTERS:
                    continue
                rule_id = f"{CHAPTERS[found_match['chapter']]}.{found_match['rest']}"
                title = _title(found_match["text"] + ":")
                found.setdefault(rule_id, Paragraph(rule_id, title, name, number))
    return list(found.values())


_REFERENCE = re.compile(r"(?<![\w.])(?P<letter>[A-Z]?)(?P<chapter>\d{1,2})\.(?P<rest>\d+)")


def references(folder: str) -> list[str]:
    """Rule ids the text refers to, as "(11.2)" or "(A15.431)": a bare number of
    the file's own chapter gets that chapter's letter; the SL file keeps its own."""
    return _references(source_texts(folder))


def _references(texts: list[tuple[str, str]]) -> list[str]:
    found: set[str] = set()
    for _, text in texts:
        own = {m["chapter"] for m in _PARAGRAPH.finditer(text) if m["chapter"] in CHAPTERS}
        for match in _REFERENCE.finditer(text):
            if match["letter"]:
                found.add(f"{match['letter']}{match['chapter']}.{match['rest']}")
            elif match["chapter"] in own:
                found.add(f"{CHAPTERS[match['chapter']]}.{match['rest']}")
    return sorted(found)


def _title(text: str) -> str:
    head = text.split(":", 1)[0] if ":" in text[:60] else text.split(" [", 1)[0][:40]
    words = head.split()
    if not words or not all(_capital(w) for w in words):
        return ""
    return " ".join(re.sub(r"(?<=[A-Z)])\d+$", "", w) for w in words)


def _capital(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters) or word in ("&", "/", "dr", "DR")


def write_module(paragraphs: list[Paragraph], path: str, referenced: list[str] = ()) -> None:
    """kb/tools/paragraphs.py: the extracted ids and titles as Python data."""
    lines = ['"""The rule paragraphs of the source text: generated by `aslkb coverage --source DIR --paragraphs-out FILE`',
             '(kb/tools/sourcetext.py says how); ids and headings only, no rule text."""',
             "", "PARAGRAPHS = ("]
    lines += [f"    ({p.rule_id!r}, {p.title!r}, {p.source!r}, {p.line})," for p in paragraphs]
    lines += [")", "", "# rule ids the text refers to (\"(11.2)\", \"(A15.431)\") without their paragraph",
              "REFERENCES = frozenset({"]
    lines += [f"    {r!r}," for r in referenced if r not in {p.rule_id for p in paragraphs}]
    lines += ["})", ""]
    write_text(path, "\n".join(lines))


def paragraphs() -> list[Paragraph]:
    return [Paragraph(*row) for row in PARAGRAPHS]


def known_ids() -> set[str]:
    """Every paragraph id, and the sections themselves (E1, SL 49, ...)."""
    return {p.rule_id for p in paragraphs()} | set(SECTIONS)


def referenced_ids() -> frozenset[str]:
    """Ids the text refers to but whose paragraph it does not hold."""
    return REFERENCES


def extracted(folder: str) -> tuple[list[Paragraph], list[str]]:
    """The paragraphs of the source files in a folder, and the ids they refer
    to without holding them; read only (kb/tools/paragraphs.py is written
    where `coverage --paragraphs-out` says, by write_module)."""
    texts = source_texts(folder)  # read once
    found = _paragraphs(texts)
    if not found:  # a mistyped folder once left lint 430 problems until a reinstall
        raise UsageError(f"--source {folder}: no rule paragraph in its .txt files")
    return found, _references(texts)
