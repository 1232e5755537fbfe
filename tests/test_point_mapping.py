"""The point mapping is written once (gammon.variants): no module counts the other side's
points, nor the entry points, by hand as ``25 - p``."""

from __future__ import annotations

import ast

from gammon.variants import ENTRY, VARIANTS, get_variant
from importgraph import SRC


def _hand_written(tree: ast.AST) -> list[int]:
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Sub)
        and isinstance(node.left, ast.Constant)
        and node.left.value == 25
    ]


def test_no_25_minus_outside_variants() -> None:
    found = {}
    for path in (SRC / "gammon").rglob("*.py"):
        if path.name == "variants.py" and path.parent.name == "gammon":
            continue
        lines = _hand_written(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            found[str(path.relative_to(SRC))] = lines
    assert not found, f"25 - p written by hand (use Variant.point_map or ENTRY): {found}"
    assert _hand_written(ast.parse("q = 25 - p")) == [1]  # the check sees one


def test_the_entry_points_are_the_opponents_home_points() -> None:
    standard = get_variant("standard")
    assert ENTRY[0] == 25
    assert all(ENTRY[d] == standard.point_map[d] for d in range(1, 7))
    assert all(v.entry_points is ENTRY for v in VARIANTS.values())
