"""A match record as the analysis board replays it: one step per move, cube action,
resignation and game end, each with the board to draw.

The analysis page draws these steps at once (they come from the match record, not from
the analysis, which fills in later).  Rolls are folded into the move they were played
with (a roll that could not be played is a step of its own, ``dance``).  An opening
roll-off that is not played (a tie, rolled again; in the Greek variants, where its winner
then rolls both dice) is a step of its own, ``rolloff``: ``dice`` holds each seat's die
(seat 0's first) and ``p`` its winner (``None`` for a tie).  Each step holds the action index of the record (``i``) and of its roll
(``r``), so the analysis' decisions, luck and graph points (keyed by action index) find
their step.

>>> from gammon.dice import Dice
>>> from gammon.match import Match, Play, Roll, Double, Drop, TableOptions
>>> m = Match(TableOptions(match_length=3), players=("Ann", "Bob"))
>>> for a in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5"), Double(1), Drop(0)):
...     _ = m.push(a)
>>> steps = replay_steps(m.record())
>>> [(s["kind"], s["i"], s["r"], s["p"], s["text"]) for s in steps]
[('start', -1, None, None, ''), ('move', 1, 0, 0, '8/5 6/5'), ('double', 2, None, 1, ''), ('drop', 3, None, 0, ''), ('end', 3, None, 1, ''), ('start', 3, None, None, '')]
>>> steps[1]["board"][0][5], steps[1]["dice"], steps[-2]["points"], steps[-1]["score"]
(2, {'seat': 0, 'values': [3, 1]}, 1, [0, 1])
"""

from __future__ import annotations

from typing import Any

from gammon.match.actions import Action, Play, Resign, Roll, action_name
from gammon.match.record import MatchRecord, replay
from gammon.match.state import MatchState
from gammon.position import Position
from gammon.server.table.views import seat_boards

__all__ = ["replay_steps"]

#: The step kind of each other action the board shows (an abandon or a timeout: the game's
#: end says it), by its name in the log.
_KINDS: dict[str, str] = {
    "double": "double",
    "take": "take",
    "drop": "drop",
    "beaver": "beaver",
    "raccoon": "raccoon",
    "resign": "resign",
    "accept_resign": "accept",
    "reject_resign": "reject",
}


def _step(
    kind: str,
    index: int,
    state: MatchState,
    position: Position,
    turn: int,
    **more: Any,
) -> dict[str, Any]:
    g = state.game
    board, pinned, waiting = seat_boards(position, turn)
    offer = None
    if g.phase in ("doubled", "beavered", "raccooned") and g.doubler is not None:
        offer = {"value": 2 * g.cube.value, "by": g.doubler}
    step: dict[str, Any] = {
        "kind": kind,
        "i": index,
        "r": None,
        "g": g.number,
        "p": None,
        "text": "",
        "board": board,
        "pinned": pinned,
        "waiting": waiting,
        "dice": None,
        "cube": {"value": g.cube.value, "owner": g.cube.owner, "offer": offer},
        "score": list(state.score),
        "crawford": g.crawford,
    }
    step.update(more)
    return step


def _turn(state: MatchState) -> int:
    return state.game.turn if state.game.turn is not None else 0


def replay_steps(record: MatchRecord) -> list[dict[str, Any]]:
    """The steps of the analysis board (see the module notes), in order."""
    states = replay(record)
    first = states[0]
    steps = [_step("start", -1, first, first.game.position, _turn(first))]
    roll: int | None = None
    for index, action in enumerate(record.actions):
        s, t = states[index], states[index + 1]
        steps.extend(_steps_of(index, action, s, t, roll))
        roll = index if isinstance(action, Roll) else None
        if len(t.games) > len(s.games):
            outcome = t.games[-1]
            last = steps[-1]
            steps.append(
                {
                    **last,
                    "kind": "end",
                    "i": index,
                    "r": None,
                    "p": outcome.winner,
                    "text": "",
                    "dice": None,
                    "points": outcome.points,
                    "score": list(t.score),
                }
            )
            if not t.over:
                steps.append(_step("start", index, t, t.game.position, _turn(t)))
    return steps


def _steps_of(
    index: int, action: Action, s: MatchState, t: MatchState, roll: int | None
) -> list[dict[str, Any]]:
    g = s.game
    if isinstance(action, Play):
        assert g.dice is not None and g.turn is not None
        move = g.position.parse_move(action.move, g.dice)
        dice = {"seat": g.turn, "values": [g.dice.d1, g.dice.d2]}
        return [
            _step(
                "move",
                index,
                s,
                move.position_after(),
                1 - g.turn,
                r=roll,
                p=g.turn,
                text=str(move),
                dice=dice,
            )
        ]
    if isinstance(action, Roll):
        after = t.game
        if (
            g.phase not in ("opening", "turn")
            or after.phase == "moving"
            or after.number != g.number
        ):
            return []  # the move follows
        d1, d2 = action.dice.d1, action.dice.d2
        winner = None if d1 == d2 else (0 if d1 > d2 else 1)
        if g.phase == "opening" and (winner is None or after.turn == winner):
            # not played: a tie (rolled again) or, in the Greek variants, who starts
            return [
                _step(
                    "rolloff",
                    index,
                    t,
                    after.position,
                    _turn(t),
                    p=winner,
                    dice={"seat": 0 if winner is None else winner, "values": [d1, d2]},
                )
            ]
        rolled = action.dice.normalized()
        mover = g.turn if g.phase == "turn" else (0 if action.dice.d1 > action.dice.d2 else 1)
        return [
            _step(
                "dance",
                index,
                t,
                after.position,
                _turn(t),
                p=mover,
                text=str(rolled),
                dice={"seat": mover, "values": [rolled.d1, rolled.d2]},
            )
        ]
    kind = _KINDS.get(action_name(action))
    if kind is None:
        return []  # an abandon or a timeout: the game end says it
    view = t if t.game.number == g.number else s
    more: dict[str, Any] = {"level": action.level} if isinstance(action, Resign) else {}
    return [_step(kind, index, view, view.game.position, _turn(view), p=action.player, **more)]
