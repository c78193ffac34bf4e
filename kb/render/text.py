"""Answers as text for a terminal and as JSON (the spec's "Answers")."""
from __future__ import annotations

from typing import TYPE_CHECKING

from aslkb.answers.ask import Checked, Result
from aslkb.answers.read import APPLIED, BLOCKED, EXCEPTION, MAY_APPLY, MAY_BLOCK, Answer
from aslkb.parser import UNDECIDED, Distribution
from aslkb.render.colour import plain

if TYPE_CHECKING:
    from aslkb.render.colour import Style

# the roles of the steps an answer cites (a rule that only could have applied is not one)
CITED_ROLES = (APPLIED, EXCEPTION, BLOCKED, MAY_APPLY, MAY_BLOCK)


def value_text(value: object) -> str:
    if value is None:
        return "undecided"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if _is_fraction(value):
        return _fraction_text(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    return str(value)


def _is_fraction(value: object) -> bool:
    # a Fraction without importing fractions: it is imported only where one was made
    return hasattr(value, "denominator") and not isinstance(value, int)


def _exact_decimal(value) -> float | None:
    """The value as a float when that float is exactly the fraction (2.5, not 1/3)."""
    as_float = float(value)
    return as_float if type(value)(repr(as_float)) == value else None


def _fraction_text(value) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    decimal = _exact_decimal(value)
    return repr(decimal) if decimal is not None else f"{value.numerator}/{value.denominator}"


def json_value(value: object) -> object:
    if _is_fraction(value):
        if value.denominator == 1:
            return value.numerator
        decimal = _exact_decimal(value)
        return decimal if decimal is not None else f"{value.numerator}/{value.denominator}"
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    return value


def distribution_text(distribution: dict) -> str:
    """`yes 1/9 (11.1%), no 8/9 (88.9%)`, most likely first."""
    shown = sorted(distribution.items(), key=lambda item: (-item[1], outcome_text(item[0])))
    return ", ".join(f"{outcome_text(v)} {c.numerator}/{c.denominator} ({float(c):.1%})"
                     for v, c in shown)


def chart_rows(distribution: dict) -> list[tuple[str, object]]:
    """(label, chance) rows of an odds table and chart, in the order the
    playground's chart uses too (web/src/odds.js): numbers ascending, other
    outcomes by falling chance then by name, `undecided` last."""
    decided = [(v, c) for v, c in distribution.items() if outcome_text(v) != "undecided"]
    undecided = [(outcome_text(v), c) for v, c in distribution.items() if outcome_text(v) == "undecided"]
    if all(isinstance(v, int) and not isinstance(v, bool) for v, _ in decided):
        decided.sort(key=lambda item: item[0])
    else:
        decided.sort(key=lambda item: (-item[1], outcome_text(item[0])))
    return [(outcome_text(v), c) for v, c in decided] + undecided


def distribution_json(distribution: dict) -> dict:
    return {outcome_text(v): f"{c.numerator}/{c.denominator}" for v, c in
            sorted(distribution.items(), key=lambda item: outcome_text(item[0]))}


def odds_json(answer) -> dict:
    """`aslkb odds --json` (and the playground's /api/odds): the distribution
    of an answer, with the reasons of its undecided share; an answer no odds
    can give is its reasons alone."""
    if not answer.distribution and answer.value is None:
        return {"query": answer.query, "rules": answer.rules, "undecided": "; ".join(answer.undecided),
                **missing_json(answer)}
    found = {"query": answer.query, "rules": answer.rules,
             "distribution": distribution_json(answer.distribution) if answer.distribution
             else {value_text(answer.value): "1/1"},
             "value": json_value(answer.value)}
    if answer.undecided:
        found["undecided"] = "; ".join(answer.undecided)
    return found


def missing_json(answer: Answer) -> dict:
    """`"missing"`: the hints of an undecided answer, each with its kind and
    the statements it stands for (docs/answers.md); none where it has none."""
    return {"missing": [hint.to_json() for hint in answer.hints]} if answer.hints else {}


def _value(value: object) -> object:
    """A distribution key as value_text expects it (UNDECIDED prints as `undecided`)."""
    return None if value is _undecided() else value


def outcome_text(value: object) -> str:
    """A distribution's outcome as text: a value, or `undecided`."""
    return value_text(_value(value))


def chain_text(answer: Answer, shared: str = "") -> str:
    """The short form of an explanation: the cited rules in the order the
    derivation uses them, exceptions marked, each once; with `shared`, a rule
    of rules/common (loaded by both editions) is marked so."""
    labels = []
    for step in answer.steps:
        if step.role in CITED_ROLES and step.rule.rule_id not in ("DEF", "query", "", "?"):
            label = step.rule.rule_id + (" EXC" if step.rule.exception else "")
            label += f" ({shared})" if shared and step.rule.part == "common" else ""
            label += {BLOCKED: " (blocked)", MAY_APPLY: " (may apply)", MAY_BLOCK: " (may be blocked)"}.get(step.role, "")
            label += f" [{step.rule.interpretation}]" if step.rule.interpretation else ""
            if label not in labels:
                labels.append(label)
    return " ← ".join(labels)


def answer_text(answer: Answer, explain: bool = False, style: Style = plain) -> list[str]:
    if answer.distribution:
        lines = [style(f"{answer.query} = {distribution_text(answer.distribution)}", "answer")]
        if answer.undecided:
            lines.append(f"    {style('undecided', 'undecided')}: {'; '.join(answer.undecided)}")
    elif answer.value is None:
        lines = [f"{style(f'{answer.query} =', 'answer')} {style('undecided', 'undecided')}: "
                 f"{'; '.join(answer.undecided)}"]
    else:
        lines = [style(f"{answer.query} = {value_text(answer.value)}", "answer")]
    if answer.rules:
        lines.append(f"    rules: {', '.join(answer.rules)}")
    for step in answer.exceptions:
        label = {EXCEPTION: "exception applied", MAY_APPLY: "exception may apply", MAY_BLOCK: "may be blocked"}.get(
            step.role, "blocked")
        tag = f"{step.rule.rule_id} EXC" if step.rule.exception else step.rule.rule_id
        lines.append(f"    {label}: {tag} {step.rule.note} ({step.rule.where})")
    if answer.interpretations:
        lines.append(f"    interpretation: {', '.join(answer.interpretations)}")
    if explain and (chain := chain_text(answer)):
        lines.append(f"    because: {chain}")
    return lines


def expectation_text(checked: Checked) -> str:
    """`expect Q = X`, and for a failure what came instead and the rules behind it."""
    expect = checked.expect
    expected = _expected_text(expect.expected)
    if checked.passed:
        return f"expect {expect.query.text} = {expected}"
    if checked.answer.distribution:
        actual = distribution_text(checked.answer.distribution)
    else:
        actual = value_text(checked.answer.value)
        if checked.answer.value is None:
            actual += f" ({'; '.join(checked.answer.undecided)})"
    rules = f" [{', '.join(checked.answer.rules)}]" if checked.answer.rules else ""
    return f"expect {expect.query.text} = {expected}, got {actual}{rules}"


def _expected_text(expected: object) -> str:
    if isinstance(expected, Distribution):
        return distribution_text(dict(expected.outcomes))
    return "undecided" if expected is _undecided() else value_text(expected)


def _expected_json(expected: object) -> object:
    if isinstance(expected, Distribution):
        return distribution_json(dict(expected.outcomes))
    return "undecided" if expected is _undecided() else json_value(expected)


def checked_text(checked: Checked, style: Style = plain) -> str:
    """One line of `aslkb query`'s report on the file's expectations."""
    word, role = ("ok", "ok") if checked.passed else ("FAIL", "fail")
    padding = " " * (5 - len(word))  # the plain text's columns, coloured or not
    return f"{style(word, role)}{padding} line {checked.expect.line}: {expectation_text(checked)}"


def failure_line(path: object, checked: Checked) -> str:
    """A failed expectation as FILE:LINE: ..., for editors and CI logs."""
    return f"{path}:{checked.expect.line}: {expectation_text(checked)}"


def _undecided():
    return UNDECIDED


def settings_line(settings, every_name: bool = False) -> str:
    """The first line of a query's report: the edition and how many
    interpretations are in force. Each answer names those it relied on, so
    the whole list is given only with --explain (and in JSON)."""
    names = settings.interpretations
    if every_name or not names:
        return f"edition {settings.edition}; interpretations: {', '.join(names) or 'none'}"
    count = f"{len(names)} interpretation{'s' if len(names) != 1 else ''}"
    return f"edition {settings.edition}; {count} in force (--explain names them)"


def result_text(result: Result, explain: bool = False, style: Style = plain) -> str:
    """`aslkb query`'s report; `style` colours it for a terminal (kb/render/colour.py)."""
    lines = [settings_line(result.settings, explain)]
    for answer in result.answers:
        lines += answer_text(answer, explain, style)
    if result.checked:
        passed = len(result.checked) - len(result.failed)
        lines += [checked_text(c, style) for c in result.checked]
        lines.append(style(f"{passed} passed, {len(result.failed)} failed", "fail" if result.failed else "ok"))
    return "\n".join(lines)


def answer_json(answer: Answer) -> dict:
    data: dict = {"query": answer.query, "value": json_value(answer.value), "rules": answer.rules}
    if answer.distribution:
        data["distribution"] = distribution_json(answer.distribution)
        if answer.undecided:
            data["undecided"] = "; ".join(answer.undecided)
    elif answer.value is None:
        data["undecided"] = "; ".join(answer.undecided)
        data.update(missing_json(answer))
    data["exceptions"] = [
        {"rule": s.rule.rule_id, "note": s.rule.note, "where": s.rule.where,
         "applied": s.role == EXCEPTION, "may_apply": s.role in (MAY_APPLY, MAY_BLOCK)}
        for s in answer.exceptions
    ]
    data["interpretations"] = answer.interpretations
    data["explanation"] = [s.to_json() for s in answer.steps if s.role in CITED_ROLES]
    return data


def result_json(result: Result) -> dict:
    return {
        "edition": result.settings.edition,
        "interpretations": list(result.settings.interpretations),
        "answers": [answer_json(a) for a in result.answers],
        "expectations": [_checked_json(c) for c in result.checked],
    }


def _checked_json(checked: Checked) -> dict:
    return {"line": checked.expect.line, "query": checked.expect.query.text,
            "expected": _expected_json(checked.expect.expected),
            "actual": distribution_json(checked.answer.distribution) if checked.answer.distribution
            else json_value(checked.answer.value),
            "passed": checked.passed}


def expectation_json(checked: Checked, path: object) -> dict:
    """One `expect` line for `aslkb check --json`: query --json's record with
    its file and column; for a failure, the rules behind the answer that came
    instead and, for an undecided one, what would decide it. (Only for a
    failure: a batch that finds an `expect ... = undecided` holds does not
    name the facts it varies with, kb/answers/batch.py.)"""
    record = _checked_json(checked)
    data = {"file": str(path), "line": record.pop("line"), "column": checked.expect.column, **record}
    if not checked.passed:
        data["rules"] = checked.answer.rules
        if checked.answer.value is None and not checked.answer.distribution:
            data["undecided"] = "; ".join(checked.answer.undecided)
    return data
