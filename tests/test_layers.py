"""The core (gammon, gammon.notation, gammon.match) imports only the standard library,
and nothing under src/ imports the GPL test oracles."""

from __future__ import annotations

import sys
from pathlib import Path

from importgraph import cycles, import_graph, module_paths, packages_imported

SRC = Path(__file__).resolve().parents[1] / "src" / "gammon"
CORE = [p for p in SRC.glob("*.py") if p.name not in {"cli.py", "__main__.py"}] + [
    *SRC.glob("notation/**/*.py"),
    *SRC.glob("rules/**/*.py"),
    *SRC.glob("match/**/*.py"),
]


def test_core_imports_only_the_standard_library() -> None:
    assert CORE
    allowed = set(sys.stdlib_module_names) | {"gammon"}
    for path in CORE:
        outside = packages_imported(path) - allowed
        assert not outside, f"{path.relative_to(SRC)} imports {sorted(outside)}"


def test_core_does_not_import_the_outer_layers() -> None:
    for path in CORE:
        text = path.read_text(encoding="utf-8")
        for layer in ("gammon.bots", "gammon.server", "gammon.storage", "gammon.cli"):
            assert f"import {layer}" not in text and f"from {layer}" not in text, (path, layer)


def test_nothing_imports_gnubg() -> None:
    for path in SRC.rglob("*.py"):
        assert not packages_imported(path) & {"gnubg", "gnubg_nn"}, path


def test_the_core_has_no_import_cycles() -> None:
    """gammon's own modules, gammon.notation and gammon.rules import each other without
    a cycle: a lower module that needs a type takes a small Protocol instead."""
    core = [p for p in SRC.glob("*.py") if p.name not in {"cli.py", "__main__.py"}] + [
        *SRC.glob("notation/**/*.py"),
        *SRC.glob("rules/**/*.py"),
    ]
    names = {name for name, path in module_paths().items() if path in core}
    graph = import_graph(names)
    assert graph["gammon.position"] >= {"gammon.rules", "gammon.notation.drawing"}
    assert cycles(graph) == []
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]


#: The layers of docs/architecture.md, lowest first: a module may import its own layer
#: and the layers below it, never one above.  An entry is a module or a package (with
#: its modules); ``gammon`` is the package's ``__init__`` alone.  Every gammon module
#: is in exactly one layer, so a new one fails here until it is placed.
LAYERS: list[tuple[str, list[str]]] = [
    (
        "foundations",
        ["gammon.errors", "gammon.variants", "gammon.dice", "gammon.step", "gammon.movegen"],
    ),
    (
        "text",
        [
            "gammon.notation",
            "gammon.notation.movetext",
            "gammon.notation.position_id",
            "gammon.notation.xgid",
        ],
    ),
    ("rules", ["gammon.rules"]),
    ("pictures", ["gammon.notation.drawing", "gammon.notation.svg"]),
    ("position", ["gammon.playset", "gammon.position", "gammon.move", "gammon.sampling", "gammon"]),
    ("ids", ["gammon.notation.matchid", "gammon.notation.xgid_record"]),
    ("match", ["gammon.match"]),
    ("bots", ["gammon.bots"]),
    ("storage", ["gammon.storage"]),
    ("server", ["gammon.server"]),
    ("apps", ["gammon.tui", "gammon.cli", "gammon.__main__"]),
]
#: The layers that import only the standard library.
STDLIB_ONLY = ("foundations", "text", "rules", "pictures", "position", "ids", "match")
DOC = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def layer_of(module: str) -> str | None:
    """The layer of a module: its longest entry (None: in no layer)."""
    best: tuple[int, str] | None = None
    for layer, entries in LAYERS:
        for entry in entries:
            inside = module == entry or (entry != "gammon" and module.startswith(entry + "."))
            if inside and (best is None or len(entry) > best[0]):
                best = (len(entry), layer)
    return None if best is None else best[1]


def layer_breaches(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module in a higher layer, as ``module (layer) -> module (layer)``."""
    rank = {layer: i for i, (layer, _) in enumerate(LAYERS)}
    found = []
    for module, deps in sorted(graph.items()):
        mine = layer_of(module)
        for dep in sorted(deps):
            theirs = layer_of(dep)
            if mine is not None and theirs is not None and rank[theirs] > rank[mine]:
                found.append(f"{module} ({mine}) -> {dep} ({theirs})")
    return found


def test_every_module_has_a_layer() -> None:
    unplaced = sorted(m for m in module_paths() if layer_of(m) is None)
    assert not unplaced, f"modules in no layer of LAYERS (docs/architecture.md): {unplaced}"


def test_no_layer_imports_a_higher_one() -> None:
    breaches = layer_breaches(import_graph())
    assert not breaches, "imports of a higher layer: " + "; ".join(breaches)


def test_the_checker_finds_a_breach() -> None:
    """What the rules forbid is found: notation's drawing importing Position, the
    engine importing the server, storage importing the bots' caller."""
    graph = {
        "gammon.notation.drawing": {"gammon.position"},
        "gammon.match.engine": {"gammon.server.table.views"},
        "gammon.storage.store": {"gammon.server.app", "gammon.match.state"},
        "gammon.notation.matchid": {"gammon.position"},  # allowed: ids sit above Position
    }
    assert layer_breaches(graph) == [
        "gammon.match.engine (match) -> gammon.server.table.views (server)",
        "gammon.notation.drawing (pictures) -> gammon.position (position)",
        "gammon.storage.store (storage) -> gammon.server.app (server)",
    ]


def test_the_stdlib_layers_import_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"gammon"}
    for module, path in module_paths().items():
        if layer_of(module) in STDLIB_ONLY:
            outside = packages_imported(path) - allowed
            assert not outside, f"{module} imports {sorted(outside)}"


def test_the_document_shows_these_layers() -> None:
    """docs/architecture.md's layer table is LAYERS, row for row (highest first)."""
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| **") and len(cells) >= 3:
            name = cells[0].strip("*")
            modules = [m.strip().strip("`") for m in cells[1].split(",")]
            rows.append((name, modules))
    assert rows == LAYERS[::-1]


#: The rooms of the server (docs/architecture.md, "The server's rooms"), lowest first: a
#: module may import its own room and the rooms below it, never one above or beside it.
#: ``play`` and ``analysis`` sit side by side: neither imports the other.
ROOMS: list[tuple[str, list[str]]] = [
    ("base", ["gammon.server.protocol", "gammon.server.i18n"]),
    ("infra", ["gammon.server.infra"]),
    ("table", ["gammon.server.table"]),
    ("community", ["gammon.server.community"]),
    ("play", ["gammon.server.play"]),
    ("analysis", ["gammon.server.analysis"]),
    ("context", ["gammon.server.context"]),
    ("web", ["gammon.server.web"]),
    ("app", ["gammon.server.app", "gammon.server.run", "gammon.server"]),
]
_BESIDE = {frozenset({"play", "analysis"})}


def room_of(module: str) -> str | None:
    """A server module's room (None: not in the server)."""
    best: tuple[int, str] | None = None
    for room, entries in ROOMS:
        for entry in entries:
            inside = module == entry or (
                entry != "gammon.server" and module.startswith(entry + ".")
            )
            if inside and (best is None or len(entry) > best[0]):
                best = (len(entry), room)
    return None if best is None else best[1]


def room_breaches(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a room above (or beside) the importer's."""
    rank = {room: i for i, (room, _) in enumerate(ROOMS)}
    found = []
    for module, deps in sorted(graph.items()):
        mine = room_of(module)
        for dep in sorted(deps):
            theirs = room_of(dep)
            if mine is None or theirs is None or mine == theirs:
                continue
            if rank[theirs] > rank[mine] or frozenset({mine, theirs}) in _BESIDE:
                found.append(f"{module} ({mine}) -> {dep} ({theirs})")
    return found


def test_every_server_module_is_in_a_room() -> None:
    paths = module_paths()
    server = [m for m in paths if m.startswith("gammon.server")]
    assert len(server) > 60
    assert not [m for m in server if room_of(m) is None]
    flat = [
        m
        for m in server
        if m.count(".") == 2
        and paths[m].name != "__init__.py"
        and room_of(m) not in ("base", "app")
    ]
    assert flat == ["gammon.server.context"], "a new server module belongs in a room"


def test_no_room_imports_a_higher_one() -> None:
    breaches = room_breaches(import_graph())
    assert not breaches, "imports of a higher room: " + "; ".join(breaches)


def test_the_room_checker_finds_a_breach() -> None:
    graph = {
        "gammon.server.table.hub": {"gammon.server.community.auth", "gammon.server.infra.bus"},
        "gammon.server.play.pairing": {"gammon.server.analysis.deep"},
        "gammon.server.infra.limits": {"gammon.server.context"},
    }
    assert room_breaches(graph) == [
        "gammon.server.infra.limits (infra) -> gammon.server.context (context)",
        "gammon.server.play.pairing (play) -> gammon.server.analysis.deep (analysis)",
        "gammon.server.table.hub (table) -> gammon.server.community.auth (community)",
    ]
