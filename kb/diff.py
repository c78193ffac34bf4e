"""`aslkb diff FILE`: the same situation answered under ASL and under SL 4th
edition, and the queries whose answers differ, with both rule chains.

The file is asked once per edition (kb/ask.py); nothing here knows a rule.
Two answers differ when their values differ: a value against another, a
decided value against undecided, or two different distributions. Two
undecided answers do not differ, whatever their reasons.
"""
from __future__ import annotations

from dataclasses import dataclass

from .answers import Answer
from .ask import Result, ask, settle
from .program import KnowledgeBase, knowledge_base
from .render import answer_json, chain_text, distribution_text, json_value, value_text

EDITIONS = ("asl", "sl4")


@dataclass(frozen=True)
class Difference:
    query: str
    answers: dict[str, Answer]  # edition -> answer


@dataclass
class DiffResult:
    edition: str  # the file's own edition: its expects are checked under it
    results: dict[str, Result]  # edition -> the file's answers under it
    differences: list[Difference]

    @property
    def failed(self) -> list:
        return self.results[self.edition].failed


def comparable(answer: Answer) -> object:
    """What two answers are compared by: the value, the distribution, or 'undecided'."""
    if answer.distribution:
        return ("distribution", tuple(sorted((str(k), v) for k, v in answer.distribution.items())))
    if answer.value is None:
        return "undecided"
    if isinstance(answer.value, list):
        return ("list", tuple(sorted(map(str, answer.value))))
    return ("value", answer.value if not isinstance(answer.value, bool) else str(answer.value))


def diff(situation, kb: KnowledgeBase | None = None, switch_on: tuple[str, ...] = (),
         switch_off: tuple[str, ...] = ()) -> DiffResult:
    kb = kb or knowledge_base()
    results = {edition: ask(situation, settle(situation, kb, edition, switch_on, switch_off), kb)
               for edition in EDITIONS}
    differences = []
    for text, answers in asked(results).items():
        if comparable(answers["asl"]) != comparable(answers["sl4"]):
            differences.append(Difference(text, answers))
    return DiffResult(situation.edition, results, differences)


def asked(results: dict[str, Result]) -> dict[str, dict[str, Answer]]:
    """Every question of the file, its `query` lines then the queries of its
    `expect` lines, each once: query text -> edition -> answer."""
    found: dict[str, dict[str, Answer]] = {}
    for edition, result in results.items():
        for answer in [*result.answers, *(c.answer for c in result.checked)]:
            found.setdefault(answer.query, {}).setdefault(edition, answer)
    return found


def answer_value_text(answer: Answer) -> str:
    if answer.distribution:
        return distribution_text(answer.distribution)
    if answer.value is None:
        return "undecided: " + "; ".join(answer.undecided)
    return value_text(answer.value)


def diff_text(result: DiffResult) -> str:
    lines = []
    asked_count = len(asked(result.results))
    for difference in result.differences:
        lines.append(difference.query)
        for edition in EDITIONS:
            answer = difference.answers[edition]
            lines.append(f"  {edition:4} = {answer_value_text(answer)}")
            lines.append(f"         rules: {chain_text(answer) or ', '.join(answer.rules) or '-'}")
            if answer.interpretations:
                lines.append(f"         interpretation: {', '.join(answer.interpretations)}")
    lines.append(f"{len(result.differences)} of {asked_count} quer{'y' if asked_count == 1 else 'ies'} "
                 "differ between asl and sl4")
    checked = result.results[result.edition].checked
    if checked:
        lines.append(f"expect (edition {result.edition}): {len(checked) - len(result.failed)} passed, "
                     f"{len(result.failed)} failed")
    return "\n".join(lines)


def diff_json(result: DiffResult) -> dict:
    return {
        "edition": result.edition,
        "interpretations": {e: list(r.settings.interpretations) for e, r in result.results.items()},
        "differences": [
            {"query": d.query,
             **{e: {**answer_json(a), "chain": chain_text(a)} for e, a in d.answers.items()}}
            for d in result.differences
        ],
        "same": [text for text, answers in asked(result.results).items()
                 if comparable(answers["asl"]) == comparable(answers["sl4"])],
        "expectations": {"edition": result.edition,
                         "passed": len(result.results[result.edition].checked) - len(result.failed),
                         "failed": len(result.failed)},
    }


__all__ = ["Difference", "DiffResult", "diff", "diff_text", "diff_json", "comparable", "json_value"]
