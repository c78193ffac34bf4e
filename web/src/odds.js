// The odds of an answer that waits for a roll, as a bar chart (SVG): one bar
// per outcome with its exact chance. The order, the scale and the colours are
// those of `aslkb odds --plot` (kb/render/plot.py): numbers in ascending
// order, other outcomes by falling chance, `undecided` last; the largest bar
// spans the chart; decided outcomes in the accent colour, undecided in ochre.
const SVG = "http://www.w3.org/2000/svg";
const BAR_WIDTH = 200, ROW_HEIGHT = 20, CHANCE_WIDTH = 110;

function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function chance(fraction) {
  const [numerator, denominator] = fraction.split("/").map(Number);
  return numerator / (denominator || 1);
}

// [label, fraction] rows in the chart's order.
export function oddsRows(distribution) {
  const rows = Object.entries(distribution);
  const decided = rows.filter(([label]) => label !== "undecided");
  const undecided = rows.filter(([label]) => label === "undecided");
  if (decided.every(([label]) => /^-?\d+$/.test(label))) decided.sort((a, b) => Number(a[0]) - Number(b[0]));
  else decided.sort((a, b) => chance(b[1]) - chance(a[1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return [...decided, ...undecided];
}

export function oddsChart(distribution) {
  const rows = oddsRows(distribution);
  const largest = Math.max(...rows.map(([, fraction]) => chance(fraction)));
  const labelWidth = Math.max(...rows.map(([label]) => label.length)) * 7.5 + 10;
  const width = labelWidth + BAR_WIDTH + CHANCE_WIDTH, height = rows.length * ROW_HEIGHT + 4;
  // drawn to its viewBox: the CSS lets it shrink to a narrow column (side by side, a phone)
  const chart = svg("svg", {
    class: "odds-chart", role: "img", viewBox: `0 0 ${width} ${height}`, width, height,
    "aria-label": "odds: " + rows.map(([label, f]) => `${label} ${f}`).join(", "),
  });
  rows.forEach(([label, fraction], index) => {
    const y = index * ROW_HEIGHT + 2;
    const share = chance(fraction);
    const bar = largest > 0 ? share / largest * BAR_WIDTH : 0;
    chart.append(svg("text", { x: labelWidth - 6, y: y + 14, "text-anchor": "end", class: "label" }, label));
    chart.append(svg("rect", { x: labelWidth, y: y + 3, width: Math.max(1, bar), height: ROW_HEIGHT - 6,
      class: label === "undecided" ? "bar undecided" : "bar", "data-chance": fraction }));
    chart.append(svg("text", { x: labelWidth + bar + 6, y: y + 14, class: "chance" },
      `${fraction}  ${(share * 100).toFixed(1)}%`));
  });
  return chart;
}
