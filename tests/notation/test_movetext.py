from __future__ import annotations

import random
from itertools import groupby

import pytest

from gammon import InvalidNotationError
from gammon.notation.movetext import Path, format_move, parse_move_text
from gammon.sampling import game_positions
from gammon.variants import VARIANTS


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ((), "pass"),
        ((24, 18, 6, 0, 13, 11, 2, 0), "24/18 13/11"),
        ((13, 11, 2, 0, 24, 18, 6, 0), "24/18 13/11"),
        ((13, 8, 5, 1, 8, 4, 4, 0), "13/8*/4"),
        ((24, 21, 3, 0, 21, 20, 1, 0), "24/20"),
        ((25, 22, 3, 1, 6, 0, 6, 0), "bar/22* 6/off"),
        ((8, 4, 4, 0, 8, 4, 4, 0), "8/4(2)"),
        ((6, 4, 2, 0, 6, 4, 2, 0, 4, 2, 2, 0, 4, 2, 2, 0), "6/2(2)"),
        ((13, 9, 4, 1, 9, 5, 4, 0, 5, 1, 4, 0, 5, 1, 4, 0), "13/9*/1 5/1"),
    ],
)
def test_format(raw: tuple[int, ...], text: str) -> None:
    assert format_move(raw) == text


def _reference_text(raw: tuple[int, ...], blots: frozenset[int]) -> str:
    """The canonical text worked out the plain way (format_move takes short cuts)."""
    if not raw:
        return "pass"
    paths: list[tuple[list[int], list[bool], list[int]]] = []  # points, hits, dice
    for i in range(0, len(raw), 4):
        src, dest, die, hit = raw[i : i + 4]
        path = next((p for p in paths if src and p[0][-1] == src), None)
        if path is None:
            paths.append(([src, dest], [False, bool(hit)], [die]))
        else:
            path[0].append(dest)
            path[1].append(bool(hit))
            path[2].append(die)
    names = {0: "off", 25: "bar"}
    texts = []
    for points, hits, dice in paths:
        shown = len(dice) == 2 and dice[0] != dice[1] and points[0] - dice[1] in blots
        words = [names.get(points[0], str(points[0]))]
        for j in range(1, len(points)):
            if hits[j] or j == len(points) - 1 or shown:
                words.append(names.get(points[j], str(points[j])) + ("*" if hits[j] else ""))
        texts.append((-points[0], -points[-1], "/".join(words)))
    groups = [(text, len(list(same))) for (_, _, text), same in groupby(sorted(texts))]
    return " ".join(text + (f"({n})" if n > 1 else "") for text, n in groups)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_format_agrees_with_the_plain_way(variant: str) -> None:
    """Every legal move of random games (many hits) in every variant: format_move's short
    cut for two dice and its chaining give the text the plain reading gives."""
    seen = 0
    for position, dice in game_positions(random.Random(11), 3, hit_bias=0.3, variant=variant):
        if position.rules.lazy_plays(position, dice) is not None:
            continue  # acey-deucey's 1-2: thousands of plays, tested in tests/rules
        blots = position.rules.blots(position)
        for move in position.legal_moves(dice):
            raw = move._raw()
            assert format_move(raw, blots) == _reference_text(raw, blots), (raw, blots)
            seen += 1
    assert seen > 500


def test_parse_paths() -> None:
    assert parse_move_text("8/5 (2)") == [Path((8, 5), (False, False))] * 2
    assert parse_move_text("B/22 6/O")[0].points == (25, 22)
    assert parse_move_text("6/off, 5/OFF")[1].points == (5, 0)


@pytest.mark.parametrize(
    "text",
    ["13-8", "13/", "/8", "13/8(5)", "13/8(0)", "x/3", "26/20", "*13/8", "6/off/2", "a" * 300],
)
def test_parse_rejects(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        parse_move_text(text)


def test_more_than_four_paths() -> None:
    with pytest.raises(InvalidNotationError, match="more than four"):
        parse_move_text("8/7(3) 6/5(2)")
