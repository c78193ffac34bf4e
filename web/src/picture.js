// The rule-level picture of an explanation (`aslkb explain --json`), drawn
// in the browser: the answer, the rules that gave it, the exceptions
// considered (dashed) and the situation's lines they rest on, laid out as a
// tree by d3-hierarchy. The atoms between rules are left to the tree in words
// (main.js). The picture carries its own style, so that the SVG downloaded
// from the page looks as it does there; its labels are whole, its notes wrapped.
import { hierarchy, tree } from "d3-hierarchy";

const SVG = "http://www.w3.org/2000/svg";
const RULE_KINDS = new Set(["rule", "why_not", "exception", "blocked"]);
const CHAR_WIDTH = 7, LINE_HEIGHT = 15, PADDING = 8, GAP_X = 28, GAP_Y = 10;
const MIN_CHARS = 22, MAX_CHARS = 44;  // a node's width in characters: its longest note within these, or label
const STYLE = `
  text { font: 12px system-ui, sans-serif; fill: #1d232a; }
  .link { fill: none; stroke: #9aa7b4; }
  rect { fill: #eef4fa; stroke: #2d5d8a; }
  .kind-answer rect { fill: #24323f; } .kind-answer text { fill: #fff; }
  .kind-why_not rect, .kind-blocked rect { fill: #f6eefa; stroke: #6a3d7a; stroke-dasharray: 4 3; }
  .kind-exception rect { fill: #f6eefa; stroke: #6a3d7a; }
  .kind-fact rect { fill: #f1f6ea; stroke: #2e7d32; } .kind-fact { cursor: pointer; }
  .interpretation rect { fill: #f6ead0; stroke: #b07d12; }
  .id { font-weight: 600; } .note { fill: #5b6570; } .kind-answer .note { fill: #dfe6ec; }`;

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

// A note in lines of at most `width` characters (a longer word is cut there).
function wrap(text, width) {
  const lines = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    for (let rest = word; rest; rest = rest.slice(width)) {
      const piece = rest.slice(0, width);
      if (line && line.length + 1 + piece.length > width) { lines.push(line); line = piece; }
      else line = line ? `${line} ${piece}` : piece;
    }
  }
  if (line) lines.push(line);
  return lines;
}

export function valueText(value) {
  if (value === true) return "yes";
  if (value === false) return "no";
  if (value === null) return "undecided";
  return Array.isArray(value) ? `[${value.join(", ")}]` : String(value);
}

// The answer's children: its derivation; an answer with none (odds, undecided)
// shows the rules it reads, so that its picture is never one empty box.
function answerChildren(explanation) {
  const derived = unique(explanation.why.flatMap(ruleLevel));
  if (derived.length) return derived;
  return explanation.rules.map((rule) => ({ kind: "rule", label: rule, note: "read by this answer", children: [] }));
}

export function explanationPicture(explanation, goToLine) {
  const root = hierarchy({ kind: "answer", label: `${explanation.query} = ${valueText(explanation.value)}`,
    note: `rules: ${explanation.rules.join(", ")}`, children: answerChildren(explanation) });
  let label = 0, note = 0;
  root.each((d) => { label = Math.max(label, d.data.label.length); note = Math.max(note, (d.data.note || "").length); });
  const chars = Math.max(MIN_CHARS, label, Math.min(note, MAX_CHARS));  // a label is never cut
  root.each((d) => { d.data.lines = wrap(d.data.note || "", chars); });
  let mostLines = 1;
  root.each((d) => { mostLines = Math.max(mostLines, d.data.lines.length); });
  const nodeWidth = chars * CHAR_WIDTH + 2 * PADDING, nodeHeight = (mostLines + 1) * LINE_HEIGHT + PADDING;
  tree().nodeSize([nodeHeight + GAP_Y, nodeWidth + GAP_X])(root);
  let top = Infinity, bottom = -Infinity, right = 0;
  root.each((d) => { top = Math.min(top, d.x); bottom = Math.max(bottom, d.x); right = Math.max(right, d.y); });
  const width = right + nodeWidth + 8, height = bottom - top + nodeHeight + 8;
  const picture = svg("svg", { xmlns: SVG, class: "explanation-picture", width, height,
    viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `the rules behind ${explanation.query}, as a picture` });
  picture.append(svg("style", {}, STYLE), svg("rect", { width, height, style: "fill: #fff; stroke: none" }));
  const place = (d) => [d.y + 4, d.x - top + 4];  // the tree grows to the right
  for (const link of root.links()) {
    const [x1, y1] = place(link.source), [x2, y2] = place(link.target);
    const middle = (x1 + nodeWidth + x2) / 2;
    picture.append(svg("path", { class: "link", d: `M${x1 + nodeWidth},${y1 + nodeHeight / 2}`
      + `C${middle},${y1 + nodeHeight / 2} ${middle},${y2 + nodeHeight / 2} ${x2},${y2 + nodeHeight / 2}` }));
  }
  root.each((d) => {
    const [x, y] = place(d);
    const data = d.data;
    const group = svg("g", { class: `node kind-${data.kind}${data.interpretation ? " interpretation" : ""}`,
      transform: `translate(${x},${y})` });
    group.append(svg("title", {}, [data.label, data.note, data.where, data.interpretation
      && `interpretation ${data.interpretation}`].filter(Boolean).join("\n")));
    group.append(svg("rect", { width: nodeWidth, height: nodeHeight, rx: 5 }));
    group.append(svg("text", { x: PADDING, y: LINE_HEIGHT, class: "id" }, data.label));
    data.lines.forEach((line, index) => {
      group.append(svg("text", { x: PADDING, y: (index + 2) * LINE_HEIGHT, class: "note" }, line));
    });
    if (data.line) group.addEventListener("click", () => goToLine(data.line));
    picture.append(group);
  });
  return picture;
}
