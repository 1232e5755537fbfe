"""The shape of the code (docs/architecture.md): no import cycles and no oversized modules.

The import graph (tests/importgraph.py, the tests' one checker) counts every import: at
module level, inside functions and under ``TYPE_CHECKING``.  The browser code's graph
(``js_import_graph``) counts every ``import ... from``, ``export ... from`` and JSDoc
``import("./x.js")`` type, so that a module typed by the page that builds it is a cycle too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from importgraph import ROOT, SRC, cycles, import_graph

TESTS = ROOT / "tests"
STATIC = SRC / "gammon" / "server" / "static"
PY_LIMIT = 700
JS_LIMIT = 800
CSS_LIMIT = 300
#: ``from "./x.js"`` (import and export) and ``import("./x.js")`` (dynamic, or a JSDoc type).
JS_IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)["']([^"']+\.js)["']""", re.M
)


def test_the_checker_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_counts_imports_inside_functions() -> None:
    graph = import_graph()
    assert "gammon.position" in graph
    assert graph["gammon.cli"], "cli imports gammon modules, some of them inside functions"


def test_no_import_cycles() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_one_import_graph_checker_in_the_tests() -> None:
    """Only tests/importgraph.py reads import statements: a second builder (a twin that
    would drift from it) makes this fail."""
    readers = set()
    for path in [*TESTS.rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "ast"
                and node.attr in ("Import", "ImportFrom")
            ):
                readers.add(str(path.relative_to(ROOT)))
    assert readers == {"tests/importgraph.py"}, readers


def test_no_python_module_over_the_limit() -> None:
    big = {
        str(p.relative_to(ROOT)): n
        for p in SRC.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > PY_LIMIT
    }
    assert not big, f"modules over {PY_LIMIT} lines: {big}"


def test_no_js_file_over_the_limit() -> None:
    files = list(STATIC.rglob("*.js"))
    assert files
    big = {
        str(p.relative_to(ROOT)): n
        for p in files
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > JS_LIMIT
    }
    assert not big, f"JS files over {JS_LIMIT} lines: {big}"


def js_import_graph(root: Path = STATIC) -> dict[str, set[str]]:
    """Each static JS file (relative to ``root``) -> the static JS files it imports, types
    included: ``import ... from``, ``export ... from``, ``import("...")`` in code or JSDoc.

    >>> graph = js_import_graph()
    >>> "game/page.js" in graph["game/main.js"]
    True
    """
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.js")):
        deps = set()
        for target in JS_IMPORT.findall(path.read_text(encoding="utf-8")):
            if target.startswith("."):
                dep = (path.parent / target).resolve()
            elif target.startswith("/static/"):
                dep = root / target.removeprefix("/static/")
            else:
                continue
            deps.add(dep.relative_to(root.resolve()).as_posix())
        graph[path.relative_to(root).as_posix()] = deps
    return graph


def test_the_js_graph_counts_jsdoc_type_imports(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\n', encoding="utf-8")
    (tmp_path / "b.js").write_text(
        '/** @typedef {import("./a.js").A} A */\nexport const b = await import("./c.js");\n',
        encoding="utf-8",
    )
    (tmp_path / "c.js").write_text('export { b } from "./b.js";\n', encoding="utf-8")
    graph = js_import_graph(tmp_path)
    assert graph == {"a.js": {"b.js"}, "b.js": {"a.js", "c.js"}, "c.js": {"b.js"}}
    assert cycles(graph) == [["a.js", "b.js", "c.js"]]


def test_no_js_import_cycles() -> None:
    """No module of the browser code imports, even for a JSDoc type, one that imports it
    back: the game page's modules take small typed interfaces, not the page's type."""
    graph = js_import_graph()
    assert graph["game/main.js"], "main.js imports the page"
    found = cycles(graph)
    assert not found, "JS import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_no_css_file_over_the_limit() -> None:
    files = list(STATIC.rglob("*.css"))
    assert files
    big = {
        str(p.relative_to(ROOT)): n
        for p in files
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > CSS_LIMIT
    }
    assert not big, f"CSS files over {CSS_LIMIT} lines: {big}"


def test_every_css_block_is_closed() -> None:
    """A dropped ``}`` nests the rest of a sheet in the open rule (CSS nesting): its rules
    then match nothing, silently (game.css's earlier-games rules did)."""
    unbalanced = {}
    for path in STATIC.rglob("*.css"):
        text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
        depth = 0
        for char in text:
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth < 0:
                break
        if depth:
            unbalanced[str(path.relative_to(ROOT))] = depth
    assert not unbalanced, f"unclosed (or extra) braces: {unbalanced}"


def test_the_game_pages_sheets_are_all_loaded_once() -> None:
    """templates/_game_css.html lists every sheet under static/game/, each once."""
    listing = (SRC / "gammon" / "server" / "templates" / "_game_css.html").read_text("utf-8")
    names = re.search(r"for sheet in \(([^)]*)\)", listing)
    assert names, listing
    listed = re.findall(r'"([\w-]+)"', names.group(1))
    assert len(listed) == len(set(listed)), listed
    assert sorted(listed) == sorted(p.stem for p in (STATIC / "game").glob("*.css"))
