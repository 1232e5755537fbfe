"""Recorders (``Game``, ``Match``) and the action log, the match's source of truth.

The action log is JSON lines: a header with the options, the players and the
dice commitment, then one action per line, then (once the match is over) the
revealed server seed.  Replaying the actions rebuilds every state exactly.

>>> from gammon.dice import Dice
>>> from gammon.match.actions import Play, Roll
>>> m = Match(TableOptions(match_length=1))
>>> _ = m.push(Roll(1, Dice(2, 5)))           # roll-off: player 1 starts with 5-2
>>> _ = m.push(Play(1, "13/8 13/11"))
>>> len(m.actions), m.state.game.turn
(2, 0)
>>> m.pop()
Play(player=1, move='13/8 13/11')
>>> Match.from_log(m.to_log()).state == m.state
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from gammon.dice import Dice, DiceLike
from gammon.errors import GammonError, InvalidNotationError
from gammon.match.actions import Action, action_from_dict, action_to_dict
from gammon.match.engine import allowed_actions, apply, new_match, to_act
from gammon.match.options import TableOptions
from gammon.match.state import MatchState, Transition
from gammon.move import Move
from gammon.position import GameResult, Position

__all__ = [
    "LOG_FORMAT",
    "DiceRecord",
    "Game",
    "Match",
    "MatchRecord",
    "read_log",
    "replay",
    "write_log",
]

LOG_FORMAT: Final = "gammon-action-log"
LOG_VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class DiceRecord:
    """What a verifier needs: the commitment shown before the first roll, and the seeds."""

    match_id: str
    commitment: str
    client_seeds: tuple[str, str] = ("", "")
    scheme: str = "hmac-sha256-v1"


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match as stored: header, actions, and the server seed once revealed."""

    options: TableOptions
    actions: tuple[Action, ...] = ()
    players: tuple[str, str] = ("Player 0", "Player 1")
    balances: tuple[int, int] | None = None
    dice: DiceRecord | None = None
    server_seed: str | None = None
    meta: dict[str, Any] = field(default_factory=dict, hash=False)
    #: The score the match started at (an excerpt, or a match carried on), and
    #: whether its first game is the Crawford game (None: decided from the
    #: score, see :func:`gammon.match.engine.new_match`).
    start_score: tuple[int, int] = (0, 0)
    start_crawford: bool | None = None

    def initial_state(self) -> MatchState:
        """The state before the first action."""
        return new_match(
            self.options, self.balances, score=self.start_score, crawford=self.start_crawford
        )


def write_log(record: MatchRecord) -> str:
    """The JSON-lines text of a match record."""
    header: dict[str, Any] = {
        "type": "header",
        "format": LOG_FORMAT,
        "version": LOG_VERSION,
        "options": record.options.to_dict(),
        "players": list(record.players),
    }
    if record.balances is not None:
        header["balances"] = list(record.balances)
    if record.start_score != (0, 0) or record.start_crawford is not None:
        header["start"] = {"score": list(record.start_score), "crawford": record.start_crawford}
    if record.dice is not None:
        header["dice"] = {
            "scheme": record.dice.scheme,
            "match_id": record.dice.match_id,
            "commitment": record.dice.commitment,
            "client_seeds": list(record.dice.client_seeds),
        }
    if record.meta:
        header["meta"] = record.meta
    lines = [json.dumps(header, sort_keys=True)]
    lines += [json.dumps(action_to_dict(a), sort_keys=True) for a in record.actions]
    if record.server_seed is not None:
        lines.append(json.dumps({"type": "reveal", "server_seed": record.server_seed}))
    return "\n".join(lines) + "\n"


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise InvalidNotationError(message)


def read_log(text: str) -> MatchRecord:
    """Read an action log; raises :class:`InvalidNotationError` naming the bad line."""
    lines = [line for line in text.splitlines() if line.strip()]
    _need(bool(lines), "empty action log")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as exc:
        raise InvalidNotationError(f"action log line 1 is not JSON: {exc}") from None
    _need(
        isinstance(header, dict) and header.get("format") == LOG_FORMAT, "not a gammon action log"
    )
    _need(
        header.get("version") == LOG_VERSION,
        f"unsupported action log version {header.get('version')!r}",
    )
    try:
        options = TableOptions.from_dict(header.get("options", {}))
    except GammonError as exc:
        raise InvalidNotationError(f"action log header: {exc}") from None
    players = header.get("players", ["Player 0", "Player 1"])
    _need(
        isinstance(players, list)
        and len(players) == 2
        and all(isinstance(p, str) for p in players),
        "bad players",
    )
    balances = header.get("balances")
    _need(balances is None or (isinstance(balances, list) and len(balances) == 2), "bad balances")
    dice = None
    if "dice" in header:
        d = header["dice"]
        _need(isinstance(d, dict), "bad dice record")
        seeds = d.get("client_seeds", ["", ""])
        _need(isinstance(seeds, list) and len(seeds) == 2, "bad client seeds")
        dice = DiceRecord(
            str(d.get("match_id", "")),
            str(d.get("commitment", "")),
            (str(seeds[0]), str(seeds[1])),
            str(d.get("scheme", "hmac-sha256-v1")),
        )
    start = header.get("start", {"score": [0, 0], "crawford": None})
    _need(isinstance(start, dict), "bad start")
    start_score = start.get("score", [0, 0])
    start_crawford = start.get("crawford")
    _need(
        isinstance(start_score, list)
        and len(start_score) == 2
        and all(type(x) is int for x in start_score),
        f"bad start score {start_score!r}",
    )
    _need(
        start_crawford is None or isinstance(start_crawford, bool),
        f"bad start crawford {start_crawford!r}",
    )
    try:
        new_match(options, score=(start_score[0], start_score[1]), crawford=start_crawford)
    except GammonError as exc:
        raise InvalidNotationError(f"action log header: {exc}") from None
    actions: list[Action] = []
    server_seed = None
    for number, line in enumerate(lines[1:], start=2):
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidNotationError(f"action log line {number} is not JSON: {exc}") from None
        if isinstance(data, dict) and data.get("type") == "reveal":
            _need(server_seed is None, f"action log line {number}: a second reveal")
            server_seed = str(data.get("server_seed"))
            continue
        _need(server_seed is None, f"action log line {number}: an action after the reveal")
        try:
            actions.append(action_from_dict(data))
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"action log line {number}: {exc}") from None
    return MatchRecord(
        options,
        tuple(actions),
        (players[0], players[1]),
        (int(balances[0]), int(balances[1])) if balances is not None else None,
        dice,
        server_seed,
        header.get("meta", {}) if isinstance(header.get("meta", {}), dict) else {},
        (start_score[0], start_score[1]),
        start_crawford,
    )


def replay(record: MatchRecord) -> list[MatchState]:
    """Every state of a recorded match, from the start to after its last action.

    Raises the engine's error, with the action's index, if the log holds an action
    the rules refuse.
    """
    state = record.initial_state()
    states = [state]
    for i, action in enumerate(record.actions):
        try:
            state = apply(state, action).state
        except GammonError as exc:
            raise type(exc)(f"action {i + 1} ({action_to_dict(action)}): {exc}") from None
        states.append(state)
    return states


class Match:
    """A match recorder: push actions, pop them, and save or load the action log."""

    def __init__(
        self,
        options: TableOptions | None = None,
        *,
        players: tuple[str, str] = ("Player 0", "Player 1"),
        balances: tuple[int, int] | None = None,
        dice: DiceRecord | None = None,
        score: tuple[int, int] = (0, 0),
        crawford: bool | None = None,
    ) -> None:
        self.options = options if options is not None else TableOptions()
        self.players = players
        self.balances = balances
        self.dice = dice
        self.start_score = score
        self.start_crawford = crawford
        self.server_seed: str | None = None
        self._states = [new_match(self.options, balances, score=score, crawford=crawford)]
        self._actions: list[Action] = []

    @property
    def state(self) -> MatchState:
        """The current state."""
        return self._states[-1]

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action pushed so far."""
        return tuple(self._actions)

    @property
    def states(self) -> tuple[MatchState, ...]:
        """The state before the first action and after each one."""
        return tuple(self._states)

    def push(self, action: Action) -> Transition:
        """Apply an action; on error nothing changes."""
        transition = apply(self.state, action)
        self._states.append(transition.state)
        self._actions.append(action)
        return transition

    def pop(self) -> Action:
        """Take back the last action (like python-chess's ``Board.pop``)."""
        if not self._actions:
            raise IndexError("pop from an empty match")
        self._states.pop()
        return self._actions.pop()

    def to_act(self) -> tuple[int, ...]:
        """The seats whose decision it is now."""
        return to_act(self.state)

    def allowed_actions(self) -> dict[int, tuple[str, ...]]:
        """For each seat that may act, the names of its allowed actions."""
        return allowed_actions(self.state)

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the player on turn may play with the rolled dice (empty unless moving)."""
        g = self.state.game
        if g.phase != "moving" or g.dice is None:
            return ()
        return g.position.legal_moves(g.dice)

    def record(self) -> MatchRecord:
        """The match as a :class:`MatchRecord`."""
        return MatchRecord(
            self.options,
            tuple(self._actions),
            self.players,
            self.balances,
            self.dice,
            self.server_seed,
            start_score=self.start_score,
            start_crawford=self.start_crawford,
        )

    def to_log(self) -> str:
        """The action log (JSON lines)."""
        return write_log(self.record())

    @classmethod
    def from_record(cls, record: MatchRecord) -> Match:
        """Rebuild a match by replaying a record."""
        match = cls(
            record.options,
            players=record.players,
            balances=record.balances,
            dice=record.dice,
            score=record.start_score,
            crawford=record.start_crawford,
        )
        states = replay(record)
        match._states = states
        match._actions = list(record.actions)
        match.server_seed = record.server_seed
        return match

    @classmethod
    def from_log(cls, text: str) -> Match:
        """Rebuild a match from its action log."""
        return cls.from_record(read_log(text))


class Game:
    """A checker-play recorder for one game, like python-chess's ``Board`` move stack.

    >>> g = Game()
    >>> g.push_text("8/5 6/5", "31").dice
    Dice(3, 1)
    >>> g.position.position_id(), len(g.moves)
    ('sGfwATDgc/ABMA', 1)
    >>> str(g.pop()), g.position == Position.initial()
    ('8/5 6/5', True)
    """

    def __init__(self, start: Position | None = None) -> None:
        self._positions = [start if start is not None else Position.initial()]
        self._moves: list[Move] = []

    @property
    def position(self) -> Position:
        """The position now, seen from the player on roll."""
        return self._positions[-1]

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played so far."""
        return tuple(self._moves)

    @property
    def positions(self) -> tuple[Position, ...]:
        """The start position and the position after each move."""
        return tuple(self._positions)

    def push(self, move: Move) -> Move:
        """Play a move of the current position."""
        after = self.position.apply(move)
        self._positions.append(after)
        self._moves.append(move)
        return move

    def push_text(self, text: str, dice: DiceLike) -> Move:
        """Parse and play a move; ``pass`` plays a roll that cannot be played."""
        return self.push(self.position.parse_move(text, Dice.coerce(dice)))

    def pop(self) -> Move:
        """Take back the last move."""
        if not self._moves:
            raise IndexError("pop from an empty game")
        self._positions.pop()
        return self._moves.pop()

    def result(self) -> GameResult | None:
        """The game's result once over (see :meth:`Position.result`)."""
        return self.position.result()
