"""The gnubg ID (``PositionID:MatchID``) and the full XGID of a match state.

Seats are numbered as gnubg numbers its players: seat 0 is gnubg's player 0 (the
top player of an XGID), seat 1 is player 1 (the bottom player).

>>> from gammon.dice import Dice
>>> from gammon.match import Roll, TableOptions, new_match, apply
>>> state = apply(new_match(TableOptions(match_length=7)), Roll(0, Dice(2, 5))).state
>>> gnubg_id(state)
'4HPwATDgc/ABMA:cInqAAAAAAAE'
>>> xgid(state)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10'
"""

from __future__ import annotations

from gammon.match.engine import to_act
from gammon.match.state import MatchState
from gammon.notation.matchid import MatchIDRecord, format_gnubg_id
from gammon.notation.xgid import format_xgid

__all__ = ["gnubg_id", "match_id_record", "xgid"]


def match_id_record(state: MatchState) -> MatchIDRecord:
    """The gnubg Match ID fields of a state."""
    g, opts = state.game, state.options
    on_roll = g.turn if g.turn is not None else 0
    acting = to_act(state)
    if g.phase == "over":
        game_state = 2
    elif g.phase == "opening":
        game_state = 0
    else:
        game_state = 1
    return MatchIDRecord(
        cube_value=g.cube.value,
        cube_owner=g.cube.owner,
        player_on_roll=on_roll,
        crawford=g.crawford,
        game_state=game_state,
        turn=acting[0] if len(acting) == 1 else on_roll,
        double_offered=g.phase in ("doubled", "beavered", "raccooned"),
        resignation=g.resign_level if g.phase == "resigning" else 0,
        dice=(g.dice.d1, g.dice.d2) if g.dice is not None else None,
        match_length=opts.match_length,
        score=state.score,
        jacoby=opts.jacoby,
    )


def gnubg_id(state: MatchState) -> str:
    """gnubg's ``PositionID:MatchID`` for a state (the position seen from the player on roll)."""
    return format_gnubg_id(state.game.position, match_id_record(state))


def xgid(state: MatchState) -> str:
    """The full XGID of a state: position, cube, owner, turn, dice, score, length, Crawford."""
    g, opts = state.game, state.options
    turn = 1 if (g.turn if g.turn is not None else 1) == 1 else -1
    if g.phase == "doubled":
        dice = "D"
    elif g.phase == "beavered":
        dice = "B"
    elif g.phase == "raccooned":
        dice = "R"
    elif g.dice is not None:
        dice = f"{g.dice.d1}{g.dice.d2}"
    else:
        dice = "00"
    if opts.is_match:
        rules = 1 if g.crawford else 0
    else:
        rules = (1 if opts.jacoby else 0) | (2 if opts.beaver else 0)
    owner = {None: 0, 1: 1, 0: -1}[g.cube.owner]
    return format_xgid(
        g.position,
        turn=turn,
        cube_value=g.cube.value,
        cube_owner=owner,
        dice=dice,
        score_bottom=state.score[1],
        score_top=state.score[0],
        rules=rules,
        match_length=opts.match_length,
        max_cube=opts.cube_limit if opts.cube_limit is not None else 1024,
    )
