"""The `aslkb` program's first lines (pyproject.toml's console script, and
`python -m aslkb`): the garbage collector's thresholds are raised before the
command's modules are imported, then kb/cli/main.py's entry() runs.

A run makes many objects that live to its end (the modules' classes and
functions, the knowledge base's data, a situation's facts and symbols) and
few reference cycles: with the default thresholds the collector walks the
survivors again and again (a fifth of a 5,000-unit query's CPU; about 1 ms of
a cold query's imports alone). It still runs, rarely."""
import gc


def entry() -> None:
    gc.set_threshold(50_000, 20, 20)
    from aslkb.cli.main import entry as run

    run()
