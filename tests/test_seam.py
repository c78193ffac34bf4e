"""One way to run a situation (issue 16): `query` and `check` go through
kb/answers/run.py, and the speed machinery behind it (the selection, the
batches) changes no answer."""
from __future__ import annotations

from array import array
from pathlib import Path

import pytest

import aslkb.answers.batch
import aslkb.answers.run
from aslkb.parser import parse_file

from aslkb.answers.ask import settle
from aslkb.answers.run import run, run_many
from aslkb.knowledge.program import knowledge_base
from cli_helpers import run as run_cli
from cli_helpers import write

CASES = Path(__file__).parent / "cases"


def _shipped_cases():
    kb = knowledge_base()
    for path in sorted(CASES.rglob("*.sit")):
        situation = parse_file(path)
        yield str(path), situation, settle(situation, kb)


def _values(result) -> list:
    """What a run answers, citations aside: each `query` line's value, odds
    and reasons; each `expect` line's value and odds, and whether it holds
    (a batch does not name the open facts an expected `undecided` varies
    with: kb/answers/batch.py)."""
    def answer(a):
        return str(a.value), sorted(map(str, (a.distribution or {}).items()))

    return ([(a.query, *answer(a), a.undecided) for a in result.answers]
            + [(c.expect.line, c.passed, *answer(c.answer)) for c in result.checked])


def test_the_whole_program_answers_every_shipped_case_as_the_selection_does():
    kb = knowledge_base()
    selected = dict(run_many(_shipped_cases(), kb))
    whole = dict(run_many(_shipped_cases(), kb, whole=True))
    assert len(selected) == len(whole) > 400
    for path, result in selected.items():
        assert not isinstance(result, Exception), (path, result)
        assert not isinstance(whole[path], Exception), (path, whole[path])
        assert _values(whole[path]) == _values(result), path
        assert not result.failed, path


def test_a_batch_answers_as_one_situation_alone_does():
    """check's way (values, in batches) against query's (one situation, cited):
    the cases that have `query` lines, whose answers a check does not print."""
    kb = knowledge_base()
    asking = [case for case in _shipped_cases() if case[1].queries]
    assert asking
    for path, result in run_many(asking, kb):
        situation, settings = next((s, st) for p, s, st in asking if p == path)
        assert _values(result) == _values(run(situation, settings, kb)), path


def test_one_batch_answers_situations_of_every_edition_and_interpretation_as_each_alone_does(monkeypatch):
    """A chunk mixes editions and interpretations (each situation grounds
    only the rules it selects, kb/answers/batch.py guarded()): the shipped
    cases that switch an interpretation, the SL ones and some ASL ones with
    the defaults, answered together, as each is alone."""
    kb = knowledge_base()
    default = settle(parse_file(CASES / "asl" / "E1.1-day.sit"), kb)
    shipped = list(_shipped_cases())
    third = aslkb.answers.batch.CHUNK // 3  # one chunk's worth
    mixed = ([case for case in shipped if case[2].interpretations != default.interpretations][:third]
             + [case for case in shipped if case[2].edition == "sl4"][:third]
             + [case for case in shipped if case[2] == default][:third])
    chunks = []
    original_chunk = aslkb.answers.batch.answer_chunk
    monkeypatch.setattr(aslkb.answers.batch, "answer_chunk",
                        lambda chunk, *a, **k: chunks.append({s for _, s in chunk}) or original_chunk(chunk, *a, **k))
    results = dict(run_many(mixed, kb, expectations_only=True))
    assert len(chunks) == 1 and len({s.edition for s in chunks[0]}) == 2 and len(chunks[0]) > 4
    for path, situation, settings in mixed:
        alone = run(situation, settings, kb, cite=False)
        assert [(c.passed, c.answer.value) for c in results[path].checked] == \
            [(c.passed, c.answer.value) for c in alone.checked], path


def test_a_batch_gives_the_odds_of_every_shipped_case_as_one_situation_alone_does(monkeypatch):
    """The cases that expect odds, and those whose answers a missing die
    changes, answered in a batch (kb/answers/batch.py SecondLook: the dice
    of each answer's cone enumerated in the chunk's second look) and alone:
    the same values, the same distributions in the same order, the same
    reasons, and the same failure line were the expectation to fail (an
    `expect = undecided` no die reaches excepted: the batch answers only that
    it varies, which is all the expectation asks). Those
    with a gap or an open fact beside the dice, or a share of the dice that
    decides nothing, are the ordinary path's (E1.11-odds: the damaged NVR
    rows; E1.21: Freedom of Movement gained earlier)."""
    from aslkb.answers.ask import Checked
    from aslkb.answers.read import VARIES
    from aslkb.parser import UNDECIDED, Distribution
    from aslkb.render.text import expectation_text

    kb = knowledge_base()
    odds = [case for case in _shipped_cases()
            if any(isinstance(e.expected, Distribution) for e in case[1].expects)]
    assert len(odds) > 20
    alone = []
    original_ask = aslkb.answers.run.ask
    monkeypatch.setattr(aslkb.answers.run, "ask", lambda *a, **k: alone.append(a[0].filename) or original_ask(*a, **k))
    results = dict(run_many(odds, kb, expectations_only=True))
    assert len(alone) < len(odds) / 3, alone  # most are the batch's own
    assert str(CASES / "asl" / "E1.11-odds.sit") in alone and str(CASES / "asl" / "E1.12-odds.sit") not in alone
    monkeypatch.setattr(aslkb.answers.run, "ask", original_ask)
    for path, situation, settings in odds:
        batch, one = results[path], run(situation, settings, kb, cite=False)
        assert not batch.failed, path
        for mine, theirs in zip(batch.checked, one.checked):
            a, b = mine.answer, theirs.answer
            if a.undecided == [VARIES] and mine.expect.expected is UNDECIDED:
                # an `expect = undecided` no die reaches: the batch says only that it
                # varies (kb/answers/batch.py _result), which the expectation needs
                assert b.value is None and not b.distribution and b.undecided, (path, mine.expect.line)
                continue
            assert (a.value, list((a.distribution or {}).items()), a.undecided, a.missing_roll) == \
                (b.value, list((b.distribution or {}).items()), b.undecided, b.missing_roll), (path, mine.expect.line)
            assert expectation_text(Checked(mine.expect, a, False)) == \
                expectation_text(Checked(theirs.expect, b, False)), path


def test_query_and_check_both_go_through_the_seam(tmp_path, capsys, monkeypatch):
    alone, batched = [], []
    original_ask, original_chunk = aslkb.answers.run.ask, aslkb.answers.batch.answer_chunk
    monkeypatch.setattr(aslkb.answers.run, "ask", lambda *a, **k: alone.append(a[0]) or original_ask(*a, **k))
    monkeypatch.setattr(aslkb.answers.batch, "answer_chunk",
                        lambda chunk, *a, **k: batched.append(len(chunk)) or original_chunk(chunk, *a, **k))
    one = write(tmp_path, "scenario night nvr 3\nexpect base_nvr = 3\n", "a.sit")
    write(tmp_path, "scenario night nvr 2\nexpect base_nvr = 3\n", "b.sit")
    assert run_cli(capsys, "query", one)[0] == 0
    assert len(alone) == 1 and not batched
    code, out, _ = run_cli(capsys, "check", tmp_path)
    assert code == 1 and batched == [2] and len(alone) == 1  # the failure is the batch's own answer
    assert f"{tmp_path / 'b.sit'}:2: expect base_nvr = 3, got 2" in out


@pytest.mark.parametrize("verbose", [False, True])
def test_a_failure_cites_its_rules_only_when_asked(tmp_path, capsys, verbose):
    write(tmp_path, "scenario night nvr 3\nexpect base_nvr = 3\n", "a.sit")
    write(tmp_path, "scenario night nvr 2\nexpect base_nvr = 3\n", "b.sit")
    _, out, _ = run_cli(capsys, "check", *(["-v"] if verbose else []), tmp_path)
    [failure] = [line for line in out.splitlines() if "got 2" in line]
    assert failure.endswith("]") is verbose  # `[E1.1, ...]`: the rules behind the answer
    assert (f"{tmp_path / 'a.sit'}: 1 expectations" in out) is verbose  # -v lists every file checked


def test_check_leaves_query_lines_unanswered_so_an_open_fact_there_keeps_the_file_in_its_batch(
        tmp_path, capsys, monkeypatch):
    """check neither prints nor compares a `query` line's answer: one that
    varies with an open fact (the LOS to 3C3 is not stated) needs no naming
    there, and the file's expectations, failures included, are the batch's
    own answers (kb/answers/run.py, expectations_only)."""
    situation = ("scenario night nvr 2\nhex 3C1 open illuminated\nhex 3C3 open illuminated\n"
                 "unit G2 german squad 4-6-7 at 3A5\n"
                 "unit R1 russian squad 4-4-7 at 3D1 concealed moved\n"
                 "unit R3 russian squad 4-4-7 at 3D3 concealed moved\n"
                 "move M1 R1 to 3C1\nmove M3 R3 to 3C3\nlos G2 3C1 clear\nquery loses_concealment M3\n")
    holds = write(tmp_path, situation + "expect loses_concealment M1\n", "a.sit")
    fails = write(tmp_path, situation + "expect not loses_concealment M1\n", "b.sit")
    alone = []
    original_ask = aslkb.answers.run.ask
    monkeypatch.setattr(aslkb.answers.run, "ask", lambda *a, **k: alone.append(a[0]) or original_ask(*a, **k))
    code, out, _ = run_cli(capsys, "check", tmp_path)
    assert code == 1 and not alone
    assert f"{fails}:11: expect loses_concealment M1 = no, got yes\n" in out
    assert "1 passed, 1 failed" in out
    code, out, _ = run_cli(capsys, "query", holds)  # the query line does vary: `query` names the LOS
    assert code == 0 and "loses_concealment M3 = undecided: one of: los G2 3C3" in out, out


def test_a_missing_die_sends_an_expected_undecided_to_the_ordinary_path_only_where_it_reaches_the_answer(monkeypatch):
    """E1.54-open-facts: its own rules give its broken units' moves a die
    the file does not give, but the routs it expects undecided vary with
    the open LOS and terrain alone (no die in their cone): the batch holds
    them. A12.12-range: the "?" gain it expects undecided has the
    concealment die in its cone: the ordinary path decides between odds and
    undecided. E1.51-open-facts, beside E1.53-decided-without-move, which
    asks whether units stray: each situation grounds only the rules its own
    questions reach, so the night moves of E1.51 get no movement DR from
    E1.53's, and nothing is missing there."""
    kb = knowledge_base()
    alone = []
    original_ask = aslkb.answers.run.ask
    monkeypatch.setattr(aslkb.answers.run, "ask", lambda *a, **k: alone.append(a[0]) or original_ask(*a, **k))
    paths = [CASES / "asl" / name for name in ("E1.51-open-facts.sit", "A12.12-range.sit",
                                               "E1.54-open-facts.sit", "E1.53-decided-without-move.sit")]
    cases = [(path.name, situation, settle(situation, kb)) for path in paths for situation in [parse_file(path)]]
    solved = []
    original_solve = aslkb.answers.batch.solve_batch
    monkeypatch.setattr(aslkb.answers.batch, "solve_batch", lambda *a: solved.extend(original_solve(*a)) or solved)
    results = dict(run_many(cases, kb, expectations_only=True))
    assert not solved[0].dice_missing and solved[0].varying  # E1.51: no die of E1.53's rules
    assert solved[2].dice_missing and solved[2].varying  # E1.54: a die is missing, and an answer varies
    assert [situation.filename for situation in alone] == [str(paths[1])]
    assert all(result.checked and not result.failed for result in results.values()), results
    for name, query in [("E1.51-open-facts.sit", "mf_cost M1"), ("E1.54-open-facts.sit", "rout_open_ground M2")]:
        [varies] = [c.answer for c in results[name].checked if c.expect.query.text == query]
        assert varies.undecided == [aslkb.answers.batch.VARIES]  # the batch's own answer


def test_check_deals_large_blocks_first_and_small_ones_last():
    """On several cores each block is a share of the files still to deal:
    large first, small at the end, so that no core waits long for the
    other's last block. On one core, even blocks of at most BLOCK."""
    from aslkb.tools.check import BLOCK, SMALLEST, _split

    assert BLOCK == aslkb.answers.batch.CHUNK  # a block is one chunk's worth (check.py can import only the one door)
    for files, cores in [(600, 2), (2400, 2), (547, 2), (100, 2), (40, 2), (600, 1), (129, 1), (0, 2), (30, 2)]:
        blocks = _split(list(range(files)), cores)
        assert [path for block in blocks for path in block] == list(range(files))  # each once, in order
        assert all(len(block) <= BLOCK for block in blocks)
        if cores == 1 and len(blocks) > 1:
            assert len(blocks[0]) - len(blocks[-1]) <= len(blocks)  # even
        elif len(blocks) > 1:
            sizes = [len(block) for block in blocks]
            assert min(sizes) >= SMALLEST // 2  # not a block of a few files
            assert sizes[:-1] == sorted(sizes[:-1], reverse=True) and sizes[-1] < SMALLEST * 3 // 2  # small last
    sizes = [len(block) for block in _split(list(range(600)), 2)]
    assert sizes[0] == BLOCK and max(sizes[-3:]) < 40
    even = [len(block) for block in _split(list(range(600)), 1)]
    assert len(set(even)) == 1 and even[0] <= BLOCK and sum(even) == 600 and even[0] > BLOCK // 2
    assert len(_split(list(range(30)), 2)) == 1  # not split into a block of a few files


def _answered_by(paths, cite, options):  # (a worker pickles its function by name)
    import os

    return {path: (os.getpid(), []) for path in paths}


def _dies_on_the_third(paths, cite, options):
    import os

    if paths[0].startswith("2-"):
        os._exit(1)
    return {path: (1, []) for path in paths}


def test_check_hands_each_block_to_the_next_free_worker_and_replaces_a_worker_after_its_round(monkeypatch):
    """Every block answered once, by workers that make way for fresh ones
    after ROUND files; a worker that dies sends its block, and those not
    yet answered, to the ordinary path (None), without waiting forever."""
    import os

    import aslkb.tools.check as check

    monkeypatch.setattr(check, "ROUND", 20)
    monkeypatch.setattr(check, "check_block", _answered_by)
    blocks = [[f"{b}-{i}" for i in range(10)] for b in range(9)]
    verdicts = {}
    for answered in check._dealt(blocks, 2, check.Wanted(), {}):
        verdicts.update(answered)
    assert sorted(verdicts) == sorted(p for block in blocks for p in block)
    workers = {held for held, _ in verdicts.values()}
    assert os.getpid() not in workers and len(workers) >= 4  # two at a time, each for two blocks at most

    monkeypatch.setattr(check, "check_block", _dies_on_the_third)
    verdicts = {}
    for answered in check._dealt(blocks, 2, check.Wanted(), {}):
        verdicts.update(answered)
    assert sorted(verdicts) == sorted(p for block in blocks for p in block)
    assert all(verdicts[p] is None for p in blocks[2])
    assert all(verdicts[p] is not None for p in blocks[0] + blocks[1])  # answered before it died


def test_selections_kept_in_another_form_are_made_again(tmp_path, monkeypatch):
    """An older cache kept the selections as tuples, and a damaged entry is
    not a whole number of statement numbers: neither is read."""
    from aslkb.answers.batch import _KEPT, _REACHED, remember_selections
    from aslkb.base import diskcache
    from aslkb.engine.batch import cache_signature

    monkeypatch.setenv("ASLKB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setitem(_KEPT, "signature", None)
    kb = knowledge_base()
    key = ("asl", (), False, frozenset())
    for kept in ({key: (1, 2, 3)}, {key: b"\x01\x02\x03"}):
        diskcache.store("selections", cache_signature(kb), kept)
        _REACHED.clear()
        _KEPT.update(signature=None, size=0)
        remember_selections(kb)
        assert key not in _REACHED
    diskcache.store("selections", cache_signature(kb), {key: array("I", [1, 2, 3]).tobytes()})
    _KEPT.update(signature=None, size=0)
    remember_selections(kb)
    assert _REACHED[key] == array("I", [1, 2, 3])
    _REACHED.clear()
    _KEPT.update(signature=None, size=0)


def test_check_remembers_the_selections_of_its_situations_on_disk_for_the_next_run(tmp_path, monkeypatch):
    """A worker stores the selections it made (kb/answers/batch.py
    keep_selections); the next run reads them before its workers fork and
    selects nothing again for the same questions, and what it reads is
    what select() gives."""
    from aslkb.answers.batch import _KEPT, _REACHED, remember_selections
    from aslkb.tools.check import Wanted, check_block

    monkeypatch.setenv("ASLKB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setitem(_KEPT, "signature", None)  # this process's memo is not the disk's
    kb = knowledge_base()
    paths = [str(CASES / "asl" / name) for name in ("E1.1-day.sit", "E1.12-odds.sit", "A7.9-cowering.sit")]
    check_block(paths, Wanted(), {})
    assert list((tmp_path / "cache").glob("selections-*.marshal"))
    kept = dict(_REACHED)
    _REACHED.clear()
    _KEPT.update(signature=None, size=0)
    remember_selections(kb)
    by_patterns = {key: value for key, value in kept.items() if key[0] != "facts"}
    by_facts = {key: value for key, value in kept.items() if key[0] == "facts"}
    assert _REACHED == kept and len(by_patterns) == 3 and len(by_facts) == 1  # E1.12-odds's second look
    for (edition, interpretations, whole, _), statements in by_patterns.items():
        assert not whole and edition == "asl" and statements
    made = []
    original_select = kb.select
    monkeypatch.setattr(kb, "select", lambda *a, **k: made.append(a) or original_select(*a, **k))
    verdicts = check_block(paths, Wanted(), {})
    assert all(verdict is not None for verdict in verdicts.values())
    assert made == []  # no selection made again, the second look's by the facts neither
    monkeypatch.setattr(kb, "select", original_select)
    for path in paths:  # what was read is what select() gives
        situation = parse_file(path)
        settings = settle(situation, kb)
        asked = sorted({q.symbol for q in situation.queries} | {e.query.symbol for e in situation.expects})
        assert array("I", kb.select(settings.edition, list(settings.interpretations), asked).statements) in kept.values()
        if "odds" in path:
            facts = aslkb.answers.batch._ordinary_facts(situation, settings, set(asked))
            selected = kb.select(settings.edition, list(settings.interpretations), asked, facts).statements
            assert array("I", selected) in by_facts.values()


def test_check_deals_first_the_files_the_last_run_answered_on_the_ordinary_path(tmp_path, monkeypatch):
    """A worker keeps on disk which files of its block left the batch (and
    their cost there); the next run deals those first, the others in their
    order, and a file the batch answers again is forgotten. The verdicts
    are the same whatever the order."""
    from aslkb.tools import check

    monkeypatch.setenv("ASLKB_CACHE_DIR", str(tmp_path / "cache"))
    cheap = [str(CASES / "asl" / name) for name in ("E1.1-day.sit", "A7.9-cowering.sit", "E1.12-odds.sit")]
    dear = str(CASES / "asl" / "A12.12-range.sit")  # undecided beside a die and open facts: the ordinary path
    paths = [*cheap, dear]
    assert check._dear_first(paths) == paths  # nothing learnt yet
    verdicts = check.check_block(paths, check.Wanted(), {})
    assert check._dear_first(paths) == [dear, *cheap]
    assert check._dear_first(cheap) == cheap
    assert check.check_block([dear, *cheap], check.Wanted(), {}) == verdicts
    assert all(verdict is not None and not verdict[1] for verdict in verdicts.values())

    check._keep_dear([dear], {})  # answered in the batch this time (a file or rule changed): forgotten
    assert check._dear_first(paths) == paths
    check._keep_dear([cheap[1], dear], {cheap[1]: 0.01, dear: 0.05})
    assert check._dear_first(paths) == [dear, cheap[1], cheap[0], cheap[2]]  # dearest first


def test_check_ignores_a_record_of_dear_files_of_another_shape(tmp_path, monkeypatch):
    """The record check keeps of the dear files is only read as path -> CPU
    seconds: a record another version wrote under the same signature (other
    keys, other values) leaves the files in their order, and is replaced."""
    from aslkb.answers.batch import cache_signature
    from aslkb.base import diskcache
    from aslkb.knowledge.program import knowledge_base
    from aslkb.tools import check

    monkeypatch.setenv("ASLKB_CACHE_DIR", str(tmp_path / "cache"))
    paths = [str(CASES / "asl" / name) for name in ("E1.1-day.sit", "A12.12-range.sit")]
    diskcache.store(check.DEAR, cache_signature(knowledge_base()), {paths[1]: "dear", 3: 1.0, paths[0]: True})
    assert check._dear_first(paths) == paths
    check._keep_dear(paths[1:], {paths[1]: 0.05})
    assert check._dear_first(paths) == [paths[1], paths[0]]
