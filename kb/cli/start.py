"""The `aslkb` program's first lines (pyproject.toml's console script, and
`python -m aslkb`): the garbage collector's thresholds are raised before the
command's modules are imported, then kb/cli/main.py's entry() runs.

A run makes many objects that live to its end (the modules' classes and
functions, the knowledge base's data, a situation's facts and symbols) and
few reference cycles: with the default thresholds the collector walks the
survivors again and again (a fifth of a 5,000-unit query's CPU; about 1 ms of
a cold query's imports alone). It still runs, rarely.

A query answers one situation and ends (kb/cli/main.py: os._exit): it keeps
its young collections but not the middle generation's, a walk over every
survivor of the young ones (at 10,000 units one, about 60 ms: the part of
the collector's time that grows faster than the units; the peak memory the
same). A command that runs on (check, serve) keeps them all."""
import gc
import sys


def entry() -> None:
    gc.set_threshold(50_000, 1_000 if sys.argv[1:2] == ["query"] else 20, 20)
    from aslkb.cli.main import entry as run

    run()
