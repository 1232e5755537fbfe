"""Frozen values of a match: the cube, one game, the whole match, and events.

States are never changed: :func:`gammon.match.apply` returns a new one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from gammon.dice import Dice
from gammon.match.options import TableOptions
from gammon.position import Position

__all__ = [
    "CubeState",
    "Event",
    "GameOutcome",
    "GameState",
    "LedgerEntry",
    "MatchState",
    "Phase",
    "Transition",
]

#: Where a game stands.
#:
#: ``opening``: the one-die roll-off (either player rolls);
#: ``turn``: the player on turn may double (unless ``last_roll``), roll or resign;
#: ``moving``: the dice are rolled, the player on turn must play them;
#: ``doubled``: the opponent must take, drop or beaver;
#: ``beavered``: the doubler must take, drop or raccoon;
#: ``raccooned``: the beaverer must take or drop;
#: ``resigning``: the opponent of the resigning player must accept or reject;
#: ``over``: the match is over (money sessions never get there).
Phase = Literal[
    "opening", "turn", "moving", "doubled", "beavered", "raccooned", "resigning", "over"
]

#: How a game ended.
#: ``mother``: plakoto's mother rule (a pinned last checker on its 24-point).
EndReason = Literal["bear_off", "mother", "drop", "resign", "abandon", "timeout", "draw"]


@dataclass(frozen=True, slots=True)
class CubeState:
    """The doubling cube: its value and owner (None = centred)."""

    value: int = 1
    owner: int | None = None


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """The end of one game."""

    number: int
    #: The seat that won, or None for a draw.
    winner: int | None
    #: Points the winner scores (result x cube; 0 for a draw).
    points: int
    #: 1 single (Oin), 2 gammon (Mars), 3 backgammon (Cox), after the end setting; 0 for a draw.
    result: int
    reason: EndReason
    cube: int
    #: The seat that started the game.
    starter: int | None
    #: Whether it was the Crawford game of a match.
    crawford: bool = False
    #: Turns played in the game (checker plays, passes included): 0 for a game forfeited
    #: before anyone moved (``gammon.server.table.results.played``).
    plies: int = 0


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """A money settlement: ``amount`` stake units to ``player`` (negative: paid)."""

    game: int
    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class GameState:
    """One game in progress.  ``position`` is seen from ``turn``, the player on turn."""

    number: int
    phase: Phase
    position: Position
    #: The seat on turn (whose view ``position`` is); None before the roll-off.
    turn: int | None
    cube: CubeState
    dice: Dice | None = None
    #: This game is the Crawford game: no doubling.
    crawford: bool = False
    #: The seat that started this game.
    starter: int | None = None
    #: The draw option's last roll: no cube, and the game ends after this turn.
    last_roll: bool = False
    #: Pending resignation: its level and who offered it.
    resign_level: int = 0
    resigned_by: int | None = None
    #: The phase to go back to when a resignation is rejected.
    resume: Phase | None = None
    #: For each seat, the highest resignation level rejected this game (0 = none);
    #: that seat may offer only a higher level afterwards.
    rejected: tuple[int, int] = (0, 0)
    #: While a double is pending: the seat that doubled.
    doubler: int | None = None
    #: Plays made in this game.
    plies: int = 0


@dataclass(frozen=True, slots=True)
class MatchState:
    """A whole match or money session."""

    options: TableOptions
    game: GameState
    score: tuple[int, int] = (0, 0)
    games: tuple[GameOutcome, ...] = ()
    #: Whether the Crawford game has been reached (it is played at most once).
    crawford_reached: bool = False
    ledger: tuple[LedgerEntry, ...] = ()
    #: Stake balances of the two players, when the table tracks them (seed 004's check).
    balances: tuple[int, int] | None = None
    #: How many actions have been applied.
    version: int = 0

    @property
    def over(self) -> bool:
        """Whether the match is finished (never for money sessions)."""
        return self.game.phase == "over"

    @property
    def winner(self) -> int | None:
        """The seat that won the match, once it is over."""
        if not self.over:
            return None
        n = self.options.match_length
        return 0 if self.score[0] >= n else 1

    @property
    def post_crawford(self) -> bool:
        """Whether the Crawford game has been played (a match's later games)."""
        return self.crawford_reached and not self.game.crawford


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for clients: ``kind`` plus JSON-ready ``data``."""

    kind: str
    player: int | None = None
    data: dict[str, Any] = field(default_factory=dict, hash=False)


@dataclass(frozen=True, slots=True)
class Transition:
    """The result of applying one action: the new state and what happened."""

    state: MatchState
    events: tuple[Event, ...]
