// The rule-level picture of an explanation (`aslkb explain --json`), drawn
// in the browser: the answer, the rules that gave it, the exceptions
// considered (dashed) and the situation's lines they rest on, laid out as a
// tree by d3-hierarchy. The atoms between rules are left to the text tree.
import { hierarchy, tree } from "d3-hierarchy";

const SVG = "http://www.w3.org/2000/svg";
const RULE_KINDS = new Set(["rule", "why_not", "exception", "blocked"]);
const NODE_WIDTH = 160, NODE_HEIGHT = 34, GAP_X = 28, GAP_Y = 8, MAX_CHARS = 24, MIN_SCALE = 0.7;

function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// The rule-level nodes under one explanation node.
function ruleLevel(node) {
  const below = (node.because || []).flatMap(ruleLevel);
  if (RULE_KINDS.has(node.kind) && node.rule !== undefined) {
    const id = node.rule === "query" ? "query" : node.rule + (node.exception ? " EXC" : "");
    return [{ kind: node.kind, label: id, note: node.note || node.text, where: node.where,
      interpretation: node.interpretation, children: unique(below) }];
  }
  if (node.kind === "fact") {
    const line = /:(\d+)$/.exec(node.where || "");
    return [{ kind: "fact", label: line ? `line ${line[1]}` : "given", note: node.text,
      line: line ? Number(line[1]) : null, children: [] }];
  }
  return below;
}

// The same rule (or line) under one parent is drawn once.
function unique(nodes) {
  const seen = new Map();
  for (const node of nodes) {
    const key = `${node.kind}|${node.label}|${node.where || node.note}`;
    if (seen.has(key)) seen.get(key).children = unique([...seen.get(key).children, ...node.children]);
    else seen.set(key, node);
  }
  return [...seen.values()];
}

function short(text) {
  return text.length > MAX_CHARS ? text.slice(0, MAX_CHARS - 1) + "…" : text;
}

function valueText(value) {
  if (value === true) return "yes";
  if (value === false) return "no";
  if (value === null) return "undecided";
  return Array.isArray(value) ? `[${value.join(", ")}]` : String(value);
}

export function explanationPicture(explanation, goToLine, available) {
  const root = hierarchy({ kind: "answer", label: `${explanation.query} = ${valueText(explanation.value)}`,
    note: `rules: ${explanation.rules.join(", ")}`, children: unique(explanation.why.flatMap(ruleLevel)) });
  tree().nodeSize([NODE_HEIGHT + GAP_Y, NODE_WIDTH + GAP_X])(root);
  let top = Infinity, bottom = -Infinity, right = 0;
  root.each((d) => { top = Math.min(top, d.x); bottom = Math.max(bottom, d.x); right = Math.max(right, d.y); });
  const width = right + NODE_WIDTH + 8, height = bottom - top + NODE_HEIGHT + 8;
  // a wide tree is shrunk to its panel, down to MIN_SCALE, then the panel scrolls
  const shown = Math.max(width * MIN_SCALE, Math.min(width, available || width));
  const picture = svg("svg", { class: "explanation-picture", width: shown, height: height * shown / width,
    viewBox: `0 0 ${width} ${height}`,
    role: "img", "aria-label": `why ${explanation.query}` });
  const place = (d) => [d.y + 4, d.x - top + 4];  // the tree grows to the right
  for (const link of root.links()) {
    const [x1, y1] = place(link.source), [x2, y2] = place(link.target);
    const middle = (x1 + NODE_WIDTH + x2) / 2;
    picture.append(svg("path", { class: "link", d: `M${x1 + NODE_WIDTH},${y1 + NODE_HEIGHT / 2}`
      + `C${middle},${y1 + NODE_HEIGHT / 2} ${middle},${y2 + NODE_HEIGHT / 2} ${x2},${y2 + NODE_HEIGHT / 2}` }));
  }
  root.each((d) => {
    const [x, y] = place(d);
    const data = d.data;
    const group = svg("g", { class: `node kind-${data.kind}${data.interpretation ? " interpretation" : ""}`,
      transform: `translate(${x},${y})` });
    group.append(svg("title", {}, [data.label, data.note, data.where, data.interpretation
      && `interpretation ${data.interpretation}`].filter(Boolean).join("\n")));
    group.append(svg("rect", { width: NODE_WIDTH, height: NODE_HEIGHT, rx: 5 }));
    group.append(svg("text", { x: 8, y: 14, class: "id" }, short(data.label)));
    group.append(svg("text", { x: 8, y: 28, class: "note" }, short(data.note || "")));
    if (data.line) group.addEventListener("click", () => goToLine(data.line));
    picture.append(group);
  });
  return picture;
}
