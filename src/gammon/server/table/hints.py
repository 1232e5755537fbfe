"""Hints at the web table (issue #18), as the terminal's ``hint``: the bot's best moves with
their equities, or its cube decision; in every variant (the trained net's equities where a
net ships, else the hand-made bot's score).

Only where a hint cannot decide a game that counts: in casual games and against the bot,
never at a staked table nor in a rated game (``TableOptions.rated``).  The server enforces
it (``hint_refused``); the bot's work runs off the event loop, on the bots' fair work queue
(``gammon.server.table.bots.BotRunner``) in the table's turn, with a few hints waiting per table
at most (past that, ``rate_limited``).

>>> from gammon.match import TableOptions
>>> hint_refusal(TableOptions(match_length=1, rated=True))
'no hints in a rated game'
>>> hint_refusal(TableOptions(match_length=1)) is None   # casual
True
>>> hint_refusal(TableOptions(stake=1, cube_limit=8))
'no hints at a staked table'
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Final

from gammon.dice import Dice
from gammon.match import MatchState, TableOptions
from gammon.position import Position
from gammon.server.protocol import ServerError
from gammon.server.table.bots import BotRunner
from gammon.server.table.state import TableState

__all__ = [
    "HINT_LEVEL",
    "HINT_MOVES",
    "compute_hint",
    "hint_for",
    "hint_in_worker",
    "hint_refusal",
]

#: The level whose equities a hint shows, and how many moves it lists.
HINT_LEVEL: Final = "expert"
HINT_MOVES: Final = 5


def hint_refusal(options: TableOptions) -> str | None:
    """Why a player at this table may not ask for hints, or None when they may (a game
    neither staked nor rated is casual, against the bot or between two people)."""
    if options.stake:
        return "no hints at a staked table"
    if options.rated:
        return "no hints in a rated game"
    return None


def compute_hint(match: MatchState, seat: int) -> dict[str, Any]:
    """The bot's advice for ``seat`` now (CPU-bound: run it off the event loop).

    ``{"kind": "moves", "moves": [{"move", "equity"}, ...], "engine", "measure"}`` (best
    first) while ``seat`` moves, ``{"kind": "cube", "action": ...}`` at the start of its
    turn or when doubled, where the table has a cube.  The engine is bgsage on the
    backgammon board (tavla, portes... included), the variant's trained net where one
    ships (:func:`gammon.bots.nets.has_net`: expected points per game, ``measure``
    ``"equity"``), else the hand-made variant bot, whose numbers are its own score, not
    equities (``measure`` ``"score"``).
    """
    from gammon.bots.seat import score_context

    g = match.game
    variant = g.position.variant
    ctx = score_context(match, seat)
    if g.phase == "moving" and g.turn == seat and g.dice is not None:
        if not variant.standard_geometry:
            return _variant_moves(g.position, g.dice)
        from gammon.bots.seat import bot_for_level

        ranked = bot_for_level(HINT_LEVEL).rank_moves(g.position, g.dice, ctx)[:HINT_MOVES]
        return {
            "kind": "moves",
            "engine": "bgsage",
            "measure": "equity",
            "moves": [{"move": str(r.move), "equity": round(r.equity, 3)} for r in ranked],
        }
    if g.phase in ("turn", "doubled") and ctx.cube_enabled and variant.standard_geometry:
        from gammon.bots.seat import bot_for_level

        decision = bot_for_level(HINT_LEVEL).cube_decision(g.position, ctx)
        return {"kind": "cube", "action": str(decision.action)}
    raise ServerError("illegal_action", "nothing to advise on now")


def _variant_moves(position: Position, dice: Dice) -> dict[str, Any]:
    """The best moves off the backgammon board: by the variant's net, else the hand-made bot."""
    from gammon.bots.advice import variant_advice

    advice = variant_advice(position, dice, HINT_MOVES)
    return {
        "kind": "moves",
        "engine": advice.engine,
        "measure": advice.measure,
        "moves": [{"move": str(move), "equity": round(value, 3)} for value, move in advice.moves],
    }


def hint_in_worker(match: MatchState, seat: int) -> dict[str, Any]:
    """:func:`compute_hint` in a worker (a process): a refusal comes back as
    ``{"error": [code, message]}``, since :class:`ServerError` does not cross processes."""
    try:
        return compute_hint(match, seat)
    except ServerError as exc:
        return {"error": [exc.code, str(exc)]}
    except ImportError:
        return {"error": ["not_available", "this server has no bot (extra 'bot')"]}


async def hint_for(
    state: TableState | None, seat: int | None, bots: BotRunner, key: Hashable
) -> dict[str, Any]:
    """The ``hint`` answer for a seat (refused with ``hint_refused`` where hints are off),
    computed on ``bots``' workers in table ``key``'s turn."""
    if state is None or state.match is None or state.status != "playing":
        raise ServerError("not_started", "no match is being played at this table")
    if seat is None:
        raise ServerError("not_seated", "you are not seated at this table")
    why = hint_refusal(state.options)
    if why is not None:
        raise ServerError("hint_refused", why)
    answer = await bots.run(key, hint_in_worker, state.match, seat)
    if "error" in answer:
        code, message = answer["error"]
        raise ServerError(str(code), str(message))
    return answer
