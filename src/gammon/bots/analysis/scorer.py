"""1-ply probabilities of every move of many rolls: through any evaluator, or bgsage's batch.

A scorer's ``score(jobs)`` gives, for each ``(position, dice)``, the
probabilities after each move of :func:`moves_of` (the legal moves, or the pass
when the roll cannot be played), as the bot sees them (:func:`after_probs`).

>>> from gammon.dice import Dice
>>> from gammon.bots.evaluator import PipCountEvaluator
>>> from gammon.position import Position
>>> start = Position.initial()
>>> [probs] = EvaluatorScorer(PipCountEvaluator()).score([(start, Dice(3, 1))])
>>> len(probs) == len(moves_of(start, Dice(3, 1)))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gammon.bots.evaluator import (
    Evaluator,
    Probabilities,
    after_probs,
    impossible_results_removed,
    terminal_probabilities,
)
from gammon.dice import Dice
from gammon.move import Move
from gammon.position import Position

__all__ = ["EvaluatorScorer", "SageScorer", "after_probs", "moves_of"]


def _mover_board(after: Position) -> tuple[int, ...]:
    """The board after a move seen from the mover (``after.flipped().board``, cheaper)."""
    mover, opp, their = after.opponent, after.player, after.variant.point_map
    b = [0] * 26
    for p in range(1, 25):
        b[p] = mover[p] - opp[their[p]]
    b[25] = mover[25]
    b[0] = opp[25]
    return tuple(b)


def moves_of(position: Position, dice: Dice) -> list[Move]:
    """The legal moves of a roll, or the pass move when it cannot be played."""
    moves = position.legal_moves(dice)
    return list(moves) if moves else [position.pass_move(dice)]


class EvaluatorScorer:
    """1-ply probabilities of every move of many rolls, through any evaluator."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator

    def score(self, jobs: Sequence[tuple[Position, Dice]]) -> list[list[Probabilities]]:
        """For each ``(position, dice)``, the probabilities after each of ``moves_of``."""
        return [
            after_probs(self.evaluator, p, [m.position_after() for m in moves_of(p, d)])
            for p, d in jobs
        ]


class SageScorer:
    """1-ply probabilities of every move of many rolls in one bgsage C++ batch call.

    ``batch_checker_play`` generates and evaluates the moves of each roll in C++
    threads, routing every candidate through the networks of the position
    before the move, like :meth:`BgsageEvaluator.evaluate_after_move` (built
    here from the same weights and bear-off database; a test checks they
    agree).  gammon's own legal moves are matched to bgsage's boards; a move
    bgsage does not list is evaluated by ``fallback``.
    """

    def __init__(self, fallback: Evaluator, threads: int) -> None:
        import bgbot_cpp
        from bgsage.weights import bearoff_db_path, default_weights

        self._cpp: Any = bgbot_cpp
        self.fallback = fallback
        self.threads = threads
        weights = default_weights()
        base: Any = bgbot_cpp.create_strategy(
            weights.strategy_type, weights.weight_paths_list, weights.hidden_sizes_list
        )
        database: Any = bgbot_cpp.BearoffDB()
        if database.load(str(bearoff_db_path())):
            base = bgbot_cpp.BearoffStrategy(base, database)
        else:  # pragma: no cover - the wheel ships the file
            database = None
        # keep the database alive: the strategy holds a raw pointer to it
        self._database: Any = database
        self._strategy: Any = base
        self._centered: Any = bgbot_cpp.CubeOwner.CENTERED

    def score(self, jobs: Sequence[tuple[Position, Dice]]) -> list[list[Probabilities]]:
        """For each ``(position, dice)``, the probabilities after each of ``moves_of``."""
        inputs = [
            {
                "board": list(p.board),
                "die1": d.high,
                "die2": d.low,
                "cube_value": 1,
                "cube_owner": self._centered,
            }
            for p, d in jobs
        ]
        raw = self._cpp.batch_checker_play(inputs, self._strategy, 5, 0.08, self.threads)
        out: list[list[Probabilities]] = []
        for (position, dice), result in zip(jobs, raw, strict=True):
            table = {tuple(m["board"]): m["probs"] for m in result["moves"]}
            afters = [m.position_after() for m in moves_of(position, dice)]
            probs: list[Probabilities | None] = []
            missing: list[int] = []
            for i, after in enumerate(afters):
                done = terminal_probabilities(after)
                if done is None:
                    found = table.get(_mover_board(after))
                    if found is None:
                        missing.append(i)
                    else:
                        seen = Probabilities.from_sequence(found).flipped()
                        done = impossible_results_removed(after, seen)
                probs.append(done)
            if missing:
                again = after_probs(self.fallback, position, [afters[i] for i in missing])
                for i, p in zip(missing, again, strict=True):
                    probs[i] = p
            out.append([p for p in probs if p is not None])
        return out
