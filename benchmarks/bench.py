"""Print aslkb's performance figures beside their references, in one run.

    python benchmarks/bench.py [--runs N] [--no-diverge]

- a cold `aslkb query` of a typical situation (examples/platoon-night.sit: ten
  units, three attacks, five queries) and of the README's example, against
  `python -c "import clingo, lark"` (goal: at most 1.5 times the import), and
  against a bare clingo process that grounds and solves the same program
  through clingo's own API (what clingo alone costs);
- `aslkb check` over the whole case corpus and over it twice over (a copy
  beside it), in files per second (goal: 500 or more, not falling as the
  corpus grows), and
  the peak resident memory of the check (goal: under 300 MB);
- the ground rules of a situation ten times larger (goal: at most 20 times);
- `aslkb diverge`'s search on the shipped domain and on one twice as large
  (goal: under 10 s).

Each timing is the median of several runs, taken in turns so that both sides
see the same machine. Run it from the repository root with the project
installed (the README's first command). Timings live here, never in tests.
"""
from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TYPICAL = ROOT / "examples" / "platoon-night.sit"
README_EXAMPLE = ROOT / "examples" / "first-night.sit"
CASES = ROOT / "tests" / "cases"


def aslkb_command() -> list[str]:
    script = Path(sys.executable).parent / "aslkb"
    return [str(script)] if script.exists() else [sys.executable, "-m", "aslkb"]


def wall_time(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def medians(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(wall_time(command))
    return {name: statistics.median(values) for name, values in times.items()}


def bare_clingo_script(situation: Path, folder: Path) -> list[str]:
    """A python process that grounds and solves, with clingo's own API, the
    program aslkb grounds for this situation (its selected rules and facts)."""
    from aslkb.ask import query_facts, settle
    from aslkb.engine import SHOW_ANSWERS, SHOW_BOOKKEEPING, in_force_facts
    from aslkb.parser import parse_file
    from aslkb.program import knowledge_base

    kb = knowledge_base()
    parsed = parse_file(situation)
    settings = settle(parsed, kb)
    queries = list(dict.fromkeys([*(q.symbol for q in parsed.queries), *(e.query.symbol for e in parsed.expects)]))
    facts = [*query_facts(parsed, settings, queries), *in_force_facts(settings)]
    selection = kb.select(settings.edition, list(settings.interpretations), queries, facts)
    program = folder / f"{situation.stem}.lp"
    program.write_text(selection.text + SHOW_ANSWERS + SHOW_BOOKKEEPING
                       + "".join(f"{fact}.\n" for fact in facts), encoding="utf-8")
    code = ("import clingo; c = clingo.Control(['--warn=none']); "
            f"c.load({str(program)!r}); c.ground([('base', [])]); c.solve()")
    return [sys.executable, "-c", code]


def single_queries(aslkb: list[str], runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        commands = {"import": [sys.executable, "-c", "import clingo, lark"]}
        for situation in (TYPICAL, README_EXAMPLE):
            subprocess.run([*aslkb, "query", str(situation)], cwd=ROOT, capture_output=True)  # fill the caches
            commands[situation.name] = [*aslkb, "query", str(situation)]
            commands[f"clingo {situation.name}"] = bare_clingo_script(situation, Path(folder))
        times = medians(commands, runs)
    reference = times["import"]
    print(f"python -c 'import clingo, lark':                 {reference * 1000:6.1f} ms (median of {runs})")
    for situation in (TYPICAL, README_EXAMPLE):
        own, bare = times[situation.name], times[f"clingo {situation.name}"]
        print(f"cold `aslkb query {situation.relative_to(ROOT)}`: {own * 1000:6.1f} ms: "
              f"{own / reference:.2f}x the import (goal: at most 1.5); "
              f"bare clingo grounding and solving the same program: {bare * 1000:.1f} ms")


def check_speed(aslkb: list[str], runs: int) -> None:
    import shutil

    with tempfile.TemporaryDirectory() as folder:
        twice = Path(folder) / "cases-twice"
        for copy in ("a", "b"):
            shutil.copytree(CASES, twice / copy)
        for target in (CASES, twice):
            check_one(aslkb, target, runs)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak resident memory of one aslkb process (check's workers included): {peak:.0f} MB (goal: under 300)")


def check_one(aslkb: list[str], target: Path, runs: int) -> None:
    durations, output = [], ""
    for _ in range(runs):
        start = time.perf_counter()
        output = subprocess.run([*aslkb, "check", str(target)], cwd=ROOT, capture_output=True, text=True).stdout
        durations.append(time.perf_counter() - start)
    seconds = statistics.median(durations)
    files = int(re.search(r"(\d+) files", output).group(1))
    passed, failed = map(int, re.search(r"(\d+) passed, (\d+) failed", output).groups())
    shown = target.relative_to(ROOT) if target.is_relative_to(ROOT) else "tests/cases twice over"
    print(f"`aslkb check {shown}`: {files} files, {passed + failed} expectations "
          f"in {seconds:.2f} s (median of {runs}): {files / seconds:.0f} files/s (goal: 500)")


def grounding() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from grounding import ground_rules

    small, large = ground_rules(10, 2), ground_rules(100, 20)
    print(f"ground rules: {small} for 10 units / 2 attacks, {large} for 100 units / 20 attacks: "
          f"{large / small:.1f}x (goal: at most 20x)")


def diverge() -> None:
    from aslkb.diverge import group, search

    shipped = search()
    start = time.perf_counter()
    findings = group(shipped)
    grouping = time.perf_counter() - start
    doubled = search({"max_nvr": 8, "max_range": 8, "max_light": 8})
    print(f"`aslkb diverge` search: {shipped.seconds:.2f} s on the shipped domain ({len(shipped.witnesses)} "
          f"witnesses), {doubled.seconds:.2f} s on one twice as large ({len(doubled.witnesses)}): "
          f"{doubled.seconds / shipped.seconds:.2f}x (goal: under 10 s); grouping the shipped domain's "
          f"answers into {len(findings)} differences (each answered by `aslkb diff`, each witness trimmed): "
          f"{grouping:.2f} s")


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=11)
    options.add_argument("--no-diverge", action="store_true", help="skip the diverge search (a few seconds)")
    args = options.parse_args()
    aslkb = aslkb_command()
    single_queries(aslkb, args.runs)
    check_speed(aslkb, max(3, args.runs // 3))
    grounding()
    if not args.no_diverge:
        diverge()


if __name__ == "__main__":
    main()
