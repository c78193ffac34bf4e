"""Contradictions: a situation no model satisfies is an inconsistent situation,
reported with the smallest set of its statements that conflict, by line
(rules/common/consistency.lp, kb/engine/conflict.py); never "no answer"."""
from __future__ import annotations

import copy
import time

import pytest

from aslkb.answers.ask import ask, query_facts, settle
from aslkb.engine.conflict import ConflictingStatements
from aslkb.engine.solve import solve
from aslkb.parser import parse
from aslkb.knowledge.program import knowledge_base
from cli_helpers import run, write

HEAD = "scenario night nvr 2\n"




# Each kind of contradiction that reaches the solver: the file, and the lines
# (with their text) the report must name, in file order.
KINDS = {
    "range between two units in the same hex is not 0": (
        HEAD + "unit G1 german squad 4-6-7 at 3A1\nunit R1 russian squad 4-4-7 at 3A1\n"
               "range G1 R1 2\nquery base_nvr\n",
        ["2: unit G1 german squad 4-6-7 at 3A1", "3: unit R1 russian squad 4-4-7 at 3A1", "4: range G1 R1 2"],
        "places in the same hex are at range 0"),
    "two ranges between the same hexes through different units": (
        HEAD + "unit G1 german squad 4-6-7 at A1\nunit R1 russian squad 4-4-7 at A5\n"
               "unit R2 russian squad 4-4-7 at A5\nrange G1 R1 2\nrange G1 R2 3\nquery within_nvr G1 R1\n",
        ["2: unit G1 german squad 4-6-7 at A1", "3: unit R1 russian squad 4-4-7 at A5",
         "4: unit R2 russian squad 4-4-7 at A5", "5: range G1 R1 2", "6: range G1 R2 3"],
        "two hexes are one range apart"),
    "a range stated both ways round with different values": (
        "unit G1 german squad 4-6-7\nunit R1 russian squad 4-4-7\nrange G1 R1 2\nrange R1 G1 3\n",
        ["3: range G1 R1 2", "4: range R1 G1 3"],
        "two places are one range apart"),
    "a unit in two hexes: aboard a vehicle in another hex": (
        HEAD + "unit V1 russian vehicle at 3A1\nunit P1 russian squad 4-4-7 at 3B2 aboard V1\nquery nvr P1\n",
        ["2: unit V1 russian vehicle at 3A1", "3: unit P1 russian squad 4-4-7 at 3B2 aboard V1"],
        "E1.14"),
    "broken and berserk": (
        HEAD + "unit G1 german squad 4-6-7 at 3A1 broken berserk\nquery night_class G1\n",
        ["2: unit G1 german squad 4-6-7 at 3A1 broken berserk"],
        "broken and berserk are two ways of not being in Good Order"),
    "night and day": (
        "scenario night\nscenario nvr 2 day\nquery base_nvr\n",
        ["1: scenario night", "2: scenario nvr 2 day"],
        "E1.1"),
    "two night classes stated for one unit": (
        HEAD + "unit G1 german squad 4-6-7 at 3A1 lax stealthy\nquery night_class G1\n",
        ["2: unit G1 german squad 4-6-7 at 3A1 lax stealthy"],
        "E1.6"),
    "a Fire Group of both sides": (
        "unit G1 german squad 4-6-7\nunit B1 british squad 4-5-8\nattack A1 by G1,B1 at 3A2\nquery fp A1\n",
        ["1: unit G1 german squad 4-6-7", "2: unit B1 british squad 4-5-8", "3: attack A1 by G1,B1 at 3A2"],
        "a Fire Group is formed by friendly units"),
    "an attack on a friendly unit": (
        "unit G1 german squad 4-6-7\nunit G2 german squad 4-4-7\nattack A1 by G1 at G2\nquery fp A1\n",
        ["1: unit G1 german squad 4-6-7", "2: unit G2 german squad 4-4-7", "3: attack A1 by G1 at G2"],
        "an attack is made on the enemy"),
    "an attack on a unit a side statement makes friendly": (
        "unit G1 german squad 4-6-7\nunit R1 russian squad 4-4-7\nside R1 axis\nattack A1 by G1 at R1\n"
        "query fp A1\n",
        ["1: unit G1 german squad 4-6-7", "3: side R1 axis", "4: attack A1 by G1 at R1"],
        "an attack is made on the enemy"),
    "LOS stated both ways round that disagree": (
        HEAD + "unit G1 german squad 4-6-7\nunit R1 russian squad 4-4-7\nlos G1 R1 clear\nlos R1 G1 blocked\n"
               "query may_fire G1 R1\n",
        ["4: los G1 R1 clear", "5: los R1 G1 blocked"],
        "LOS between two places is one"),
    "a LOS Hindrance stated both ways round that disagrees": (
        "unit G1 german squad 4-6-7\nunit R1 russian squad 4-4-7\nlos G1 R1 hindrance 1\n"
        "los R1 G1 hindrance 2\nattack A1 by G1 at R1\nquery drm A1 hindrance\n",
        ["3: los G1 R1 hindrance 1", "4: los R1 G1 hindrance 2"],
        "Hindrance stated both ways round"),
    "a range that is not the distance between two hexes of one board": (
        "unit G1 german squad 4-6-7 at 3E2\nunit R1 russian squad 4-4-7 at 3E4\nrange G1 R1 9\n"
        "attack A1 by G1 at R1\nquery fp A1\n",
        ["1: unit G1 german squad 4-6-7 at 3E2", "2: unit R1 russian squad 4-4-7 at 3E4", "3: range G1 R1 9"],
        "their distance on that board"),
    "a vehicle aboard itself": (
        "unit V1 german vehicle aboard V1\nquery nvr V1\n",
        ["1: unit V1 german vehicle aboard V1"],
        "never aboard itself"),
    "two vehicles aboard each other": (
        "unit V1 german vehicle aboard V2\nunit V2 german vehicle aboard V1\nquery nvr V1\n",
        ["1: unit V1 german vehicle aboard V2", "2: unit V2 german vehicle aboard V1"],
        "never aboard itself"),
    "two Classes stated for one unit": (
        "unit G1 german squad 4-6-7 elite green\nattack A1 by G1 at 3A2\nquery cowers A1\n",
        ["1: unit G1 german squad 4-6-7 elite green"],
        "a unit has one Class"),
    "a tracked and wheeled vehicle": (
        HEAD + "unit V1 german vehicle at 3A1 tracked wheeled\nquery nvr V1\n",
        ["2: unit V1 german vehicle at 3A1 tracked wheeled"],
        "tracked or wheeled"),
    "a unit aboard both a Passenger and a Rider": (
        "unit V1 german vehicle afv\nunit P1 german squad 4-6-7 aboard V1 passenger rider pinned\n"
        "query must_bail_out P1\n",
        ["2: unit P1 german squad 4-6-7 aboard V1 passenger rider pinned"],
        "A7.821"),
    "an attack with both a PTC and a MC result": (
        HEAD + "unit G1 german squad 4-6-7 at 3A1\nunit R1 russian squad 4-4-7 at 3A3 concealed\n"
               "attack A1 by G1 at R1 ptc mc 0\nquery concealment_lost R1\n",
        ["4: attack A1 by G1 at R1 ptc mc 0"],
        "one IFT result"),
    "a leader of the other side directs the attack": (
        "unit G1 german squad 4-6-7 at 3A1\nunit L1 russian leader 9-2 at 3A1\nunit R1 russian squad 4-4-7 at 3A3\n"
        "attack A1 by G1 at R1 directed_by L1\nquery drm A1 leadership\n",
        ["1: unit G1 german squad 4-6-7 at 3A1", "2: unit L1 russian leader 9-2 at 3A1",
         "4: attack A1 by G1 at R1 directed_by L1"],
        "A7.531: a leader directing fire is treated as if he were firing"),
    "a Dummy fires": (
        "unit G1 german squad 4-6-7 at 3A1 dummy\nunit R1 russian squad 4-4-7 at 3A3\nrange G1 R1 2\n"
        "attack A1 by G1 at R1\nquery fp A1\nquery column A1\n",
        ["1: unit G1 german squad 4-6-7 at 3A1 dummy", "4: attack A1 by G1 at R1"],
        "A12.1: a Dummy is no unit"),
    "a Dummy leader directs the attack": (
        "unit G1 german squad 4-6-7 at 3A1\nunit L1 german leader 8-1 at 3A1 dummy\nunit R1 russian squad 4-4-7\n"
        "attack A1 by G1 at R1 directed_by L1\nquery drm A1 leadership\n",
        ["2: unit L1 german leader 8-1 at 3A1 dummy", "4: attack A1 by G1 at R1 directed_by L1"],
        "A12.1: a Dummy is no unit"),
    "a pinned unit moves": (
        "unit G1 german squad 4-6-7 at 3G4 pinned\nhex 3G5 woods\nmove M1 G1 to 3G5\nquery mf_cost M1\n",
        ["1: unit G1 german squad 4-6-7 at 3G4 pinned", "3: move M1 G1 to 3G5"],
        "A7.8: a pinned unit may not move farther"),
    "a LOS blocked between two units in one Location": (
        "unit G1 german squad 4-6-7 at 3A1\nunit G2 german squad 4-6-7 at 3A1\nlos G1 G2 blocked\n"
        "query may_fire G1 G2\n",
        ["1: unit G1 german squad 4-6-7 at 3A1", "2: unit G2 german squad 4-6-7 at 3A1", "3: los G1 G2 blocked"],
        "LOS within one Location (one hex, one level) is never blocked nor hindered"),
    "a LOS hindered from a hex to itself": (
        "los 3A1 3A1 hindrance 1\nquery base_nvr\n",
        ["1: los 3A1 3A1 hindrance 1"],
        "LOS within one Location (one hex, one level) is never blocked nor hindered"),
    "a squad aboard a squad": (
        "unit G1 german squad 4-6-7 at 3A1\nunit G2 german squad 4-6-7 at 3A1 aboard G1\nquery nvr G2\n",
        ["1: unit G1 german squad 4-6-7 at 3A1", "2: unit G2 german squad 4-6-7 at 3A1 aboard G1"],
        "A7.821: only a vehicle carries Passengers, Riders or a Crew"),
    "a Cloaking counter that splits": (
        HEAD + "unit C1 german cloaking at 3A1\nmove M1 C1 to 3A2 split\nquery loses_concealment M1\n",
        ["2: unit C1 german cloaking at 3A1", "3: move M1 C1 to 3A2 split"],
        "E1.422"),
}


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_contradiction_is_an_inconsistent_situation_naming_its_lines(kind, tmp_path, capsys):
    text, lines, rule = KINDS[kind]
    path = write(tmp_path, text)
    code, out, err = run(capsys, "query", path)
    assert code == 2 and out == ""
    verb = "this statement contradicts itself" if len(lines) == 1 else "these statements conflict"
    last = lines[-1].split(":")[0]
    assert err.startswith(f"{path}:{last}:1: inconsistent situation: {verb}: {'; '.join(lines)} (against "), err
    notes = err.rstrip().splitlines()[1:]  # every other statement involved, located
    assert notes == [f"{path}:{n}:1: note: in conflict with it: {t}"
                     for n, t in (line.split(": ", 1) for line in lines[:-1])]
    assert rule in err and "rules/common/consistency.lp:" in err
    assert err.splitlines()[0].endswith("correct it" if len(lines) == 1 else "correct or remove one of them")
    assert "Traceback" not in err and "no answer" not in err


@pytest.mark.parametrize("kind", KINDS)
def test_the_reported_lines_are_a_minimal_conflict(kind):
    """Without any one of the lines reported, the situation has a model."""
    text, lines, _ = KINDS[kind]
    kb = knowledge_base()
    situation = parse(text, "case.sit")
    with pytest.raises(ConflictingStatements) as info:
        ask(situation, settle(situation, kb), kb)
    reported = [number for number, _ in info.value.lines]
    settings = settle(situation, kb)
    queries = [q.symbol for q in situation.queries]
    selection = kb.select(settings.edition, list(settings.interpretations), [q.name for q in situation.queries])
    for dropped in reported:  # the facts of every other line: a model exists
        kept = [f for f in situation.facts if f.line != dropped]
        shrunk = copy.copy(situation)
        shrunk.facts = kept
        solve(selection.text, query_facts(shrunk, settings, queries), settings)


def test_the_conflict_leaves_out_the_statements_that_take_no_part(tmp_path, capsys):
    text = ("# two ranges for one pair\nscenario night nvr 2 year 1944\nhex 3G5 woods\n"
            "unit G1 german squad 4-6-7 at 3G4 # the firer\nunit R1 russian squad 4-4-7\n"
            "unit R2 russian squad 4-4-7 at 3G7\nrange G1 R2 3\nrange G1 R1 2   # first\n"
            "move M1 G1 to 3G5\nroll movement G1 colored 6 white 4\nrange R1 G1 4  # second\n"
            "query night_class G1\nexpect strays G1\n")
    code, _, err = run(capsys, "query", write(tmp_path, text))
    assert code == 2
    assert ": these statements conflict: 8: range G1 R1 2; 11: range R1 G1 4 (against" in err


def test_clingos_core_is_shrunk_to_a_minimal_one(tmp_path, capsys):
    """Many statements, two of them in conflict: only those two are named."""
    units = "".join(f"unit U{i} german squad 4-6-7 at 3A{i}\n" for i in range(1, 30))
    ranges = "".join(f"range U{i} U{i + 1} 1\n" for i in range(1, 29))
    text = HEAD + units + ranges + "range U2 U1 5\nquery base_nvr\n"
    code, _, err = run(capsys, "query", write(tmp_path, text))
    assert code == 2
    assert ": these statements conflict: 31: range U1 U2 1; 59: range U2 U1 5 (against" in err


def test_check_reports_an_inconsistent_file_and_goes_on(tmp_path, capsys):
    write(tmp_path, KINDS["broken and berserk"][0], "a-broken.sit")
    write(tmp_path, HEAD + "expect base_nvr = 2\n", "b-fine.sit")
    code, out, _ = run(capsys, "check", tmp_path)
    assert code == 2
    assert f"{tmp_path / 'a-broken.sit'}:2:1: inconsistent situation: this statement contradicts itself: 2: " in out
    assert "1 passed" in out


@pytest.mark.parametrize("command", [["odds"], ["explain"]])
def test_odds_and_explain_report_the_conflict_too(command, tmp_path, capsys):
    path = write(tmp_path, KINDS["a range stated both ways round with different values"][0])
    code, out, err = run(capsys, *command, path, "base_nvr")
    assert code == 2 and out == ""
    assert f"{path}:4:1: inconsistent situation: these statements conflict: 3: range G1 R1 2; 4: range R1 G1 3" in err
    assert f"{path}:3:1: note: in conflict with it: range G1 R1 2" in err


def test_a_conflict_without_queries_is_still_found(tmp_path, capsys):
    code, _, err = run(capsys, "query", write(tmp_path, "scenario night day\n"))
    assert code == 2 and "this statement contradicts itself: 1: scenario night day" in err


@pytest.mark.parametrize("text, message", [
    # refused by the parser at the word, before any solving: kept as they are
    ("roll recon 2\nroll recon 3\n", "roll recon is given twice (first at line 1)"),
    ("unit G1 german squad\nunit G1 russian squad\n", "'G1' is already defined as a unit at line 1"),
    ("unit G1 german squad\nunit R1 russian squad\nrange G1 R1 2\nrange G1 R1 3\n",
     "range G1 R1 is given twice with different values"),
    ("scenario weather clear\nscenario weather rain\n", "scenario weather is given twice with different values"),
    # one number the game does not give (issue 37): refused at the word, not as a conflict
    ("range 3A1 3B2 -1\nquery base_nvr\n", "range 3A1 3B2 -1 is below 0: a range counts hexes"),
])
def test_contradictions_on_the_same_words_are_the_parsers(text, message, tmp_path, capsys):
    path = write(tmp_path, text)
    code, _, err = run(capsys, "query", path)
    assert code == 2 and err.startswith(f"{path}:") and message in err
    assert "inconsistent situation" not in err



@pytest.mark.parametrize("pair, distance", [
    ("3E2 3E4", 2), ("3K6 3H7", 3), ("3K6 3I7", 2), ("3K6 3H8", 4), ("3A1 3B0", 1), ("3A1 3B1", 1),
    ("3A1 3B2", 2), ("3A1 3GG10", 32)])
def test_a_range_between_hexes_of_one_board_must_be_their_distance(pair, distance, tmp_path, capsys):
    """The even-lettered columns sit half a hex lower: the E1.923 EX's Starshell,
    scattered three hexes from K6, lands in H7 (I7 at two); the other parity
    would put 3H8 three hexes from 3K6."""
    for stated, code in ((distance, 0), (distance + 1, 2), (distance - 1, 2)):
        path = write(tmp_path, f"range {pair} {stated}\nquery base_nvr\n")
        assert run(capsys, "query", path)[0] == code, (pair, stated)


def test_a_range_between_different_boards_or_bare_hexes_is_as_stated(tmp_path, capsys):
    path = write(tmp_path, "hex E2 open\nhex E4 open\nrange 3E2 4E4 9\nrange E2 E4 7\nquery base_nvr\n")
    assert run(capsys, "query", path)[0] == 0


@pytest.mark.parametrize("question", ["fp A1", "drm A1", "drm A1 hindrance", "drm A1 leadership", "residual_fp A1",
                                      "cowers A1", "column A1"])
def test_the_conflict_report_is_the_same_whatever_the_query(question, tmp_path, capsys):
    """A question whose rules read an open fact (drm reads the unstated LOS) once
    reported the attack alone, "contradicting itself" against rules/common/unknowns.lp:
    the conflict finder left out the choices of the open facts, so that fact had
    no value. Every question names the same lines and the same broken rule."""
    text = ("unit G1 german squad 4-6-7\nunit R1 russian squad 4-4-7\nside R1 axis\nattack A1 by G1 at R1\n"
            f"query {question}\n")
    path = write(tmp_path, text)
    code, out, err = run(capsys, "query", path)
    assert code == 2 and out == ""
    assert err.startswith(f"{path}:4:1: inconsistent situation: these statements conflict: 1: unit G1 german squad "
                          "4-6-7; 3: side R1 axis; 4: attack A1 by G1 at R1 (against DEF: an attack is made on the "
                          "enemy: a unit it targets is not on a firer's side (rules/common/consistency.lp:"), err
    assert "unknowns.lp" not in err
    assert err.rstrip().splitlines()[1:] == [f"{path}:1:1: note: in conflict with it: unit G1 german squad 4-6-7",
                                             f"{path}:3:1: note: in conflict with it: side R1 axis"]


@pytest.mark.parametrize("text, lines", [
    ("unit G1 german squad 4-6-7 at 3A1 broken\nunit R1 russian squad 4-4-7 at 3A3\nrange G1 R1 2\n"
     "attack A1 by G1 at R1\nquery fp A1\nquery column A1\n",
     ["1: unit G1 german squad 4-6-7 at 3A1 broken", "4: attack A1 by G1 at R1"]),
    ("unit G1 german squad 4-6-7 at 3A1\nunit L1 german leader 9-2 at 3A1 broken\nunit R1 russian squad 4-4-7 at 3A3\n"
     "attack A1 by G1 at R1 directed_by L1\nquery drm A1 leadership\n",
     ["2: unit L1 german leader 9-2 at 3A1 broken", "4: attack A1 by G1 at R1 directed_by L1"]),
])
def test_a_broken_unit_neither_fires_nor_directs_by_the_named_interpretation(text, lines, tmp_path, capsys):
    """A10 (broken units) is not in the source text: the interpretation
    broken_units_do_not_fire (on by default) refuses the attack; off, it is answered."""
    path = write(tmp_path, text)
    code, out, err = run(capsys, "query", path)
    assert code == 2 and out == ""
    last = lines[-1].split(":")[0]
    assert err.startswith(f"{path}:{last}:1: inconsistent situation: these statements conflict: {'; '.join(lines)} "
                          "(against A7.4: interpretation broken_units_do_not_fire: "), err
    assert "rules/interpretations/broken_units_do_not_fire.lp:" in err
    code, out, _ = run(capsys, "query", path, "--without", "broken_units_do_not_fire")
    assert code == 0 and " = " in out


@pytest.mark.parametrize("text, query", [
    # A7.8: a pinned unit may rout once broken; a vehicle is never pinned (A7.82); a pinned Passenger is transported
    ("unit G1 german squad 4-6-7 at 3G4 pinned broken\nhex 3G5 woods\nmove M1 G1 to 3G5\n", "mf_cost M1"),
    ("unit V1 german vehicle at 3G4 afv tracked pinned\nhex 3G5 open\nmove M1 V1 to 3G5\n", "mf_cost M1"),
    ("unit V1 german vehicle at 3G4 afv tracked\nunit P1 german squad 4-6-7 at 3G4 aboard V1 passenger pinned\n"
     "hex 3G5 open\nmove M1 P1 to 3G5\n", "mf_cost M1"),
    # a Location is one hex and one level: LOS between levels of one hex may be blocked
    ("unit G1 german squad 4-6-7 at 3A1\nunit R1 russian squad 4-4-7 at 3A1 level 1\nlos G1 R1 blocked\n",
     "may_fire G1 R1"),
    # a leader of another nationality on the firers' side may direct them
    ("unit G1 axis_minor squad 4-4-7 at 3A1\nunit L1 german leader 8-1 at 3A1\n"
     "unit R1 russian squad 4-4-7 at 3A3\nattack A1 by G1 at R1 directed_by L1\n", "drm A1 leadership"),
])
def test_what_the_new_constraints_still_allow_is_answered(text, query, tmp_path, capsys):
    code, out, err = run(capsys, "query", write(tmp_path, text + f"query {query}\n"))
    assert code == 0 and err == "" and out.splitlines()[1].startswith(f"{query} = "), err


def test_a_conflict_among_thousands_of_statements_is_found_in_seconds(tmp_path, capsys):
    """3,200 units in a chain of attacks, the last on a friendly unit: the three lines
    in conflict are named (issue 37: one solve per line, 800 units took 79 s, 3,200 over 300 s)."""
    columns = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    lines = [f"unit U{i} {'german' if i % 2 == 0 else 'russian'} squad 4-6-7 at "
             f"{1 + i // 260}{columns[i % 26]}{1 + (i // 26) % 10}" for i in range(3200)]
    lines += [f"attack A{i} by U{i} at U{i + 1}" for i in range(3199)]
    lines += ["attack A3200 by U0 at U2", "query base_nvr"]
    start = time.monotonic()
    code, out, err = run(capsys, "query", write(tmp_path, "\n".join(lines) + "\n"))
    assert time.monotonic() - start < 30
    assert code == 2 and out == ""
    assert (": these statements conflict: 1: unit U0 german squad 4-6-7 at 1A1; 3: unit U2 german squad 4-6-7 "
            "at 1C1; 6400: attack A3200 by U0 at U2 (against") in err, err


def test_every_line_of_a_conflict_that_needs_them_all_is_named(tmp_path, capsys):
    """A loop of vehicles aboard one another (only a vehicle carries, so a loop of
    squads conflicts two lines at a time): no line may be left out, and none is."""
    text = "".join(f"unit U{i} german vehicle at 1A1 aboard U{i % 12 + 1}\n" for i in range(1, 13))
    code, _, err = run(capsys, "query", write(tmp_path, text + "query base_nvr\n"))
    assert code == 2
    said = "; ".join(f"{i}: unit U{i} german vehicle at 1A1 aboard U{i % 12 + 1}" for i in range(1, 13))
    assert f": these statements conflict: {said} (against" in err, err
