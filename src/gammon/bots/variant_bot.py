"""A bot for the variants bgsage does not know: tavla, portes, plakoto, fevga, long
nardy, jacquet and acey-deucey.

:class:`VariantBot` searches OUR legal moves (so every variant rule is obeyed) with a
hand-made evaluation per family of variants (:class:`HeuristicEvaluator`):

* every family: the race (pip counts, checkers borne off);
* hitting games (tavla, portes, acey-deucey): blots within reach of opposing checkers,
  weighted by what a hit would cost, made points in front of opposing checkers, and
  checkers on the bar;
* plakoto: pinned checkers (the mother above all), blots that could be pinned, made
  points;
* blocking games (fevga, long nardy, jacquet): points held in front of opposing
  checkers and the longest such wall, checkers left stacked on the start.

At ``plies=1`` it plays the move whose resulting position evaluates best; at
``plies=2`` it looks at the best few such moves again, averaging over the opponent's
21 rolls its best answer (expectimax).  ``benchmarks/variant_bots.py`` measures it
against a player that picks a random legal move.

>>> from gammon import Position
>>> bot = VariantBot()
>>> start = Position.initial("fevga")
>>> bot.choose_move(start, (6, 5)) in start.legal_moves((6, 5))
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from gammon.dice import Dice, DiceLike
from gammon.move import BAR, Move
from gammon.position import Position

__all__ = ["ROLLS", "HeuristicEvaluator", "VariantBot", "searched_choice"]

#: The 21 distinct rolls with their weights out of 36.
ROLLS: Final = tuple((Dice(a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))
#: Chance that a checker ``d`` pips away is hit by one roll (direct and combination
#: shots, ignoring blocks): the usual table of 11/36, 12/36, ... for 1..12 and beyond.
_SHOT: Final = (0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1)


def _side_tables(position: Position) -> Callable[[int], int]:
    """The variant's point mapping (:attr:`gammon.Variant.point_map`) as a function."""
    table = position.variant.point_map
    return lambda p: table[p]


@dataclass(frozen=True, slots=True)
class HeuristicEvaluator:
    """A hand-made score of a position for the player on roll (higher is better)."""

    def value(self, position: Position) -> float:
        """The score of ``position`` for its player on roll."""
        result = position.result()
        if result is not None:
            score = 1000.0 * result.points
            return score if result.winner == "player" else -score
        if position.is_drawn():
            return 0.0
        me, them = position.pip_count()
        v = position.variant
        score = (them - me) * 1.0 + 6.0 * (position.player[0] - position.opponent[0])
        if v.landing == "hit":
            score += self._hitting(position)
        elif v.landing == "pin":
            score += self._pinning(position)
        else:
            score += self._blocking(position)
        return score

    # ----------------------------------------------------------------- families

    @staticmethod
    def _exposure(mine: Sequence[int], theirs: Sequence[int], f: Callable[[int], int]) -> float:
        """Expected pips ``mine`` loses on its blots to one roll of ``theirs`` (opposite geometry).

        Both sides in their own numbering.  An opposing checker on my point ``x`` moves
        up my numbering; one on its bar enters from my 0-point.
        """
        attackers = [0] * 26
        for q in range(1, 25):
            if theirs[q]:
                attackers[f(q)] = theirs[q]
        attackers[0] = theirs[25]
        lost = 0.0
        for p in range(1, 25):
            if mine[p] != 1:
                continue
            chance = 0
            for x in range(p):
                if attackers[x] and p - x < len(_SHOT):
                    chance += _SHOT[p - x]
            chance = min(chance, 30)
            lost += chance / 36.0 * (BAR - p + 8)  # the pips back from the bar, and 8
        return lost

    def _hitting(self, position: Position) -> float:
        mine, theirs = position.player, position.opponent
        f = _side_tables(position)
        # the player on roll may hit the other side's blots now; its own blots are
        # exposed only after its move
        score = self._exposure(theirs, mine, f) - 0.35 * self._exposure(mine, theirs, f)
        # our made points in front of their checkers (their rear ones above all)
        rear = max((f(q) for q in range(1, 25) if theirs[q]), default=0)
        rear = 25 if theirs[25] else rear
        for p in range(1, 25):
            if mine[p] >= 2:
                score += 4.0 if p < rear else 1.0
                if p <= 6:
                    score += 2.0
        score += 12.0 * theirs[25] - 12.0 * mine[25]
        return score

    def _pinning(self, position: Position) -> float:
        mine, theirs = position.player, position.opponent
        pinned_mine, pinned_theirs = position.pinned
        f = _side_tables(position)
        score = 0.0
        for p in range(1, 25):
            if pinned_mine >> p & 1:
                score -= 20.0 + p + (200.0 if p == 24 else 0.0)
            if pinned_theirs >> p & 1:
                score += 20.0 + p + (200.0 if p == 24 else 0.0)
            if mine[p] >= 2:
                score += 3.0
        # blots that could be pinned: the roller's chances now, ours after our move
        score += 0.8 * self._exposure(theirs, mine, f) - 0.3 * self._exposure(mine, theirs, f)
        if mine[24] == 1:
            score -= 15.0
        if theirs[24] == 1:
            score += 25.0
        return score

    def _blocking(self, position: Position) -> float:
        mine, theirs = position.player, position.opponent
        f = _side_tables(position)
        score = 0.0
        # points I hold, in the opponent's numbering, and what lies in front of its checkers
        held = [False] * 26
        for p in range(1, 25):
            if mine[p]:
                held[f(p)] = True
                score += 1.5
        rear = max((q for q in range(1, 25) if theirs[q]), default=0)
        run = best = 0
        for q in range(rear - 1, 0, -1):
            run = run + 1 if held[q] else 0
            best = max(best, run)
            if held[q] and rear - q <= 6:
                score += 2.0
        score += 3.0 * best * best / 6.0
        # the same for them in front of my checkers
        their_held = [False] * 26
        for q in range(1, 25):
            if theirs[q]:
                their_held[f(q)] = True
        my_rear = max((p for p in range(1, 25) if mine[p]), default=0)
        run = best = 0
        for p in range(my_rear - 1, 0, -1):
            run = run + 1 if their_held[p] else 0
            best = max(best, run)
        score -= 3.0 * best * best / 6.0
        # checkers left on the start cannot help; spread them early
        score -= 1.5 * max(0, mine[24] - 2)
        # every checker pays for each blocked point among the six in front of it
        score += 1.2 * (self._walls(theirs, held) - self._walls(mine, their_held))
        return score

    @staticmethod
    def _walls(side: Sequence[int], blocked: Sequence[bool]) -> int:
        """Checkers of ``side`` times the blocked points (``side``'s numbering) 1-6 ahead."""
        total = 0
        for p in range(1, 25):
            if side[p]:
                total += side[p] * sum(1 for t in range(max(1, p - 6), p) if blocked[t])
        return total


def searched_choice(
    position: Position,
    dice: DiceLike,
    ranked: Sequence[tuple[float, Move]],
    plies: int,
    width: int,
    value: Callable[[Move], float],
) -> Move:
    """The move a bot ranking ``ranked`` plays at ``plies``.

    The pass move when nothing can be played; at 1 ply the best ranked move; at 2
    plies the one of the best ``width`` whose deeper ``value`` is highest (the better
    ranked on ties).

    >>> from gammon import Position
    >>> start = Position.initial("fevga")
    >>> moves = start.legal_moves((6, 5))
    >>> searched_choice(start, (6, 5), [(0.0, m) for m in moves], 2, 3, lambda m: 1.0) == moves[0]
    True
    """
    if not ranked:
        return position.pass_move(dice)
    if plies < 2 or len(ranked) == 1:
        return ranked[0][1]
    scored = [(value(move), -i, move) for i, (_, move) in enumerate(ranked[:width])]
    return max(scored, key=lambda t: (t[0], t[1]))[2]


@dataclass(frozen=True, slots=True)
class VariantBot:
    """Chooses among the legal moves by :class:`HeuristicEvaluator` at 1 or 2 plies."""

    plies: int = 1
    #: At 2 plies, how many of the best 1-ply moves are searched again.
    width: int = 3
    evaluator: HeuristicEvaluator = HeuristicEvaluator()

    def _score(self, move: Move) -> float:
        after = move.position_after()
        if move.origin.earns_bonus_roll(move):
            # acey-deucey's 1-2: the mover rolls again, so it stays on roll
            return self.evaluator.value(after.flipped()) + 8.0
        return -self.evaluator.value(after)

    def rank(self, position: Position, dice: DiceLike) -> list[tuple[float, Move]]:
        """The legal moves, best first, with their 1-ply scores."""
        moves = position.legal_moves(dice)
        scored = [(self._score(m), i, m) for i, m in enumerate(moves)]
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [(s, m) for s, _, m in scored]

    def choose_move(self, position: Position, dice: DiceLike) -> Move:
        """The move to play (the pass move when nothing can be played)."""
        ranked = self.rank(position, dice)
        return searched_choice(position, dice, ranked, self.plies, self.width, self._searched)

    def _searched(self, move: Move) -> float:
        return self._two_ply(move.position_after())

    def _two_ply(self, after: Position) -> float:
        """My expected score when the opponent, on roll in ``after``, plays its best."""
        if after.result() is not None or after.is_drawn():
            return -self.evaluator.value(after)
        total = 0.0
        for dice, weight in ROLLS:
            replies = after.legal_moves(dice)
            if not replies:
                total += weight * -self.evaluator.value(after.flipped())
                continue
            # their best reply leaves me on roll: my score there
            total += weight * min(self.evaluator.value(r.position_after()) for r in replies)
        return total / 36.0
