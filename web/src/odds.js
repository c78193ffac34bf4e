// The odds of an answer that waits for a roll, as a bar chart (SVG): one bar
// per outcome, in the order of the API's distribution, with its exact chance.
const SVG = "http://www.w3.org/2000/svg";

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

export function oddsChart(distribution) {
  const rows = Object.entries(distribution);
  const numeric = rows.every(([label]) => /^-?\d+$/.test(label));
  if (numeric) rows.sort((a, b) => Number(a[0]) - Number(b[0]));
  const labelWidth = Math.max(...rows.map(([label]) => label.length)) * 7.5 + 10;
  const barWidth = 200, rowHeight = 20;
  const chart = svg("svg", {
    class: "odds-chart", role: "img", width: labelWidth + barWidth + 110, height: rows.length * rowHeight + 4,
    "aria-label": "odds: " + rows.map(([label, f]) => `${label} ${f}`).join(", "),
  });
  rows.forEach(([label, fraction], index) => {
    const y = index * rowHeight + 2;
    const share = chance(fraction);
    chart.append(svg("text", { x: labelWidth - 6, y: y + 14, "text-anchor": "end", class: "label" }, label));
    chart.append(svg("rect", { x: labelWidth, y: y + 3, width: Math.max(1, share * barWidth), height: rowHeight - 6,
      class: label === "undecided" ? "bar undecided" : "bar" }));
    chart.append(svg("text", { x: labelWidth + share * barWidth + 6, y: y + 14, class: "chance" },
      `${fraction}  ${(share * 100).toFixed(1)}%`));
  });
  return chart;
}
