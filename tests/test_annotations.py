"""kb/knowledge/annotations.py: the one reader of `%@`, `%!` and `%table`
comments, and the knowledge base's cached copy of what it read."""
from __future__ import annotations

from pathlib import Path

import pytest

from aslkb.base.errors import RuleFileError
from aslkb.knowledge.annotations import Annotations, read_file, read_text
from aslkb.knowledge.program import knowledge_base
from aslkb.knowledge.rulefiles import relative, rule_files

ROOT = Path(__file__).resolve().parent.parent

TEXT = """\
% Night movement.
% second line of the note
%! rule E1.53
%! reason one
%! reason two
%! excludes a b

%@ E1.53 EXC: a cited rule
strays(U) :- unit(U),
    berserk(U). %@ E9.9 a remark after a statement, not a citation
% an ordinary comment
does_not_stray(U) :- unit(U).

stray_free.
%table nvr_modifier/3 key 1,2 covers none,scattered * 1..3
"""


def test_a_citation_covers_the_statements_after_it_up_to_a_blank_line():
    notes = read_text(TEXT)
    [citation] = notes.citations
    assert citation[:4] == ("E1.53", True, "a cited rule", 8)
    assert [notes.citation_at(line) for line in (9, 12)] == [citation, citation]
    assert notes.citation_at(14) is None and notes.citation_at(7) is None


def test_headers_are_read_in_order_and_a_later_one_wins():
    notes = read_text(TEXT + "%! rule E1.531\n")
    assert notes.values("reason") == ["one", "two"]
    assert notes.header("rule") == "E1.531" and notes.header("says", "none") == "none"
    interpretation = notes.interpretation("x", "rules/interpretations/x.lp")
    assert (interpretation.rule, interpretation.reason, interpretation.excludes) == ("E1.531", "one two", ["a", "b"])


def test_a_table_line_gives_its_keys_and_domains():
    [table] = read_text(TEXT).tables
    assert table == ("nvr_modifier", 3, (1, 2), (("none", "scattered"), (1, 2, 3)), 15)


def test_the_opening_comment_is_a_files_note():
    assert read_text(TEXT).opening == "Night movement. second line of the note"
    assert read_text("\n% not at the top\na.\n").opening == ""


def test_a_line_inside_a_block_comment_is_no_annotation():
    """clingo's own lexer says where a comment starts and ends."""
    assert read_text("%* a block comment\n%@ E1.7 still inside it\n*%\na.\n").citations == ()


def test_a_bad_text_names_its_file():
    with pytest.raises(RuleFileError, match="^bad.lp"):
        read_text("a(.\n", "bad.lp")


def test_the_knowledge_base_keeps_what_the_reader_reads_of_every_file():
    """KnowledgeBase.annotations comes from the disk cache; a fresh read gives the same."""
    kb = knowledge_base()
    for paths in rule_files().values():
        for path in paths:
            assert kb.annotations(relative(path)) == read_file(path), path


def test_annotations_survive_the_cache_as_plain_data():
    notes = read_text(TEXT)
    assert Annotations.from_data(notes.data()) == notes


def test_status_notes_read_the_paragraph_its_status_and_the_reason():
    notes = read_text("% E1.8 GUNFLASHES ---\n%! status E1.8 encoded\n%! status E1.8 EX partly encoded: why\n"
                      "%! status SL 49.22 not encoded: cut after its title: twice\n%! status E1.83 maybe\n"
                      "%! rule E1.8\n")
    assert [tuple(n) for n in notes.status_notes] == [
        ("E1.8", False, "encoded", "", 2), ("E1.8", True, "partly encoded", "why", 3),
        ("SL 49.22", False, "not encoded", "cut after its title: twice", 4), ("E1.83 maybe", False, "", "", 5)]
