// The aslkb playground page: an editor for a situation, its cited answers
// beside it (kept current as the text changes), explanations, odds, the
// SL / ASL comparison, interpretation switches and the examples gallery;
// completion and hover in the editor (help.js). Everything it knows comes
// from the JSON API (docs/playground.md).
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { StreamLanguage, syntaxHighlighting } from "@codemirror/language";
import { classHighlighter } from "@lezer/highlight";
import { setDiagnostics } from "@codemirror/lint";
import { situationLanguage } from "./language.js";
import { encodeShare, decodeShare } from "./share.js";
import { explanationPicture, valueText } from "./picture.js";
import { oddsChart } from "./odds.js";
import { editorHelp } from "./help.js";

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
  explained: null,      // {query, edition} of the open explanation, asked again after each answer
  opener: null,         // the answer card that opened it, where Escape returns the focus
  loadedText: "",       // the text as last opened (link, example): edits differ from it
};

// ---- the API -------------------------------------------------------------

const UNREACHABLE = "the playground's server does not answer (is `aslkb serve` still running?)";

const BUSY_RETRIES = 3;  // a 429 is asked again this many times, after the Retry-After it names

// {ok, status, data}; a server that cannot be reached (or a request `signal`
// cancelled) is status 0. This page's own requests can overlap (an answer, the
// editor's completion or hover), and one client has only its share of the
// workers: a 429 waits as the server says and asks again.
async function api(route, body, signal) {
  let reply = await apiOnce(route, body, signal);
  for (let retry = 0; retry < BUSY_RETRIES && reply.status === 429 && !(signal && signal.aborted); retry++) {
    await new Promise((resolve) => setTimeout(resolve, 1000 * (reply.data.retry_after || 1)));
    reply = await apiOnce(route, body, signal);
  }
  return reply;
}

async function apiOnce(route, body, signal) {
  let response;
  try {
    response = await fetch(`/api/${route}`, body === undefined ? { signal } : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch {
    return { ok: false, status: 0, data: { error: UNREACHABLE } };
  }
  let data;
  try {
    data = await response.json();
  } catch {
    data = { error: `${response.status} ${response.statusText}` };
  }
  return { ok: response.ok, status: response.status, data };
}

function request(extra = {}) {
  return { text: view.state.doc.toString(), ...settings(), ...extra };
}

// The edition and switches the answers are asked under (a hover's too).
function settings() {
  return { edition: state.edition, interpretation: [...state.switchedOn], without: [...state.switchedOff] };
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
      syntaxHighlighting(classHighlighter),  // colours in app.css, light and dark
      EditorView.lineWrapping,
      editorHelp(api, settings),  // completion and hover, from the language server's module
      EditorView.contentAttributes.of({ "aria-label": "situation text" }),
      EditorView.updateListener.of((update) => { if (update.docChanged) textChanged(); }),
    ],
  }),
});

function setText(text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  state.loadedText = view.state.doc.toString();  // as the editor holds it (its line breaks)
}

function textChanged() {
  notice(null);
  clearTimeout(state.timer);
  state.timer = setTimeout(() => { keepShareLink(); refresh(); }, DEBOUNCE_MS);
}

function sharedState() {
  return { text: view.state.doc.toString(), edition: state.edition, on: [...state.switchedOn],
    off: [...state.switchedOff], compare: state.compare };
}

function keepShareLink() {
  window.history.replaceState(null, "", encodeShare(sharedState()));
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
    showFailure(reply);
    return;
  }
  view.dispatch(setDiagnostics(view.state, []));
  $("#answers").classList.remove("stale");
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.query : undefined;
  if (state.compare) {
    state.inForce = reply.data.results.asl.interpretations;  // the switches act on both editions alike
    showComparison(reply.data);
    showProblems([]);
    status(`${reply.data.differences.length} of ${reply.data.differences.length + reply.data.same.length} `
      + `queries differ between ASL and SL 4th edition · ${took} ms`, "ok");
  } else {
    state.inForce = reply.data.interpretations;
    showAnswers($("#answers"), reply.data, null);
    const failed = reply.data.expectations.filter((e) => !e.passed);
    showProblems(failed.map((e) => ({ line: e.line, column: 1, error: expectationText(e) })));
    const expects = reply.data.expectations.length
      ? ` · expect: ${reply.data.expectations.length - failed.length} passed, ${failed.length} failed` : "";
    status(`edition ${reply.data.edition} · ${reply.data.answers.length} answers${expects} · ${took} ms`, "ok");
  }
  if (focused !== undefined) refocus(focused);
  updateSwitches();
  if (state.explained) explain(state.explained.query, state.explained.edition, false);
}

// An error reply: underlined in the editor, listed with every line it names.
function showFailure(reply) {
  $("#answers").classList.add("stale");
  if (reply.status === 0) {
    status(UNREACHABLE, "error", true);
    return;
  }
  const located = reply.data.line !== undefined;
  const problems = located ? [reply.data]
    : (reply.data.lines || []).map((line) => ({ ...reply.data, line, column: 1, whole: true }));
  view.dispatch(setDiagnostics(view.state, problems.map(diagnostic)));
  showProblems(problems);
  status(located ? `line ${reply.data.line}, column ${reply.data.column}: ${reply.data.error}`
    : reply.data.error, "error");
}

// The list under the editor: every error of the last answer, each a button to its line.
function showProblems(problems) {
  const list = $("#problems");
  list.replaceChildren();
  list.hidden = !problems.length;
  for (const problem of problems) {
    const item = element("li");
    const button = element("button", "problem", `line ${problem.line}, column ${problem.column}: ${problem.error}`);
    button.type = "button";
    button.dataset.line = problem.line;
    button.addEventListener("click", () => goToLine(problem.line));
    item.append(button);
    list.append(item);
  }
}

// The status line; with `retry`, a button that asks again.
function status(text, kind, retry = false) {
  const bar = $("#status");
  bar.textContent = text;
  bar.className = kind;
  if (retry) {
    const again = element("button", "retry", "retry");
    again.type = "button";
    again.addEventListener("click", () => (interpretations.length ? refresh() : start()));
    bar.append(" ", again);
  }
}

// A message that stays until the text is edited (a damaged share link); null clears it.
function notice(text) {
  const box = $("#notice");
  box.hidden = text === null;
  box.textContent = text || "";
}

// ---- answers -------------------------------------------------------------

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function answerValue(answer) {
  if (answer.distribution) return "odds";
  if (answer.undecided !== undefined) return "undecided";
  return valueText(answer.value);
}

function answerCard(answer, edition, differs) {
  const card = element("article", "answer" + (differs ? " differs" : ""));
  card.tabIndex = 0;
  card.setAttribute("role", "button");
  card.setAttribute("aria-label", `${answer.query} = ${answerValue(answer)}${differs ? ", differs" : ""}: `
    + "open its explanation");
  card.dataset.query = answer.query;
  card.dataset.edition = edition;
  const head = element("header");
  head.append(element("code", "query", answer.query));
  const value = answerValue(answer);
  head.append(element("span", value === "odds" || value === "undecided" ? `value ${value}` : "value", value));
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
  const open = () => { state.opener = card.dataset; explain(answer.query, edition, true); };
  card.addEventListener("click", open);
  card.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();  // Space would scroll the page
    open();
  });
  return card;
}

// After the answers are drawn again, the focus goes back to the card it was on.
function refocus(query) {
  const card = [...document.querySelectorAll("#answers .answer")].find((c) => c.dataset.query === query);
  if (card) card.focus();
}

// An expectation's value: a value, odds as `4 2/9, 5 1/9`, or undecided.
function expectedText(value) {
  if (value === null) return "undecided";
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value).map(([outcome, chance]) => `${outcome} ${chance}`).join(", ");
  }
  return valueText(value);
}

function expectationText(expectation) {
  return `expect ${expectation.query} = ${expectedText(expectation.expected)}`
    + (expectation.passed ? "" : `, got ${expectedText(expectation.actual)}`);
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
    const line = element("button", "expectation " + (expectation.passed ? "passed" : "failed"),
      `${expectation.passed ? "ok" : "FAIL"} line ${expectation.line}: ${expectationText(expectation)}`);
    line.type = "button";
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

const KIND_WORDS = {
  answer: "answer", rule: "rule", exception: "exception applied", blocked: "exception blocked",
  fact: "given on a line", input: "given", atom: "holds", absent: "holds, as nothing says otherwise",
  why_not: "why not", failed: "fails", seen: "explained above", case: "case",
};

// Explain `query`, or (after the answers changed) explain it again; with `opening`
// the panel is scrolled to. A query no longer asked closes the panel.
async function explain(query, edition, opening) {
  const panel = $("#explanation");
  const asked = [...document.querySelectorAll("#answers .answer")].some((c) => c.dataset.query === query);
  if (!asked) {
    closeExplanation(false);
    return;
  }
  state.explained = { query, edition };
  panel.hidden = false;
  panel.querySelector("h2").textContent = `Why: ${query}`;
  const body = panel.querySelector(".body");
  if (opening) body.replaceChildren(element("p", "busy", "explaining…"));
  else body.classList.add("stale");
  const sequence = state.sequence;
  const reply = await api("explain", request({ query, edition: state.compare ? edition : state.edition }));
  if (sequence !== state.sequence || !state.explained || state.explained.query !== query) return;  // superseded
  body.classList.remove("stale");
  if (!reply.ok) {
    body.replaceChildren(element("p", "error", reply.data.error));
    return;
  }
  body.replaceChildren(...explanationBody(reply.data));
  if (opening) panel.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function explanationBody(data) {
  const parts = [];
  parts.push(element("p", "summary", `${data.query} = ${valueText(data.value)} · rules: ${data.rules.join(", ")}`));
  if (!data.why.length) {
    parts.push(element("p", "reason", data.value === null
      ? "No derivation: this answer waits for what the situation does not say (its card names it, and "
        + "gives the odds where a roll would decide it). The rules it reads are those above."
      : "No derivation was recorded for this answer."));
  } else {
    parts.push(nodeTree(data.why));
  }
  if (data.why_not.length) {
    parts.push(element("h3", "", "Why not another value"));
    parts.push(nodeTree(data.why_not));
  }
  parts.push(legend());
  const picture = element("details", "picture");
  picture.append(element("summary", "", "the rules as a picture"));
  const svgPicture = explanationPicture(data, goToLine);
  const scroll = element("div", "scroll");
  scroll.append(svgPicture);
  picture.append(scroll, downloadLink(svgPicture, data.query));
  parts.push(picture);
  return parts;
}

// The derivation as nested, collapsible lists in words, every label whole.
function nodeTree(nodes) {
  const list = element("ul", "tree");
  for (const node of nodes) {
    const item = element("li", `kind-${node.kind}`);
    const line = element("span", "step");
    line.append(element("span", "kind", KIND_WORDS[node.kind] || node.kind), " ", node.text);
    if (node.where) {
      const where = element("span", "where", ` (${node.where})`);
      const number = /^situation:(\d+)$/.exec(node.where);
      if (number) where.addEventListener("click", () => goToLine(Number(number[1])));
      line.append(where);
    }
    if (node.because && node.because.length) {
      const fold = element("details");
      fold.open = true;
      const summary = element("summary");
      summary.append(line);
      fold.append(summary, nodeTree(node.because));
      item.append(fold);
    } else {
      item.append(line);
    }
    list.append(item);
  }
  return list;
}

function legend() {
  const box = element("details", "legend");
  box.append(element("summary", "", "what the words and colours mean"));
  const list = element("dl");
  for (const [kind, meaning] of [
    ["rule", "a rule that gave this (its id, a paraphrase, its file and line)"],
    ["exception applied", "an exception (EXC) that held and overrode its rule"],
    ["exception blocked", "an exception that was considered and did not hold (dashed in the picture)"],
    ["given on a line", "a statement of your situation (click its line to go there; green in the picture)"],
    ["holds", "a step between rules"],
    ["why not", "a rule that could have given another value, and the condition that failed"],
    ["interpretation", "a named reading of damaged rule text (ochre in the picture)"]]) {
    list.append(element("dt", `kind-${kind.replace(/ /g, "_")}`, kind), element("dd", "", meaning));
  }
  box.append(list);
  return box;
}

function downloadLink(picture, query) {
  const link = element("a", "download", "download the picture (SVG)");
  const text = new XMLSerializer().serializeToString(picture);
  link.href = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  link.download = `why-${query.replace(/[^A-Za-z0-9_-]+/g, "_")}.svg`;
  return link;
}

function closeExplanation(returnFocus) {
  $("#explanation").hidden = true;
  state.explained = null;
  if (returnFocus && state.opener) refocus(state.opener.query);
}

// ---- interpretations -----------------------------------------------------

let interpretations = [];

// One switch per interpretation, made once: refreshing only sets them, so
// that the focus stays on the switch the user pressed.
function makeSwitches() {
  const list = $("#switches");
  list.replaceChildren();
  for (const interpretation of interpretations) {
    const item = element("label", "switch");
    const box = element("input");
    box.type = "checkbox";
    box.name = interpretation.name;
    box.addEventListener("change", () => {
      const on = box.checked;
      (on ? state.switchedOff : state.switchedOn).delete(interpretation.name);
      (on ? state.switchedOn : state.switchedOff).add(interpretation.name);
      keepShareLink();
      refresh();
    });
    item.append(box, element("code", "", interpretation.name), element("span", "rule", interpretation.rule));
    if (interpretation.default) item.append(element("span", "default", "default"));
    item.append(element("span", "reason", interpretation.reason));
    list.append(item);
  }
}

function updateSwitches() {
  for (const box of document.querySelectorAll("#switches input")) box.checked = state.inForce.includes(box.name);
}

// ---- gallery -------------------------------------------------------------

async function showGallery() {
  const reply = await api("examples");
  if (!reply.ok) {
    status(reply.data.error, "error", reply.status === 0);
    return;
  }
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
        const edited = view.state.doc.toString() !== state.loadedText;
        if (edited && !window.confirm(`Replace your edits with ${example.name}? They are not kept.`)) return;
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
  keepShareLink();
  refresh();
});
$("#compare").addEventListener("change", (event) => {
  state.compare = event.target.checked;
  $("#edition").disabled = state.compare;
  keepShareLink();
  refresh();
});
$("#open-gallery").addEventListener("click", showGallery);
$("#gallery .close").addEventListener("click", () => $("#gallery").close());
$("#explanation .close").addEventListener("click", () => closeExplanation(true));
document.addEventListener("keydown", (event) => {
  if (event.defaultPrevented) return;  // the editor's own Escape: it closed its completion list
  if (event.key === "Escape" && !$("#explanation").hidden && !$("#gallery").open) closeExplanation(true);
});
$("#skip").addEventListener("click", (event) => {
  event.preventDefault();  // the fragment holds the share link, not an anchor
  const first = $("#answers .answer");
  (first || $("#answers")).focus();
});
$("#copy-link").addEventListener("click", async () => {
  keepShareLink();
  try {
    await navigator.clipboard.writeText(location.href);
    status("share link copied", "ok");
  } catch {
    status(`share link: ${location.href}`, "ok");
  }
});

// Open the state a share link holds; false when the address holds none.
// A damaged link leaves the editor empty and says so until the text is edited.
function openFromLink() {
  const shared = decodeShare(location.hash);
  if (shared === null) return false;
  if (shared instanceof Error) {
    setText("");
    clearTimeout(state.timer);  // the damaged link stays in the address bar
    notice(`This share link is damaged: ${shared.message}. Nothing was opened from it; `
      + "write a situation, or pick one under Examples.");
    refresh();
    return true;
  }
  state.edition = shared.edition;
  state.switchedOn = new Set(shared.on);
  state.switchedOff = new Set(shared.off);
  state.compare = shared.compare;
  $("#edition").value = state.edition || "";
  $("#compare").checked = state.compare;
  $("#edition").disabled = state.compare;
  setText(shared.text);
  clearTimeout(state.timer);  // answered now, not after the typing pause; an empty text too
  refresh();
  return true;
}

window.addEventListener("hashchange", () => {
  if (location.hash !== encodeShare(sharedState())) openFromLink();
});

// On a narrow screen (a phone) the interpretations come after the answers, folded shut.
const NARROW = "(max-width: 900px)";  // app.css's one-column layout

async function start() {
  status("loading…", "busy");
  if (window.matchMedia(NARROW).matches) $("#interpretations").open = false;
  const known = await api("interpretations");
  if (!known.ok) {
    status(known.data.error, "error", known.status === 0);
    return;
  }
  interpretations = known.data.interpretations;
  makeSwitches();
  if (openFromLink()) return;
  const examples = await api("examples");
  if (!examples.ok) {
    status(examples.data.error, "error", examples.status === 0);
    return;
  }
  const first = examples.data.examples.find((e) => e.name === "first-night.sit") || examples.data.examples[0];
  setText(first ? first.text : "");
  clearTimeout(state.timer);
  keepShareLink();
  refresh();
}

start();
