"""The match state machine: ``apply(state, action) -> Transition``.

It is pure: the same state and action always give the same result, and an
illegal action raises :class:`IllegalActionError` (or :class:`IllegalMoveError` for
a move the rules refuse) and changes nothing.  Dice come in with the ``Roll``
action, so a log of actions replays a match exactly.

>>> from gammon.dice import Dice
>>> from gammon.match.actions import Roll, Play
>>> state = new_match(TableOptions(match_length=3))
>>> state = apply(state, Roll(0, Dice(3, 1))).state      # roll-off: player 0 has 3, player 1 has 1
>>> state.game.phase, state.game.turn, state.game.dice
('moving', 0, Dice(3, 1))
>>> state = apply(state, Play(0, "8/5 6/5")).state
>>> state.game.phase, state.game.turn
('turn', 1)
>>> apply(state, Play(0, "8/5 6/5"))
Traceback (most recent call last):
...
gammon.errors.IllegalActionError: player 0 cannot move now: it is player 1's turn to roll or double (game 1)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from gammon.dice import Dice
from gammon.errors import IllegalActionError
from gammon.match.actions import (
    Abandon,
    AcceptResign,
    Action,
    Beaver,
    Double,
    Drop,
    Play,
    Raccoon,
    RejectResign,
    Resign,
    Roll,
    Take,
    Timeout,
)
from gammon.match.events import event
from gammon.match.guards import allowed_actions, dead_cube, guard, to_act
from gammon.match.options import TableOptions
from gammon.match.state import (
    CubeState,
    EndReason,
    Event,
    GameOutcome,
    GameState,
    LedgerEntry,
    MatchState,
    Transition,
)
from gammon.position import Position

__all__ = [
    "abandon_result",
    "allowed_actions",
    "apply",
    "dead_cube",
    "guard",
    "new_match",
    "to_act",
]


def new_match(
    options: TableOptions | None = None,
    balances: tuple[int, int] | None = None,
    *,
    score: tuple[int, int] = (0, 0),
    crawford: bool | None = None,
) -> MatchState:
    """A match (or money session) before its opening roll.

    With ``balances`` the engine enforces seed 004's admission rule when a player
    takes a cube, and keeps the balances up to date from the ledger.

    ``score`` starts part-way through (a match excerpt, or one carried on from
    elsewhere).  ``crawford`` says whether its first game is the Crawford game;
    by default it is when one side needs one point and the other more (the
    usual reason to be at that score), and a match at one point away each is
    past it.  ``crawford=False`` at such a score starts after the Crawford game.

    >>> state = new_match(TableOptions(match_length=5), score=(4, 2))
    >>> state.game.crawford, new_match(TableOptions(match_length=5), score=(4, 2), crawford=False).post_crawford
    (True, True)
    >>> new_match(TableOptions(match_length=5), score=(5, 2))
    Traceback (most recent call last):
    ...
    gammon.errors.IllegalActionError: a 5-point match cannot start at 5-2: each score must be below 5
    """
    opts = options if options is not None else TableOptions()
    reached, first_crawford = _start_crawford(opts, score, crawford)
    if balances is not None:
        if len(balances) != 2 or any(type(b) is not int for b in balances):
            raise IllegalActionError(f"balances must be two integers, got {balances!r}")
        need = opts.required_balance()
        for seat, balance in enumerate(balances):
            if balance < need:
                raise IllegalActionError(
                    f"player {seat} has a balance of {balance}; this table needs {need} "
                    f"(stake {opts.stake} x cube limit {opts.cube_max} x end coefficient {opts.end_coefficient})"
                )
    game = _opening_game(opts, 1, crawford=first_crawford)
    return MatchState(
        opts,
        game,
        score=(score[0], score[1]),
        crawford_reached=reached,
        balances=tuple(balances) if balances is not None else None,  # type: ignore[arg-type]
    )


def _start_crawford(
    opts: TableOptions, score: tuple[int, int], crawford: bool | None
) -> tuple[bool, bool]:
    """``(crawford_reached, first game is the Crawford game)`` of a match starting at ``score``."""
    if (
        not isinstance(score, tuple)
        or len(score) != 2
        or any(type(s) is not int or s < 0 for s in score)
    ):
        raise IllegalActionError(f"a score is two whole numbers of at least 0, not {score!r}")
    if crawford is not None and not isinstance(crawford, bool):
        raise IllegalActionError(f"crawford must be True, False or None, not {crawford!r}")
    n = opts.match_length
    if not opts.is_match:
        if crawford:
            raise IllegalActionError("a money session has no Crawford game")
        return False, False
    if max(score) >= n:
        raise IllegalActionError(
            f"a {n}-point match cannot start at {score[0]}-{score[1]}: each score must be below {n}"
        )
    at_one = [s == n - 1 for s in score]
    if not (opts.crawford and any(at_one)) or score == (0, 0):  # game 1 is never Crawford
        if crawford:
            raise IllegalActionError(
                f"a {n}-point match at {score[0]}-{score[1]} cannot start with a Crawford game"
                + ("" if opts.crawford else " (the table plays without the Crawford rule)")
            )
        return False, False
    if all(at_one):  # the Crawford game was the one that brought the trailer to n-1
        if crawford:
            raise IllegalActionError(
                f"a {n}-point match at {score[0]}-{score[1]} is past its Crawford game"
            )
        return True, False
    first = crawford is not False
    return True, first


def _opening_game(options: TableOptions, number: int, *, crawford: bool) -> GameState:
    start = Position.initial(options.game_variant(number))
    return GameState(number, "opening", start, None, CubeState(), crawford=crawford)


# --------------------------------------------------------------------------- scoring


def abandon_result(position: Position, seat_view: bool = True) -> int:
    """Result level from the abandoning player's own checkers (rules.md D9).

    ``position.player`` must be the abandoning player when ``seat_view`` is true,
    else ``position.opponent``.  3 (Cox): nothing off and a checker on the bar or in
    the opponent's home board; 2 (Mars): nothing off; 1 (Oin): something off.
    """
    side = position.player if seat_view else position.opponent
    if side[0]:
        return 1
    waiting = position.waiting  # acey-deucey: checkers still to enter count as on the bar
    if any(side[19:26]) or waiting[0 if seat_view else 1]:
        return 3
    return 2


def _points(state: MatchState, level: int) -> tuple[int, int]:
    """(result after the end setting and Jacoby, points) for a game won at ``level``."""
    opts, cube = state.options, state.game.cube
    result = min(level, opts.end_coefficient)
    if not opts.is_match and opts.jacoby and cube.owner is None:
        result = 1
    return result, result * cube.value


def _finish(
    state: MatchState,
    game: GameState,
    winner: int | None,
    result: int,
    points: int,
    reason: EndReason,
    events: list[Event],
) -> MatchState:
    """Score a finished game, then start the next one (or end the match)."""
    opts = state.options
    g = game
    outcome = GameOutcome(
        g.number, winner, points, result, reason, g.cube.value, g.starter, g.crawford, g.plies
    )
    score = list(state.score)
    ledger = list(state.ledger)
    balances = list(state.balances) if state.balances is not None else None
    if winner is not None:
        score[winner] += points
        if opts.is_match:
            score[winner] = min(score[winner], opts.match_length)
        amount = points * opts.stake
        if amount:
            ledger += [
                LedgerEntry(game.number, winner, amount),
                LedgerEntry(game.number, 1 - winner, -amount),
            ]
            if balances is not None:
                balances[winner] += amount
                balances[1 - winner] -= amount
    events.append(
        event(
            "game_over",
            winner,
            {
                "game": game.number,
                "points": points,
                "result": result,
                "reason": reason,
                "cube": game.cube.value,
                "score": list(score),
            },
        )
    )
    games = (*state.games, outcome)
    over = opts.is_match and max(score) >= opts.match_length
    new_state = replace(
        state,
        score=(score[0], score[1]),
        games=games,
        ledger=tuple(ledger),
        balances=(balances[0], balances[1]) if balances is not None else None,
        game=game,
    )
    if over:
        events.append(event("match_over", winner, {"score": list(score)}))
        return replace(new_state, game=replace(game, phase="over", dice=None))
    return _next_game(new_state, outcome, events)


def _next_game(state: MatchState, last: GameOutcome, events: list[Event]) -> MatchState:
    opts = state.options
    number = last.number + 1
    crawford = False
    reached = state.crawford_reached
    if (
        opts.is_match
        and opts.crawford
        and not reached
        and max(state.score) == opts.match_length - 1
    ):
        crawford = reached = True
    if opts.first_move == "rolloff" or last.winner is None or last.starter is None:
        game = _opening_game(opts, number, crawford=crawford)
    else:
        # the previous game's loser or winner; else (alternate) the other of its starter
        ends = {"loser": 1 - last.winner, "winner": last.winner}
        starter = ends.get(opts.first_move or "", 1 - last.starter)
        game = GameState(
            number,
            "turn",
            Position.initial(opts.game_variant(number)),
            starter,
            CubeState(),
            crawford=crawford,
            starter=starter,
        )
    events.append(
        event(
            "game_started",
            game.starter,
            {
                "game": number,
                "crawford": crawford,
                "phase": game.phase,
                "variant": game.position.variant.name,
            },
        )
    )
    return replace(state, game=game, crawford_reached=reached)


# --------------------------------------------------------------------------- transitions


def apply(state: MatchState, action: Action) -> Transition:
    """Apply one action; raise (what :func:`~gammon.match.guards.guard` says) and change
    nothing if it is not allowed now."""
    if not isinstance(state, MatchState):
        raise IllegalActionError(f"expected a MatchState, got {type(state).__name__}")
    refusal = guard(state, action)
    if refusal is not None:
        raise refusal
    events: list[Event] = []
    new_state = _HANDLERS[type(action)](state, action, events)
    return Transition(replace(new_state, version=state.version + 1), tuple(events))


def _roll(state: MatchState, action: Action, events: list[Event]) -> MatchState:
    assert isinstance(action, Roll)
    g, opts = state.game, state.options
    seat = action.player
    dice = action.dice
    if g.phase == "opening":
        events.append(event("opening_roll", seat, {"dice": [dice.d1, dice.d2]}))
        if dice.d1 == dice.d2:
            cube = g.cube
            if (
                not opts.is_match
                and opts.cube
                and opts.automatic_doubles
                and cube.value < (1 << opts.automatic_doubles)
                and cube.value * 2 <= opts.cube_max
            ):
                cube = CubeState(cube.value * 2, None)
                events.append(event("automatic_double", None, {"cube": cube.value}))
            return replace(state, game=replace(g, cube=cube))
        starter = 0 if dice.d1 > dice.d2 else 1
        events.append(event("starts", starter, {"dice": [dice.high, dice.low]}))
        if opts.game_opening(g.number) == "reroll":
            # the table's opening rule (by default the variant's: tavli, acey-deucey,
            # jacquet, long nardy): the winner rolls both dice again
            game = replace(g, phase="turn", turn=starter, starter=starter, dice=None)
            return replace(state, game=game)
        game = replace(
            g, phase="moving", turn=starter, starter=starter, dice=Dice(dice.high, dice.low)
        )
        return _after_roll(replace(state, game=game), events)
    events.append(event("rolled", seat, {"dice": [dice.d1, dice.d2]}))
    return _after_roll(replace(state, game=replace(g, phase="moving", dice=dice)), events)


def _after_roll(state: MatchState, events: list[Event]) -> MatchState:
    """Pass at once when the roll cannot be played.  The turn's moves are listed once
    (``Position.plays``, kept): the mover's list, its clicks and its move read them again."""
    g = state.game
    assert g.dice is not None and g.turn is not None
    plays = g.position.plays(g.dice)
    if plays:  # not every play of acey-deucey's 1-2
        return state
    events.append(event("no_move", g.turn, {"dice": [g.dice.d1, g.dice.d2]}))
    return _after_move(state, g.position.apply(plays.pass_move()), events)


def _play(state: MatchState, action: Action, events: list[Event]) -> MatchState:
    assert isinstance(action, Play)
    g = state.game
    assert g.dice is not None
    move = g.position.parse_move(action.move, g.dice)  # raises IllegalMoveError & co.
    after = move.position_after()
    events.append(
        event(
            "moved",
            action.player,
            {
                "move": str(move),
                "dice": [g.dice.d1, g.dice.d2],
                "position_id": after.position_id(),
            },
        )
    )
    again = g.position.earns_bonus_roll(move)
    return _after_move(state, after, events, again=again)


def _after_move(
    state: MatchState, after: Position, events: list[Event], *, again: bool = False
) -> MatchState:
    """``after`` is seen from the opponent of the player who just moved.

    ``again``: the mover rolls again (acey-deucey's 1-2 with its double played).
    """
    g = state.game
    assert g.turn is not None
    mover = g.turn
    # the position is now seen from the other player, so ``turn`` passes to them too
    game = replace(g, position=after, turn=1 - mover, plies=g.plies + 1, dice=None)
    if g.last_roll:
        # the draw option's final roll has been played (rules.md D10)
        if after.opponent[0] == after.variant.checkers:
            events.append(event("draw", None, {"game": g.number}))
            return _finish(state, game, None, 0, 0, "draw", events)
        winner = 1 - mover
        result, points = _points(state, abandon_result(after, seat_view=False))
        return _finish(state, game, winner, result, points, "bear_off", events)
    if after.is_drawn():
        # plakoto: both mothers pinned
        events.append(event("draw", None, {"game": g.number}))
        return _finish(state, game, None, 0, 0, "draw", events)
    outcome = after.result()
    if outcome is None:
        if again:
            events.append(event("roll_again", mover, {"game": g.number}))
            return replace(
                state, game=replace(game, phase="turn", turn=mover, position=after.flipped())
            )
        return replace(state, game=replace(game, phase="turn"))
    # the mover has borne off every checker (or won by plakoto's mother rule)
    opts = state.options
    if opts.draw_last_roll and g.starter == mover and after.opponent[0] == after.variant.checkers:
        events.append(event("last_roll", 1 - mover, {"game": g.number}))
        return replace(state, game=replace(game, phase="turn", last_roll=True))
    result, points = _points(state, outcome.points)
    # ``after`` is seen from the mover's opponent: "opponent" is the mover
    winner = mover if outcome.winner == "opponent" else 1 - mover
    checkers = after.variant.checkers
    reason: EndReason = "bear_off" if checkers in (after.player[0], after.opponent[0]) else "mother"
    return _finish(state, game, winner, result, points, reason, events)


def _double(state: MatchState, action: Action, events: list[Event]) -> MatchState:
    g = state.game
    events.append(event("doubled", action.player, {"cube": g.cube.value * 2}))
    return replace(state, game=replace(g, phase="doubled", doubler=action.player))


def _take(state: MatchState, action: Action, events: list[Event]) -> MatchState:
    g = state.game
    assert g.turn is not None
    if g.phase == "doubled":
        cube = CubeState(g.cube.value * 2, action.player)
    else:  # beaver or raccoon taken: the value was raised when it was offered
        cube = g.cube
    events.append(event("took", action.player, {"cube": cube.value, "owner": cube.owner}))
    return replace(state, game=replace(g, phase="turn", cube=cube, doubler=None))


def _drop(state: MatchState, action: Action, events: list[Event]) -> MatchState:
    g = state.game
    winner = 1 - action.player
    # the game is worth the value before the last offer, always as a single (rules.md D3)
    if g.phase == "doubled":
        points = g.cube.value
    else:
        points = g.cube.value // 2
    events.append(event("dropped", action.player, {"points": points}))
    return _finish(state, replace(g, dice=None), winner, 1, points, "drop", events)


def _beaver(state: MatchState, action: Action, events: list[Event]) -> MatchState:
    g = state.game
    cube = CubeState(g.cube.value * 4, action.player)
    events.append(event("beavered", action.player, {"cube": cube.value}))
    return replace(state, game=replace(g, phase="beavered", cube=cube))


def _raccoon(state: MatchState, action: Action, events: list[Event]) -> MatchState:
    g = state.game
    cube = CubeState(g.cube.value * 2, g.cube.owner)
    events.append(event("raccooned", action.player, {"cube": cube.value}))
    return replace(state, game=replace(g, phase="raccooned", cube=cube))


def _resign(state: MatchState, action: Action, events: list[Event]) -> MatchState:
    assert isinstance(action, Resign)
    g = state.game
    events.append(event("resign_offered", action.player, {"level": action.level}))
    return replace(
        state,
        game=replace(
            g,
            phase="resigning",
            resign_level=action.level,
            resigned_by=action.player,
            resume=g.phase,
        ),
    )


def _accept_resign(state: MatchState, action: Action, events: list[Event]) -> MatchState:
    g = state.game
    winner = action.player
    result, points = _points(state, g.resign_level)
    events.append(
        event("resign_accepted", action.player, {"level": g.resign_level, "points": points})
    )
    return _finish(state, replace(g, dice=None), winner, result, points, "resign", events)


def _reject_resign(state: MatchState, action: Action, events: list[Event]) -> MatchState:
    g = state.game
    assert g.resume is not None and g.resigned_by is not None
    events.append(event("resign_rejected", action.player, {"level": g.resign_level}))
    rejected = list(g.rejected)
    rejected[g.resigned_by] = max(rejected[g.resigned_by], g.resign_level)
    return replace(
        state,
        game=replace(
            g,
            phase=g.resume,
            resign_level=0,
            resigned_by=None,
            resume=None,
            rejected=(rejected[0], rejected[1]),
        ),
    )


def _abandon(state: MatchState, action: Action, events: list[Event]) -> MatchState:
    g = state.game
    seat = action.player
    timeout = isinstance(action, Timeout)
    # scored from the last committed position (a Play is a whole turn, so the current one)
    own_view = g.turn is None or g.turn == seat
    level = abandon_result(g.position, seat_view=own_view)
    result, points = _points(state, level)
    reason: EndReason = "timeout" if timeout else "abandon"
    events.append(
        event("timeout" if timeout else "abandon", seat, {"level": level, "points": points})
    )
    return _finish(state, replace(g, dice=None), 1 - seat, result, points, reason, events)


_HANDLERS: Final = {
    Roll: _roll,
    Play: _play,
    Double: _double,
    Take: _take,
    Drop: _drop,
    Beaver: _beaver,
    Raccoon: _raccoon,
    Resign: _resign,
    AcceptResign: _accept_resign,
    RejectResign: _reject_resign,
    Abandon: _abandon,
    Timeout: _abandon,
}
