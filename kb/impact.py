"""`aslkb impact`: which cases change their answers under an interpretation,
or under the rules of another revision, and the rules responsible.

The corpus runs twice: as it is (the defaults, the files' own
`interpretation` lines), then with `--interpretation`/`--without` added; or
with the current knowledge base and with the rules/ and queries/ of a git
revision, extracted by `git archive` into a temporary folder and built with
`aslkb.program.build(rule_files(root), root)`. Every `query` and `expect`
line whose answer (value, distribution, or undecided reasons) differs is
listed with both answers and the rules behind each.
"""
from __future__ import annotations

import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from io import BytesIO

from .golden import answer_record


@dataclass
class Change:
    path: str
    line: int
    label: str  # "query drm A1 night_lv"
    old: dict  # answer records (kb/golden.py)
    new: dict
    responsible: list[str]  # rule ids behind one answer and not the other

    def to_json(self) -> dict:
        return {"file": self.path, "line": self.line, "query": self.label, "old": self.old, "new": self.new,
                "responsible": self.responsible}


def _shown(record: dict | None) -> str:
    if record is None:
        return "(no such answer)"
    if "error" in record:
        return f"the file cannot be run: {record['error']}"
    if record.get("distribution"):
        value = ", ".join(f"{k} {v}" for k, v in record["distribution"].items())
    elif record["value"] is None:
        value = "undecided: " + "; ".join(record["undecided"])
    else:
        from .render import value_text

        value = value_text(record["value"])
    extra = f" [{', '.join(record['rules'])}]" if record["rules"] else ""
    if record.get("interpretations"):
        extra += f" (interpretation {', '.join(record['interpretations'])})"
    return value + extra


def _answers(runs) -> dict[tuple[str, int, str], dict]:
    from .corpus import answers_of

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
    old, new = _answers(before), _answers(after)
    changes = []
    for key in sorted(set(old) | set(new), key=lambda k: (k[0], k[1])):
        a, b = old.get(key), new.get(key)
        if _decided_part(a) == _decided_part(b):
            continue
        rules_a, rules_b = set(a["rules"] if a else []), set(b["rules"] if b else [])
        responsible = sorted(rules_a ^ rules_b) or sorted(rules_a | rules_b)
        if (a and "error" in a) or (b and "error" in b):
            changes.append(Change(key[0], key[1], key[2], a, b, []))
            continue
        if b and b.get("interpretations"):
            responsible += [f"interpretation {n}" for n in b["interpretations"] if not a or n not in a.get(
                "interpretations", [])]
        if a and a.get("interpretations"):
            responsible += [f"interpretation {n}" for n in a["interpretations"] if not b or n not in b.get(
                "interpretations", [])]
        changes.append(Change(key[0], key[1], key[2], a, b, responsible))
    return changes


def impact_settings(paths: list[str], edition: str | None, switch_on: tuple[str, ...],
                    switch_off: tuple[str, ...]) -> tuple[list[Change], str]:
    from .corpus import run_corpus
    from .program import knowledge_base

    # switching on one of a pair switches off the other when it is on by default
    known = knowledge_base().interpretations
    switch_off = tuple(dict.fromkeys([*switch_off, *(other for name in switch_on if name in known
                                                      for other in known[name].excludes
                                                      if other in known and known[other].default)]))
    before = list(run_corpus(paths, edition=edition))
    after = list(run_corpus(paths, edition=edition, switch_on=switch_on, switch_off=switch_off))
    label = " ".join([*(f"--interpretation {n}" for n in switch_on), *(f"--without {n}" for n in switch_off)])
    return compare_runs(before, after), f"as the files say -> with {label}"


def git_root() -> str:
    out = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    if out.returncode != 0:
        from .ask import UsageError

        raise UsageError("--against needs a git checkout: " + (out.stderr.strip() or "not a git repository"))
    return out.stdout.strip()


def resolve_revision(top: str, revision: str) -> str:
    """The commit a revision names, as a full hash: only that reaches `git archive`.

    A revision that looks like an option (`--output=/tmp/x`) is refused here,
    and `--end-of-options` keeps git from reading it as one anyway."""
    from .ask import UsageError

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
    from .ask import UsageError
    from .program import build
    from .rulefiles import rule_files

    top = git_root()
    commit = resolve_revision(top, revision)
    archive = subprocess.run(["git", "-C", top, "archive", "--format=tar", commit, "--", "rules", "queries"],
                             capture_output=True)
    if archive.returncode != 0:
        raise UsageError(f"git archive {revision}: {archive.stderr.decode(errors='replace').strip()}")
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    return build(rule_files(folder), folder)


def impact_against(paths: list[str], revision: str, edition: str | None) -> tuple[list[Change], str]:
    from .corpus import run_corpus

    with tempfile.TemporaryDirectory(prefix="aslkb-impact-") as folder:
        old_kb = knowledge_base_at(revision, folder)
        before = list(run_corpus(paths, kb=old_kb, edition=edition))
    after = list(run_corpus(paths, edition=edition))
    return compare_runs(before, after), f"rules of {revision} -> the rules as they are"


def impact_text(changes: list[Change], label: str) -> str:
    lines = [f"impact: {label}"]
    files = len({c.path for c in changes})
    for change in changes:
        lines.append(f"{change.path}:{change.line}: {change.label}")
        lines.append(f"    was: {_shown(change.old)}")
        lines.append(f"    now: {_shown(change.new)}")
        if change.responsible:
            lines.append(f"    responsible: {', '.join(change.responsible)}")
    lines.append(f"{len(changes)} answer{'s' if len(changes) != 1 else ''} changed in {files} "
                 f"file{'s' if files != 1 else ''}")
    return "\n".join(lines)

