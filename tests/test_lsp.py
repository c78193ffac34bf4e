"""`aslkb lsp` driven through pygls' own LSP client over stdio (the real
server, as a subprocess), and the editing module it converts
(kb/tools/editing/) called directly."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from aslkb.tools.editing import analyse, code_actions, completions, definition, diagnostics, hover, inlay_hints  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

NIGHT = """\
edition asl
scenario night
hex 3T7 woods
unit G1 german squad 4-6-7 at 3R6 level 1
unit R1 russian squad 5-2-7 at 3T7
range G1 R1 2
attack A1 by G1 at R1
query base_nvr
query drm A1 night_lv
expect drm A1 night_lv = 0
"""


# --- the editing module ---------------------------------------------------------

def test_a_typo_is_an_error_at_its_word_with_its_fix():
    text = "hex 3T7 wods\n"
    found = analyse(text)
    [error] = diagnostics(text, found)
    assert (error.severity, error.span) == ("error", (0, 8, 12))
    assert "did you mean 'woods'?" in error.message
    [fix] = code_actions(text, found, 0, 0)
    assert fix.title == "Replace 'wods' with 'woods'" and fix.edits[0].text == "woods"
    assert fix.edits[0].span == (0, 8, 12) and fix.preferred


def test_undecided_answers_are_hints_failing_expects_errors_and_answers_inlay_hints():
    found = analyse(NIGHT)
    shown = {(d.span.line, d.severity): d.message for d in diagnostics(NIGHT, found)}
    assert shown[(7, "hint")] == "base_nvr = undecided: add: scenario nvr N"
    assert shown[(9, "error")].startswith("expect drm A1 night_lv = 0, got 1 [E1.7")
    assert [(h.line, h.character, h.label) for h in inlay_hints(NIGHT, found)] == [
        (7, 14, "= undecided"), (8, 21, "= 1")]
    [add] = code_actions(NIGHT, found, 7, 7)
    assert add.title == "Add the missing fact: scenario nvr N"
    assert add.edits[0].span == (7, 0, 0) and add.edits[0].snippet == "scenario nvr ${1:N}\n"


def test_an_inconsistent_situation_names_every_conflicting_line():
    text = "unit G1 german squad 4-6-7 at 3R6\nrange G1 3R6 2\nquery base_nvr\n"
    found = analyse(text)
    errors = [d for d in diagnostics(text, found) if d.severity == "error"]
    assert len(errors) == 1 and "inconsistent situation" in errors[0].message
    assert errors[0].span.line == 1 and [r.span.line for r in errors[0].related] == [0]


def test_completion_offers_statements_query_shapes_ids_terrain_and_counters():
    assert {"unit", "hex", "query"} <= {c.label for c in completions("", 0, 0)}
    queries = {c.label: c.detail for c in completions("query ", 0, 6)}
    assert queries["drm"] == "drm ATTACK [SOURCE]" and "base_nvr" in queries
    assert [c.label for c in completions(NIGHT + "query drm ", 10, 10)] == ["A1"]
    assert "G1" in {c.label for c in completions(NIGHT + "attack A2 by ", 10, 13)}
    assert "woods" in {c.label for c in completions("hex 3T7 ", 0, 8)}
    counters = {c.label: c.detail for c in completions("unit G1 german squad ", 0, 21)}
    assert counters["4-6-7"] == "german squad: first line (counter data)"
    assert completions("# a comment ", 0, 12) == []


def test_hover_and_definition_of_rule_ids_query_lines_and_units():
    found = analyse(NIGHT)
    said = hover(NIGHT, 8, 7, found)
    assert said.startswith("```\ndrm A1 night_lv = 1\n    rules: E1.7")
    assert "E1.7 COMBAT" in hover("# E1.7 says so\n", 0, 3)
    unit = hover(NIGHT, 3, 6, found)
    assert "line 4" in unit and "a german squad 4-6-7 is **first line**" in unit
    [rule] = definition("# E1.7\n", 0, 3)
    assert Path(rule.path) == ROOT / "rules" / "asl" / "E1" / "E1.7.lp"
    assert Path(rule.path).read_text(encoding="utf-8").splitlines()[rule.line - 1].startswith("%@ E1.7")
    [unit_line] = definition(NIGHT, 6, 20)
    assert (unit_line.path, unit_line.line, unit_line.start) == (None, 4, 5)


# --- the server, through an LSP client -------------------------------------------

def _run(scenario) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 120))


async def _started(published: dict) -> LanguageClient:
    client = LanguageClient("aslkb-test", "1")

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnosed(params: types.PublishDiagnosticsParams) -> None:
        published.setdefault(params.uri, asyncio.Queue()).put_nowait(params.diagnostics)

    await client.start_io(sys.executable, "-m", "aslkb", "lsp", env={**os.environ, "PYTHONUNBUFFERED": "1"})
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    return client


async def _stopped(client: LanguageClient) -> None:
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


def _open(client: LanguageClient, uri: str, text: str) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="sit", version=1, text=text)))


def test_the_server_answers_an_editor_over_stdio(tmp_path):
    uri = (tmp_path / "night.sit").as_uri()
    published: dict = {}

    async def scenario() -> None:
        client = await _started(published)
        _open(client, uri, NIGHT.replace("woods", "wods"))
        [typo] = await published.setdefault(uri, asyncio.Queue()).get()
        assert typo.range.start == types.Position(2, 8) and "did you mean 'woods'?" in typo.message
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), typo.range, types.CodeActionContext([typo])))
        [fix] = actions
        [change] = fix.edit.document_changes
        assert fix.title == "Replace 'wods' with 'woods'" and change.edits[0].new_text == "woods"
        assert change.edits[0].range == typo.range

        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(2, uri), [types.TextDocumentContentChangeWholeDocument(NIGHT)]))
        shown = await published[uri].get()
        assert {(d.range.start.line, d.severity) for d in shown} == {
            (7, types.DiagnosticSeverity.Hint), (9, types.DiagnosticSeverity.Error)}

        listed = await client.text_document_completion_async(types.CompletionParams(
            types.TextDocumentIdentifier(uri), types.Position(7, 6)))
        assert {"base_nvr", "drm", "night_class"} <= {item.label for item in listed.items}

        shown = await client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri), types.Position(8, 8)))
        assert "drm A1 night_lv = 1" in shown.contents.value and "rules: E1.7" in shown.contents.value

        hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
            types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(11, 0))))
        assert [(h.position.line, h.label) for h in hints] == [(7, " = undecided"), (8, " = 1")]

        [unit] = await client.text_document_definition_async(types.DefinitionParams(
            types.TextDocumentIdentifier(uri), types.Position(6, 13)))
        assert unit.uri == uri and unit.range.start == types.Position(3, 5)
        await _stopped(client)

    _run(scenario)


def test_without_pygls_the_command_names_the_extra():
    hidden = "import sys; sys.modules['pygls'] = None; from aslkb.cli.main import main; sys.exit(main(['lsp']))"
    done = subprocess.run([sys.executable, "-c", hidden], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "pip install 'aslkb[editor]'" in done.stderr
