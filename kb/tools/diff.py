"""`aslkb diff FILE`: the same situation answered under ASL and under SL 4th
edition, and the queries whose answers differ, with both rule chains.

The file is asked once per edition (kb/answers/ask.py); nothing here knows a rule.
Two answers differ when their values differ: a value against another, a
decided value against undecided, or two different distributions. Two
undecided answers do not differ, whatever their reasons. A difference is one
of three kinds: a disagreement (both decide, differently); a question only
one edition decides; or the same effect under two labels, which the words of
rules/diverge/differences.toml name (kb/tools/divergences.py) and which is not
counted as a difference. Each rule is shown with its id; a rule of
rules/common, which both editions load, says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from aslkb.api import EXCEPTION, Answer, KnowledgeBase, Result, knowledge_base, run, settle
from aslkb.render.text import answer_json, chain_text, distribution_text, json_value, value_text
from aslkb.tools.divergences import classify

EDITIONS = ("asl", "sl4")


# as kb/tools/divergences.KINDS: both decide, differently; one decides what the
# other's rules leave open (or a fact or roll the file does not state); a rule
# only one edition has; the same effect under another label
DISAGREE, ONE_DECIDES, ONLY_ONE, SAME_EFFECT = "difference", "one_decides", "only_one", "same_effect"
NOT_A_DIFFERENCE = "not_a_difference"  # a gap in the knowledge base: set aside, never counted
SHARED = "both editions"


@dataclass(frozen=True)
class Difference:
    query: str
    answers: dict[str, Answer]  # edition -> answer
    kind: str = DISAGREE
    entry: object = None  # kb.divergences.Entry: its words, when the catalog has them

    @property
    def values(self) -> tuple[str, str]:
        return kind_values(self.answers["asl"], self.answers["sl4"])


@dataclass
class DiffResult:
    edition: str  # the file's own edition: its expects are checked under it
    results: dict[str, Result]  # edition -> the file's answers under it
    differences: list[Difference]  # disagreements, then questions one edition decides
    same_effect: list[Difference] = field(default_factory=list)

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
    results = {edition: run(situation, settle(situation, kb, edition, switch_on, switch_off), kb)
               for edition in EDITIONS}
    found = []
    for text, answers in asked(results).items():
        if comparable(answers["asl"]) != comparable(answers["sl4"]):
            found.append(classified(text, answers))
    differences = [d for kind in (DISAGREE, ONE_DECIDES, ONLY_ONE) for d in found if d.kind == kind]
    return DiffResult(situation.edition, results, differences,
                      [d for d in found if d.kind in (SAME_EFFECT, NOT_A_DIFFERENCE)])


def decided(answer: Answer) -> bool:
    return answer.value is not None or bool(answer.distribution)


def left_open(answer: Answer) -> str:
    """How an undecided answer's edition leaves the question: `absent` (a rule
    it does not have), `open` (its rule is outside the source text, damaged or
    in conflict) or `unstated` (a fact or a roll the file does not state)."""
    gaps = set(answer.gaps)
    if "not_applicable" in gaps:
        return "absent"
    return "open" if gaps & {"not_in_source", "damaged", "conflict"} else "unstated"


def kind_values(asl: Answer, sl4: Answer) -> tuple[str, str]:
    """The two answers as the catalog names them: yes/no, lower/higher, or
    decided against absent/open/unstated."""
    if not (decided(asl) and decided(sl4)):
        return ("decided", left_open(sl4)) if decided(asl) else (left_open(asl), "decided")
    a, b = asl.value, sl4.value
    if isinstance(a, (int, float)) and not isinstance(a, bool) and isinstance(b, (int, float)) and not isinstance(b, bool):
        return ("lower", "higher") if a < b else ("higher", "lower")
    return value_text(a), value_text(b)


def classified(text: str, answers: dict[str, Answer], features: set[str] | None = None) -> Difference:
    """A difference with its kind and the catalog's words for it (FEATURES:
    what an `aslkb diverge` witness states, kb/tools/divergences.py)."""
    values = kind_values(answers["asl"], answers["sl4"])
    name = text.split()[0]
    rules = (cited(answers["asl"]), cited(answers["sl4"]))
    aside = classify(name, values, rules, (NOT_A_DIFFERENCE,), features)
    if aside:
        return Difference(text, answers, NOT_A_DIFFERENCE, aside)
    if "absent" in values:
        return Difference(text, answers, ONLY_ONE, classify(name, values, rules, (ONLY_ONE,), features))
    if "decided" in values:
        return Difference(text, answers, ONE_DECIDES, classify(name, values, rules, (ONE_DECIDES,), features))
    same = classify(name, values, rules, ("same_effect",), features)
    if same:
        return Difference(text, answers, SAME_EFFECT, same)
    return Difference(text, answers, DISAGREE, classify(name, values, rules, ("difference",), features))


def cited(answer: Answer) -> list[str]:
    """The rule ids behind an answer, and `ID EXC` for each exception that
    applied: what an entry's asl_rules/sl4_rules name (an entry may ask for an
    exception, E1.101 EXC, where the rule id alone is behind other answers too)."""
    applied = [step.rule.rule_id + " EXC" for step in answer.steps
               if step.rule.exception and step.role == EXCEPTION]
    return list(dict.fromkeys([*answer.rules, *applied]))


def rules_text(answer: Answer) -> str:
    """The rule chain behind an answer; a rule both editions load (rules/common) says so."""
    return chain_text(answer, SHARED) or ", ".join(answer.rules) or "-"


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


HEADINGS = {DISAGREE: "asl and sl4 disagree:",
            ONE_DECIDES: "decided by one edition, left open by the other:",
            ONLY_ONE: "a rule only one edition has:",
            SAME_EFFECT: "the same effect under another label (not counted):",
            NOT_A_DIFFERENCE: "not a difference: a gap in the knowledge base (not counted):"}


def diff_text(result: DiffResult) -> str:
    lines = []
    asked_count = len(asked(result.results))
    for kind in HEADINGS:
        group = [d for d in [*result.differences, *result.same_effect] if d.kind == kind]
        if group:
            lines.append(HEADINGS[kind])
        for difference in group:
            lines.append(difference.query + (f"  [{difference.entry.title}]" if difference.entry else ""))
            for edition in EDITIONS:
                answer = difference.answers[edition]
                lines.append(f"  {edition:4} = {answer_value_text(answer)}")
                lines.append(f"         rules: {rules_text(answer)}")
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
            {"query": d.query, "kind": d.kind, "difference": d.entry.id if d.entry else None,
             **{e: {**answer_json(a), "chain": chain_text(a)} for e, a in d.answers.items()}}
            for d in result.differences
        ],
        "same_effect": [{"query": d.query, "kind": d.kind, "difference": d.entry.id} for d in result.same_effect],
        "same": [text for text, answers in asked(result.results).items()
                 if comparable(answers["asl"]) == comparable(answers["sl4"])],
        "expectations": {"edition": result.edition,
                         "passed": len(result.results[result.edition].checked) - len(result.failed),
                         "failed": len(result.failed)},
    }


__all__ = ["Difference", "DiffResult", "diff", "diff_text", "diff_json", "comparable", "classified", "kind_values",
           "rules_text", "json_value"]
