"""Print aslkb's performance figures beside their references, in one run.

    python benchmarks/bench.py [--runs N]

- a cold `aslkb query` of the shipped example, against `python -c "import clingo, lark"`
  (goal: at most 1.5 times the bare import);
- `aslkb check tests/cases`, in situation files and expectations per second.

Each figure is the median of several runs, taken in turns so that both sides
see the same machine. Run it from the repository root with the project
installed (the README's first command).
"""
from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "first-night.sit"
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


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=11)
    runs = options.parse_args().runs
    aslkb = aslkb_command()
    subprocess.run([*aslkb, "query", str(EXAMPLE)], cwd=ROOT, capture_output=True)  # fill the rule cache

    single = medians({
        "import": [sys.executable, "-c", "import clingo, lark"],
        "query": [*aslkb, "query", str(EXAMPLE)],
    }, runs)
    print(f"cold `aslkb query {EXAMPLE.relative_to(ROOT)}`: {single['query'] * 1000:7.1f} ms (median of {runs})")
    print(f"python -c 'import clingo, lark':      {single['import'] * 1000:7.1f} ms (median of {runs})")
    print(f"ratio: {single['query'] / single['import']:.2f} (goal: at most 1.5)")

    check_runs = max(3, runs // 3)
    durations, output = [], ""
    for _ in range(check_runs):
        start = time.perf_counter()
        output = subprocess.run([*aslkb, "check", str(CASES)], cwd=ROOT, capture_output=True, text=True).stdout
        durations.append(time.perf_counter() - start)
    seconds = statistics.median(durations)
    files = int(re.search(r"(\d+) files", output).group(1))
    passed, failed = map(int, re.search(r"(\d+) passed, (\d+) failed", output).groups())
    print(f"`aslkb check tests/cases`: {files} files, {passed + failed} expectations in {seconds:.2f} s "
          f"(median of {check_runs}): {files / seconds:.0f} files/s, {(passed + failed) / seconds:.0f} expectations/s")
    import resource

    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak resident memory of one aslkb process (check's workers included): {peak:.0f} MB (goal: under 300)")

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from grounding import ground_rules

    small, large = ground_rules(10, 2), ground_rules(100, 20)
    print(f"ground rules: {small} for 10 units / 2 attacks, {large} for 100 units / 20 attacks: "
          f"{large / small:.1f}x (goal: at most 20x)")


if __name__ == "__main__":
    main()
