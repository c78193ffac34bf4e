"""The one door (issue 35): what the command line, the web service and the
harness tools (check, corpus, diff, goldens) ask of the knowledge base.

They import this module, never aslkb.answers, aslkb.engine or
aslkb.knowledge (tests/test_layers.py holds them to it), so the layers
behind it can change without touching them. The authoring tools (lint,
coverage, invariants, impact, diverge) read the rule files themselves and
stay on the knowledge layer; like everything else they ground and solve
only through kb/engine/.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator

from aslkb.answers.ask import Checked, Result, hashable_value, refuse_unknown_interpretations, settle
from aslkb.answers.read import EXCEPTION, VARIES, Answer
from aslkb.answers.run import (prepare_batches, process_ends_after, recall_selections, run, run_many, runs_signature,
                               store_selections)
from aslkb.engine.solve import Settings
from aslkb.knowledge.catalog import query_catalog
from aslkb.knowledge.program import KnowledgeBase, knowledge_base
from aslkb.parser import Situation

__all__ = [
    "Answer", "Checked", "EXCEPTION", "VARIES", "KnowledgeBase", "Result", "Settings", "Situation",
    "ask", "ask_many", "explain", "hashable_value", "knowledge_base", "prepare_batches", "process_ends_after",
    "query_catalog", "recall_selections", "refuse_unknown_interpretations", "run", "runs_signature", "settle",
    "store_selections", "values_only",
]


def ask(situation: Situation, edition: str | None = None, switch_on: tuple[str, ...] = (),
        switch_off: tuple[str, ...] = (), kb: KnowledgeBase | None = None, cite: bool = True) -> Result:
    """A situation's answers, with the rules behind them unless `cite` is
    off: the edition and interpretations settled (defaults, the file, then
    these), then answered."""
    kb = kb or knowledge_base()
    return run(situation, settle(situation, kb, edition, switch_on, switch_off), kb, cite=cite)


def values_only(situation: Situation, settings: Settings, kb: KnowledgeBase | None = None) -> Result:
    """The answers of settled settings, without the rules behind them."""
    return run(situation, settings, kb or knowledge_base(), cite=False)


def ask_many(cases: Iterable[tuple[Hashable, Situation, Settings]], kb: KnowledgeBase | None = None,
             expectations_only: bool = False, ordinary: dict | None = None
             ) -> Iterator[tuple[Hashable, Result | Exception]]:
    """(key, Result or the exception that stopped it) for each (key,
    situation, settings), values only, in an order of their own
    (kb/answers/run.py's run_many)."""
    return run_many(cases, kb, expectations_only=expectations_only, ordinary=ordinary)


def explain(situation: Situation, settings: Settings, kb: KnowledgeBase | None = None, full: bool = False):
    """One query's answer and its explanation tree (why, and why not)."""
    # lazy: the explanation's modules are not on `aslkb query`'s path (its cold start)
    from aslkb.answers.explain import explain_query

    return explain_query(situation, settings, kb or knowledge_base(), full=full)
