"""How an undecided answer names what would decide it (kb/engine/hints.py,
docs/answers.md "Undecided"): `add: S` for one statement, `one of: ...` for
the values of one thing (every value a user may give), `roll: ...` for a
missing roll, and one LOS or range named once whichever way round the rules
read it."""
from __future__ import annotations

# --- the declarations the hints read, and the words they say ---------------------

def test_an_alternatives_line_reads_its_signatures_and_values_and_a_symmetric_line_its_signatures():
    from aslkb.knowledge.annotations import read_text

    notes = read_text("%! alternatives los/3 los_hindrance/3: clear blocked\n%! alternatives hex/2\n"
                      "%! symmetric los/3 range/3\n")
    assert [tuple(a) for a in notes.alternatives] == [(("los/3", "los_hindrance/3"), ("clear", "blocked")),
                                                      (("hex/2",), ())]
    assert notes.symmetric == ("los/3", "range/3")


def test_every_declared_alternative_is_an_open_fact_and_each_word_one_the_language_takes():
    from pathlib import Path

    from aslkb.knowledge.declarations import alternatives, declarations, symmetric_signatures

    opened = {d.signature for d in declarations() if d.status == "open"}
    grammar = (Path(__file__).parent.parent / "parser" / "situation.lark").read_text(encoding="utf-8")
    assert alternatives() and symmetric_signatures() <= opened
    for declared in alternatives():
        assert set(declared.signatures) <= opened, declared
        assert all(f'"{word}"' in grammar for word in declared.values), declared
