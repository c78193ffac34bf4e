// Completion and hover in the editor. Both are answered by the server, from
// the module the language server (`aslkb lsp`) answers from too
// (kb/tools/editing/, through POST /api/complete and /api/hover): what may
// be written where is known there, not here. A request the text overtook is
// cancelled, and one that fails (the server unreachable, busy or refusing)
// shows nothing: help is never worth an error message.
import { autocompletion } from "@codemirror/autocomplete";
import { EditorView, hoverTooltip } from "@codemirror/view";

const HOVER_MS = 300;  // the pointer rests, and the text stays, this long before a hover is asked
// a word as the server's completion reads it (kb/tools/editing/source.py's TOKEN): while
// the typed word goes on, the list already received is filtered instead of asked again
const WORD = /^[A-Za-z0-9_.+\-]*$/;
const KINDS = { keyword: "keyword", query: "function", id: "variable", hex: "constant", value: "enum" };

// A place of the editor as the API counts it: 1-based line, and column in
// characters (code points), as the error replies count them; the editor counts UTF-16 units.
function place(doc, pos) {
  const line = doc.lineAt(pos);
  return { line: line.number, column: [...line.text.slice(0, pos - line.from)].length + 1 };
}

function position(doc, line, column) {
  const found = doc.line(line);
  return found.from + [...found.text].slice(0, column - 1).join("").length;
}

function pause(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

// The reply's data, or null: cancelled, unreachable, refused.
async function ask(api, route, body, signal) {
  const reply = await api(route, body, signal);
  return reply.ok && !signal.aborted ? reply.data : null;
}

function completionSource(api) {
  return async (context) => {
    const line = context.state.doc.lineAt(context.pos);
    // typing in a comment asks nothing (`#` opens one, as language.js reads it); Ctrl-Space always asks
    if (!context.explicit && line.text.slice(0, context.pos - line.from).includes("#")) return null;
    const cancel = new AbortController();
    context.addEventListener("abort", () => cancel.abort(), { onDocChange: true });
    const at = place(context.state.doc, context.pos);
    const data = await ask(api, "complete", { text: context.state.doc.toString(), ...at }, cancel.signal);
    if (!data || !data.completions.length || context.aborted) return null;
    return {
      from: position(context.state.doc, data.line, data.column),
      options: data.completions.map((c) => ({
        label: c.label, type: KINDS[c.kind] || "text", detail: c.detail, info: c.documentation || undefined,
      })),
      validFor: WORD,
    };
  };
}

// The hover's Markdown, as kb/tools/editing/hover.py writes it: ``` blocks,
// paragraphs, `code` and **bold**. Built of text nodes: nothing is read as HTML.
function markdownNodes(markdown) {
  const nodes = [];
  let block = null;
  let paragraph = [];
  const endParagraph = () => {
    if (paragraph.length) nodes.push(inline(paragraph.join(" ")));
    paragraph = [];
  };
  for (const text of markdown.split("\n")) {
    if (text.startsWith("```")) {
      if (block === null) {
        endParagraph();
        block = [];
      } else {
        const pre = document.createElement("pre");
        pre.textContent = block.join("\n");
        nodes.push(pre);
        block = null;
      }
    } else if (block !== null) {
      block.push(text);
    } else if (!text.trim()) {
      endParagraph();
    } else {
      paragraph.push(text);
    }
  }
  endParagraph();
  return nodes;
}

function inline(text) {
  const paragraph = document.createElement("p");
  for (const part of text.split(/(`[^`]+`|\*\*[^*]+\*\*)/)) {
    if (!part) continue;
    const code = part.startsWith("`") && part.endsWith("`") && part.length > 1;
    const bold = part.startsWith("**") && part.endsWith("**") && part.length > 3;
    if (!code && !bold) {
      paragraph.append(part);
      continue;
    }
    const node = document.createElement(code ? "code" : "strong");
    node.textContent = code ? part.slice(1, -1) : part.slice(2, -2);
    paragraph.append(node);
  }
  return paragraph;
}

// The hover at (view, pos); `settings()` gives the page's edition and switches,
// so that a query line's hover says what its answer card says. A change of the
// text cancels the hover being asked, and the next waits until typing pauses.
function hoverHelp(api, settings) {
  let running = null;  // the hover being asked
  let changed = 0;     // when the text last changed (ms)
  const source = async (view, pos) => {
    if (running) running.abort();
    const cancel = running = new AbortController();
    const doc = view.state.doc;
    const typing = changed + HOVER_MS - Date.now();
    if (typing > 0) await pause(typing, cancel.signal);  // a text being typed is not solved at each key
    if (cancel.signal.aborted) return null;
    const at = place(doc, pos);
    const data = await ask(api, "hover", { text: doc.toString(), ...at, ...settings() }, cancel.signal);
    if (!data || !data.markdown || view.state.doc !== doc) return null;
    return {
      pos, above: true,
      create() {
        const dom = document.createElement("div");
        dom.className = "hover-help";
        dom.append(...markdownNodes(data.markdown));
        return { dom };
      },
    };
  };
  const onChange = EditorView.updateListener.of((update) => {
    if (!update.docChanged) return;
    changed = Date.now();
    if (running) running.abort();
  });
  // the pointer rests HOVER_MS first; a change closes the tooltip shown
  return [hoverTooltip(source, { hoverTime: HOVER_MS, hideOnChange: true }), onChange];
}

// The editor's extensions for completion and hover. Completion opens as you
// type (after a statement word, within a word) and with Ctrl-Space; Escape
// closes it, Enter accepts, the arrows choose (autocompletion's own keymap).
export function editorHelp(api, settings) {
  return [autocompletion({ override: [completionSource(api)], icons: false }), hoverHelp(api, settings)];
}
