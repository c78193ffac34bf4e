"""`aslkb impact`: which cases change their answers under an interpretation,
or under the rules of another revision, and the rules responsible.

The corpus runs twice: as it is (the defaults, the files' own
`interpretation` lines), then with `--interpretation`/`--without` added; or
with the current knowledge base and with the rules/ and queries/ of a git
revision, extracted from git's objects into a temporary folder and built with
`aslkb.knowledge.program.build(rule_files(root), root)`. Every `query` and `expect`
line whose answer (value, distribution, or undecided reasons) differs is
listed with both answers and the rules behind each.

Both runs answer the values only, in batches (kb/tools/corpus.py,
run_corpus_values); only the files whose answers change are then solved
again, on both sides, with the rules behind each answer. An interpretation
changes a handful of files, so citing them costs little, where citing
every file twice cost the whole run (a minute and a half for tests/cases,
now about a fifth of it).
"""
from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass

from aslkb.base.atomicwrite import write_bytes
from aslkb.base.errors import UsageError
from aslkb.base.progress import Track, untracked
from aslkb.base import root
from aslkb.knowledge.program import build, knowledge_base
from aslkb.knowledge.rulefiles import rule_files
from aslkb.tools.corpus import answers_of, run_corpus, run_corpus_values
from aslkb.tools.golden import answer_record, answer_text, responsible


@dataclass
class Change:
    path: str
    line: int
    label: str  # "drm A1 night_lv"
    old: dict  # answer records (kb/tools/golden.py)
    new: dict
    responsible: list[str]  # rule ids behind one answer and not the other
    also: tuple[int, ...] = ()  # other lines of the file asking the same query, with the same change

    def to_json(self) -> dict:
        return {"file": self.path, "line": self.line, "query": self.label, "old": self.old, "new": self.new,
                "responsible": self.responsible, "also": list(self.also)}

    def text(self) -> str:
        """`FILE:LINE: QUERY: old -> new (rules responsible)`."""
        also = f" (also line{'s' if len(self.also) > 1 else ''} {', '.join(map(str, self.also))})" \
            if self.also else ""
        responsible = f" ({', '.join(self.responsible)})" if self.responsible else ""
        return f"{self.path}:{self.line}: {self.label}: {_shown(self.old)} -> {_shown(self.new)}{responsible}{also}"


def _shown(record: dict | None) -> str:
    if record is None:
        return "(no such answer)"
    if "error" in record:
        return f"the file cannot be run: {record['error']}"
    return answer_text(record, rules=False)


def _answers(runs) -> dict[tuple[str, int, str], dict]:
    found = {}
    for run in runs:
        if run.result is None:
            found[(str(run.path), 0, "the file")] = {"error": run.error or "", "rules": []}
            continue
        for line, label, answer in answers_of(run.result):
            found[(str(run.path), line, label)] = answer_record(answer)
    return found


def _decided_part(record: dict | None) -> tuple:
    if record is None or "error" in record:
        return (None, record and record["error"])
    return (repr(record["value"]), repr(record["distribution"]), tuple(record["undecided"]))


def compare_runs(before, after) -> list[Change]:
    """Each answer that changes, once: a `query` line and an `expect` line of
    the same file asking the same query with the same change are one change,
    reported at the later (the expect) line."""
    old, new = _answers(before), _answers(after)
    merged: dict[tuple, Change] = {}
    for key in sorted(set(old) | set(new), key=lambda k: (k[0], k[1])):
        a, b = old.get(key), new.get(key)
        if _decided_part(a) == _decided_part(b):
            continue
        path, line, label = key
        query = label.split(" ", 1)[1] if label.startswith(("query ", "expect ")) else label
        errors = (a and "error" in a) or (b and "error" in b)
        change = Change(path, line, query, a, b, [] if errors else responsible(a, b))
        same = (path, query, _decided_part(a), _decided_part(b))
        if same in merged:
            first = merged[same]
            change.also = (*first.also, first.line)
        merged[same] = change
    return sorted(merged.values(), key=lambda c: (c.path, c.line))


def changed_files(before, after) -> list[str]:
    """The files with an answer that differs between two lists of Runs, in order."""
    old, new = _answers(before), _answers(after)
    changed = {key[0] for key in set(old) | set(new) if _decided_part(old.get(key)) != _decided_part(new.get(key))}
    return sorted(changed)


def impact_settings(paths: list[str], edition: str | None, switch_on: tuple[str, ...],
                    switch_off: tuple[str, ...], track: Track = untracked) -> tuple[list[Change], str]:
    """`track`: the command's progress over the cases of each run."""
    # switching on one of a pair switches off the other when it is on by default
    known = knowledge_base().interpretations
    switch_off = tuple(dict.fromkeys([*switch_off, *(other for name in switch_on if name in known
                                                      for other in known[name].excludes
                                                      if other in known and known[other].default)]))
    changing = dict(edition=edition, switch_on=switch_on, switch_off=switch_off)
    changed = changed_files(run_corpus_values(paths, edition=edition, track=track, unit="cases, first run"),
                            run_corpus_values(paths, **changing, track=track, unit="cases, second run"))
    before = list(run_corpus(changed, edition=edition, track=track, unit="changed cases cited, first run"))
    after = list(run_corpus(changed, **changing, track=track, unit="changed cases cited, second run"))
    label = " ".join([*(f"--interpretation {n}" for n in switch_on), *(f"--without {n}" for n in switch_off)])
    return compare_runs(before, after), f"as the files say -> with {label}"


def git_root() -> str:
    """The git work tree of the aslkb checkout the current folder is in."""
    if root.kb_root() == root.INSTALLED and not root.is_checkout(root.INSTALLED):  # an installed package has no revisions
        raise UsageError("--against compares with the rules of a git revision of an aslkb checkout, and the "
                         "current folder is in none (the installed knowledge base is read): run it in a clone")
    try:
        out = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    except FileNotFoundError:
        raise UsageError("--against reads the revision with git, and there is no `git` program on PATH") from None
    if out.returncode != 0:
        raise UsageError("--against needs a git checkout: " + (out.stderr.strip() or "not a git repository"))
    return out.stdout.strip()


def resolve_revision(top: str, revision: str) -> str:
    """The commit a revision names, as a full hash: only that reaches `git ls-tree`.

    A revision that looks like an option (`--output=/tmp/x`) is refused here,
    and `--end-of-options` keeps git from reading it as one anyway."""
    if revision.startswith("-") or not revision.strip():
        raise UsageError(f"--against '{revision}': not a git revision (a revision does not start with '-')")
    out = subprocess.run(["git", "-C", top, "rev-parse", "--verify", "--quiet", "--end-of-options",
                          revision + "^{commit}"], capture_output=True, text=True)
    commit = out.stdout.strip()
    if out.returncode != 0 or len(commit) not in (40, 64) or not all(c in "0123456789abcdef" for c in commit):
        raise UsageError(f"--against '{revision}': no such commit in {top}")
    return commit


def knowledge_base_at(revision: str, folder: str):
    """The knowledge base of rules/ and queries/ at a git revision, built in `folder`."""
    top = git_root()
    extract_tree(top, resolve_revision(top, revision), ("rules", "queries"), folder)
    return build(rule_files(folder), folder)


def extract_tree(top: str, revision: str, parts: tuple[str, ...], folder: str) -> int:
    """Write the regular files under `parts` at `revision` into `folder`; the count.

    Read from git's own objects (ls-tree, then cat-file --batch), not from a
    tar archive: no Python version's tarfile filter is needed, symbolic links
    and submodules are skipped, and a path that would leave the folder is
    refused. Returns the number of files written."""
    listing = subprocess.run(["git", "-C", top, "ls-tree", "-r", "-z", "--full-tree", revision, "--", *parts],
                             capture_output=True)
    if listing.returncode != 0:
        raise UsageError(f"git ls-tree {revision}: {listing.stderr.decode(errors='replace').strip()}")
    wanted: list[tuple[str, str]] = []  # (object id, path)
    for entry in filter(None, listing.stdout.split(b"\0")):
        meta, _, raw_path = entry.partition(b"\t")
        mode, kind, object_id = meta.decode().split()
        if kind != "blob" or mode not in ("100644", "100755"):
            continue  # a symbolic link or a submodule: no rule file is one
        wanted.append((object_id, safe_relative(raw_path.decode("utf-8", errors="surrogateescape"))))
    if not wanted:
        return 0
    blobs = subprocess.run(["git", "-C", top, "cat-file", "--batch"], capture_output=True,
                           input="".join(f"{object_id}\n" for object_id, _ in wanted).encode())
    if blobs.returncode != 0:
        raise UsageError(f"git cat-file {revision}: {blobs.stderr.decode(errors='replace').strip()}")
    data, at = blobs.stdout, 0
    for _, path in wanted:
        header_end = data.index(b"\n", at)
        size = int(data[at:header_end].split()[2])
        content = data[header_end + 1:header_end + 1 + size]
        at = header_end + 1 + size + 1  # the content, then a newline
        target = os.path.join(folder, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        write_bytes(target, content)
    return len(wanted)


def safe_relative(path: str) -> str:
    """A repository path as a relative path that stays inside its folder."""
    parts = path.split("/")
    if not path or path.startswith("/") or any(p in ("", ".", "..") for p in parts) or "\\" in path:
        raise UsageError(f"git tree path {path!r} would leave the folder it is extracted into")
    return os.path.join(*parts)


def impact_against(paths: list[str], revision: str, edition: str | None,
                   track: Track = untracked) -> tuple[list[Change], str]:
    """`track`: the command's progress over the cases of each run."""
    with tempfile.TemporaryDirectory(prefix="aslkb-impact-") as folder:
        old_kb = knowledge_base_at(revision, folder)
        changed = changed_files(
            run_corpus_values(paths, kb=old_kb, edition=edition, track=track, unit=f"cases, rules of {revision}"),
            run_corpus_values(paths, edition=edition, track=track, unit="cases, rules as they are"))
        before = list(run_corpus(changed, kb=old_kb, edition=edition, track=track,
                                 unit=f"changed cases cited, rules of {revision}"))
    after = list(run_corpus(changed, edition=edition, track=track, unit="changed cases cited, rules as they are"))
    return compare_runs(before, after), f"rules of {revision} -> the rules as they are"


def impact_text(changes: list[Change], label: str) -> str:
    lines = [f"impact: {label}"]
    lines += [change.text() for change in changes]
    files = len({c.path for c in changes})
    lines.append(f"{len(changes)} answer{'s' if len(changes) != 1 else ''} changed in {files} "
                 f"file{'s' if files != 1 else ''}")
    return "\n".join(lines)
