"""A distribution as a bar chart: SVG written here, PNG through matplotlib if present.

Drawn as the playground draws its charts (web/src/odds.js): the rows in the
order given (kb/render/text.py chart_rows), the largest bar spanning the
chart, decided outcomes in the accent colour and `undecided` in ochre."""
from __future__ import annotations

import io
from html import escape

from aslkb.base.atomicwrite import write_bytes, write_text

WIDTH, BAR_HEIGHT, GAP, LABEL, MARGIN = 520, 26, 10, 140, 16
BAR_COLOUR, UNDECIDED_COLOUR = "#2d5d8a", "#c9a55a"  # the playground's (kb/web/static/app.css)


def _colour(label: str) -> str:
    return UNDECIDED_COLOUR if label == "undecided" else BAR_COLOUR


def svg_bar_chart(title: str, rows: list[tuple[str, object]]) -> str:
    """rows: (label, chance as a Fraction), drawn in the order given."""
    span = WIDTH - LABEL - 2 * MARGIN - 110
    height = 2 * MARGIN + 28 + len(rows) * (BAR_HEIGHT + GAP)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="14">',
        f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
        f'<text x="{MARGIN}" y="{MARGIN + 14}" font-weight="bold">{escape(title)}</text>',
    ]
    largest = max((float(chance) for _, chance in rows), default=0.0) or 1.0
    for index, (label, chance) in enumerate(rows):
        y = MARGIN + 28 + index * (BAR_HEIGHT + GAP)
        width = max(1.0, float(chance) / largest * span)
        middle = y + BAR_HEIGHT / 2 + 5
        parts += [
            f'<text x="{MARGIN + LABEL - 8}" y="{middle}" text-anchor="end">{escape(label)}</text>',
            f'<rect x="{MARGIN + LABEL}" y="{y}" width="{width:.1f}" height="{BAR_HEIGHT}" '
            f'fill="{_colour(label)}"/>',
            f'<text x="{MARGIN + LABEL + width + 6:.1f}" y="{middle}">'
            f'{chance.numerator}/{chance.denominator} ({float(chance):.1%})</text>',
        ]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_chart(path: str, title: str, rows: list[tuple[str, object]]) -> None:
    if path.lower().endswith(".svg"):
        write_text(path, svg_bar_chart(title, rows))
        return
    if not path.lower().endswith(".png"):
        raise ValueError(f"{path}: write the chart to a .svg or a .png file")
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        raise ValueError(f"{path}: a PNG needs matplotlib (pip install matplotlib); "
                         "an .svg needs nothing") from None
    figure, axes = pyplot.subplots(figsize=(6, 0.5 + 0.45 * len(rows)))
    labels = [label for label, _ in rows][::-1]
    values = [float(chance) for _, chance in rows][::-1]
    axes.barh(labels, values, color=[_colour(label) for label in labels])
    axes.set_xlim(0, max(values, default=0.0) * 1.35 or 1)  # the largest bar spans the axes, its label beside it
    axes.set_title(title)
    for y, (value, (_, chance)) in enumerate(zip(values, rows[::-1])):
        axes.text(value + 0.01, y, f"{chance.numerator}/{chance.denominator} ({value:.1%})", va="center")
    figure.tight_layout()
    image = io.BytesIO()
    figure.savefig(image, format="png")
    pyplot.close(figure)
    write_bytes(path, image.getvalue())
