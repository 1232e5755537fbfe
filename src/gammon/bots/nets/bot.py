"""NetBot: plays the variants off the backgammon board with their trained nets.

:class:`NetBot` has the interface of :class:`~gammon.bots.variant_bot.VariantBot`
(``rank``, ``choose_move``).  At ``plies=1`` (the default, a few milliseconds a move)
it plays the legal move whose resulting position the variant's net values best for
the mover, at ``plies=2`` it searches the best ``width`` of those again: the
opponent's best answer (by the net) to each of its 21 rolls, averaged.

The weights ship in ``gammon/bots/nets/data/<variant>.npz`` and are read on first
use (:func:`load_net`); :func:`has_net` says whether a variant has them.

Acey-deucey's 1-2 (the 1 and the 2, then a double of one's choice, up to 224,158
plays) is never listed: its moves are those of the staged search of :mod:`.bonus`,
ranked by the net (the best :data:`BONUS_RANKED` of them), at 1 ply and in the
replies of the 2-ply search alike.

>>> from gammon import Position
>>> start = Position.initial("plakoto")
>>> has_net("plakoto"), has_net("standard")
(True, False)
>>> NetBot().choose_move(start, (6, 5)) in start.legal_moves((6, 5))
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from importlib import resources

import numpy as np
import numpy.typing as npt

from gammon.bots.variant_bot import ROLLS, searched_choice
from gammon.dice import Dice, DiceLike
from gammon.move import Move
from gammon.position import Position

from .bonus import bonus_ranking, ranked_moves
from .features import FAMILIES, encode
from .net import Net, equity, flip_outputs

__all__ = [
    "BONUS_RANKED",
    "NetBot",
    "afterstates",
    "has_net",
    "load_net",
    "mover_outputs",
    "outcome",
]

Array = npt.NDArray[np.float64]

#: How many of an acey-deucey 1-2's plays :meth:`NetBot.rank` gives (best first).
BONUS_RANKED = 8


def _data(variant: str) -> resources.abc.Traversable:
    return resources.files("gammon.bots.nets").joinpath("data", f"{variant}.npz")


def has_net(variant: str) -> bool:
    """Whether trained weights ship for ``variant`` (by its name)."""
    return variant in FAMILIES and _data(variant).is_file()


@cache
def load_net(variant: str) -> Net:
    """The shipped net of ``variant``, read once per process (``FileNotFoundError`` if none)."""
    if variant not in FAMILIES:
        raise FileNotFoundError(f"no net for {variant!r}")
    return Net.from_bytes(_data(variant).read_bytes())[0]


def outcome(after: Position) -> Array | None:
    """The exact outputs for the player on roll in ``after`` when the game is over.

    >>> outcome(Position.initial("fevga")) is None
    True
    """
    if after.is_drawn():
        return np.array([0.5, 0.0, 0.0])
    result = after.result()
    if result is None:
        return None
    gammon = 1.0 if result.points >= 2 else 0.0
    if result.winner == "player":
        return np.array([1.0, gammon, 0.0])
    return np.array([0.0, 0.0, gammon])


def afterstates(
    position: Position, moves: Sequence[Move]
) -> tuple[list[Position], list[bool], list[Array | None]]:
    """The positions ``moves`` lead to, whether the mover stays on roll, the exact outcomes.

    The next positions have their player on roll (the other side, or the mover again
    after acey-deucey's bonus roll); the outcomes are for that player, None while the
    game goes on.
    """
    nexts: list[Position] = []
    again: list[bool] = []
    for m in moves:
        bonus = position.earns_bonus_roll(m)
        after = m.position_after()
        nexts.append(after.flipped() if bonus else after)
        again.append(bonus)
    return nexts, again, [outcome(n) for n in nexts]


def _values(net: Net, nexts: Sequence[Position], finals: Sequence[Array | None]) -> Array:
    """The outputs for the player on roll of each of ``nexts`` (exact when the game is over)."""
    values = np.empty((len(nexts), 3))
    running = [i for i, f in enumerate(finals) if f is None]
    if running:
        values[running] = net.forward(encode([nexts[i] for i in running]))
    for i, f in enumerate(finals):
        if f is not None:
            values[i] = f
    return values


def mover_outputs(
    net: Net, position: Position, moves: Sequence[Move]
) -> tuple[list[Position], list[bool], list[Array | None], Array, Array]:
    """What each of ``moves`` leads to, and the net's outputs for the mover after it.

    Returns the next positions (player on roll: the other side, or the mover again
    after acey-deucey's bonus roll), whether the mover stays on roll, the exact
    outcomes of the games that end (for the next player on roll), the mover's
    outputs (win, win gammon, lose gammon) and the encoded next positions (zero for
    the games that end), one row per move.
    """
    nexts, again, finals = afterstates(position, moves)
    values = np.empty((len(nexts), 3))
    inputs = np.zeros((len(nexts), net.inputs))
    running = [i for i, f in enumerate(finals) if f is None]
    if running:
        inputs[running] = encode([nexts[i] for i in running])
        values[running] = net.forward(inputs[running])
    for i, f in enumerate(finals):
        if f is not None:
            values[i] = f
    mine = np.where(np.array(again)[:, None], values, flip_outputs(values))
    return nexts, again, finals, mine, inputs


@dataclass(frozen=True, slots=True)
class NetBot:
    """Chooses among the legal moves by the variant's net at 1 or 2 plies."""

    plies: int = 1
    #: At 2 plies, how many of the best 1-ply moves are searched again.
    width: int = 3
    #: Nets by variant name instead of the shipped ones (training, tests).
    nets: Mapping[str, Net] = field(default_factory=dict)
    #: At 2 plies, only the moves within this 1-ply equity of the best are searched again.
    margin: float = 0.1

    def net(self, position: Position) -> Net:
        """The net for ``position``'s variant."""
        name = position.variant.name
        return self.nets[name] if name in self.nets else load_net(name)

    def rank(self, position: Position, dice: DiceLike) -> list[tuple[float, Move]]:
        """The legal moves, best first, with the mover's 1-ply equity after each (for
        acey-deucey's 1-2, the best :data:`BONUS_RANKED` plays the staged search found).

        >>> from gammon import Position
        >>> from gammon.bots.nets.features import input_size
        >>> net = Net.initial(input_size("acey-deucey"), 5, seed=1)
        >>> bot = NetBot(nets={"acey-deucey": net})
        >>> len(bot.rank(Position.initial("acey-deucey"), (1, 2))) <= BONUS_RANKED
        True
        """
        return self._ranked(position, dice, BONUS_RANKED)

    def _ranked(self, position: Position, dice: DiceLike, count: int) -> list[tuple[float, Move]]:
        """:meth:`rank`, with at most ``count`` moves of a 1-2 built (the others: every one)."""
        d = Dice.coerce(dice)
        bonus = ranked_moves(self.net(position), position, d, count)
        if bonus is not None:
            return bonus
        moves = position.legal_moves(d)
        if not moves:
            return []
        eq = equity(mover_outputs(self.net(position), position, moves)[3])
        order = sorted(range(len(moves)), key=lambda i: (-eq[i], i))
        return [(float(eq[i]), moves[i]) for i in order]

    def choose_move(self, position: Position, dice: DiceLike) -> Move:
        """The move to play (the pass move when nothing can be played)."""
        ranked = self._ranked(position, dice, 1 if self.plies < 2 else self.width)
        if self.plies >= 2 and ranked:
            # the move filter: a clearly worse move is not searched again
            ranked = [r for r in ranked if r[0] >= ranked[0][0] - self.margin]
        two_ply = partial(self._searched, position)
        return searched_choice(position, dice, ranked, self.plies, self.width, two_ply)

    def _searched(self, position: Position, move: Move) -> float:
        """The mover's 2-ply equity after ``move``: the exact result or the reply's average."""
        nexts, again, finals, mine, _ = mover_outputs(self.net(position), position, [move])
        if finals[0] is not None:
            return float(equity(mine)[0])
        reply = self._reply_equity(nexts[0])
        return reply if again[0] else -reply

    def _reply_equity(self, position: Position) -> float:
        """The expected 1-ply equity of the player on roll in ``position`` over its 21 rolls.

        The afterstates of all 21 rolls are evaluated in one batch.
        """
        nexts: list[Position] = []
        again: list[bool] = []
        finals: list[Array | None] = []
        groups: list[tuple[int, int, int]] = []  # (weight, first row, end row)
        net = self.net(position)
        bonus_total = 0.0  # acey-deucey's 1-2: the staged search's best play
        for dice, weight in ROLLS:
            ranked = bonus_ranking(net, position, dice)
            if ranked is not None:
                bonus_total += weight * float(ranked.equities[0])
                continue
            moves = position.legal_moves(dice)
            first = len(nexts)
            if moves:
                n, a, f = afterstates(position, moves)
            else:
                after = position.apply(position.pass_move(dice))
                n, a, f = [after], [False], [outcome(after)]
            nexts += n
            again += a
            finals += f
            groups.append((weight, first, len(nexts)))
        values = _values(net, nexts, finals)
        mine = equity(np.where(np.array(again)[:, None], values, flip_outputs(values)))
        total = bonus_total + sum(w * float(mine[a:b].max()) for w, a, b in groups)
        return total / 36.0
