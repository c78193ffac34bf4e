"""Text from outside that reaches the terminal or a report (issue 37, item 10):
escape sequences in a golden snapshot or a file name are shown escaped, never
obeyed, and the JUnit XML stays well-formed whatever a message or a file name
holds. The colour aslkb adds itself still works."""
from __future__ import annotations

import json
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from aslkb.base.terminal import escape_controls
from aslkb.tools.golden import snapshot_path
from aslkb.tools.junit import CaseReport, write_junit
from cli_helpers import run, write

RETITLE, CLEAR = "\x1b]0;owned\x07", "\x1b[2J"
SITUATION = "scenario night nvr 3\nquery base_nvr\nexpect base_nvr = 3\n"


def raw_controls(text: str) -> list[str]:
    """The control characters (but LF) a text holds as they are."""
    return [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f]


def test_escape_controls_shows_every_control_character_and_keeps_the_rest():
    assert escape_controls(RETITLE + CLEAR) == "\\x1b]0;owned\\x07\\x1b[2J"
    assert escape_controls("a\rb\x7fc\x9bd\x00") == "a\\x0db\\x7fc\\x9bd\\x00"
    assert escape_controls("bad\udcff.sit") == "bad\\xff.sit"  # a byte of a file name that is not UTF-8
    assert escape_controls("two\nlines\tand café, ☂") == "two\nlines\tand café, ☂"


def test_an_escape_sequence_in_a_golden_snapshot_is_shown_escaped(tmp_path, capsys):
    case = write(tmp_path, SITUATION)
    assert run(capsys, "check", "--update", case)[0] == 0
    stored = json.loads(snapshot_path(case).read_text(encoding="utf-8"))
    stored["answers"][0]["value"] = RETITLE + CLEAR
    stored["answers"][0]["rules"].append("E1.1\x9b2J")
    stored["interpretations"].append("x" + CLEAR)
    snapshot_path(case).write_text(json.dumps(stored), encoding="utf-8")
    code, out, err = run(capsys, "check", case)
    assert code == 1 and raw_controls(out + err) == []
    assert f"{case}:2: base_nvr: \\x1b]0;owned\\x07\\x1b[2J -> 3 (" in out
    assert "E1.1\\x9b2J" in out and "interpretations -x\\x1b[2J" in out


def test_a_file_name_with_an_escape_sequence_is_shown_escaped(tmp_path, capsys):
    named = write(tmp_path, SITUATION.replace("= 3", "= 4"), name=f"case{CLEAR}.sit")
    broken = write(tmp_path, "query\n", name=f"broken{RETITLE}.sit")
    shown = str(tmp_path) + "/case\\x1b[2J.sit"
    code, out, err = run(capsys, "check", tmp_path)
    assert code == 2 and raw_controls(out + err) == []
    assert f"{shown}:3: expect base_nvr = 4, got 3" in out
    assert f"{tmp_path}/broken\\x1b]0;owned\\x07.sit:1:6: expected an id" in out
    code, out, err = run(capsys, "query", broken)
    assert code == 2 and raw_controls(err) == [] and "broken\\x1b]0;owned\\x07.sit:1:6:" in err
    code, out, err = run(capsys, "query", tmp_path / f"missing{CLEAR}.sit")
    assert code == 2 and raw_controls(err) == [] and "missing\\x1b[2J.sit" in err
    # the colour aslkb adds is still there, around the escaped name
    code, out, err = run(capsys, "--color", "always", "query", named, broken)
    assert code == 2
    assert f"\x1b[1m==> {shown} <==\x1b[0m" in out
    assert f"\x1b[1m{tmp_path}/broken\\x1b]0;owned\\x07.sit:1:6:\x1b[0m expected an id" in err
    assert "\x1b[2J" not in out + err and "\x1b]0" not in out + err


def test_junit_xml_holds_control_characters_as_text():
    reports = [CaseReport("cases/a.sit", failures=[f"cases/a.sit:2: base_nvr: {RETITLE}{CLEAR} -> 3 (E1.1)"]),
               CaseReport("cases/b\x0c.sit", error="cases/b\x0c.sit: not a golden snapshot: \x00\ufffe"),
               CaseReport("cases/c.sit")]
    out = Path(os.environ.get("TMPDIR", "/tmp")) / f"aslkb-junit-{os.getpid()}.xml"
    try:
        write_junit(reports, str(out))
        root = ET.parse(out).getroot()  # well-formed
    finally:
        out.unlink(missing_ok=True)
    failure, error = root.find(".//failure"), root.find(".//error")
    assert failure.text == "cases/a.sit:2: base_nvr: \\x1b]0;owned\\x07\\x1b[2J -> 3 (E1.1)"
    assert error.get("message") == "cases/b\\x0c.sit: not a golden snapshot: \\x00\\ufffe"
    assert [case.get("name") for case in root.iter("testcase")] == ["a.sit", "b\\x0c.sit", "c.sit"]


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="a file name that is not UTF-8 needs Linux")
def test_junit_xml_is_well_formed_with_a_file_name_that_is_not_utf8(tmp_path, capsys):
    folder = os.fsencode(tmp_path)
    for name, text in ((b"fails\xff.sit", SITUATION.replace("= 3", "= 4")), (b"broken\xfe.sit", "query\n")):
        with open(os.path.join(folder, name), "wb") as file:
            file.write(text.encode())
    out = tmp_path / "report.xml"
    code, printed, err = run(capsys, "check", tmp_path, "--junit-xml", out)
    assert code == 2
    assert f"{tmp_path}/fails\\xff.sit:3: expect base_nvr = 4, got 3" in printed  # printable in any encoding
    root = ET.parse(out).getroot()
    assert sorted(case.get("name") for case in root.iter("testcase")) == ["broken\\xfe.sit", "fails\\xff.sit"]
    assert root.find(".//error").get("message").startswith(f"{tmp_path}/broken\\xfe.sit:1:6: expected an id")
