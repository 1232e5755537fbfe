"""Write the JSON fixtures of the movebuilder tests (tests/js/fixtures/*.json).

Each fixture is what the game page reads from a real ``state`` (the variant's view, the
board, pins, checkers waiting, the dice, ``moves`` as
:func:`gammon.server.table.views.moves_payload` builds them, and the first ``step_options``) for
the seat to move, seat 0, plus
the server's own click-to-move answers (:meth:`Position.step_options`) for every prefix of
every order in which the steps of a listed move can be played. Positions are found by
deterministic random games (a fixed seed per fixture).

Run from the repository root:  PYTHONPATH=src python tests/js/make_fixtures.py
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gammon.errors import IllegalMoveError
from gammon.move import Move, Step
from gammon.position import Position
from gammon.server.table.views import moves_payload, variant_view
from gammon.variants import get_variant

OUT = Path(__file__).parent / "fixtures"

Found = Callable[[Position, tuple[int, int], tuple[Move, ...]], bool]
#: A fixture's name, how to get its position and roll, what it shows, and whether the page
#: offers exactly the server's steps (else a part of them: see acey-deucey-1-2).
Case = tuple[str, Callable[[], tuple[Position, tuple[int, int]]], str, bool]


def _pinned(pos: Position) -> list[list[int]] | None:
    """As the state sends them (server/table/views.py): None on the backgammon board."""
    if pos.variant.family == "board":
        return None
    return [[p for p in range(1, 25) if mask >> p & 1] for mask in pos.pinned]


def _waiting(pos: Position) -> list[int] | None:
    return None if pos.variant.family == "board" else list(pos.waiting)


def _walk(variant: str, seed: int, found: Found) -> tuple[Position, tuple[int, int]]:
    """The first position and roll of a random game (restarted as needed) that ``found``."""
    rng = random.Random(seed)
    for _ in range(2000):
        pos = Position.initial(variant)
        for _ in range(400):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            moves = pos.legal_moves(dice)
            if len(moves) <= 1000 and found(pos, dice, moves):
                return pos, dice
            if pos.is_game_over() or not moves:
                if pos.is_game_over():
                    break
                pos = pos.apply(pos.pass_move(dice))
                continue
            pos = pos.apply(rng.choice(moves))
            if pos.is_game_over():
                break
    raise AssertionError(f"no position found for {variant}")


def _orders(move: Move) -> list[tuple[Step, ...]]:
    return list(dict.fromkeys(itertools.permutations(tuple(move))))


def _answer(
    pos: Position, dice: tuple[int, int], played: tuple[Step, ...]
) -> dict[str, Any] | None:
    try:
        opts = pos.step_options(dice, played)
    except IllegalMoveError:
        return None
    return {
        "steps": sorted([s.from_point, s.to_point, s.die, s.hit] for s in opts.steps),
        "complete": opts.complete,
        "move": str(opts.move) if opts.complete and opts.move is not None else None,
    }


def _first_steps(pos: Position, dice: tuple[int, int]) -> dict[str, Any]:
    """``Position.step_options`` before any step, as the state carried it."""
    opts = pos.step_options(dice)
    return {
        "steps": [[s.from_point, s.to_point, s.die, s.hit] for s in opts.steps],
        "complete": opts.complete,
        "dice_left": list(opts.dice_left),
    }


def fixture(
    name: str, pos: Position, dice: tuple[int, int], note: str, *, exact: bool = True
) -> dict[str, Any]:
    payload = moves_payload(pos, dice)
    answers: dict[str, Any] = {}
    for move in pos.legal_moves(dice):
        for order in _orders(move):
            for n in range(len(order) + 1):
                played = order[:n]
                key = json.dumps([[s.from_point, s.to_point, s.die] for s in played])
                if key in answers:
                    continue
                answer = _answer(pos, dice, played)
                answers[key] = answer
                if answer is None:
                    break
    return {
        "name": name,
        "note": note,
        "exact": exact,
        "position_id": pos.position_id(),
        "state": {
            "table": {"variant": variant_view(pos.variant.name)},
            "match": {
                "moves": payload["moves"],
                "moves_omitted": payload["moves_omitted"],
                # the state leaves it out when it lists the moves; the tests compare the
                # builder's first answer with the server's
                "step_options": payload["step_options"] or _first_steps(pos, dice),
                "game": {
                    "phase": "moving",
                    "turn": 0,
                    "dice": list(dice),
                    "board": [list(pos.player), list(pos.opponent)],
                    "pinned": _pinned(pos),
                    "waiting": _waiting(pos),
                },
            },
        },
        "answers": answers,
    }


def _has_hit(moves: tuple[Move, ...]) -> bool:
    return any(s.hit for m in moves for s in m)


def _bears_off_high(pos: Position, dice: tuple[int, int], moves: tuple[Move, ...]) -> bool:
    return (
        any(s.to_point == 0 and s.die > s.from_point for m in moves for s in m)
        and dice[0] != dice[1]
    )


def _pins(pos: Position, dice: tuple[int, int], moves: tuple[Move, ...]) -> bool:
    pinned = _pinned(pos) or [[], []]
    return bool(pinned[0]) and bool(pinned[1]) and _has_hit(moves)


def _walked(
    variant: str, seed: int, found: Found
) -> Callable[[], tuple[Position, tuple[int, int]]]:
    return lambda: _walk(variant, seed, found)


def _acey_deucey_bonus() -> tuple[Position, tuple[int, int]]:
    """An acey-deucey 1-2 late in a game: the 1, the 2, then the double of the player's choice
    (moves of 2 to 6 steps)."""
    player = [0] * 26
    player[8] = player[6] = player[4] = 1
    player[0] = 12
    opponent = [0] * 26
    opponent[20], opponent[22], opponent[0] = 3, 2, 10
    pos = Position(
        player=tuple(player), opponent=tuple(opponent), variant=get_variant("acey-deucey")
    )
    return pos, (1, 2)


CASES: list[Case] = [
    (
        "standard-opening",
        _walked("standard", 0, lambda p, d, m: d == (6, 5) and p == Position.initial()),
        "the opening 6-5: 24/13 either way, 13/8 8/2 for 13/2",
        True,
    ),
    (
        "standard-double",
        _walked("standard", 1, lambda p, d, m: d[0] == d[1] and 20 <= len(m) <= 60),
        "a double in the middle game",
        True,
    ),
    (
        "standard-hit",
        _walked("standard", 2, lambda p, d, m: _has_hit(m) and p.player[25] == 0),
        "a hit on offer",
        True,
    ),
    (
        "standard-bar",
        _walked("standard", 3, lambda p, d, m: p.player[25] > 0 and len(m) > 2),
        "entering from the bar",
        True,
    ),
    (
        "standard-bearoff",
        _walked("standard", 4, _bears_off_high),
        "bearing off, a larger die from the highest point",
        True,
    ),
    (
        "caucasian-hit",
        _walked("caucasian", 5, lambda p, d, m: _has_hit(m) and d[0] != d[1]),
        "Caucasian: a hitter",
        True,
    ),
    (
        "fevga",
        _walked("fevga", 6, lambda p, d, m: p.player[24] < 15 and 5 <= len(m) <= 60),
        "fevga, both sides away",
        True,
    ),
    (
        "plakoto-pin",
        _walked("plakoto", 7, _pins),
        "plakoto: a checker pinned on each side, a pin on offer",
        True,
    ),
    (
        "acey-deucey-enter",
        _walked(
            "acey-deucey",
            8,
            lambda p, d, m: (_waiting(p) or [0])[0] > 0 and p.player[24] == 0 and 3 <= len(m) <= 60,
        ),
        "acey-deucey: checkers still to enter",
        True,
    ),
    (
        "acey-deucey-1-2",
        _acey_deucey_bonus,
        # after the 1 and the 2 the page offers the doubles of the listed moves only: the
        # server lists one move per position, and another double reaching the same position
        # is not among the listed steps
        "acey-deucey 1-2: the 1, the 2, then a double of the player's choice",
        False,
    ),
]


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, make, note, exact in CASES:
        pos, dice = make()
        data = fixture(name, pos, dice, note, exact=exact)
        path = OUT / f"{name}.json"
        path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
        moves = data["state"]["match"]["moves"]
        print(
            f"{path.name}: {pos.position_id()} {dice}, {len(moves)} moves, {len(data['answers'])} answers"
        )


if __name__ == "__main__":
    main()
