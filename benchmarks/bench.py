"""Print aslkb's performance figures beside their references, in one run.

    python benchmarks/bench.py [--runs N] [--no-diverge]

Each goal of issues 10, 19 and 35, with its measured figure and its reference
(paired ratios: both sides timed in turns, in one run, on one machine):

- a cold `aslkb query` of a typical situation (examples/platoon-night.sit: ten
  units, three attacks, five queries) and of the README's example, against
  `python -c "import clingo, lark"` (goal: at most 1.3 times the import), and
  against a bare clingo process that grounds and solves the same program
  through clingo's own API (what clingo alone costs), and the rule
  selection's part of it (select() timed in a new process);
- `aslkb check` over the whole case corpus and over it twice over, and over
  generated corpora of 600 and 2,400 files a quarter of which fail (copies of
  the cases, one expectation broken in every fourth): files per second (goal:
  500 or more on two cores) and time per file (goal: flat from 600 to 2,400),
  the median of several runs, which read the selections the first one
  stores, and that first run apart (its selections made anew);
- the memory of those checks, every process of the run together (the sum of
  their proportional set sizes, sampled; goal: under 250 MB at 2,400 files,
  and flat as the corpus grows);
- citations: a query answered with the rules behind it against the same
  query answered for its values alone, in one process, with the rule
  selection remembered (a question asked again) and made anew (a new one)
  (goal: at most 1.3x);
- generated situations of 1,000, 5,000 and 10,000 units: a cold `aslkb query`
  against the bare import (goal: within 25x at 5,000 units) and the time per
  unit (goal: at most 1.05x from 1,000 to 10,000);
- the ground rules of a situation ten times larger (goal: at most 20 times);
- `aslkb diverge`'s search on the shipped domain and on one twice as large
  (goal: under 10 s).

Each timing is the median of several runs, taken in turns so that both sides
see the same machine. Run it from the repository root with the project
installed (the README's first command). Timings live here, never in tests.
"""
from __future__ import annotations

import argparse
import os
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


def timings(commands: dict[str, list[str]], runs: int) -> dict[str, list[float]]:
    """Each command's wall times, the commands run in turns, round after round."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(wall_time(command))
    return times


def paired(times: list[float], reference: list[float]) -> float:
    """The median of the ratios round by round (each round runs both, one
    after the other): the machine's drift over the rounds cancels, where a
    ratio of the two medians carries it (the import's own median moved by a
    third from one run of this script to the next on a noisy hour)."""
    return statistics.median(t / r for t, r in zip(times, reference, strict=True))


def bare_clingo_script(situation: Path, folder: Path) -> list[str]:
    """A python process that grounds and solves, with clingo's own API, the
    program aslkb grounds for this situation (its selected rules and facts)."""
    from aslkb.answers.ask import query_facts, settle
    from aslkb.engine.solve import in_force_facts
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from grounding import SHOW_ANSWERS, SHOW_BOOKKEEPING
    from aslkb.parser import parse_file
    from aslkb.knowledge.program import knowledge_base

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
        rounds = timings(commands, runs)
    times = {name: statistics.median(values) for name, values in rounds.items()}
    reference = times["import"]
    print(f"python -c 'import clingo, lark':                 {reference * 1000:6.1f} ms (median of {runs})")
    for situation in (TYPICAL, README_EXAMPLE):
        own, bare = times[situation.name], times[f"clingo {situation.name}"]
        print(f"cold `aslkb query {situation.relative_to(ROOT)}`: {own * 1000:6.1f} ms: "
              f"{paired(rounds[situation.name], rounds['import']):.2f}x the import, the median of the rounds' "
              f"ratios (goal: at most 1.3); bare clingo grounding and solving the same program: {bare * 1000:.1f} ms")
    for situation in (TYPICAL, README_EXAMPLE):
        selecting = statistics.median(cold_selection(situation) for _ in range(runs))
        print(f"  of which the rule selection (select(), in a new process): {selecting * 1000:.1f} ms "
              f"({situation.name}, median of {runs})")


def cold_selection(situation: Path) -> float:
    """select() of a situation, as ask() calls it, timed in a new process:
    its code and the knowledge base's data as a cold query first meets them."""
    code = f"""
import sys, time
from aslkb.answers.ask import fact_signatures, query_facts, settle
from aslkb.engine.solve import dice_facts, in_force_facts
from aslkb.knowledge.program import knowledge_base
from aslkb.parser import parse_file
kb = knowledge_base()
parsed = parse_file({str(situation)!r})
settings = settle(parsed, kb)
queries = [q.symbol for q in parsed.queries]
given = [*query_facts(parsed, settings, queries), *in_force_facts(settings)]
facts = [*given, *dice_facts(given, fact_signatures(parsed, settings, queries))]
start = time.perf_counter()
kb.select(settings.edition, list(settings.interpretations), queries, facts)
print(time.perf_counter() - start)
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return float(done.stdout)


def check_speed(aslkb: list[str], runs: int) -> None:
    import shutil

    with tempfile.TemporaryDirectory() as folder:
        twice = Path(folder) / "cases-twice"
        for copy in ("a", "b"):
            shutil.copytree(CASES, twice / copy)
        for target in (CASES, twice):
            check_one(aslkb, target, runs)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak resident memory of the largest one process of those checks: {peak:.0f} MB (goal: under 250)")


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


def failing_corpus(folder: Path, files: int) -> int:
    """Copies of the case files, `files` of them, with one expectation broken
    in every fourth (a number made one more, a yes/no expectation turned
    round); the number of files broken."""
    cases = sorted(CASES.rglob("*.sit"))
    folder.mkdir(parents=True)
    broken = 0
    for k in range(files):
        source = cases[k % len(cases)]
        text = source.read_text(encoding="utf-8")
        if broken < (k + 1) // 4:  # a quarter, spread through the corpus
            text, changed = _break_one(text)
            broken += changed
        name = f"{k // len(cases):02d}-" + "-".join(source.relative_to(CASES).parts)
        (folder / name).write_text(text, encoding="utf-8")
    return broken


def _break_one(text: str) -> tuple[str, int]:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith("expect "):
            continue
        if number := re.fullmatch(r"(expect .*= *)(\d+)", stripped):
            lines[i] = f"{number.group(1)}{int(number.group(2)) + 1}"
        elif "=" in stripped:
            continue
        elif stripped.startswith("expect not "):
            lines[i] = "expect " + stripped[len("expect not "):]
        else:
            lines[i] = "expect not " + stripped[len("expect "):]
        return "\n".join(lines) + "\n", 1
    return text, 0


def tree_memory(command: list[str]) -> float:
    """The peak, over a run, of the memory of the process and all its
    children together (the sum of their proportional set sizes: forked
    workers share their parent's pages), in MB; sampled every 50 ms."""
    import os

    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while process.poll() is None:
        family, todo, total = set(), [process.pid], 0
        while todo:  # the process tree, through each thread's list of children
            pid = todo.pop()
            family.add(pid)
            try:
                for task in os.listdir(f"/proc/{pid}/task"):
                    todo += [int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
            except OSError:
                continue
        for pid in family:
            try:
                rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
            except OSError:
                continue
            if found := re.search(r"^Pss:\s+(\d+)", rollup, re.M):
                total += int(found.group(1))
        peak = max(peak, total)
        time.sleep(0.05)
    return peak / 1024


def failing_checks(aslkb: list[str], runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        per_file = {}
        for files in (600, 2400):
            corpus = Path(folder) / f"corpus-{files}"
            broken = failing_corpus(corpus, files)
            walls, cpus = [], []
            for run in range(runs):
                if run == 0:
                    _forget_check_selections()
                before = _children_cpu()
                walls.append(wall_time([*aslkb, "check", str(corpus)]))
                cpus.append(_children_cpu() - before)
            seconds, cpu = statistics.median(walls), statistics.median(cpus)
            memory = tree_memory([*aslkb, "check", str(corpus)])  # a run of its own: sampling costs time
            per_file[files] = seconds / files
            print(f"`aslkb check` over {files} files, {broken} of them failing: {seconds:.2f} s (median of {runs}): "
                  f"{files / seconds:.0f} files/s (goal: 500), {per_file[files] * 1000:.2f} ms a file "
                  f"({cpu / files * 1000:.2f} ms of CPU, every process); "
                  f"memory, all processes together: {memory:.0f} MB (goal: under 250)")
            print(f"  its first run, the selections made anew (as after a change of the rules): "
                  f"{files / walls[0]:.0f} files/s, {cpus[0] / files * 1000:.2f} ms of CPU a file")
    print(f"time per file, 2,400 files against 600: {per_file[2400] / per_file[600]:.2f}x (goal: flat, about 1)")


def _forget_check_selections() -> None:
    """Remove what `check` remembers between runs from the disk cache: the
    selections (kb/answers/batch.py keep_selections) and the files that left
    its batches (kb/tools/check.py _keep_dear, dealt first), so that the next
    run starts as after a change of the rules."""
    from aslkb.base.diskcache import cache_dir

    for pattern in ("selections-*", "dear-files-*"):
        for path in Path(cache_dir()).glob(pattern):
            path.unlink(missing_ok=True)


def _children_cpu() -> float:
    """CPU seconds (user and system) of the finished child processes and theirs."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def citations(runs: int) -> None:
    """In one process, warm: each situation answered with its citations
    (run(), as `aslkb query` does) and for its values alone; once as a
    repeated question is (the rule selection remembered by the knowledge
    base, so the figure is the grounding and reading that citing adds), once
    as a new one is (select()'s memos emptied before each run: the
    selection made again, as in a cold query)."""
    from aslkb.answers.ask import settle
    from aslkb.answers.run import run
    from aslkb.knowledge.program import knowledge_base
    from aslkb.parser import parse_file

    kb = knowledge_base()
    for situation_file in (README_EXAMPLE, TYPICAL):
        situation = parse_file(situation_file)
        settings = settle(situation, kb)
        for fresh in (False, True):
            times: dict[bool, list[float]] = {True: [], False: []}
            for _ in range(runs * 3):
                for cite in (True, False):
                    if fresh:
                        kb.forget_selections()
                    start = time.perf_counter()
                    run(situation, settings, kb, cite=cite)
                    times[cite].append(time.perf_counter() - start)
            cited, plain = statistics.median(times[True]), statistics.median(times[False])
            how = "selection made each time" if fresh else "selection remembered"
            print(f"citations, {situation_file.relative_to(ROOT)} ({how}): {cited * 1000:.1f} ms with the rules "
                  f"behind each answer, {plain * 1000:.1f} ms values only: {paired(times[True], times[False]):.2f}x, "
                  f"the median of the pairs' ratios (goal: at most 1.3)")


def large_situations(aslkb: list[str], runs: int, sizes: tuple[int, ...] = (1000, 5000, 10000)) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from grounding import situation

    with tempfile.TemporaryDirectory() as folder:
        commands = {"import": [sys.executable, "-c", "import clingo, lark"]}
        for units in sizes:
            path = Path(folder) / f"units-{units}.sit"
            path.write_text(situation(units, units // 10), encoding="utf-8")
            commands[units] = [*aslkb, "query", str(path)]
        subprocess.run(commands[sizes[0]], cwd=ROOT, capture_output=True)  # fill the caches
        rounds = timings(commands, runs)
    times = {name: statistics.median(values) for name, values in rounds.items()}
    reference = times["import"]
    for units in sizes:
        print(f"cold `aslkb query` of {units} units ({units // 10} attacks, 3 queries each): "
              f"{times[units] * 1000:.0f} ms: {paired(rounds[units], rounds['import']):.1f}x the import "
              f"({'goal: within 25x; ' if units == 5000 else ''}"
              f"{(times[units] - reference) / units * 1000:.3f} ms a unit beyond the import)")
    low, high = sizes[0], sizes[-1]
    print(f"time per unit, {high} units against {low}: "
          f"{((times[high] - reference) / high) / ((times[low] - reference) / low):.2f}x (goal: at most 1.05)")


def grounding() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from grounding import ground_rules

    small, large = ground_rules(10, 2), ground_rules(100, 20)
    print(f"ground rules: {small} for 10 units / 2 attacks, {large} for 100 units / 20 attacks: "
          f"{large / small:.1f}x (goal: at most 20x)")


def diverge() -> None:
    from aslkb.tools.diverge import group, search

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


# kb/'s Python lines (without web/static, the bundled page) when issue 35 began
# (commit a740ec3): its goal is fewer.
LINES_AT_ISSUE_35 = 12_595


def python_lines() -> None:
    root = Path(__file__).resolve().parent.parent / "kb"
    lines = sum(len(path.read_text(encoding="utf-8").splitlines()) for path in root.rglob("*.py")
                if "static" not in path.relative_to(root).parts)
    print(f"Python lines in kb/ (without web/static): {lines:,} against {LINES_AT_ISSUE_35:,} when issue 35 "
          f"began (goal: fewer)")


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=11)
    options.add_argument("--no-diverge", action="store_true", help="skip the diverge search (a few seconds)")
    args = options.parse_args()
    # a cache folder of its own: every checkout on a machine shares ~/.cache/aslkb,
    # which keeps a few files of a kind, so a "cold" run there may be rebuilding
    # the knowledge base another checkout's run evicted
    with tempfile.TemporaryDirectory(prefix="aslkb-bench-") as cache:
        os.environ["ASLKB_CACHE_DIR"] = cache
        print(f"cache folder: {cache} (this run's own)")
        run_all(args)


def run_all(args: argparse.Namespace) -> None:
    aslkb = aslkb_command()
    python_lines()
    single_queries(aslkb, args.runs)
    check_speed(aslkb, max(3, args.runs // 3))
    failing_checks(aslkb, max(3, args.runs // 3))
    citations(args.runs)
    large_situations(aslkb, max(5, args.runs // 2))  # seconds a run: enough pairs for a steady ratio
    grounding()
    if not args.no_diverge:
        diverge()


if __name__ == "__main__":
    main()
