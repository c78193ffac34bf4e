// The aslkb playground page: an editor for a situation, its cited answers
// beside it (kept current as the text changes), explanations, odds, the
// SL / ASL comparison, interpretation switches and the examples gallery.
// Everything it knows comes from the JSON API (docs/playground.md).
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { StreamLanguage, syntaxHighlighting, defaultHighlightStyle } from "@codemirror/language";
import { setDiagnostics } from "@codemirror/lint";
import { situationLanguage } from "./language.js";
import { encodeShare, decodeShare } from "./share.js";
import { explanationPicture } from "./picture.js";
import { oddsChart } from "./odds.js";

const DEBOUNCE_MS = 350;
const $ = (selector) => document.querySelector(selector);

const state = {
  edition: null,        // null: the situation's own `edition` line
  switchedOn: new Set(),  // interpretations the page switches on or off over the file's
  switchedOff: new Set(),
  compare: false,       // the side-by-side SL / ASL view
  inForce: [],          // the interpretations in force in the last answer
  sequence: 0,          // the newest request: older replies are dropped
  timer: null,
};

// ---- the API -------------------------------------------------------------

async function api(route, body) {
  const response = await fetch(`/api/${route}`, body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  let data;
  try {
    data = await response.json();
  } catch {
    data = { error: `${response.status} ${response.statusText}` };
  }
  return { ok: response.ok, status: response.status, data };
}

function request(extra = {}) {
  return {
    text: view.state.doc.toString(),
    edition: state.edition,
    interpretation: [...state.switchedOn],
    without: [...state.switchedOff],
    ...extra,
  };
}

// ---- the editor ----------------------------------------------------------

const view = new EditorView({
  parent: $("#editor"),
  state: EditorState.create({
    doc: "",
    extensions: [
      lineNumbers(), history(), drawSelection(), highlightActiveLine(),
      keymap.of([...defaultKeymap, ...historyKeymap]),
      StreamLanguage.define(situationLanguage),
      syntaxHighlighting(defaultHighlightStyle),
      EditorView.lineWrapping,
      EditorView.updateListener.of((update) => { if (update.docChanged) textChanged(); }),
    ],
  }),
});

function setText(text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

function textChanged() {
  clearTimeout(state.timer);
  state.timer = setTimeout(() => { keepShareLink(); refresh(); }, DEBOUNCE_MS);
}

function keepShareLink() {
  window.history.replaceState(null, "", "#s=" + encodeShare(view.state.doc.toString()));
}

function goToLine(line) {
  const doc = view.state.doc;
  if (line < 1 || line > doc.lines) return;
  view.dispatch({ selection: { anchor: doc.line(line).from }, scrollIntoView: true });
  view.focus();
}

// A situation error underlined from its column to the end of its word (a
// statement in conflict with others: its whole line).
function diagnostic(error) {
  const doc = view.state.doc;
  const line = doc.line(Math.min(Math.max(error.line, 1), doc.lines));
  if (error.whole) return { from: line.from, to: line.to, severity: "error", message: error.error };
  const from = Math.min(line.from + Math.max(error.column - 1, 0), line.to);
  const rest = line.text.slice(from - line.from);
  const word = rest.match(/^\S*/)[0].length;
  const to = word ? from + word : Math.min(line.to, from + 1);
  return { from, to: Math.max(to, from), severity: "error", message: error.error };
}

// ---- answering -----------------------------------------------------------

async function refresh() {
  const sequence = ++state.sequence;
  status("answering…", "busy");
  const started = performance.now();
  const reply = state.compare ? await api("diff", request()) : await api("answer", request());
  if (sequence !== state.sequence) return;  // the text changed meanwhile
  const took = Math.round(performance.now() - started);
  if (!reply.ok) {
    const located = reply.data.line !== undefined;
    const conflicting = (reply.data.lines || []).map((line) => ({ ...reply.data, line, column: 1, whole: true }));
    view.dispatch(setDiagnostics(view.state, located ? [diagnostic(reply.data)] : conflicting.map(diagnostic)));
    status(located ? `line ${reply.data.line}, column ${reply.data.column}: ${reply.data.error}`
      : reply.data.error, "error");
    $("#answers").classList.add("stale");
    return;
  }
  view.dispatch(setDiagnostics(view.state, []));
  $("#answers").classList.remove("stale");
  if (state.compare) {
    showComparison(reply.data);
    status(`${reply.data.differences.length} of ${reply.data.differences.length + reply.data.same.length} `
      + `queries differ between ASL and SL 4th edition · ${took} ms`, "ok");
  } else {
    state.inForce = reply.data.interpretations;
    showAnswers($("#answers"), reply.data, null);
    const failed = reply.data.expectations.filter((e) => !e.passed).length;
    const expects = reply.data.expectations.length
      ? ` · expect: ${reply.data.expectations.length - failed} passed, ${failed} failed` : "";
    status(`edition ${reply.data.edition} · ${reply.data.answers.length} answers${expects} · ${took} ms`, "ok");
  }
  showSwitches();
}

function status(text, kind) {
  const bar = $("#status");
  bar.textContent = text;
  bar.className = kind;
}

// ---- answers -------------------------------------------------------------

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function valueText(value) {
  if (value === true) return "yes";
  if (value === false) return "no";
  if (Array.isArray(value)) return `[${value.map(valueText).join(", ")}]`;
  return String(value);
}

function answerCard(answer, edition, differs) {
  const card = element("article", "answer" + (differs ? " differs" : ""));
  card.tabIndex = 0;
  card.dataset.query = answer.query;
  const head = element("header");
  head.append(element("code", "query", answer.query));
  if (answer.distribution) head.append(element("span", "value odds", "odds"));
  else if (answer.undecided !== undefined) head.append(element("span", "value undecided", "undecided"));
  else head.append(element("span", "value", valueText(answer.value)));
  if (differs) head.append(element("span", "badge", "differs"));
  card.append(head);
  if (answer.distribution) card.append(oddsChart(answer.distribution));
  if (answer.undecided) card.append(element("p", "reason", answer.undecided));
  const rules = element("p", "rules");
  for (const rule of answer.rules) rules.append(element("span", "rule", rule));
  card.append(rules);
  for (const exception of answer.exceptions) {
    card.append(element("p", "exception",
      `${exception.applied ? "exception applied" : "blocked"}: ${exception.rule} EXC ${exception.note}`));
  }
  if (answer.interpretations.length) {
    const used = element("p", "interpretations", "interpretation: ");
    for (const name of answer.interpretations) used.append(element("span", "interpretation", name));
    card.append(used);
  }
  const open = () => explain(answer.query, edition);
  card.addEventListener("click", open);
  card.addEventListener("keydown", (event) => { if (event.key === "Enter") open(); });
  return card;
}

// An expectation's value: a value, or odds as `4 2/9, 5 1/9`.
function expectedText(value) {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value).map(([outcome, chance]) => `${outcome} ${chance}`).join(", ");
  }
  return valueText(value);
}

function showAnswers(panel, result, differing) {
  panel.replaceChildren();
  if (!result.answers.length) {
    panel.append(element("p", "empty", "No `query` lines yet: add one, e.g. `query base_nvr`."));
  }
  for (const answer of result.answers) {
    panel.append(answerCard(answer, result.edition, differing ? differing.has(answer.query) : false));
  }
  // side by side, the file's expect lines are not shown: they hold for its own edition only
  for (const expectation of differing ? [] : result.expectations) {
    const line = element("p", "expectation " + (expectation.passed ? "passed" : "failed"),
      `${expectation.passed ? "ok" : "FAIL"} line ${expectation.line}: expect ${expectation.query} = `
      + `${expectedText(expectation.expected)}${expectation.passed ? "" : `, got ${expectedText(expectation.actual)}`}`);
    line.addEventListener("click", () => goToLine(expectation.line));
    panel.append(line);
  }
}

function showComparison(data) {
  const differing = new Set(data.differences.map((d) => d.query));
  const panel = $("#answers");
  panel.replaceChildren();
  const columns = element("div", "compare");
  for (const [edition, title] of [["sl4", "SL 4th edition"], ["asl", "ASL"]]) {
    const column = element("section", `edition-${edition}`);
    column.append(element("h3", "", title));
    const list = element("div", "list");
    showAnswers(list, data.results[edition], differing);
    column.append(list);
    columns.append(column);
  }
  panel.append(columns);
}

// ---- explanations --------------------------------------------------------

async function explain(query, edition) {
  const panel = $("#explanation");
  panel.hidden = false;
  panel.querySelector("h2").textContent = `Why: ${query}`;
  const body = panel.querySelector(".body");
  body.replaceChildren(element("p", "busy", "explaining…"));
  const reply = await api("explain", request({ query, edition }));
  if (!reply.ok) {
    body.replaceChildren(element("p", "error", reply.data.error));
    return;
  }
  body.replaceChildren();
  body.append(explanationPicture(reply.data, goToLine, body.clientWidth));
  const details = element("details", "tree");
  details.append(element("summary", "", "the whole derivation, step by step"));
  details.append(nodeList(reply.data.why));
  if (reply.data.why_not.length) {
    details.append(element("h4", "", "why not another value"));
    details.append(nodeList(reply.data.why_not));
  }
  body.append(details);
  panel.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function nodeList(nodes) {
  const list = element("ul");
  for (const node of nodes) {
    const item = element("li", `kind-${node.kind}`);
    item.append(element("span", "kind", node.kind));
    item.append(document.createTextNode(" " + node.text));
    if (node.where) item.append(element("span", "where", ` (${node.where})`));
    if (node.because) item.append(nodeList(node.because));
    list.append(item);
  }
  return list;
}

// ---- interpretations -----------------------------------------------------

let interpretations = [];

function showSwitches() {
  const list = $("#switches");
  list.replaceChildren();
  for (const interpretation of interpretations) {
    const item = element("label", "switch");
    const box = element("input");
    box.type = "checkbox";
    box.name = interpretation.name;
    box.checked = state.inForce.includes(interpretation.name);
    box.addEventListener("change", () => {
      const on = box.checked;
      (on ? state.switchedOff : state.switchedOn).delete(interpretation.name);
      (on ? state.switchedOn : state.switchedOff).add(interpretation.name);
      refresh();
    });
    item.append(box, element("code", "", interpretation.name), element("span", "rule", interpretation.rule));
    if (interpretation.default) item.append(element("span", "default", "default"));
    item.append(element("span", "reason", interpretation.reason));
    list.append(item);
  }
}

// ---- gallery -------------------------------------------------------------

async function showGallery() {
  const reply = await api("examples");
  const panel = $("#gallery .body");
  panel.replaceChildren();
  for (const [group, title] of [["examples", "Examples"], ["tutorial", "The tutorial, step by step"],
    ["divergences", "Where SL and ASL disagree (found by aslkb diverge)"]]) {
    panel.append(element("h3", "", title));
    const grid = element("div", "grid");
    for (const example of reply.data.examples.filter((e) => e.group === group)) {
      const card = element("button", "example");
      card.append(element("strong", "", example.name));
      // a witness: its title, then its `QUERY: asl X` / `QUERY: sl4 Y` lines
      const about = group === "divergences"
        ? [example.about[0], ...example.about.slice(1).filter((line) => /:\s*(asl|sl4)\b/.test(line))]
        : example.about.slice(0, 2);
      card.append(element("span", "", about.filter(Boolean).join(" · ")));
      card.addEventListener("click", () => {
        $("#gallery").close();
        setText(example.text);
      });
      grid.append(card);
    }
    panel.append(grid);
  }
  $("#gallery").showModal();
}

// ---- the controls and the start ------------------------------------------

$("#edition").addEventListener("change", (event) => {
  state.edition = event.target.value || null;
  refresh();
});
$("#compare").addEventListener("change", (event) => {
  state.compare = event.target.checked;
  $("#edition").disabled = state.compare;
  refresh();
});
$("#open-gallery").addEventListener("click", showGallery);
$("#gallery .close").addEventListener("click", () => $("#gallery").close());
$("#explanation .close").addEventListener("click", () => { $("#explanation").hidden = true; });
$("#copy-link").addEventListener("click", async () => {
  keepShareLink();
  try {
    await navigator.clipboard.writeText(location.href);
    status("share link copied", "ok");
  } catch {
    status(`share link: ${location.href}`, "ok");
  }
});

function openFromLink() {
  const match = location.hash.match(/^#s=([A-Za-z0-9_-]*)$/);
  if (!match) return false;
  try {
    setText(decodeShare(match[1]));
    return true;
  } catch {
    status("the share link is damaged: its text cannot be decoded", "error");
    return false;
  }
}

window.addEventListener("hashchange", () => {
  if (location.hash !== "#s=" + encodeShare(view.state.doc.toString())) openFromLink();
});

async function start() {
  const known = await api("interpretations");
  interpretations = known.ok ? known.data.interpretations : [];
  if (!openFromLink()) {
    const examples = await api("examples");
    const first = examples.data.examples.find((e) => e.name === "first-night.sit") || examples.data.examples[0];
    setText(first ? first.text : "");
  }
}

start();
