"""TD(λ) self-play training of a variant net, as TD-Gammon learnt backgammon.

The net plays both sides with the core's legal moves: each turn it evaluates every
afterstate of the roll in one batch and plays the best for the mover (0-ply greedy;
with chance ``epsilon`` a random legal move instead).  After each move the estimate
of the position before it moves towards the estimate of the position after it (or
the result, when the game ends), with eligibility traces that decay by ``lam`` per
move (Sutton's TD(λ)).  Acey-deucey's 1-2, whose plays are too many to list, is
chosen by the staged search of :mod:`.bonus` (exploring among the plays it found).  The net always sees the player on roll; the traces and
errors are kept for one fixed side, so that the two players' turns can share them.

Everything random (dice, exploration, initial weights) comes from ``seed``; a
checkpoint holds the weights, the random generator's state and the number of games,
so a run resumed from it continues exactly as the uninterrupted run would have.

>>> trainer = Trainer.new(TrainConfig("fevga", hidden=4, seed=3))
>>> before = trainer.net.w1.copy()
>>> trainer.play_game() > 0
True
>>> bool((trainer.net.w1 != before).any()), trainer.games
(True, 1)
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from gammon.dice import Dice
from gammon.position import Position
from gammon.variants import get_variant

from .bonus import BonusRanking, bonus_ranking
from .bot import mover_outputs, outcome
from .features import encode, input_size
from .net import Net, equity

__all__ = ["TrainConfig", "Trainer"]

Array = npt.NDArray[np.float64]

#: White's outputs from the outputs of black on roll: win -> 1 - win, gammons swapped.
_TO_OTHER: Final = np.array([[-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
_OFFSET: Final = np.array([1.0, 0.0, 0.0])


@dataclass(frozen=True, slots=True)
class TrainConfig:
    """The settings of a training run (saved in its checkpoints)."""

    variant: str
    hidden: int = 40
    seed: int = 1
    lam: float = 0.7
    #: Learning rate ``alpha / (1 + games / alpha_half)``.
    alpha: float = 0.1
    alpha_half: float = 10000.0
    epsilon: float = 0.01
    #: A game still running after this many moves is abandoned (no final update).
    max_moves: int = 3000

    def rate(self, games: int) -> float:
        """The learning rate after ``games`` games."""
        return self.alpha / (1.0 + games / self.alpha_half)


@dataclass(slots=True)
class Trainer:
    """A training run: its settings, net, random generator and games played."""

    config: TrainConfig
    net: Net
    rng: np.random.Generator
    games: int = 0

    @classmethod
    def new(cls, config: TrainConfig) -> Trainer:
        """A fresh run: random small weights and dice, all from ``config.seed``."""
        net = Net.initial(input_size(config.variant), config.hidden, config.seed)
        return cls(config, net, np.random.default_rng([config.seed, 1]))

    def from_weights(self, net: Net, games: int = 0) -> Trainer:
        """This run started from ``net``'s weights (copied) as if ``games`` were played;
        a net with fewer hidden units than the run's is widened (:meth:`Net.widened`,
        the new units' weights from the run's seed).

        >>> base = Trainer.new(TrainConfig("fevga", hidden=4, seed=3))
        >>> again = Trainer.new(TrainConfig("fevga", hidden=4, seed=5)).from_weights(base.net, 10)
        >>> bool((again.net.w1 == base.net.w1).all()), again.games
        (True, 10)
        >>> wide = Trainer.new(TrainConfig("fevga", hidden=6, seed=5)).from_weights(base.net)
        >>> wide.net.w1.shape[0], bool((wide.net.w1[:4] == base.net.w1).all())
        (6, True)
        """
        if net.w1.shape[1] != self.net.w1.shape[1] or net.w1.shape[0] > self.net.w1.shape[0]:
            raise ValueError(f"weights of shape {net.w1.shape}, the run needs {self.net.w1.shape}")
        if net.w1.shape[0] < self.net.w1.shape[0]:
            return Trainer(
                self.config, net.widened(self.config.hidden, self.config.seed), self.rng, games
            )
        return Trainer(self.config, net.copy(), self.rng, games)

    # ------------------------------------------------------------------ checkpoints

    def save(self, path: str | Path) -> None:
        """Write a checkpoint (full precision weights, generator state, games)."""
        self.net.save(
            path,
            variant=get_variant(self.config.variant).name,
            config=json.dumps(asdict(self.config)),
            rng=json.dumps(self.rng.bit_generator.state),
            games=str(self.games),
        )

    def export(self, path: str | Path) -> None:
        """Write the weights alone (float32) with their provenance: the shipped data file."""
        self.net.save(
            path,
            dtype=np.float32,
            variant=get_variant(self.config.variant).name,
            config=json.dumps(asdict(self.config)),
            games=str(self.games),
        )

    @classmethod
    def resume(cls, path: str | Path) -> Trainer:
        """The run saved by :meth:`save` in ``path``."""
        net, meta = Net.load(path)
        rng = np.random.default_rng()
        rng.bit_generator.state = json.loads(meta["rng"])
        return cls(TrainConfig(**json.loads(meta["config"])), net, rng, int(meta["games"]))

    # ------------------------------------------------------------------ learning

    def _white_outputs(self, x: Array, white: bool) -> Array:
        """White's outputs at one encoded position of the player on roll."""
        y = self.net.forward(x[None, :])[0]
        return y if white else np.asarray(_OFFSET + _TO_OTHER @ y, dtype=np.float64)

    def _gradients(self, x: Array, white: bool) -> tuple[Array, list[Array]]:
        """White's outputs at one encoded position and their gradients per weight array."""
        net = self.net
        h = net.hidden(x[None, :])[0]
        y = 1.0 / (1.0 + np.exp(-(net.w2 @ h + net.b2)))
        p = np.eye(3) if white else _TO_OTHER
        pd = p * (y * (1.0 - y))[None, :]  # d white_j / d z2_k
        dz1 = (pd @ net.w2) * (h * (1.0 - h))[None, :]  # d white_j / d z1
        grads = [
            dz1[:, :, None] * x[None, None, :],
            dz1,
            pd[:, :, None] * h[None, None, :],
            pd,
        ]
        return (y if white else _OFFSET + _TO_OTHER @ y), grads

    def _choose(
        self, position: Position, dice: Dice
    ) -> tuple[Position, bool, Array | None, Array | None]:
        """The mover's play: (next position, mover still on roll, exact outcome, encoding).

        The next position has its player on roll (the other side, or the mover again
        after acey-deucey's bonus roll); the outcome is for that player, or None while
        the game goes on, and then the encoding is the next position's.
        """
        ranked = bonus_ranking(self.net, position, dice)
        if ranked is not None:  # acey-deucey's 1-2: the staged search, never every play
            return self._bonus_choice(position, ranked)
        moves = position.legal_moves(dice)
        if not moves:
            after = position.apply(position.pass_move(dice))
            return after, False, None, None
        if self.rng.random() < self.config.epsilon:
            moves = (moves[int(self.rng.integers(len(moves)))],)
        nexts, again, finals, mine, inputs = mover_outputs(self.net, position, moves)
        i = int(np.argmax(equity(mine)))
        return nexts[i], again[i], finals[i], inputs[i]

    def _bonus_choice(
        self, position: Position, ranked: BonusRanking
    ) -> tuple[Position, bool, Array | None, Array | None]:
        """:meth:`_choose` for a 1-2: the search's best play (a random one of those it
        found with chance ``epsilon``), its position built from its board."""
        pick = 0
        if self.rng.random() < self.config.epsilon:
            pick = int(self.rng.integers(len(ranked.keys)))
        player, opponent, pinned, waiting = position.rules.after(position, ranked.keys[pick])
        after = Position(player, opponent, position.variant, pinned, waiting)
        again = ranked.again[pick]
        nxt = after.flipped() if again else after
        final = outcome(nxt)
        return nxt, again, final, None if final is not None else encode([nxt])[0]

    def play_game(self) -> int:
        """Play one game of self-play, learning as it goes; the number of moves."""
        cfg = self.config
        alpha = cfg.rate(self.games)
        net = self.net
        weights = [net.w1, net.b1, net.w2, net.b2]
        position = Position.initial(cfg.variant)
        white = True
        value, grads = self._gradients(encode([position])[0], white)
        traces = grads
        moves = 0
        while moves < cfg.max_moves:
            a, b = self.rng.integers(1, 7, size=2)
            nxt, again, final, x = self._choose(position, Dice(int(a), int(b)))
            moves += 1
            white = white if again else not white
            if final is not None:
                target = final if white else _OFFSET + _TO_OTHER @ final
            else:
                x = encode([nxt])[0] if x is None else x
                target = self._white_outputs(x, white)
            delta = target - value
            for w, e in zip(weights, traces, strict=True):
                w += alpha * np.tensordot(delta, e, axes=1)
            if final is not None or x is None:
                break
            value, grads = self._gradients(x, white)
            traces = [cfg.lam * e + g for e, g in zip(traces, grads, strict=True)]
            position = nxt
        self.games += 1
        return moves
