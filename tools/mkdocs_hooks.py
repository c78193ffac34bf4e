r"""MkDocs hooks: links out of docs/, and pipes in the code of a table.

The pages link to situation files and rule files (`../examples/x.sit`) so
that they work where Markdown is read in the repository. The site holds only
docs/, so such a link is checked here instead (a missing file is a warning,
an error under `mkdocs build --strict`) and rendered as the file's path.

A table cell's code writes a pipe `\|`, as GitHub's tables need (there a bare
`|` ends the cell even inside backticks, and `\|` is read as `|`). Python-
Markdown does not end a cell inside backticks and keeps the backslash there,
so the site showed a literal `\|`: inside a table row's code, it becomes `|`.
"""

import logging
import posixpath
import re
from pathlib import Path

log = logging.getLogger("mkdocs.hooks.aslkb")

# [text](target) with no scheme, no anchor-only target and no image marker.
_LINK = re.compile(r"(?<!!)\[([^\]\n]+)\]\(((?:\.\./)+[^)\s#]+)\)")
_CODE_SPAN = re.compile(r"`[^`\n]+`")


def on_page_markdown(markdown, page, config, files):
    docs_dir = Path(config["docs_dir"]).resolve()
    repo = docs_dir.parent
    page_dir = posixpath.dirname(page.file.src_uri)

    def outside(match):
        text, target = match.group(1), match.group(2)
        path = posixpath.normpath(posixpath.join("docs", page_dir, target))
        if path.startswith("docs/") or path.startswith(".."):
            return match.group(0)  # a docs page: MkDocs checks it itself
        if not (repo / path).is_file():
            log.warning("Doc file '%s' links to '%s', which is not a file of the repository",
                        page.file.src_uri, path)
        named = text.strip("`") in (path, posixpath.basename(path))
        return f"`{path}`" if named else f"{text} (`{path}`)"

    return table_pipes(_LINK.sub(outside, markdown))


def table_pipes(markdown: str) -> str:
    r"""`\|` as `|` inside the code spans of table rows (outside fenced blocks)."""
    lines, fenced = [], False
    for line in markdown.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("|"):
            line = _CODE_SPAN.sub(lambda code: code.group(0).replace("\\|", "|"), line)
        lines.append(line)
    return "\n".join(lines)
