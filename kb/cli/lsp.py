"""`aslkb lsp`: a Language Server Protocol server over stdio, on pygls (the
`editor` extra; docs/editor.md).

It only converts: the editing help itself is kb/tools/editing/, which knows
the language and no protocol. The part that solves (answers, conflicts,
expectations) runs in a worker process under the --timeout a playground
answer has (kb/web/workers.py, the playground's own pool), on the latest
text of a document only: a change waits DEBOUNCE seconds for the next, and
an analysis that a newer text overtook is not published.
"""
from __future__ import annotations

import asyncio
import os
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange

from aslkb import __version__
from aslkb.tools.editing import analysis as analysing
from aslkb.tools.editing import Span, code_actions, completions, definition, diagnostics, hover, inlay_hints
from aslkb.tools.editing.analysis import Analysis, Located
from aslkb.tools.editing.completion import ID, KEYWORD, QUERY, VALUE
from aslkb.web.workers import STARTUP, Busy, Timeout, WorkerDied, WorkerPool

DEBOUNCE = 0.25  # seconds of quiet after a change before it is answered: typing goes on meanwhile
SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
            "information": types.DiagnosticSeverity.Information, "hint": types.DiagnosticSeverity.Hint}
COMPLETION_KIND = {KEYWORD: types.CompletionItemKind.Keyword, QUERY: types.CompletionItemKind.Function,
                   ID: types.CompletionItemKind.Variable, VALUE: types.CompletionItemKind.Value}


class _Answers:
    """One document's latest text and the analysis of it, once made."""

    def __init__(self) -> None:
        self.generation = 0  # one more at each change
        self.text = ""
        self.analysis: Analysis | None = None
        self.ready = asyncio.Event()  # set when `analysis` is of `text`
        self.task: asyncio.Task | None = None


class SituationServer(LanguageServer):
    def __init__(self, timeout: float) -> None:
        super().__init__("aslkb", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.timeout = timeout
        self.pool = WorkerPool(analysing.work, size=1, timeout=timeout, warm=analysing.warm)
        self.documents: dict[str, _Answers] = {}

    def changed(self, uri: str) -> None:
        """The document's text changed: answer its latest text, once typing pauses."""
        answers = self.documents.setdefault(uri, _Answers())
        answers.text = self.workspace.get_text_document(uri).source
        answers.generation += 1
        answers.ready.clear()
        if answers.task is None or answers.task.done():
            answers.task = asyncio.ensure_future(self.answer_latest(uri, answers))

    async def answer_latest(self, uri: str, answers: _Answers) -> None:
        while True:
            generation = answers.generation
            await asyncio.sleep(DEBOUNCE)
            if generation != answers.generation:
                continue  # changed again meanwhile
            text = answers.text
            found = await asyncio.get_running_loop().run_in_executor(None, self.analyse, text, _filename(uri))
            if generation == answers.generation:
                answers.analysis = found
                answers.ready.set()
                self.publish(uri, text, found)
                return

    def analyse(self, text: str, filename: str) -> Analysis:
        """The text's Analysis from the worker; a note at line 1 where it gave none in time."""
        try:
            return self.pool.run((text, filename))
        except Timeout:
            why = (f"no answers: the situation took longer than {self.timeout:g} seconds "
                   "(aslkb lsp --timeout SECONDS gives more)")
        except (Busy, WorkerDied, RuntimeError) as error:
            why = f"no answers: {error}"
        return Analysis(warning=Located(1, 1, why))

    async def analysis_of(self, uri: str) -> tuple[str, Analysis]:
        """The document's text and its analysis, waiting for the analysis of its latest text."""
        answers = self.documents.get(uri)
        if answers is None:
            return self.workspace.get_text_document(uri).source, Analysis()
        try:
            await asyncio.wait_for(answers.ready.wait(), STARTUP + self.timeout)
        except asyncio.TimeoutError:
            pass
        return answers.text, answers.analysis or Analysis()

    def publish(self, uri: str, text: str, found: Analysis) -> None:
        document = self.workspace.get_text_document(uri)
        shown = [self.diagnostic(uri, d) for d in diagnostics(text, found)]
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=shown,
                                                                              version=document.version))

    def diagnostic(self, uri: str, found) -> types.Diagnostic:
        related = [types.DiagnosticRelatedInformation(types.Location(uri, self.client_range(uri, r.span)), r.message)
                   for r in found.related]
        return types.Diagnostic(self.client_range(uri, found.span), found.message, severity=SEVERITY[found.severity],
                                source="aslkb", related_information=related or None)

    def client_range(self, uri: str, span) -> types.Range:
        """A span of the editing module (code points) in the client's units."""
        document = self.workspace.get_text_document(uri)
        return document.range_to_client_units(ServerTextRange(ServerTextPosition(span.line, span.start),
                                                              ServerTextPosition(span.line, span.end)))

    def server_position(self, uri: str, position: types.Position) -> tuple[int, int]:
        found = self.workspace.get_text_document(uri).position_from_client_units(position)
        return found.line, found.character


def _filename(uri: str) -> str:
    """The name messages give the document: its path for a file, else its URI."""
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def _path_uri(path: str) -> str:
    from pathlib import Path  # only where a rule file is pointed at

    return Path(os.path.abspath(path)).as_uri()


def make_server(timeout: float) -> SituationServer:
    server = SituationServer(timeout)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SituationServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SituationServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SituationServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SituationServer, params: types.DidCloseTextDocumentParams) -> None:
        answers = ls.documents.pop(params.text_document.uri, None)
        if answers is not None and answers.task is not None:
            answers.task.cancel()
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                            diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", ","]))
    def complete(ls: SituationServer, params: types.CompletionParams) -> types.CompletionList:
        uri = params.text_document.uri
        line, character = ls.server_position(uri, params.position)
        found = completions(ls.workspace.get_text_document(uri).source, line, character)
        items = [types.CompletionItem(c.label, kind=COMPLETION_KIND.get(c.kind, types.CompletionItemKind.Reference),
                                      detail=c.detail, documentation=c.documentation or None) for c in found]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: SituationServer, params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        text, found = await ls.analysis_of(uri)
        line, character = ls.server_position(uri, params.position)
        said = await asyncio.get_running_loop().run_in_executor(None, hover, text, line, character, found)
        if said is None:
            return None
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, said))

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions())
    async def on_inlay_hint(ls: SituationServer, params: types.InlayHintParams) -> list[types.InlayHint]:
        uri = params.text_document.uri
        text, found = await ls.analysis_of(uri)
        document = ls.workspace.get_text_document(uri)
        return [types.InlayHint(document.position_to_client_units(ServerTextPosition(h.line, h.character)),
                                " " + h.label, padding_left=True, tooltip=h.tooltip)
                for h in inlay_hints(text, found)]

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    async def on_code_action(ls: SituationServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        text, found = await ls.analysis_of(uri)
        first, _ = ls.server_position(uri, params.range.start)
        last, _ = ls.server_position(uri, params.range.end)
        snippets = _snippets_supported(ls)
        version = ls.workspace.get_text_document(uri).version
        actions = []
        for action in code_actions(text, found, first, last):
            edits = [types.SnippetTextEdit(ls.client_range(uri, e.span), types.StringValue(e.snippet))
                     if snippets and e.snippet else types.TextEdit(ls.client_range(uri, e.span), e.text)
                     for e in action.edits]
            change = types.TextDocumentEdit(types.OptionalVersionedTextDocumentIdentifier(uri, version), edits)
            actions.append(types.CodeAction(action.title, kind=types.CodeActionKind.QuickFix,
                                            diagnostics=[ls.diagnostic(uri, action.diagnostic)]
                                            if action.diagnostic else None,
                                            is_preferred=action.preferred or None,
                                            edit=types.WorkspaceEdit(document_changes=[change])))
        return actions

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def on_definition(ls: SituationServer, params: types.DefinitionParams) -> list[types.Location]:
        uri = params.text_document.uri
        line, character = ls.server_position(uri, params.position)
        text = ls.workspace.get_text_document(uri).source
        found = await asyncio.get_running_loop().run_in_executor(None, definition, text, line, character)
        return [types.Location(uri, ls.client_range(uri, Span(f.line, f.start, f.end))) if f.path is None else
                types.Location(_path_uri(f.path), types.Range(types.Position(f.line, 0), types.Position(f.line, 0)))
                for f in found]

    @server.feature(types.SHUTDOWN)
    def on_shutdown(ls: SituationServer, params: None) -> None:
        ls.pool.close()

    return server


def _snippets_supported(ls: SituationServer) -> bool:
    """Does the client take snippets in a code action's edit (LSP 3.18's snippetEditSupport)?"""
    workspace = ls.client_capabilities.workspace
    edit = workspace.workspace_edit if workspace else None
    return bool(edit and getattr(edit, "snippet_edit_support", False))


def serve(timeout: float) -> None:
    """Serve on standard input and output until the client ends the session."""
    server = make_server(timeout)
    try:
        server.start_io()
    finally:
        server.pool.close()
