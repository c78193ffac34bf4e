"""The import graph of kb/ and parser/ points down the layers of docs/design.md.

Every import is read with `ast` (those inside functions and under TYPE_CHECKING
too, so a lazy import cannot hide an edge) and compared with the declared
order: no module imports one of a higher layer, no two modules import each
other through any path, and no module takes another's private name. The
generated parser tables (parser/_situation_tables.py) are checked like the rest.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {"aslkb": ROOT / "kb", "aslkb.parser": ROOT / "parser"}

# Bottom to top; a module may import its own layer and those below it.
LAYERS = [
    ("aslkb", "aslkb.base", "aslkb.rules", "aslkb.queries", "aslkb.examples"),
    ("aslkb.parser",),
    ("aslkb.knowledge",),
    ("aslkb.engine",),
    ("aslkb.answers",),
    ("aslkb.render",),
    ("aslkb.api",),
    ("aslkb.tools",),
    ("aslkb.cli", "aslkb.web", "aslkb.__main__"),
]


def module_files() -> dict[str, Path]:
    modules = {}
    for package, folder in SOURCES.items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if package == "aslkb" and parts[0] == "parser":
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join((package, *parts))] = path
    return modules


MODULES = module_files()


def layer(module: str) -> int:
    best = None
    for rank, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > best[1]):
                best = (rank, len(prefix))
    assert best is not None, f"{module} belongs to no layer: add it to LAYERS and docs/design.md"
    return best[0]


def imports(module: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for each aslkb import."""
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names if alias.name.startswith("aslkb")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[:len(base) - node.level + (1 if is_package else 0)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("aslkb"):
                continue
            names = [alias.name for alias in node.names]
            submodules = [n for n in names if f"{target}.{n}" in MODULES]
            for name in submodules:  # `from package import module`
                found.append((f"{target}.{name}", [], node.lineno))
            rest = [n for n in names if n not in submodules]
            if rest:
                found.append((target, rest, node.lineno))
    return found


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        edges[module] = {target for target, _, _ in imports(module, path)
                         if target in MODULES and target != module}
    return edges


def test_every_module_has_a_layer():
    for module in MODULES:
        layer(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module):
    upward = [f"{MODULES[module].relative_to(ROOT)}:{line}: imports {target}"
              for target, _, line in imports(module, MODULES[module])
              if layer(target) > layer(module)]
    assert upward == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_private_names_across_modules(module):
    private = [f"{MODULES[module].relative_to(ROOT)}:{line}: {name} from {target}"
               for target, names, line in imports(module, MODULES[module])
               for name in names if name.startswith("_") and not name.startswith("__")]
    assert private == []


def test_no_import_circles():
    edges = graph()
    # A package's __init__ that imports its own modules is the package's front
    # door, not a circle: a module reaching back into its package is.
    circles = []
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in sorted(edges[module]):
            if state.get(target) == 1:
                circles.append(" -> ".join(path[path.index(target):] + [target]))
            elif target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module)
    assert circles == []


def test_the_generated_parser_tables_are_plain_data_and_lark_is_not_run():
    """parser/_situation_tables.py (written by parser/generate.py) is literals
    only: it imports nothing and defines nothing that runs. Lark builds the
    tables at development time; no module but the generator imports it."""
    generated = "aslkb.parser._situation_tables"
    tree = ast.parse(MODULES[generated].read_text(encoding="utf-8"))
    assert all(isinstance(node, (ast.Assign, ast.Expr)) for node in tree.body)
    assert not any(isinstance(node, (ast.Call, ast.Lambda, ast.Import, ast.ImportFrom)) for node in ast.walk(tree))
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n == "lark" or n.startswith("lark.") for n in names):
                assert module == "aslkb.parser.generate", f"{module} imports Lark"


def test_the_checker_sees_an_upward_import_and_a_circle(tmp_path):
    """The checks above find what they look for (on a made-up module)."""
    fake = tmp_path / "fake.py"
    fake.write_text("def f():\n    from aslkb.cli.main import main\n")
    found = imports("aslkb.engine.fake", fake)
    assert [(t, line) for t, _, line in found] == [("aslkb.cli.main", 2)]
    assert layer("aslkb.cli.main") > layer("aslkb.engine.fake")


def test_no_cpython_private_module_is_imported():
    """`_blake2`, `_operator`, `_signal` and the like save a cold run a
    millisecond or two at the price of code that reaches under the standard
    library (issue 35): the public modules are imported instead."""
    private = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            private += [f"{module}:{node.lineno}: {name}" for name in names
                        if name.split(".")[0].startswith("_") and name != "__future__"]
    assert private == []


def test_one_function_makes_a_clingo_control():
    """kb/engine/solve.py's new_control is the one place a Control is made."""
    makers = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)) \
                    and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "Control":
                makers.append(f"{module}:{node.lineno}")
    assert len(makers) == 1 and makers[0].startswith("aslkb.engine.solve:"), makers


def test_the_maps_table_names_files_and_functions_that_exist():
    """docs/design.md's "Where things live" answers a newcomer (E1.7's rule, the
    cowering query, the odds enumeration, the SVG drawing): each path it names
    exists, and each function named beside a module is defined there."""
    import re

    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    table = text[text.index("**Where things live**"):]
    table = table[:table.index("\n\n", table.index("| you look for"))]
    paths = re.findall(r"`((?:rules|queries|kb|parser)/[\w./-]+\.(?:lp|py|toml))`", table)
    assert {"rules/asl/E1/E1.7.lp", "queries/cowers.lp", "kb/engine/odds.py", "kb/render/picture.py"} <= set(paths)
    assert [p for p in paths if not (ROOT / p).is_file()] == []
    named = re.findall(r"`(kb/[\w/]+\.py)` \(`(\w+)`\)", table)
    assert named and [(p, n) for p, n in named
                      if not re.search(rf"^(def|class) {n}\b", (ROOT / p).read_text(encoding="utf-8"), re.M)] == []


# The one door (kb/api.py, issue 35): the command line, the web service and the
# harness tools ask the knowledge base through it alone, and so do the editors'
# answers. The authoring tools (lint, coverage, invariants, impact, diverge) and
# the counter data's reader (tools/editing/counters.py) read the rule files themselves.
THROUGH_THE_DOOR = ("aslkb.cli", "aslkb.web", "aslkb.tools.check", "aslkb.tools.corpus", "aslkb.tools.diff",
                    "aslkb.tools.golden", "aslkb.tools.regress", "aslkb.tools.pytest_plugin", "aslkb.tools.shard",
                    "aslkb.tools.junit", "aslkb.tools.editing.analysis", "aslkb.tools.editing.completion",
                    "aslkb.tools.editing.hover")
BEHIND_THE_DOOR = ("aslkb.answers", "aslkb.engine", "aslkb.knowledge")


def test_the_command_line_the_web_and_the_harness_import_only_the_one_door():
    passing = []
    for module, path in MODULES.items():
        if not any(module == m or module.startswith(m + ".") for m in THROUGH_THE_DOOR):
            continue
        for target, _, line in imports(module, path):
            if any(target == b or target.startswith(b + ".") for b in BEHIND_THE_DOOR):
                passing.append(f"{module}:{line}: {target}")
    assert passing == []


def test_only_the_engine_grounds_and_solves():
    """A Control's ground() and solve() are called in kb/engine/ alone (issue
    35): the answers layer and the tools hand programs to the engine's
    functions and read atoms back."""
    calls = []
    for module, path in MODULES.items():
        if module == "aslkb.engine" or module.startswith("aslkb.engine."):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("ground", "solve") and _is_control_call(node):
                calls.append(f"{module}:{node.lineno}: .{node.func.attr}()")
    assert calls == []


def _is_control_call(node: ast.Call) -> bool:
    """`x.control.ground(...)`, `control.solve(...)`: a call on a name or attribute called control."""
    target = node.func.value
    name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
    return "control" in name.lower()


# Issue 35: no rule file under rules/asl or rules/sl4 is to mention `query(`:
# the demand of a question is to be derived by the knowledge layer from the
# rules themselves. Until it is, these hand-written conditions (a reader's
# `*_read` line, a rule narrowed to the asked unit) may only become fewer:
# lower the number as they go.
QUERY_CONDITIONS_LEFT = 94


def test_the_edition_rule_files_name_the_question_no_more_often_than_before():
    """A new rule states a rule: it does not read `query(...)`."""
    found = [f"{path.relative_to(ROOT)}:{number}"
             for edition in ("asl", "sl4") for path in sorted((ROOT / "rules" / edition).rglob("*.lp"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "query(" in line.split("%", 1)[0]]
    assert len(found) <= QUERY_CONDITIONS_LEFT, found
