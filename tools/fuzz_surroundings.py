"""The surroundings of a run, fuzzed (tools/fuzz.py --surroundings N): golden
snapshots, cache files, option values, special files, and control characters
in file names and snapshots, mutated.

Each trial builds a hostile surrounding in a fresh folder and runs the
`aslkb` command in this process (kb/cli/main.py main, the knowledge base loaded
once), from that folder. A trial fails when:

- the command raises, exits with a status other than 0, 1, 2 (or 130),
  says "internal error" or prints a traceback, or exits 2 without a message,
  or prints a control character as it is (ESC would reach the terminal);
- a corrupt golden snapshot is not reported as `not a golden snapshot` (or
  as a file that cannot be read), or a file the run was not asked to write
  changed (the victim file, the snapshot of a plain check);
- a mutated cache file gives a value other than the one stored, or raises;
- a special file (FIFO, device, /proc) makes the run hang (60 s) or is
  refused without its name;
- a control character in a file name or a snapshot's strings makes the
  `--junit-xml` report malformed, or is not shown escaped.

Every trial is reproducible from (seed, index); the summary counts each
kind of trial and its outcomes.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shutil
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field

CASE = "scenario night nvr 2\nunit G1 german squad\nexpect base_nvr = 2\nquery night_class G1\n"
VICTIM = "precious\n"


@dataclass
class Report:
    trials: Counter = field(default_factory=Counter)
    outcomes: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)  # (kind, index, what went wrong)


def run_aslkb(argv: list[str], folder: str) -> tuple[int, str, str]:
    """`aslkb ARGV` in this process, from `folder`: (status, stdout, stderr)."""
    from aslkb.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in argv])
            except SystemExit as stop:  # argparse refusing an option: status 2 and its usage message
                code = stop.code if isinstance(stop.code, int) else 2
    finally:
        os.chdir(here)
    return code, out.getvalue(), err.getvalue()


def _problem(code: int, out: str, err: str) -> str | None:
    """What is wrong with a finished command, whatever it was asked."""
    said = out + err
    if code not in (0, 1, 2, 130):
        return f"exit status {code}"
    if "Traceback" in said or "internal error" in said:
        return f"internal error: {said[-1500:]}"
    if code == 2 and not said.strip():
        return "exit status 2 without a message"
    if raw := _RAW_CONTROL.search(said):
        return f"printed control character U+{ord(raw.group()):04X} as it is: {said[-1500:]!r}"
    return None


# what no output may hold as it is (kb/base/terminal.py escapes them): C0 but TAB and LF, DEL, C1, surrogates
_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


# --- golden snapshots ----------------------------------------------------------------

def _mutate_json(d: random.Random, data: bytes) -> bytes:
    how = d.randrange(10)
    if how == 0:
        return data[:d.randrange(len(data) + 1)]  # torn by a crash
    if how == 1:
        i = d.randrange(len(data))
        return data[:i] + bytes([d.randrange(256)]) + data[i + 1:]
    if how == 2:
        return d.choice([b"[]", b"{}", b"null", b"5", b'"x"', b'{"answers":5}', b'{"version":1}',
                         b'{"version":1,"answers":[1]}', b'{"version":"1","answers":[]}'])
    if how == 3:
        return b"\xff\xfe" + data  # not UTF-8
    if how == 4:
        depth = d.choice([10, 1000, 100_000])
        return b"[" * depth + b"]" * depth  # deep nesting: Python's json recursion
    if how == 5:
        return data.replace(b'"line": ', b'"line": "', 1)
    try:
        stored = json.loads(data)
    except ValueError:
        return data
    answers = stored.get("answers", [])
    if how == 6 and answers:
        entry = d.choice(answers)
        entry[d.choice(list(entry))] = d.choice([None, 1, "x", [], {}, True, 1e308])
    elif how == 7 and answers:
        del d.choice(answers)[d.choice(["line", "kind", "query", "value", "rules"])]
    elif how == 8:
        stored[d.choice(["edition", "interpretations", "version"])] = d.choice([None, 7, ["x"], {"a": 1}])
    else:
        stored["answers"] = answers * d.randrange(0, 3)
    return json.dumps(stored).encode()


def golden_trial(d: random.Random, folder: str) -> tuple[str, str | None]:
    case = os.path.join(folder, "case.sit")
    with open(case, "w") as handle:
        handle.write(CASE)
    code, out, err = run_aslkb(["check", "--update", case], folder)
    if code != 0:
        return "setup", f"check --update failed: {out}{err}"
    golden = case + ".golden.json"
    with open(golden, "rb") as handle:
        mutated = _mutate_json(d, handle.read())
    with open(golden, "wb") as handle:
        handle.write(mutated)
    code, out, err = run_aslkb(["check", case], folder)
    if problem := _problem(code, out, err):
        return "broken", problem
    with open(golden, "rb") as handle:
        if handle.read() != mutated:
            return "broken", "a plain check changed the snapshot"
    if code == 2 and f"{golden}: not a golden snapshot: " not in out + err:
        return "broken", f"refused without naming the snapshot: {out}{err}"
    return {0: "same answers", 1: "differences", 2: "not a snapshot"}[code], None


# --- cache files -----------------------------------------------------------------------

def cache_trial(d: random.Random, folder: str) -> tuple[str, str | None]:
    """Store a value, mutate its file (keeping or forging the header), load it back."""
    import marshal

    from aslkb.base import diskcache

    value = {"text": "a :- b.\n", "rows": [(1, "x"), (2, "y")], "n": d.randrange(1000)}
    diskcache.store("fuzz", "sig", value)
    [name] = [n for n in os.listdir(diskcache.cache_dir()) if n.startswith("fuzz-sig-")]
    path = os.path.join(diskcache.cache_dir(), name)
    with open(path, "rb") as handle:
        data = handle.read()
    head = len(diskcache._MAGIC) + diskcache._TAG
    how = d.randrange(5)
    if how == 0:
        data = data[:d.randrange(len(data))]
    elif how == 1:
        i = d.randrange(len(data))
        data = data[:i] + bytes([data[i] ^ (1 + d.randrange(255))]) + data[i + 1:]
    elif how == 2:  # the attacker's payload behind the real header
        data = data[:head] + marshal.dumps({**value, "text": '#include "/etc/hostname".'})
    elif how == 3:  # a whole forged file with a digest under another key
        data = diskcache._MAGIC + os.urandom(diskcache._TAG) + marshal.dumps(value)
    else:
        data = os.urandom(d.randrange(1, 200))
    with open(path, "wb") as handle:
        handle.write(data)
    try:
        loaded = diskcache.load("fuzz", "sig")
    except Exception as error:  # noqa: BLE001 (any exception is the finding)
        return "broken", f"load raised {type(error).__name__}: {error}"
    finally:
        os.remove(path)
    if loaded is not None:
        return "broken", f"a mutated cache file was read: {loaded!r:.200}"
    return "ignored", None


# --- option values -------------------------------------------------------------------------

_HOSTILE_VALUES = ["", "-", "--", "-1", "0", "nan", "inf", "1e309", "--output={victim}", "-o{victim}",
                   "--help", "\x00", "x\ny", "{victim}", "{folder}", "/dev/null", "/dev/full", "/proc/self/mem",
                   "{fifo}", "../" * 30 + "etc/passwd", "é" * 300, "HEAD", "--end-of-options"]


def _case_and_victim(folder: str) -> tuple[str, str]:
    """A case, and a file of the user's that no trial may change: their paths."""
    case, victim = os.path.join(folder, "case.sit"), os.path.join(folder, "victim")
    for path, text in ((case, CASE), (victim, VICTIM)):
        with open(path, "w") as handle:
            handle.write(text)
    return case, victim


def option_trial(d: random.Random, folder: str) -> tuple[str, str | None]:
    case, victim = _case_and_victim(folder)
    fifo = os.path.join(folder, "fifo")
    os.mkfifo(fifo)
    value = d.choice(_HOSTILE_VALUES).format(victim=victim, folder=folder, fifo=fifo)
    argv = d.choice([
        ["query", case, "--timeout", value], ["query", case, "--interpretation", value],
        ["query", case, "--without", value], ["query", case, "--edition", value],
        ["check", case, "--junit-xml", value], ["odds", case, "base_nvr", "--plot", value],
        ["odds", case, value], ["explain", case, "base_nvr", "--dot", value], ["explain", case, value],
        ["impact", case, f"--against={value}"], ["impact", case, "--against", value],
        ["diff", case, "--interpretation", value], ["query", value], ["check", value],
        ["coverage", "--cases", case, "-o", value],
    ] + ([["diverge", "--domain", value, "--examples", os.path.join(folder, "out"), "--limit", "1"]]
          if value.strip("-") else []))  # an empty --domain is the shipped one: a whole search
    code, out, err = run_aslkb(argv, folder)
    if problem := _problem(code, out, err):
        return "broken", f"{argv}: {problem}"
    with open(victim) as handle:
        if handle.read() != VICTIM and value != victim:
            return "broken", f"{argv} changed a file it was not given"
    return f"exit {code}", None


# --- special files ---------------------------------------------------------------------------

def _special_file(d: random.Random, folder: str) -> tuple[str, str]:
    path = os.path.join(folder, "odd.sit")
    kind = d.choice(["fifo", "dev-zero", "dev-null", "directory", "broken-link", "link-loop", "sparse", "proc"])
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        os.symlink("/dev/zero", path)
    elif kind == "dev-null":
        os.symlink("/dev/null", path)
    elif kind == "directory":
        os.mkdir(path)
    elif kind == "broken-link":
        os.symlink(os.path.join(folder, "nowhere"), path)
    elif kind == "link-loop":
        os.symlink(path, path)
    elif kind == "sparse":
        with open(path, "wb") as handle:
            handle.truncate(17 * 1024 * 1024)  # above the 16 MiB limit, no disk used
    else:
        path = d.choice(["/proc/self/mem", "/proc/self/status", "/proc/self/fd/0"])
    return kind, path


def special_trial(d: random.Random, folder: str) -> tuple[str, str | None]:
    kind, path = _special_file(d, folder)
    where = d.choice(["situation", "golden", "folder", "domain"])
    if where == "golden":
        case = os.path.join(folder, "g.sit")
        with open(case, "w") as handle:
            handle.write(CASE)
        golden = case + ".golden.json"
        if os.path.lexists(path) and path.startswith(folder):
            os.rename(path, golden)
        else:
            os.symlink(path, golden)
        argv, named = ["check", case], golden
    elif where == "folder":
        if not path.startswith(folder):  # a /proc file: linked into the folder as a .sit
            os.symlink(path, os.path.join(folder, "odd.sit"))
            path = os.path.join(folder, "odd.sit")
        argv, named = ["check", folder], path
    elif where == "domain":
        argv, named = ["diverge", "--domain", path, "--examples", os.path.join(folder, "out")], path
    else:
        argv, named = [d.choice(["query", "check", "diff"]), path], path
    code, out, err = run_aslkb(argv, folder)
    if problem := _problem(code, out, err):
        return "broken", f"{kind} as {where}: {problem}"
    if kind != "proc" or "status" not in path:  # /proc/self/status is a readable (if odd) text file
        if code == 2 and named not in out + err and kind not in ("directory", "broken-link", "link-loop"):
            return "broken", f"{kind} as {where}: refused without its name: {out}{err}"
    return f"{where}: exit {code}", None


# --- control characters in file names and snapshots --------------------------------------

_CONTROLS = ["\x1b]0;owned\x07", "\x1b[2J", "\x1b[31m", "\x9b2J", "\x08", "\r", "\x7f", "\x0c", "\x85",
             os.fsdecode(b"\xff"), "\ufffe"]  # a byte that is not UTF-8, as Python decodes a file name


def controls_trial(d: random.Random, folder: str) -> tuple[str, str | None]:
    """A case whose file name, and its snapshot's strings, hold control
    characters: `check` shows them escaped, and its JUnit XML parses."""
    name = "case" + (d.choice(_CONTROLS) if d.randrange(2) else "") + ".sit"
    case = os.path.join(folder, name)
    with open(case, "w") as handle:
        handle.write(CASE)
    code, out, err = run_aslkb(["check", "--update", case], folder)
    if problem := _problem(code, out, err):
        return "broken", f"check --update of {name!r}: {problem}"
    golden = case + ".golden.json"
    with open(golden, encoding="utf-8") as handle:
        stored = json.load(handle)
    entry = d.choice(stored["answers"])
    field = d.choice(["value", "query", "rules", "undecided", "interpretations"])
    hostile = "x" + d.choice([c for c in _CONTROLS if not 0xD800 <= ord(c[0]) <= 0xDFFF])
    entry[field] = [hostile] if isinstance(entry.get(field), list) else hostile
    if d.randrange(2):
        stored["interpretations"].append(hostile)
    with open(golden, "w", encoding="utf-8") as handle:
        json.dump(stored, handle)
    report = os.path.join(folder, "report.xml")
    code, out, err = run_aslkb(["check", case, "--junit-xml", report], folder)
    if problem := _problem(code, out, err):
        return "broken", f"{name!r}, {field} {hostile!r}: {problem}"
    try:
        ET.parse(report)
    except ET.ParseError as error:
        return "broken", f"{name!r}, {field} {hostile!r}: the JUnit XML is malformed: {error}"
    return f"exit {code}", None


# --- links planted where aslkb writes, and domain programs clingo must not read -------

SHARED_CACHE = [""]  # the campaign's own cache folder, whose files' names the links take


def links_trial(d: random.Random, folder: str) -> tuple[str, str | None]:
    """A link planted under a golden snapshot's name, or under each file of
    the cache folder, to a file of the user's: `check --update` and a query
    replace the link, never write through it (issue 37 item 1)."""
    case, victim = _case_and_victim(folder)
    if d.randrange(2):  # the golden snapshot's name
        os.symlink(victim, case + ".golden.json")
        argv = ["check", "--update", case]
    else:  # a link under the name of each file a run stores in the cache (their names are predictable)
        os.environ["ASLKB_CACHE_DIR"] = cache = os.path.join(folder, "cache")
        os.makedirs(cache, mode=0o700)
        for name in os.listdir(SHARED_CACHE[0]) if os.path.isdir(SHARED_CACHE[0]) else []:
            if name.endswith(".marshal"):
                os.symlink(victim, os.path.join(cache, name))
        argv = ["query", case]
    code, out, err = run_aslkb(argv, folder)
    if problem := _problem(code, out, err):
        return "broken", f"{argv}: {problem}"
    with open(victim) as handle:
        if handle.read() != VICTIM:
            return "broken", f"{argv} wrote through a planted link"
    return f"exit {code}", None


def domain_trial(d: random.Random, folder: str) -> tuple[str, str | None]:
    """A diverge domain program with a BOM, a non-ASCII byte, a ground bomb
    or a number past the bounds: refused at FILE:LINE:COLUMN before any
    search (issue 37 items 3 and 11)."""
    domain = os.path.join(folder, "domain.lp")
    body = d.choice(["\ufeffmax_nvr(2).\n", "max_nvr(2).\nnation(\u00e9).\n", "n(1..100000000).\n",
                     "max_range(99999).\n", "p(X) :- X = 1..1000000.\n"])
    with open(domain, "w", encoding="utf-8") as handle:
        handle.write(body)
    argv = ["diverge", "--domain", domain, "--examples", os.path.join(folder, "out"), "--limit", "1"]
    code, out, err = run_aslkb(argv, folder)
    if problem := _problem(code, out, err):
        return "broken", f"{body!r}: {problem}"
    if code != 2 or f"{domain}:" not in err:
        return "broken", f"{body!r}: exit {code} without naming the domain file: {err[-500:]}"
    return "refused", None


TRIALS = {"golden": golden_trial, "cache": cache_trial, "option": option_trial, "special": special_trial,
          "controls": controls_trial, "links": links_trial, "domain": domain_trial}


def campaign(trials: int, seed: int = 1, max_seconds: float = 600.0) -> Report:
    """Up to `trials` trials (kinds in turn), stopping after `max_seconds`."""
    from aslkb.base import diskcache
    from aslkb.knowledge.program import knowledge_base

    knowledge_base()  # loaded once, before the clock runs
    SHARED_CACHE[0] = diskcache.cache_dir()  # the names a run stores its files under (links_trial)
    report = Report()
    started = time.monotonic()
    kinds = list(TRIALS)
    for index in range(trials):
        if time.monotonic() - started > max_seconds:
            break
        kind = kinds[index % len(kinds)]
        d = random.Random(f"{seed}:{kind}:{index}")
        folder = tempfile.mkdtemp(prefix=f"aslkb-fuzz-{kind}-")
        saved = {name: os.environ.get(name) for name in ("ASLKB_CACHE_DIR", diskcache._QUIET)}
        try:
            if kind in ("cache", "links"):  # its own cache folder (the key stays this user's), its warnings expected
                os.environ["ASLKB_CACHE_DIR"] = os.path.join(folder, "cache")
                os.environ[diskcache._QUIET] = "1"
            outcome, problem = TRIALS[kind](d, folder)
        except Exception as error:  # noqa: BLE001 (the trial itself failed: a finding too)
            import traceback

            outcome, problem = "broken", f"the trial raised: {traceback.format_exc()[-2000:]}"
            del error
        finally:
            for name, value in saved.items():
                os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)
            shutil.rmtree(folder, ignore_errors=True)
        report.trials[kind] += 1
        report.outcomes[f"{kind}: {outcome}"] += 1
        if problem:
            report.failures.append((kind, index, problem))
    return report


def summary(report: Report, seconds: float) -> str:
    lines = [f"surroundings: {sum(report.trials.values())} trials in {seconds:.0f} s: {dict(report.trials)}"]
    lines += [f"  {name}: {count}" for name, count in sorted(report.outcomes.items())]
    lines += [f"FAILURE {kind} trial {index}: {problem}" for kind, index, problem in report.failures]
    return "\n".join(lines)
