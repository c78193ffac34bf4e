"""`aslkb lint`: the knowledge base's own checks.

Every statement of rules/ carries a citation (docs/design.md §2); every
interpretation says which rule it decides, why, and whether it is on by
default; every query in the catalog has a program and every program an entry.
The interpretations are listed, so that no reading of damaged text goes unseen.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from aslkb.base.errors import RuleFileError
from aslkb.knowledge.annotations import is_rule_id
from aslkb.knowledge.catalog import query_catalog
from aslkb.knowledge.program import build, knowledge_base
from aslkb.knowledge.rulefiles import rule_files

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def lint(root: Path | None = None) -> tuple[list[str], list[str]]:
    """(problems, notes): each problem names a file and line.

    `root` holds rules/ and queries/ (default: the installed knowledge base).
    """
    files = rule_files(root)
    try:
        # the knowledge base every command reads, from the disk cache when current (the
        # transformation takes most of a cold run); another folder's is built for itself
        kb = knowledge_base() if root is None else build(files, root)
    except RuleFileError as error:
        return [str(error)], []
    problems = [f"{path}:{line}: statement has no %@ citation" for path, line in kb.uncited]
    problems += [f"{rule.where}: citation has no rule id (expected E1.7, A12.122, SL 49.23 or DEF)"
                 for rule in kb.rules if rule.rule_id == "?"]
    # rules/common/ is loaded under every edition: a rule one edition's text gives lives
    # in that edition's files, so that no answer cites another edition's rule
    problems += [f"{rule.where}: rules/common/ is shared by every edition: cite DEF here, and put "
                 f"{rule.rule_id} in the files of its edition"
                 for rule in kb.rules if rule.part == "common" and rule.head and rule.rule_id not in ("DEF", "", "?")]

    notes = []
    for name, interp in sorted(kb.interpretations.items()):
        where = f"{interp.path}:1"
        if not _NAME.match(name):
            problems.append(f"{where}: interpretation name '{name}' must be lowercase letters, digits and _")
        if not is_rule_id(interp.rule):
            problems.append(f"{where}: interpretation '{name}' needs a `%! rule RULE-ID` line")
        if not interp.reason:
            problems.append(f"{where}: interpretation '{name}' needs a `%! reason` line")
        for other in interp.excludes:
            if other not in kb.interpretations:
                problems.append(f"{where}: interpretation '{name}' excludes unknown '{other}'")
        state = "on by default" if interp.default else "off by default"
        notes.append(f"interpretation {name} ({interp.rule}, {state}): {interp.reason}")

    catalog = query_catalog(root)
    programs = {os.path.splitext(os.path.basename(path))[0] for path in files["queries"]}
    problems += [f"queries/catalog.toml: query '{name}' has no program queries/{name}.lp"
                 for name in sorted(set(catalog) - programs)]
    problems += [f"queries/{name}.lp:1: query program has no entry in queries/catalog.toml"
                 for name in sorted(programs - set(catalog))]
    return problems, notes
