"""Acey-deucey's 1-2 for the nets: a staged search instead of every play.

A 1-2 is played as a 1 and a 2, then four steps of a double of the player's choice (as
far as they go), then the player rolls again.  One such roll can have over 200,000
legal plays, which take tenths of a second to list and far longer to evaluate, so the
nets never list them (:class:`gammon.rules.bonus.BonusPlays` answers about them one
board at a time).  :func:`bonus_ranking` searches in stages, each ranked by the net for
the mover:

1. the *mids*, the boards the 1 and the 2 leave, valued as if the mover were on roll
   (the double is still to come): the best ``mids`` of them are kept;
2. from each kept mid, each double ``n`` that it can play is played step by step, as
   far as that mid can play it (:meth:`BonusPlays.depth`): after each step the boards
   reached are valued and the best ``width`` of them go on (only boards from which the
   rest of the double can still be played: every path ends on a legal play);
3. the boards after the last step (and the mids that cannot play some double: their
   1-2 alone is a legal play) are valued as the plays they are: the mover on roll
   again after a double played in full (the bonus roll), else the other side.

Every board searched is encoded straight from its key
(:func:`gammon.bots.nets.features.encode_sides`), so no position or move is built
until the play is chosen (:meth:`Position.move_to`).  With the default 4 mids and a
width of 4 a 1-2 costs a few hundred to a few thousand evaluations: about 13 ms of
CPU on average and 36 ms at most (docs/bot.md), the worst known position (224,158
plays) included.

>>> from gammon import Dice, Position
>>> from gammon.bots.nets.features import input_size
>>> from gammon.bots.nets.net import Net
>>> net = Net.initial(input_size("acey-deucey"), 8, seed=1)
>>> start = Position.initial("acey-deucey")
>>> ranked = bonus_ranking(net, start, Dice(1, 2))
>>> move = start.move_to(Dice(1, 2), ranked.keys[0])
>>> start.parse_move(str(move), Dice(1, 2)) == move, len(move)
(True, 6)
>>> bonus_ranking(net, start, Dice(6, 5)) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, cast

import numpy as np
import numpy.typing as npt

from gammon.dice import Dice
from gammon.move import Move
from gammon.position import Position
from gammon.rules.base import LazyPlays
from gammon.rules.bonus import BOARD_BYTES, BonusPlays, board_bytes

from .features import encode_sides
from .net import Net, equity, flip_outputs

__all__ = ["MIDS", "WIDTH", "BonusRanking", "bonus_plays", "bonus_ranking"]

Array = npt.NDArray[np.float64]

#: The mids kept after the first stage, and the boards kept per mid and double per step.
MIDS: Final = 4
WIDTH: Final = 4


@dataclass(frozen=True, slots=True)
class BonusRanking:
    """The plays a staged search found for a 1-2, best first: their keys (board after the
    play), whether the mover rolls again after each (the double played in full), and the
    mover's outputs (win, win gammon, lose gammon) after each."""

    keys: tuple[int, ...]
    again: tuple[bool, ...]
    outputs: Array

    @property
    def equities(self) -> Array:
        """The mover's equity after each play."""
        return equity(self.outputs)


def bonus_plays(position: Position, dice: Dice) -> BonusPlays | None:
    """The lazy plays of an acey-deucey 1-2 whose 1 and 2 can both be played, else None
    (every other roll: list its moves).

    >>> from gammon import Position
    >>> bonus_plays(Position.initial("acey-deucey"), Dice(2, 1)) is not None
    True
    >>> bonus_plays(Position.initial("acey-deucey"), Dice(3, 1)) is None
    True
    """
    lazy: LazyPlays | None = position.rules.lazy_plays(position, dice)
    # BonusPlays is the one kind of lazy plays (read by its methods, not its class: a
    # doctest run may import the rules module twice)
    return cast(BonusPlays, lazy) if hasattr(lazy, "double_moves") else None


def _mover_outputs(
    net: Net, position: Position, dice: Dice, keys: Sequence[int], again: Sequence[bool]
) -> Array:
    """The mover's outputs on the boards ``keys`` (after a 1-2 play or part of one): the
    net's for the mover on roll where ``again`` says so, else turned round from the
    other side's; exact where the mover has borne every checker off."""
    boards = np.frombuffer(board_bytes(keys), dtype=np.uint8).reshape(len(keys), BOARD_BYTES)
    mine = boards[:, 0:26].astype(np.float64)
    theirs = boards[:, 26:52].astype(np.float64)
    waits = boards[:, 52:54].astype(np.int64)
    bonus = np.asarray(again, dtype=bool)[:, None]
    extras = np.zeros((len(keys), 4), dtype=np.int64)
    extras[:, 2:] = np.where(bonus, waits, waits[:, ::-1])
    me = np.where(bonus, mine, theirs)
    them = np.where(bonus, theirs, mine)
    values = net.forward(encode_sides(position.variant.name, me, them, extras))
    out = np.where(bonus, values, flip_outputs(values))
    for i in np.flatnonzero(boards[:, 0] == position.variant.checkers):
        # the game is over: its exact result, from the move itself
        after = position.move_to(dice, keys[int(i)]).position_after()
        result = after.result()
        gammon = 1.0 if result is not None and result.points >= 2 else 0.0
        out[i] = (1.0, gammon, 0.0)
    return np.asarray(out, dtype=np.float64)


def _best(values: Array, count: int) -> list[int]:
    """The indices of the ``count`` largest ``values``, the first of equal ones first."""
    return sorted(range(len(values)), key=lambda i: (-values[i], i))[:count]


def bonus_ranking(
    net: Net, position: Position, dice: Dice, *, mids: int = MIDS, width: int = WIDTH
) -> BonusRanking | None:
    """The plays of an acey-deucey 1-2 found by the staged search (see the module notes),
    best first by ``net`` for the mover; None when ``dice`` is not such a 1-2 (its
    moves are listed as any roll's).  Each key is a legal play
    (:meth:`Position.move_to` gives its move)."""
    lazy = bonus_plays(position, dice)
    if lazy is None:
        return None
    all_mids = lazy.mids()
    ranks = list(range(len(all_mids)))
    if len(all_mids) > mids:
        first = equity(_mover_outputs(net, position, dice, all_mids, [True] * len(all_mids)))
        ranks = sorted(_best(first, mids))
    finals: dict[int, bool] = {}
    # a stream: one kept mid and one double, (double, steps to play, boards -> bound)
    streams: list[tuple[int, int, dict[int, int]]] = []
    for rank in ranks:
        for n in range(1, 7):
            depth = lazy.depth(rank, n)
            if depth:
                streams.append((n, depth, {all_mids[rank]: 25}))
            else:  # this double cannot be played: the 1-2 alone is a play
                finals.setdefault(all_mids[rank], False)
    step = 0
    while streams:
        step += 1
        going: list[tuple[int, int, dict[int, int]]] = []
        for n, depth, beam in streams:
            children: dict[int, int] = {}
            for key, bound in beam.items():
                for s, after in lazy.double_moves(key, n, depth - step + 1, bound):
                    if s > children.get(after, 0):
                        children[after] = s
            if step == depth:
                for key in children:
                    finals[key] = finals.get(key, False) or depth == 4
            else:
                going.append((n, depth, children))
        pending = [(key, depth == 4) for _, depth, children in going for key in children]
        if pending:
            keys, again = zip(*pending, strict=True)
            values = equity(_mover_outputs(net, position, dice, keys, again))
            start = 0
            streams = []
            for n, depth, children in going:
                items = list(children.items())
                chunk = values[start : start + len(items)]
                start += len(items)
                streams.append((n, depth, dict(items[i] for i in _best(chunk, width))))
        else:
            streams = []
    keys = tuple(finals)
    # a board the search reached with fewer steps may be the full double of a mid it
    # left out: the play is its longest way, with the bonus roll
    again = tuple(
        bonus or any(k == 4 for _, _, k in lazy.sources(key)) for key, bonus in finals.items()
    )
    outputs = _mover_outputs(net, position, dice, keys, again)
    order = _best(equity(outputs), len(keys))
    return BonusRanking(
        tuple(keys[i] for i in order), tuple(again[i] for i in order), outputs[order]
    )


def ranked_moves(
    net: Net, position: Position, dice: Dice, count: int, **search: int
) -> list[tuple[float, Move]] | None:
    """The best ``count`` plays of the staged search as moves, with the mover's equity
    after each (None when ``dice`` is not an acey-deucey 1-2 with a bonus)."""
    ranked = bonus_ranking(net, position, dice, **search)
    if ranked is None:
        return None
    eq = ranked.equities
    return [
        (float(eq[i]), position.move_to(dice, key)) for i, key in enumerate(ranked.keys[:count])
    ]
