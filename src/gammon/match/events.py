"""The registry of the engine's event kinds: what :func:`gammon.match.apply` reports.

Every :class:`~gammon.match.state.Event` the engine makes goes through :func:`event`,
whose ``kind`` is an :data:`EventKind`, so ``mypy`` refuses a kind that is not
registered here; docs/protocol.md lists the same kinds (a test checks both).

>>> event("doubled", 0, {"cube": 2})
Event(kind='doubled', player=0, data={'cube': 2})
>>> "roll_again" in ENGINE_EVENTS, "fly" in ENGINE_EVENTS
(True, False)
"""

from __future__ import annotations

from typing import Any, Final, Literal, get_args

from gammon.match.state import Event

__all__ = ["ENGINE_EVENTS", "EventKind", "event"]

#: Every kind of engine event, in the order a game meets them.
EventKind = Literal[
    "opening_roll",
    "automatic_double",
    "starts",
    "rolled",
    "no_move",
    "moved",
    "doubled",
    "took",
    "beavered",
    "raccooned",
    "dropped",
    "resign_offered",
    "resign_accepted",
    "resign_rejected",
    "abandon",
    "timeout",
    "last_roll",
    "draw",
    "roll_again",
    "game_over",
    "match_over",
    "game_started",
]

#: The registered kinds, as a tuple.
ENGINE_EVENTS: Final[tuple[str, ...]] = get_args(EventKind)


def event(kind: EventKind, player: int | None, data: dict[str, Any]) -> Event:
    """An engine event of a registered kind."""
    return Event(kind, player, data)
