"""An explanation (kb/answers/explain.py) as an indented text tree or a Graphviz DOT
export (the SVG picture is kb/render/picture.py's, drawn without Graphviz)."""
from __future__ import annotations

from aslkb.answers.explain import Explanation, Node
from aslkb.render.text import json_value

_MARK = {"fact": "■", "input": "■", "rule": "✓", "exception": "✓", "atom": "•", "absent": "○",
         "why_not": "✗", "seen": "↑", "case": "◇"}


def explanation_json(explanation: Explanation) -> dict:
    return {"query": explanation.answer.query, "value": json_value(explanation.answer.value),
            "rules": explanation.answer.rules, "why": [n.to_json() for n in explanation.why],
            "why_not": [n.to_json() for n in explanation.why_not]}


def text_tree(explanation: Explanation, value: str) -> str:
    lines = [f"{explanation.answer.query} = {value}"]
    if explanation.answer.rules:
        lines.append(f"rules: {', '.join(explanation.answer.rules)}")
    lines.append("why:")
    for node in explanation.why:
        _lines(node, "  ", lines)
    if explanation.why_not:
        lines.append("why not:")
        for node in explanation.why_not:
            _lines(node, "  ", lines)
    return "\n".join(lines)


def _lines(node: Node, indent: str, lines: list[str]) -> None:
    where = f"  ({node.where})" if node.where else ""
    lines.append(f"{indent}{_MARK.get(node.kind, '-')} {node.label}{where}")
    for child in node.children:
        _lines(child, indent + "    ", lines)


def dot(explanation: Explanation, value: str) -> str:
    """A Graphviz digraph: the answer at the top, reasons below, why-not in red."""
    out = ["digraph explanation {", '  rankdir=TB; node [shape=box, fontname="Helvetica", fontsize=10];',
           f'  answer [label="{_quote(explanation.answer.query + " = " + value)}", shape=ellipse, style=bold];']
    counter = [0]

    def add(node: Node, parent: str, style: str) -> None:
        counter[0] += 1
        name = f"n{counter[0]}"
        color = {"why_not": "red", "fact": "darkgreen", "exception": "darkorange", "absent": "gray40"}.get(
            node.kind, "black")
        label = node.label + (f"\\n{node.where}" if node.where else "")
        out.append(f'  {name} [label="{_quote(label)}", color={color}, fontcolor={color}];')
        out.append(f"  {parent} -> {name} [{style}];")
        for child in node.children:
            add(child, name, "")

    for node in explanation.why:
        add(node, "answer", "")
    for node in explanation.why_not:
        add(node, "answer", 'style=dashed, color=red, label="why not"')
    out.append("}")
    return "\n".join(out) + "\n"


def _quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\\\\n", "\\n")
