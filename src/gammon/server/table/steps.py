"""Click-to-move answers (the ``steps`` message): which single steps may follow what the
player has played so far.

On the backgammon board an answer takes well under a millisecond and is given at once.
Off it answers take longer (an acey-deucey 1-2: a few milliseconds, since it is answered
without listing its plays, :mod:`gammon.rules.bonus`), so answers are kept per
(position, roll, steps played) and computed on a :class:`~gammon.server.infra.workqueue.WorkQueue`
of one worker (a process when the server runs its bots in processes, else a thread) where
the tables asking take turns, the least demanding first, each with a few questions waiting
at most (past that: ``rate_limited``).  Twenty sockets asking at one table thus cost the
other tables one busy worker, not the event loop.

>>> from gammon import Position
>>> from gammon.dice import Dice
>>> answer = step_payload(Position.initial(), Dice(3, 1), ())
>>> answer["complete"], answer["dice_left"], answer["steps"][:2]
(False, [3, 1], [[24, 21, 3, False], [13, 10, 3, False]])
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Final

from gammon.dice import Dice
from gammon.move import Step
from gammon.position import Position
from gammon.server.infra.workqueue import WorkQueue

__all__ = [
    "STEPS_KEPT",
    "STEPS_WAITING",
    "StepAnswers",
    "canonical_move",
    "step_payload",
    "warm_rules",
]

#: Answers kept (least recently asked for go first).
STEPS_KEPT: Final = 4096
#: Questions one table may have waiting for the thread.
STEPS_WAITING: Final = 4

#: A step as played: ``(from, to, die)``.
Played = tuple[tuple[int, int, int], ...]


def step_payload(position: Position, dice: Dice, played: Played) -> dict[str, Any]:
    """The ``steps`` answer's fields that depend on the position, roll and steps played."""
    options = position.step_options(dice, [Step(f, t, d) for f, t, d in played])
    return {
        "played": [list(s) for s in played],
        "steps": [[s.from_point, s.to_point, s.die, s.hit] for s in options.steps],
        "complete": options.complete,
        "move": str(options.move) if options.complete and options.move is not None else None,
        "dice_left": list(options.dice_left),
    }


def canonical_move(position: Position, dice: Dice, text: str) -> str:
    """The canonical text of the move ``text`` at ``position`` with ``dice`` (raises as
    :meth:`Position.parse_move` does); a pure function, for a rules worker process.

    >>> canonical_move(Position.initial(), Dice(3, 1), "8/5, 6/5")
    '8/5 6/5'
    """
    return str(position.parse_move(text, dice))


def warm_rules() -> None:
    """Load, in a rules worker, what its jobs use (the table's reducer, the move lists),
    and play a few rolls of every variant: its first real job then waits for nothing."""
    from gammon.server.table.state import reduce
    from gammon.server.table.views import list_moves
    from gammon.variants import VARIANTS

    assert callable(reduce)
    for name in VARIANTS:
        list_moves(Position.initial(name), (2, 1))


class StepAnswers:
    """The process's ``steps`` answers: the cache and the queue they are computed on."""

    def __init__(self, processes: bool = False) -> None:
        self.queue = WorkQueue(
            "gammon-steps", workers=1, per_key=STEPS_WAITING, processes=processes
        )
        self._kept: OrderedDict[tuple[Position, int, int, Played], dict[str, Any]] = OrderedDict()

    async def answer(
        self, key: Hashable, position: Position, dice: Dice, played: Played
    ) -> dict[str, Any]:
        """The answer for ``played`` at ``position`` with ``dice`` (``key``: whose turn it
        is on the queue, the table)."""
        if position.variant.standard_geometry:
            return step_payload(position, dice, played)  # cheap: at once
        name = (position, dice.d1, dice.d2, played)
        found = self._kept.get(name)
        if found is not None:
            self._kept.move_to_end(name)
            return found
        found = await self.queue.run(key, step_payload, position, dice, played)
        self._kept[name] = found
        while len(self._kept) > STEPS_KEPT:
            self._kept.popitem(last=False)
        return found

    def close(self) -> None:
        """Stop the queue's thread."""
        self.queue.close()
