"""`aslkb check --junit-xml OUT`: the run as JUnit XML for CI systems.

One <testcase> per situation file (classname: its folder, name: its file
name), with a <failure> listing every failed `expect` line and every
difference from its golden snapshot, or an <error> when the file cannot be
read.

One <testsuite> inside <testsuites>. A shard's run (--shard K/N) names its
suite `aslkb check (shard K/N)` and says K/N in its properties: the shards
hold different files, so their <testsuite> elements put side by side in one
<testsuites> (what JUnit mergers such as `junitparser merge` do) make one
report without a clash of suite or test names.

Every text is made one that XML 1.0 can hold (xml_text): a message may quote
a control character from a snapshot, and a file name may hold bytes that are
not UTF-8; either, written as it is, makes the report malformed.
"""
from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from aslkb.base.atomicwrite import write_bytes
from aslkb.base.terminal import escape_controls

# what XML 1.0 cannot hold once escape_controls has written the controls and surrogates as text
_NOT_XML = re.compile("[\ufffe\uffff]")


@dataclass
class CaseReport:
    path: str
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    error: str | None = None
    expectations: int = 0


def xml_text(text: str) -> str:
    """`text` as XML 1.0 can hold it: control characters and the bytes of a
    file name that are not UTF-8 written as `\\xNN`, as a terminal shows them
    (kb/base/terminal.py), U+FFFE and U+FFFF as `\\ufffe` and `\\uffff`."""
    return _NOT_XML.sub(lambda match: f"\\u{ord(match.group()):04x}", escape_controls(text))


def write_junit(reports: list[CaseReport], out: str, suite: str = "aslkb check",
                properties: dict[str, str] | None = None) -> None:
    failed = sum(1 for r in reports if r.failures and not r.error)
    errors = sum(1 for r in reports if r.error)
    root = ET.Element("testsuites")
    node = ET.SubElement(root, "testsuite", name=xml_text(suite), tests=str(len(reports)), failures=str(failed),
                         errors=str(errors), skipped="0", time=f"{sum(r.seconds for r in reports):.3f}")
    if properties:
        listed = ET.SubElement(node, "properties")
        for name, value in properties.items():
            ET.SubElement(listed, "property", name=xml_text(name), value=xml_text(value))
    for report in reports:
        folder, _, name = report.path.replace("\\", "/").rpartition("/")
        case = ET.SubElement(node, "testcase", classname=xml_text(folder.replace("/", ".") or "."),
                             name=xml_text(name), file=xml_text(report.path), time=f"{report.seconds:.3f}")
        if report.error:
            error = xml_text(report.error)
            ET.SubElement(case, "error", message=error.splitlines()[0]).text = error
        elif report.failures:
            message = f"{len(report.failures)} failure{'s' if len(report.failures) > 1 else ''}"
            ET.SubElement(case, "failure", message=message).text = xml_text("\n".join(report.failures))
    ET.indent(root)
    data = io.BytesIO()
    ET.ElementTree(root).write(data, encoding="utf-8", xml_declaration=True)
    write_bytes(out, data.getvalue())
