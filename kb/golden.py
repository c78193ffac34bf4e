"""Golden answers: a snapshot of every answer of a situation file, and the
differences a later run finds (`aslkb check --update`, then `aslkb check`).

A snapshot is `FILE.sit.golden.json`, next to the file it records: one file
per case, so that a change of one case changes one snapshot in a review. It
holds, for every `query` and `expect` line, the value (or the distribution),
the undecided reasons, the rule ids behind the answer and the
interpretations it relied on, together with the edition and the
interpretations in force for the run.

Answers are matched by the line's kind and its query text (`drm A1
night_lv`), not by line number, so adding a comment does not make every
answer "change".
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .answers import Answer
from .ask import Result

SUFFIX = ".golden.json"
VERSION = 1


def snapshot_path(case: Path) -> Path:
    return case.with_name(case.name + SUFFIX)


def answer_record(answer: Answer) -> dict:
    """The parts of an answer a snapshot keeps, as plain JSON values."""
    from .render import distribution_json, json_value

    return {
        "value": json_value(answer.value),
        "distribution": distribution_json(answer.distribution) if answer.distribution else None,
        "undecided": sorted(answer.undecided),
        "rules": list(answer.rules),
        "interpretations": list(answer.interpretations),
    }


def snapshot(result: Result) -> dict:
    """Every answer of a run of one file, in file order."""
    lines = [{"line": q.line, "kind": "query", "query": q.text, **answer_record(a)}
             for q, a in zip(result.situation.queries, result.answers)]
    lines += [{"line": c.expect.line, "kind": "expect", "query": c.expect.query.text, **answer_record(c.answer)}
              for c in result.checked]
    lines.sort(key=lambda entry: entry["line"])
    return {"version": VERSION, "edition": result.settings.edition,
            "interpretations": list(result.settings.interpretations), "answers": lines}


def write_snapshot(case: Path, result: Result) -> Path:
    path = snapshot_path(case)
    from .atomicwrite import write_text

    write_text(path, json.dumps(snapshot(result), indent=1, ensure_ascii=False) + "\n")
    return path


class NotASnapshot(Exception):
    """A golden snapshot file that cannot be read as one (exit status 2)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(path, reason)
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.path}: not a golden snapshot: {self.reason}; fix it, or delete it and run check --update"


def read_snapshot(case: Path) -> dict | None:
    """The stored snapshot, None when there is none; NotASnapshot when the
    file is there but is not one (torn by a crash, edited by hand)."""
    path = snapshot_path(case)
    if not path.exists():
        return None
    from .filecheck import read_regular

    data = read_regular(path, "golden snapshot")
    try:
        stored = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise NotASnapshot(path, f"byte {error.start} is not UTF-8") from None
    except json.JSONDecodeError as error:
        raise NotASnapshot(path, f"invalid JSON at line {error.lineno} column {error.colno}: {error.msg}") from None
    except RecursionError:  # `[[[[...]]]]`: Python's JSON reader recurses
        raise NotASnapshot(path, "JSON nested too deeply") from None
    _check_shape(path, stored)
    return stored


def _check_shape(path: Path, stored: object) -> None:
    """What compare() reads: a version, and answers that each have a line, kind and query."""
    if not isinstance(stored, dict):
        raise NotASnapshot(path, f"a JSON {_json_kind(stored)} where an object is expected")
    if stored.get("version") != VERSION:
        raise NotASnapshot(path, f"version {stored.get('version')!r}, expected {VERSION}")
    answers = stored.get("answers")
    if not isinstance(answers, list):
        raise NotASnapshot(path, f"'answers' is a JSON {_json_kind(answers)}, not a list")
    for number, entry in enumerate(answers, start=1):
        if not (isinstance(entry, dict) and type(entry.get("line")) is int
                and isinstance(entry.get("kind"), str) and isinstance(entry.get("query"), str)):
            raise NotASnapshot(path, f"answer {number} lacks a line, kind or query")


def _json_kind(value: object) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", int: "number", float: "number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


@dataclass(frozen=True)
class Difference:
    line: int  # in the case file now (0: the run as a whole)
    query: str  # the query text, or "" for the run's settings
    field: str  # value, distribution, undecided, rules, interpretations, added, removed, settings
    old: object
    new: object

    def text(self, path: object) -> str:
        what = f"{self.query}: " if self.query else ""
        if not self.line and isinstance(self.old, list) and isinstance(self.new, list):
            change = [f"+{n}" for n in self.new if n not in self.old] + [f"-{n}" for n in self.old if n not in self.new]
            return f"{path}: run {self.field} changed: {' '.join(change) or 'order'}"
        if not self.line:
            return f"{path}: run {self.field} was {_show(self.old)}, now {_show(self.new)}"
        if self.field == "added":
            return f"{path}:{self.line}: {what}new answer {_show(self.new)} (not in the snapshot)"
        if self.field == "removed":
            return f"{path}:{self.line}: {what}answer {_show(self.old)} is in the snapshot but no longer asked"
        return f"{path}:{self.line}: {what}{self.field} was {_show(self.old)}, now {_show(self.new)}"

    def to_json(self) -> dict:
        return {"line": self.line, "query": self.query, "field": self.field, "old": self.old, "new": self.new}


def _show(value: object) -> str:
    if isinstance(value, dict) and "value" in value:  # a whole answer record
        shown = _show(value["distribution"]) if value.get("distribution") else _show(value["value"])
        return f"{shown} [{', '.join(value.get('rules', []))}]"
    if value is None:
        return "undecided"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


_FIELDS = ("value", "distribution", "undecided", "rules", "interpretations")


def compare(old: dict, new: dict) -> list[Difference]:
    """Every difference between a stored snapshot and a new one."""
    found: list[Difference] = []
    for key in ("edition", "interpretations"):
        if old.get(key) != new.get(key):
            found.append(Difference(0, "", f"settings ({key})", old.get(key), new.get(key)))
    before = _keyed(old.get("answers", []))
    after = _keyed(new.get("answers", []))
    for key, entry in after.items():
        if key not in before:
            found.append(Difference(entry["line"], _label(key), "added", None, entry))
            continue
        was = before[key]
        for name in _FIELDS:
            if was.get(name) != entry.get(name):
                found.append(Difference(entry["line"], _label(key), name, was.get(name), entry.get(name)))
    for key, was in before.items():
        if key not in after:
            found.append(Difference(was["line"], _label(key), "removed", was, None))
    found.sort(key=lambda d: d.line)
    return found


def _keyed(entries: list[dict]) -> dict[tuple, dict]:
    """Entries by (kind, query, n-th occurrence of that pair)."""
    keyed: dict[tuple, dict] = {}
    seen: dict[tuple, int] = {}
    for entry in entries:
        pair = (entry["kind"], entry["query"])
        seen[pair] = seen.get(pair, 0) + 1
        keyed[(*pair, seen[pair])] = entry
    return keyed


def _label(key: tuple) -> str:
    kind, query, _ = key
    return f"{kind} {query}"
