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
answer "change". Each changed answer is one line, `FILE:LINE: QUERY: old ->
new (rules responsible)`; a `query` line and an `expect` line asking the
same query with the same change are said once; a change of the run's
settings (edition, interpretations) is said once per run, not per file.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from aslkb.api import Answer, Result
from aslkb.base.atomicwrite import write_bytes
from aslkb.base.errors import NotASnapshot
from aslkb.base.filecheck import read_regular
from aslkb.render.text import distribution_json, json_value

SUFFIX = ".golden.json"
VERSION = 1


def snapshot_path(case: Path) -> Path:
    return case.with_name(case.name + SUFFIX)


def answer_record(answer: Answer) -> dict:
    """The parts of an answer a snapshot keeps, as plain JSON values."""
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
    # a name beside the case, not one the user gave: never written through a link
    write_bytes(path, (json.dumps(snapshot(result), indent=1, ensure_ascii=False) + "\n").encode("utf-8"),
                through_links=False)
    return path


def read_snapshot(case: Path) -> dict | None:
    """The stored snapshot, None when there is none; NotASnapshot when the
    file is there but is not one (torn by a crash, edited by hand)."""
    path = snapshot_path(case)
    if not path.exists():
        return None
    data = read_regular(path, "golden snapshot")
    try:
        stored = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise NotASnapshot(path, f"byte {error.start} is not UTF-8") from None
    except json.JSONDecodeError as error:
        raise NotASnapshot(path, f"invalid JSON at line {error.lineno} column {error.colno}: {error.msg}") from None
    except RecursionError:  # `[[[[...]]]]`: Python's JSON reader recurses
        raise NotASnapshot(path, "JSON nested too deeply") from None
    except ValueError:  # the one other: a number past the digits Python converts (4,300)
        text = data.decode("utf-8")
        found = re.search(r"\d{4301,}", text)
        line = text.count("\n", 0, found.start()) + 1 if found else None
        where = f" at line {line}" if line else ""
        raise NotASnapshot(path, f"a number of more digits than any answer has{where}") from None
    _check_shape(path, stored)
    return stored


def _check_shape(path: Path, stored: object) -> None:
    """What changes() reads: a version, and answers that each have a line, kind and query,
    with lists of text where the report joins them."""
    if not isinstance(stored, dict):
        raise NotASnapshot(path, f"a JSON {_json_kind(stored)} where an object is expected")
    if stored.get("version") != VERSION:
        raise NotASnapshot(path, f"version {stored.get('version')!r}, expected {VERSION}")
    answers = stored.get("answers")
    if not isinstance(answers, list):
        raise NotASnapshot(path, f"'answers' is a JSON {_json_kind(answers)}, not a list")
    if not _strings(stored.get("interpretations", [])) or not isinstance(stored.get("edition", ""), (str, type(None))):
        raise NotASnapshot(path, "the run's edition or interpretations are not text")
    for number, entry in enumerate(answers, start=1):
        if not (isinstance(entry, dict) and type(entry.get("line")) is int
                and isinstance(entry.get("kind"), str) and isinstance(entry.get("query"), str)):
            raise NotASnapshot(path, f"answer {number} lacks a line, kind or query")
        if not all(_strings(entry.get(name, [])) for name in ("undecided", "rules", "interpretations")):
            raise NotASnapshot(path, f"answer {number} (line {entry['line']}): its undecided reasons, rules "
                                     "and interpretations must be lists of text")


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _json_kind(value: object) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", int: "number", float: "number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


@dataclass(frozen=True)
class Change:
    """One answer that differs from its snapshot, said on one line."""

    line: int  # in the case file now
    query: str  # the query text: drm A1 night_lv
    old: dict | None  # the answer records; None: not in the snapshot / no longer asked
    new: dict | None
    also: tuple[int, ...] = ()  # other lines asking the same query, with the same change

    def text(self, path: object) -> str:
        where = f"{path}:{self.line}: {self.query}: "
        also = f" (also line{'s' if len(self.also) > 1 else ''} {', '.join(map(str, self.also))})" \
            if self.also else ""
        if self.old is None:
            return f"{where}new answer {answer_text(self.new)} (not in the snapshot){also}"
        if self.new is None:
            return f"{where}answer {answer_text(self.old)} is in the snapshot but no longer asked{also}"
        old, new = answer_text(self.old, rules=False), answer_text(self.new, rules=False)
        if old == new:  # the same answer on other grounds: say which
            grounds = [f"{name} [{', '.join(self.old.get(name) or [])}] -> [{', '.join(self.new.get(name) or [])}]"
                       for name in ("rules", "interpretations") if self.old.get(name) != self.new.get(name)]
            return f"{where}{old} as before, but {'; '.join(grounds)}{also}"
        return f"{where}{old} -> {new} ({', '.join(responsible(self.old, self.new)) or 'no rule'}){also}"

    def to_json(self) -> dict:
        return {"line": self.line, "query": self.query, "old": self.old, "new": self.new,
                "responsible": responsible(self.old, self.new), "also": list(self.also)}


def answer_text(record: dict | None, rules: bool = True) -> str:
    """An answer record as `yes`, `undecided: E1.53 ...` or `1/6, ...`, with its rules."""
    if record is None:
        return "(none)"
    if record.get("distribution"):
        shown = _show(record["distribution"])
    elif record.get("value") is None and record.get("undecided"):
        shown = "undecided: " + "; ".join(record["undecided"])
    else:
        shown = _show(record.get("value"))
    return f"{shown} [{', '.join(record.get('rules', []))}]" if rules else shown


def responsible(old: dict | None, new: dict | None) -> list[str]:
    """The rules behind one answer and not the other (else behind either), then
    the interpretations relied on by one and not the other."""
    rules_a, rules_b = set((old or {}).get("rules", [])), set((new or {}).get("rules", []))
    found = sorted(rules_a ^ rules_b) or sorted(rules_a | rules_b)
    used_a = set((old or {}).get("interpretations", []))
    used_b = set((new or {}).get("interpretations", []))
    return found + [f"interpretation {name}" for name in sorted(used_a ^ used_b)]


def settings_change(old: dict, new: dict) -> str:
    """How the run's own settings differ (`interpretations +x -y`), or ""."""
    parts = []
    if old.get("edition") != new.get("edition"):
        parts.append(f"edition {old.get('edition')} -> {new.get('edition')}")
    before, after = old.get("interpretations") or [], new.get("interpretations") or []
    if before != after:
        change = [f"+{n}" for n in after if n not in before] + [f"-{n}" for n in before if n not in after]
        parts.append(f"interpretations {' '.join(change) or '(order)'}")
    return "; ".join(parts)


def changes(old: dict, new: dict) -> list[Change]:
    """Every answer that differs from the snapshot, once: a `query` line and an
    `expect` line asking the same query with the same change are one change,
    reported at the expect line."""
    before = _keyed(old.get("answers", []))
    after = _keyed(new.get("answers", []))
    found: list[Change] = []
    for key, entry in after.items():
        was = before.get(key)
        if was is None or any(was.get(name) != entry.get(name) for name in _FIELDS):
            found.append(Change(entry["line"], key[1], was and _record(was), _record(entry)))
    for key, was in before.items():
        if key not in after:
            found.append(Change(was["line"], key[1], _record(was), None))
    merged: dict[tuple, Change] = {}
    for change in sorted(found, key=lambda c: c.line):
        same = (change.query, json.dumps(change.old, sort_keys=True), json.dumps(change.new, sort_keys=True))
        if same in merged:
            first = merged[same]
            merged[same] = Change(change.line, change.query, change.old, change.new, (*first.also, first.line))
        else:
            merged[same] = change
    return sorted(merged.values(), key=lambda c: c.line)


def _record(entry: dict) -> dict:
    return {name: entry.get(name) for name in _FIELDS}


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


def _keyed(entries: list[dict]) -> dict[tuple, dict]:
    """Entries by (kind, query, n-th occurrence of that pair)."""
    keyed: dict[tuple, dict] = {}
    seen: dict[tuple, int] = {}
    for entry in entries:
        pair = (entry["kind"], entry["query"])
        seen[pair] = seen.get(pair, 0) + 1
        keyed[(*pair, seen[pair])] = entry
    return keyed
