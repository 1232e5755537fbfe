"""A small multilayer perceptron: the evaluation of a variant net.

One hidden layer of sigmoid units and three sigmoid outputs, all for the player on
roll: the chance to win, to win a gammon (mars: the other side has borne nothing
off, or plakoto's mother) and to lose one.  :meth:`Net.forward` evaluates a batch of
encoded positions (:func:`gammon.bots.nets.features.encode`) at once;
:meth:`Net.save` and :meth:`Net.load` keep the weights in a small ``.npz`` file.

>>> import numpy as np
>>> net = Net.initial(inputs=4, hidden=3, seed=1)
>>> out = net.forward(np.zeros((2, 4)))
>>> out.shape
(2, 3)
>>> bool(((out > 0) & (out < 1)).all())
True
>>> equity(np.array([[1.0, 1.0, 0.0]])).tolist()
[2.0]
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["OUTPUTS", "Net", "equity", "flip_outputs"]

Array = npt.NDArray[np.float64]

#: The outputs: win, win a gammon, lose a gammon (for the player on roll).
OUTPUTS: Final = ("win", "win_gammon", "lose_gammon")


def _sigmoid(z: Array) -> Array:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0))), dtype=np.float64)


def equity(outputs: Array) -> Array:
    """Expected points per game of the rows of ``outputs`` (gammons count 2).

    >>> equity(np.array([[0.5, 0.1, 0.1]])).tolist()
    [0.0]
    """
    return np.asarray(2.0 * outputs[:, 0] - 1.0 + outputs[:, 1] - outputs[:, 2], dtype=np.float64)


def flip_outputs(outputs: Array) -> Array:
    """The same estimates seen by the other player: win 1-p, gammons swapped.

    >>> flip_outputs(np.array([[0.7, 0.2, 0.05]])).round(2).tolist()
    [[0.3, 0.05, 0.2]]
    """
    return np.stack([1.0 - outputs[:, 0], outputs[:, 2], outputs[:, 1]], axis=1)


@dataclass(frozen=True, slots=True, eq=False)
class Net:
    """Weights of one hidden layer (``w1``, ``b1``) and the output layer (``w2``, ``b2``).

    The arrays are shared, not copied: training (:mod:`gammon.bots.nets.td`) updates
    them in place; every other use only reads them.
    """

    w1: Array  # (hidden, inputs)
    b1: Array  # (hidden,)
    w2: Array  # (outputs, hidden)
    b2: Array  # (outputs,)

    @classmethod
    def initial(cls, inputs: int, hidden: int, seed: int) -> Net:
        """Small random weights from ``seed`` (reproducible)."""
        rng = np.random.default_rng(seed)
        return cls(
            w1=rng.uniform(-0.1, 0.1, (hidden, inputs)),
            b1=np.zeros(hidden),
            w2=rng.uniform(-0.1, 0.1, (len(OUTPUTS), hidden)),
            b2=np.zeros(len(OUTPUTS)),
        )

    @property
    def inputs(self) -> int:
        """The length of an input row."""
        return int(self.w1.shape[1])

    def hidden(self, x: Array) -> Array:
        """The hidden layer's activations for the rows of ``x``."""
        return _sigmoid(x @ self.w1.T + self.b1)

    def forward(self, x: Array) -> Array:
        """The outputs (win, win gammon, lose gammon) for each row of ``x``."""
        return _sigmoid(self.hidden(x) @ self.w2.T + self.b2)

    def copy(self) -> Net:
        """A copy with its own arrays."""
        return Net(self.w1.copy(), self.b1.copy(), self.w2.copy(), self.b2.copy())

    def widened(self, hidden: int, seed: int) -> Net:
        """This net with ``hidden`` hidden units: the new units get small random input
        weights (from ``seed``) and no say in the outputs yet, so the widened net
        computes exactly what this one does; training then puts them to use.

        >>> net = Net.initial(6, 3, seed=1)
        >>> wide = net.widened(5, seed=2)
        >>> wide.w1.shape, wide.w2.shape
        ((5, 6), (3, 5))
        >>> x = np.linspace(0, 1, 12).reshape(2, 6)
        >>> bool(np.allclose(wide.forward(x), net.forward(x)))
        True
        """
        extra = hidden - self.w1.shape[0]
        if extra < 0:
            raise ValueError(f"a net of {self.w1.shape[0]} hidden units cannot shrink to {hidden}")
        rng = np.random.default_rng(seed)
        return Net(
            np.vstack([self.w1, rng.uniform(-0.1, 0.1, (extra, self.w1.shape[1]))]),
            np.concatenate([self.b1, np.zeros(extra)]),
            np.hstack([self.w2, np.zeros((self.w2.shape[0], extra))]),
            self.b2.copy(),
        )

    def arrays(self) -> dict[str, Array]:
        """The weights by name, as saved."""
        return {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2}

    def save(self, path: str | Path, *, dtype: type = np.float64, **meta: str) -> None:
        """Write the weights (as ``dtype``) and string metadata to an ``.npz`` file.

        >>> import tempfile, os
        >>> net = Net.initial(inputs=4, hidden=3, seed=1)
        >>> with tempfile.TemporaryDirectory() as d:
        ...     net.save(os.path.join(d, "n.npz"), variant="fevga")
        ...     again, meta = Net.load(os.path.join(d, "n.npz"))
        >>> bool((again.w1 == net.w1).all()), meta
        (True, {'variant': 'fevga'})
        """
        out: dict[str, npt.NDArray[np.generic]] = {
            k: v.astype(dtype) for k, v in self.arrays().items()
        }
        out |= {f"meta_{k}": np.array(v) for k, v in meta.items()}
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **out)  # type: ignore[arg-type]  # (its allow_pickle)
        Path(path).write_bytes(buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> tuple[Net, dict[str, str]]:
        """The net and the metadata saved in ``path`` (weights read as float64)."""
        return cls.from_bytes(Path(path).read_bytes())

    @classmethod
    def from_bytes(cls, data: bytes) -> tuple[Net, dict[str, str]]:
        """The net and metadata of the contents of an ``.npz`` file."""
        with np.load(io.BytesIO(data), allow_pickle=False) as f:
            weights = {k: np.array(f[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2")}
            meta = {k[5:]: str(f[k]) for k in f.files if k.startswith("meta_")}
        return cls(**weights), meta
