"""Issue 33: `aslkb rules` took 37 s to 4 min cold, `aslkb impact` over a
minute: both solved every case with citations. Now `rules ID` solves only
the cases that can reach the id, the list shows its cases column only when
asked (--cases), and impact cites only the files whose answers change."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from aslkb.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases" / "asl"

# within_nvr alone: its questions cannot reach E1.7 (the night LV DRM)
WHEELED = """\
scenario night nvr 2
hex 3A1 open
unit G1 german squad 4-6-7 at 3A1
unit W1 russian vehicle at 3D1 wheeled in_motion
range G1 W1 3
expect within_nvr G1 W1
"""


def _cases(printed: str) -> list[str]:
    """The cases `aslkb rules ID` lists (`  cases:` then one per line, or `  cases: 0`)."""
    lines = printed.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("  cases:"))
    listed = []
    for line in lines[start + 1:] if lines[start] == "  cases:" else []:
        if not line.startswith("    "):
            break
        listed.append(line.strip())
    return listed


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    folder.mkdir()
    shutil.copy(CASES / "E1.7-EX.sit", folder / "E1.7-EX.sit")
    shutil.copy(CASES / "E1.6-lax-over-stealthy.sit", folder / "E1.6-lax-over-stealthy.sit")
    (folder / "wheeled.sit").write_text(WHEELED, encoding="utf-8")
    return folder


@pytest.fixture
def solved(monkeypatch) -> list[str]:
    """The case files solved with citations, in order (`rules --cases` and `impact` solve them)."""
    import aslkb.tools.corpus as corpus
    import aslkb.tools.coverage as coverage
    import aslkb.tools.impact as impact

    seen: list[str] = []
    original = corpus.run_corpus

    def recording(paths, *args, **options):
        for run in original(paths, *args, **options):
            seen.append(run.path.name)
            yield run

    for module in (corpus, coverage, impact):  # where it is looked up
        monkeypatch.setattr(module, "run_corpus", recording)
    return seen


def test_rules_for_an_id_solves_only_the_cases_that_can_reach_it(corpus, solved, capsys):
    assert main(["rules", "E1.7", "--cases", str(corpus)]) == 0
    printed = capsys.readouterr().out
    assert solved == ["E1.7-EX.sit"]  # neither the NVR case nor the class case asks what reaches E1.7
    assert _cases(printed) == [str(corpus / "E1.7-EX.sit")]
    solved.clear()
    assert main(["rules", "E1.7", "--cases", str(corpus)]) == 0
    assert capsys.readouterr().out == printed and solved == []  # kept: what each case cites, and can reach


def test_an_id_lists_the_same_cases_as_solving_every_case(corpus, capsys):
    from aslkb.tools.coverage import cases_testing

    every = cases_testing([str(corpus)])
    for rule_id in ("E1.7", "E1.14", "E1.62", "E1.1"):
        assert main(["rules", rule_id, "--cases", str(corpus)]) == 0
        listed = _cases(capsys.readouterr().out)
        assert listed == sorted(case for case, rules in every.items() if rule_id in rules), rule_id
        assert listed, rule_id


def test_the_list_solves_nothing_and_counts_cases_only_when_asked(corpus, solved, capsys):
    assert main(["rules"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert solved == [] and not any(" cases " in line for line in listed)
    assert main(["rules", "--json"]) == 0
    import json

    assert all("cases" not in entry for entry in json.loads(capsys.readouterr().out))
    assert main(["rules", "--cases", str(corpus)]) == 0
    counted = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert sorted(solved) == ["E1.6-lax-over-stealthy.sit", "E1.7-EX.sit", "wheeled.sit"]
    assert "  1 cases" in counted["E1.7"] and "  0 cases" in counted["E1.3"]


def test_impact_cites_only_the_files_whose_answers_change(corpus, solved, capsys):
    from aslkb.tools.corpus import run_corpus
    from aslkb.tools.impact import compare_runs

    assert main(["impact", str(corpus), "--without", "lax_over_stealthy"]) == 0
    printed = capsys.readouterr().out
    assert solved == ["E1.6-lax-over-stealthy.sit"] * 2  # as the files say, then without it
    # the same changes, rules responsible included, as citing every file twice
    solved.clear()
    every = compare_runs(list(run_corpus([str(corpus)])),
                         list(run_corpus([str(corpus)], switch_off=("lax_over_stealthy",))))
    assert [c.text() for c in every] == printed.splitlines()[1:-1]
    assert all(c.responsible for c in every)
