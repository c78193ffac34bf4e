"""An explanation (kb/explain.py) drawn as SVG, in Python alone: no Graphviz.

The default picture is rule-level: the answer, the rules and exceptions that
applied, those considered that did not, the interpretations, and the
situation's own statements. Everything else in the tree (atoms, vocabulary
`DEF` steps, query programs, helper derivations such as hex_ref or
place_hex) is folded away: its reasons hang directly under the nearest rule
above it. A rule reached twice is drawn once. `full=True` draws every node.

The layout is layered: a node sits one row below its first parent; a layer
wider than MAX_WIDTH wraps onto further rows, so no picture is wider than
MAX_WIDTH pixels, however many rules an answer rests on.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from .explain import Explanation, Node

MAX_WIDTH = 1600
BOX_WIDTH, GAP_X, GAP_Y, MARGIN = 200, 16, 40, 20
FONT, LINE_HEIGHT, CHARS, MAX_LINES = 11, 14, 31, 5

# kind -> (stroke, fill, dashed): the DOT export (kb/tree.py) uses the same colours
STYLE = {
    "answer": ("#1f3b73", "#dfe8f7", False),
    "rule": ("#222222", "#ffffff", False),
    "exception": ("#b35900", "#fff1e0", False),
    "interpretation": ("#6a1b9a", "#f3e5f5", False),
    "not_applied": ("#b00020", "#ffffff", True),
    "fact": ("#1b5e20", "#e8f5e9", False),
    "atom": ("#555555", "#f5f5f5", False),
}
LEGEND = [("answer", "the answer"), ("rule", "rule applied"), ("exception", "exception applied"),
          ("interpretation", "interpretation"), ("not_applied", "considered, did not apply"),
          ("fact", "the situation's statement")]


@dataclass
class _Box:
    key: tuple
    kind: str
    lines: list[str]
    children: list[tuple] = field(default_factory=list)
    x: float = 0.0
    y: float = 0.0
    height: float = 0.0


def explanation_svg(explanation: Explanation, value: str, full: bool = False,
                    statements: Sequence[str] = ()) -> str:
    """The picture as SVG text. `statements`: the situation file's lines, so a
    statement is shown as written (line 12: unit G1 ...) rather than as facts."""
    boxes = _graph(explanation, value, full, statements)
    width, height = _layout(boxes)
    return _draw(boxes, width, height)


# -- the graph -----------------------------------------------------------------------

def _graph(explanation: Explanation, value: str, full: bool, statements: Sequence[str]) -> dict[tuple, _Box]:
    root = ("answer",)
    boxes: dict[tuple, _Box] = {root: _Box(root, "answer", _wrap(f"{explanation.answer.query} = {value}"))}
    if explanation.answer.rules:
        boxes[root].lines += _wrap("rules: " + ", ".join(explanation.answer.rules))
    atom_targets: dict[str, list[tuple]] = {}  # an atom's label -> what it folded into, for "seen" nodes

    def kept(node: Node) -> list[tuple]:
        """The boxes this node stands for: itself when it is drawn, else what it folds into."""
        key = _key(node, full)
        if key is None:  # folded: its reasons take its place
            if node.kind == "seen" and node.rule is None:
                return list(atom_targets.get(node.label.removesuffix(" (explained above)"), []))
            found = [k for child in node.children for k in kept(child)]
            if node.kind == "atom":
                atom_targets[node.label] = found
            return _unique(found)
        if key not in boxes:
            boxes[key] = _Box(key, _kind(node), _label(node, full, statements))
        box = boxes[key]
        for child_key in (k for child in node.children for k in kept(child)):
            if child_key != key and child_key not in box.children:
                box.children.append(child_key)
        return [key]

    for node in [*explanation.why, *explanation.why_not]:
        for key in kept(node):
            if key not in boxes[root].children:
                boxes[root].children.append(key)
    return boxes


def _key(node: Node, full: bool) -> tuple | None:
    if full:
        return (node.kind, node.label, node.where) if node.kind != "seen" else None
    if node.kind in ("fact",):
        return ("fact", node.where) if node.where else None
    if node.rule is None or node.rule.rule_id in ("DEF", "query", "", "?"):
        return None
    role = "not_applied" if node.kind in ("why_not", "seen") else "applied"
    return (role, node.rule.where)


def _kind(node: Node) -> str:
    if node.kind == "fact":
        return "fact"
    if node.rule is None:
        return "atom"
    if node.kind in ("why_not", "seen"):
        return "not_applied"
    if node.rule.interpretation:
        return "interpretation"
    return "exception" if node.rule.exception else "rule"


def _label(node: Node, full: bool, statements: Sequence[str]) -> list[str]:
    if node.kind == "fact":
        line = int(node.where.rsplit(":", 1)[1]) if node.where.rsplit(":", 1)[-1].isdigit() else 0
        if not full and 0 < line <= len(statements):
            written = statements[line - 1].split("#", 1)[0].strip()
            return _wrap(f"line {line}: {written}")
        return _wrap(f"{node.label} (line {line})" if line else node.label)
    if node.rule is None:
        return _wrap(node.label)
    rule = node.rule
    tag = f"{rule.rule_id} EXC" if rule.exception else rule.rule_id
    lines = _wrap(f"{tag}: {rule.note}" if rule.note else tag)
    if rule.interpretation and rule.interpretation not in rule.note:
        lines = _wrap(f"interpretation {rule.interpretation}") + lines
    if node.kind == "why_not" and " but " in node.label:
        note = _wrap(f"{tag}: {rule.note}" if rule.note else tag, MAX_LINES - 2)
        lines = note + _wrap("✗ " + node.label.rsplit(" but ", 1)[1], 2)
    return lines[:MAX_LINES] + [rule.where]


def _wrap(text: str, limit: int = MAX_LINES) -> list[str]:
    """Words into lines of at most CHARS characters; a word longer than a line
    (a literal such as `same_hex(unit("G1"),unit("R1"))`) runs on across lines."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= CHARS:
            lines[-1] += " " + word
            continue
        if len(word) > CHARS and lines and len(lines[-1]) < CHARS - 8:
            room = CHARS - len(lines[-1]) - 1
            lines[-1] += " " + word[:room]
            word = word[room:]
        while len(word) > CHARS:
            lines.append(word[:CHARS])
            word = word[CHARS:]
        lines.append(word)
    if len(lines) > limit:
        lines = lines[:limit]
        lines[-1] = lines[-1][:CHARS - 1] + "…"
    return lines or [""]


def _unique(keys: list[tuple]) -> list[tuple]:
    return list(dict.fromkeys(keys))


# -- the layout ----------------------------------------------------------------------

def _layout(boxes: dict[tuple, _Box]) -> tuple[int, int]:
    """Each box on a layer below all its parents (longest path from the answer);
    within a layer, boxes sit under the middle of their parents; a layer wider
    than MAX_WIDTH wraps onto further rows."""
    layers = _layers(boxes)
    per_row = max(1, (MAX_WIDTH - 2 * MARGIN + GAP_X) // (BOX_WIDTH + GAP_X))
    widest = min(per_row, max(len(layer) for layer in layers))
    width = max(2 * MARGIN + widest * BOX_WIDTH + (widest - 1) * GAP_X, _legend_width())
    parents: dict[tuple, list[tuple]] = {}
    for key, box in boxes.items():
        for child in box.children:
            parents.setdefault(child, []).append(key)
    placed: set[tuple] = set()
    y = MARGIN
    for layer in layers:
        def middle(key: tuple) -> float:
            above = [boxes[p].x for p in parents.get(key, []) if p in placed]
            return sum(above) / len(above) if above else width / 2

        ordered = sorted(layer, key=middle)  # a stable sort: first found first among equals
        for start in range(0, len(ordered), per_row):
            row = ordered[start:start + per_row]
            row_width = len(row) * BOX_WIDTH + (len(row) - 1) * GAP_X
            x = (width - row_width) / 2
            for key in row:
                box = boxes[key]
                box.x, box.y, box.height = x, y, _box_height(box)
                x += BOX_WIDTH + GAP_X
            placed.update(row)
            y += max(boxes[key].height for key in row) + GAP_Y
    legend_height = LINE_HEIGHT + 12
    return width, int(y - GAP_Y + MARGIN + legend_height)


def _layers(boxes: dict[tuple, _Box]) -> list[list[tuple]]:
    """Longest-path layers from the first box, the answer. An edge back to a box
    still being visited (a cycle: two rules each considered under the other)
    does not count for the layering; its arrow is drawn from the side."""
    root = next(iter(boxes))
    order: list[tuple] = []  # reverse post-order: parents before children
    state: dict[tuple, int] = {}  # 1 visiting, 2 done
    forward: dict[tuple, list[tuple]] = {key: [] for key in boxes}
    stack = [(root, iter(boxes[root].children))]
    state[root] = 1
    while stack:
        key, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            state[key] = 2
            order.append(key)
        elif state.get(child) != 1:
            forward[key].append(child)
            if child not in state:
                state[child] = 1
                stack.append((child, iter(boxes[child].children)))
    layer_of = dict.fromkeys(order, 0)
    for key in reversed(order):
        for child in forward[key]:
            layer_of[child] = max(layer_of[child], layer_of[key] + 1)
    layers: list[list[tuple]] = [[] for _ in range(max(layer_of.values()) + 1)]
    for key in boxes:  # in the order found, for a stable picture
        if key in layer_of:
            layers[layer_of[key]].append(key)
    return layers


def _box_height(box: _Box) -> float:
    return len(box.lines) * LINE_HEIGHT + 10


# -- the drawing ---------------------------------------------------------------------

def _draw(boxes: dict[tuple, _Box], width: int, height: int) -> str:
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif" font-size="{FONT}">',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#777777"/></marker></defs>',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    for box in boxes.values():  # edges first, so boxes cover their ends
        for child_key in box.children:
            child = boxes[child_key]
            x1, y1 = box.x + BOX_WIDTH / 2, box.y + box.height
            x2, y2 = child.x + BOX_WIDTH / 2, child.y
            if y2 <= y1:  # a child drawn on a row above (reached again lower down): from the side
                x1, y1 = box.x + BOX_WIDTH, box.y + box.height / 2
                x2, y2 = child.x + BOX_WIDTH, child.y + child.height / 2
            bend = max(20.0, abs(y2 - y1) / 2)
            dashed = ' stroke-dasharray="5,3"' if child.kind == "not_applied" else ""
            out.append(f'<path d="M{x1:.1f},{y1:.1f} C{x1:.1f},{y1 + bend:.1f} {x2:.1f},{y2 - bend:.1f} '
                       f'{x2:.1f},{y2:.1f}" fill="none" stroke="#999999"{dashed} marker-end="url(#arrow)"/>')
    for box in boxes.values():
        out += _box(box)
    out += _legend(height - MARGIN - LINE_HEIGHT + 4)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _box(box: _Box) -> list[str]:
    stroke, fill, dashed = STYLE[box.kind]
    weight = ' stroke-width="2"' if box.kind == "answer" else ""
    dash = ' stroke-dasharray="5,3"' if dashed else ""
    parts = [f'<g class="{box.kind}"><rect x="{box.x:.1f}" y="{box.y:.1f}" width="{BOX_WIDTH}" '
             f'height="{box.height:.1f}" rx="4" fill="{fill}" stroke="{stroke}"{weight}{dash}/>']
    for index, line in enumerate(box.lines):
        last = index == len(box.lines) - 1 and box.kind not in ("answer", "fact")
        colour = "#777777" if last else stroke
        bold = ' font-weight="bold"' if index == 0 and box.kind == "answer" else ""
        parts.append(f'<text x="{box.x + 6:.1f}" y="{box.y + 5 + (index + 1) * LINE_HEIGHT - 3:.1f}" '
                     f'fill="{colour}"{bold}>{escape(line)}</text>')
    parts.append("</g>")
    return parts


def _legend_width() -> int:
    return 2 * MARGIN + sum(24 + len(text) * 6 for _, text in LEGEND)


def _legend(y: float) -> list[str]:
    parts, x = [], MARGIN
    for kind, text in LEGEND:
        stroke, fill, dashed = STYLE[kind]
        dash = ' stroke-dasharray="3,2"' if dashed else ""
        parts.append(f'<rect x="{x}" y="{y - 10}" width="14" height="12" fill="{fill}" stroke="{stroke}"{dash}/>')
        parts.append(f'<text x="{x + 18}" y="{y}" fill="#333333">{escape(text)}</text>')
        x += 24 + len(text) * 6
    return parts
