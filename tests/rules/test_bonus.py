"""Acey-deucey's 1-2 answered lazily (gammon.rules.bonus) gives the full list's answers.

Every question the server asks at a 1-2 (is there a move, how many, is this text a legal
move and which, which steps may follow these) is asked twice on the same positions: once
lazily (``TrackRules.lazy_plays``) and once with it switched off, so that the answer
comes from the full list of plays (``Position.legal_moves``) as before.  The positions
are 1-2 rolls of random games (``benchmarks/acey_deucey.py``'s sample) small enough for
the full list to be quick, a few of them with over a thousand moves, and random boards
near the end of a game (bearing off, doubles that can be played only in part).
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest

from gammon import Position
from gammon.dice import Dice
from gammon.errors import GammonError, IllegalMoveError
from gammon.position import Step, forget_plays
from gammon.rules import track
from gammon.rules.bonus import BonusPlays, board_bytes

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "acey_deucey.py"
ROLL = Dice(1, 2)


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("acey_deucey_benchmark_bonus", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _sample() -> list[Position]:
    found = []
    for position in _benchmark().positions(6, 200, 21):
        lazy = position.rules.lazy_plays(position, ROLL)
        if lazy is not None and lazy.count(2500) <= 2500:
            found.append(position)
    return random.Random(3).sample(found, 30)


def _endgames(count: int) -> list[Position]:
    """Random boards with the mover's checkers at or near home (bearing off, doubles
    played only in part) and the opponent's scattered, some of them hit."""
    rng = random.Random(11)
    found: list[Position] = []
    while len(found) < count:
        mine: dict[int, int] = {}
        for _ in range(rng.randint(3, 15)):
            p = rng.choice([1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12])
            mine[p] = mine.get(p, 0) + 1
        theirs: dict[int, int] = {}
        for _ in range(rng.randint(2, 15)):
            q = rng.randint(1, 24)
            if not mine.get(25 - q):
                theirs[q] = theirs.get(q, 0) + 1
        bar = rng.choice([0, 0, 1])
        if sum(theirs.values()) + bar > 15:
            continue
        position = Position.from_points(mine, theirs, opponent_bar=bar, variant="acey-deucey")
        if position.rules.lazy_plays(position, ROLL) is not None:
            found.append(position)
    return found


SAMPLE = _sample() + _endgames(10)


@contextmanager
def _full_list() -> Iterator[None]:
    """Answers through the full list of plays, as before the lazy 1-2."""
    lazy_plays = track.TrackRules.lazy_plays
    track.TrackRules.lazy_plays = lambda self, pos, dice: None  # type: ignore[method-assign,assignment]
    forget_plays()  # the play sets kept were lazy
    try:
        yield
    finally:
        track.TrackRules.lazy_plays = lazy_plays  # type: ignore[method-assign]
        forget_plays()


def _answer(ask: Callable[[], object]) -> object:
    """What a question answers, comparably: a move's key and text, step options, or the
    error's type and message."""
    try:
        got = ask()
    except GammonError as exc:
        return type(exc).__name__, str(exc)
    if hasattr(got, "complete"):
        move = got.move
        return (
            [(s.from_point, s.to_point, s.die, s.hit) for s in got.steps],
            got.complete,
            None if move is None else (move.key, str(move), len(move)),
            got.dice_left,
        )
    return got.key, str(got), len(got)  # type: ignore[attr-defined]


def _both(ask: Callable[[], object]) -> tuple[object, object]:
    lazy = _answer(ask)
    with _full_list():
        full = _answer(ask)
    return lazy, full


def _lazy(position: Position) -> BonusPlays:
    lazy = position.rules.lazy_plays(position, ROLL)
    assert isinstance(lazy, BonusPlays)
    return lazy


def test_the_sample_is_varied() -> None:
    sizes = sorted(len(p.legal_moves(ROLL)) for p in SAMPLE)
    assert len(SAMPLE) == 40 and sizes[-1] > 1000 and sizes[0] < 300
    assert any(p.waiting[0] for p in SAMPLE) and any(not p.waiting[0] for p in SAMPLE)
    assert any(p.rules.blots(p) for p in SAMPLE) and any(p.player[25] for p in SAMPLE)
    assert any(p.can_bear_off() for p in SAMPLE)
    assert sum(1 for p in SAMPLE for m in p.legal_moves(ROLL)[:50] if len(m) < 6) > 0


@pytest.mark.parametrize("position", SAMPLE[:8], ids=[p.position_id() for p in SAMPLE[:8]])
def test_move_texts_list_a_1_2_in_full(position: Position) -> None:
    """A 1-2's moves by their texts are every legal move, in order (never kept: they can
    number 224,158), each read back by the parser."""
    texts = position.move_texts(ROLL)
    assert list(texts.values()) == list(position.legal_moves(ROLL))
    for text, move in list(texts.items())[:20]:
        assert str(move) == text and position.parse_move(text, ROLL) == move


@pytest.mark.parametrize("position", SAMPLE, ids=[p.position_id() for p in SAMPLE])
def test_the_plays_are_the_full_lists(position: Position) -> None:
    """Each legal play is one (with the same steps, in the same order), the count and the
    first play agree, and the boards part of a play reaches are legal only when listed."""
    full = track._all_plays(position.rules._gen, track._state(position), 1, 2)  # type: ignore[attr-defined]
    lazy = _lazy(position)
    keys = list(full)
    assert lazy.count() == len(keys)
    for limit in (0, 1, len(keys) // 2, len(keys) - 1, len(keys), 1000):
        assert lazy.count(limit) == min(len(keys), limit + 1)
    assert lazy.first() == keys[0]
    assert position.first_legal_move(ROLL) == position.legal_moves(ROLL)[0]
    assert lazy.need() == max(len(raw) for raw in full.values()) // 4
    for key in keys:
        assert key in lazy and lazy.raw(key) == full[key]
    assert sorted(keys, key=lazy.order) == keys
    gen = position.rules._gen  # type: ignore[attr-defined]
    for key in random.Random(7).sample(keys, min(40, len(keys))):
        raw, st = full[key], track._state(position)
        for i in range(0, len(raw) - 4, 4):
            st = gen.play(st, raw[i], raw[i + 1], raw[i + 3])
            part = track._pack(st)
            assert (part in lazy) is (part in full)
            for s, t, kind in gen.steps(st, raw[-2] % 6 + 1, 4):  # then another double
                other = track._pack(gen.play(st, s, t, kind))
                assert (other in lazy) is (other in full)


def _texts(position: Position, rng: random.Random) -> list[str]:
    """Legal texts, the same without ``*``, with another double, cut short, with a path
    more, single paths, and a few odd ones."""
    moves = position.legal_moves(ROLL)
    texts = ["pass", "", "bar/24", "bar/23 bar/22", "24/off", "hello"]
    for move in rng.sample(moves, min(12, len(moves))):
        text = str(move)
        paths = text.split()
        n = move[-1].die % 6 + 1
        route = [(s.from_point, s.to_point) for s in move]
        wrong = route[:2] + [(s, max(s - n, 0)) for s, _ in route[2:]]
        texts += [
            text,
            text.replace("*", ""),
            " ".join(f"{s}/{t}".replace("25/", "bar/").replace("/0", "/off") for s, t in wrong),
            " ".join(paths[:-1]),
            text + " 6/5",
            paths[0],
            " ".join(reversed(paths)),
        ]
    return texts


@pytest.mark.parametrize("position", SAMPLE[::2], ids=[p.position_id() for p in SAMPLE[::2]])
def test_parse_move_answers_as_the_full_list(position: Position) -> None:
    rng = random.Random(position.position_id())
    for text in _texts(position, rng):
        lazy, full = _both(lambda text=text: position.parse_move(text, ROLL))
        assert lazy == full, text


@pytest.mark.parametrize("position", SAMPLE[1::2], ids=[p.position_id() for p in SAMPLE[1::2]])
def test_step_options_answer_as_the_full_list(position: Position) -> None:
    """Random click-to-move turns: the options after every prefix, and a step that is
    not offered (an error) at each."""
    rng = random.Random(position.position_id())
    for _ in range(4):
        played: list[Step] = []
        while True:
            lazy, full = _both(lambda played=played: position.step_options(ROLL, played))
            assert lazy == full, played
            assert isinstance(lazy, tuple)
            offered = lazy[0]
            assert isinstance(offered, list)
            wrong = Step(rng.choice([25, 24, 13, 7, 6, 3]), rng.randint(0, 22), rng.randint(1, 6))
            if (wrong.from_point, wrong.to_point, wrong.die) not in [o[:3] for o in offered]:
                bad = [*played, wrong]
                lazy, full = _both(lambda bad=bad: position.step_options(ROLL, bad))
                assert lazy == full, bad
            if not offered:
                break
            s, t, die, _ = rng.choice(offered)
            played.append(Step(s, t, die))


def test_positions_without_a_full_1_2_are_not_lazy() -> None:
    """A 1-2 whose 1 and 2 cannot both be played is an ordinary roll (listed in full)."""
    blocked = Position.from_points({23: 1}, {3: 2, 4: 2}, variant="acey-deucey")
    assert blocked.rules.lazy_plays(blocked, ROLL) is None
    assert blocked.can_move(ROLL) is bool(blocked.legal_moves(ROLL))
    start = Position.initial("acey-deucey")
    assert start.rules.lazy_plays(start, Dice(3, 1)) is None
    assert start.can_move(ROLL) and start.rules.lazy_plays(start, Dice(2, 1)) is not None


@pytest.mark.parametrize("position", SAMPLE[::3], ids=[p.position_id() for p in SAMPLE[::3]])
def test_the_mids_and_their_doubles_step_by_step_reach_every_play(position: Position) -> None:
    """From each mid, each double walked with ``double_moves`` as far as the mid plays it
    ends on legal plays only, and those walks (with the mids that cannot play some
    double) reach every play of the full list; a play's board reads back from its key."""
    full = position.legal_moves(ROLL)
    lazy = _lazy(position)
    mids = lazy.mids()
    assert set(mids) == set(
        track._Generator.plays(position.rules._gen, track._state(position), 2, 1)
    )  # type: ignore[attr-defined]
    found: set[int] = set()
    for rank, mid in enumerate(mids):
        for n in range(1, 7):
            depth = lazy.depth(rank, n)
            layer = {mid: 25}
            for step in range(depth):
                nxt: dict[int, int] = {}
                for key, bound in layer.items():
                    for s, after in lazy.double_moves(key, n, depth - step, bound):
                        nxt[after] = max(nxt.get(after, 0), s)
                assert nxt
                layer = nxt
            found |= set(layer)
    assert found == {m.key for m in full}
    for move in random.Random(5).sample(full, min(20, len(full))):
        data = board_bytes([move.key])
        after = move.position_after()  # the other side on roll
        assert tuple(data[0:26]) == after.opponent and tuple(data[26:52]) == after.player
        assert (data[52], data[53]) == (after.waiting[1], after.waiting[0])
        assert position.move_to(ROLL, move.key) == move
        assert str(position.move_to(ROLL, move.key)) == str(move)


def test_move_to_refuses_a_board_no_play_reaches() -> None:
    start = Position.initial("acey-deucey")
    sixes = start.legal_moves(Dice(6, 6))[0]  # 24 pips: no 1-2 and double moves as many
    with pytest.raises(IllegalMoveError, match="no legal move"):
        start.move_to(ROLL, sixes.key)
    with pytest.raises(IllegalMoveError, match="no legal move"):
        start.move_to(Dice(4, 3), sixes.key)
    assert start.move_to(Dice(6, 6), sixes.key) == sixes
