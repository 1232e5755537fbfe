"""The bot as a seat of the match engine: one decision for any match state.

:func:`choose_action` answers whatever the engine asks of a seat, so the server
and the terminal can seat a bot like a person.  Rolls draw from the given dice
source (the server passes its verifiable dice).

>>> from gammon.match import TableOptions, new_match
>>> from gammon.match.fairdice import FixedDice
>>> state = new_match(TableOptions(match_length=3))
>>> choose_action(state, 0, "expert", dice=FixedDice(["31"]))  # doctest: +SKIP
Roll(player=0, dice=Dice(3, 1))
"""

from __future__ import annotations

import threading
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Final

from gammon.bots.bot import LEVELS, Bot, Level, level_within
from gammon.bots.equity import EquityModel, ScoreContext
from gammon.bots.variant_bot import VariantBot
from gammon.dice import Dice
from gammon.errors import IllegalActionError
from gammon.match.actions import (
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
)
from gammon.match.engine import abandon_result, allowed_actions, to_act
from gammon.match.fairdice import DiceSource, SystemDice
from gammon.match.state import MatchState
from gammon.move import Move
from gammon.position import Position

if TYPE_CHECKING:  # numpy, which the nets need, comes with the bot extra
    from gammon.bots.nets import NetBot

__all__ = ["SEATED_NETS", "bot_for_level", "choose_action", "score_context", "variant_bot"]

_LOCK = threading.Lock()

#: The variants whose shipped net plays the top levels: those measured stronger than the
#: hand-made bot (docs/bots.md, 1,000 games each at 1 ply, the 95% interval above 50%).
SEATED_NETS: Final = frozenset({"acey-deucey", "fevga", "jacquet", "long-nardy", "plakoto"})


@cache
def _bot(level: Level, seed: int) -> Bot:
    return Bot.with_bgsage(level, seed=seed)


def bot_for_level(level: str, seed: int = 0) -> Bot:
    """The shared bgsage bot of a level (built once per process)."""
    if level not in LEVELS:
        raise IllegalActionError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")
    with _LOCK:
        return _bot(level, seed)


def score_context(state: MatchState, seat: int) -> ScoreContext:
    """The cube, score and table options of ``state`` seen from ``seat``."""
    g, opts = state.game, state.options
    owner = g.cube.owner
    cube_owner = "centered" if owner is None else "me" if owner == seat else "opponent"
    common = {
        "cube_value": g.cube.value,
        "cube_owner": cube_owner,
        "cube_limit": opts.cube_limit if opts.cube else None,
        "cube_enabled": opts.cube and not g.last_roll,
        "max_result": opts.end_coefficient,
    }
    if not opts.is_match:
        return ScoreContext(
            jacoby=opts.jacoby,
            beaver=opts.beaver,
            stake=max(1, opts.stake),
            **common,  # type: ignore[arg-type]
        )
    n = opts.match_length
    return ScoreContext(
        match_length=n,
        away_me=n - state.score[seat],
        away_opp=n - state.score[1 - seat],
        crawford_game=g.crawford,
        post_crawford=state.post_crawford and opts.crawford,
        crawford_rule=opts.crawford,
        **common,  # type: ignore[arg-type]
    )


def _last_roll_move(position: Position, dice: Dice) -> Move:
    """The draw option's last roll: draw if possible, else lose as little as possible.

    The game ends after this roll, so no evaluation is needed: the result depends
    only on whether every checker gets off, and else on the loser's checkers
    (rules.md D10: judged after the roll).
    """
    n = position.variant.checkers

    def outcome(move: Move) -> tuple[bool, int]:
        after = move.position_after()
        return after.opponent[0] == n, -abandon_result(after, seat_view=False)

    return max(position.legal_moves(dice), key=outcome)


def variant_bot(level: str, variant: str) -> VariantBot | NetBot:
    """The bot of ``level`` for a variant bgsage cannot play.

    Where the variant's trained net (:mod:`gammon.bots.nets`) ships and is in
    :data:`SEATED_NETS`, ``grandmaster`` plays it at 2 plies (the filtered search of
    :class:`~gammon.bots.nets.NetBot`) and ``world-class`` at 1 ply; elsewhere both
    get the hand-made :class:`VariantBot` at 2 plies.  The other levels get the
    hand-made bot at 1 ply.

    >>> variant_bot("world-class", "fevga")
    NetBot(plies=1, width=3, nets={}, margin=0.1)
    >>> variant_bot("grandmaster", "long-nardy")
    NetBot(plies=2, width=3, nets={}, margin=0.1)
    >>> variant_bot("world-class", "acey-deucey")
    NetBot(plies=1, width=3, nets={}, margin=0.1)
    >>> variant_bot("expert", "fevga")
    VariantBot(plies=1, width=3, evaluator=HeuristicEvaluator())
    """
    if level not in ("world-class", "grandmaster"):
        return VariantBot(plies=1)
    try:
        from gammon.bots.nets import NetBot, has_net
    except ImportError:  # numpy comes with the bot extra
        return VariantBot(plies=2)
    if variant not in SEATED_NETS or not has_net(variant):
        return VariantBot(plies=2)
    return NetBot(plies=2) if level == "grandmaster" else NetBot()


def _variant_action(
    state: MatchState, seat: int, bot: VariantBot | NetBot, source: DiceSource
) -> Action:
    """A VariantBot's decision: no cube in these variants, so roll, move or answer."""
    g = state.game
    if g.phase in ("opening", "turn"):
        return Roll(seat, source.roll())
    if g.phase == "moving":
        assert g.dice is not None
        return Play(seat, str(bot.choose_move(g.position, g.dice)))
    if g.phase == "resigning":
        # accept the highest result the table can score, play on for less
        return (
            AcceptResign(seat)
            if g.resign_level >= state.options.end_coefficient
            else RejectResign(seat)
        )
    raise IllegalActionError(f"no decision for player {seat} in phase {g.phase}")


def choose_action(
    state: MatchState,
    seat: int,
    level: str = "expert",
    *,
    dice: DiceSource | None = None,
    bot: Bot | VariantBot | NetBot | None = None,
    time_left: float | None = None,
) -> Action:
    """The bot's action for ``seat`` in ``state`` at ``level``.

    ``time_left`` is how many seconds the table's clock leaves for this decision
    (None: no clock): a level that may need more plays this decision at a lower
    level (:func:`gammon.bots.bot.level_within`: grandmaster, then world-class,
    then expert).

    Variants that bgsage cannot evaluate (plakoto, fevga, long nardy, jacquet,
    acey-deucey: another board geometry) are played by :func:`variant_bot`: the trained
    net for ``world-class`` (1 ply) and ``grandmaster`` (2 plies) where one is seated
    (else the hand-made :class:`VariantBot` at 2 plies) and the hand-made bot at 1 ply
    otherwise, whatever ``bot`` is given (unless it is a VariantBot or a NetBot); the
    clock's fallback applies to them too.

    Raises :class:`IllegalActionError` when it is not ``seat``'s decision.
    """
    if seat not in to_act(state):
        raise IllegalActionError(f"it is not player {seat}'s decision (game {state.game.number})")
    variant = state.game.position.variant
    if level in LEVELS:
        level = level_within(level, time_left)
    if (bot is not None and not isinstance(bot, Bot)) or not variant.standard_geometry:
        if bot is None or isinstance(bot, Bot):
            bot = variant_bot(level, variant.name)
        return _variant_action(state, seat, bot, dice if dice is not None else SystemDice())
    player = bot if bot is not None else bot_for_level(level)
    source = dice if dice is not None else SystemDice()
    g = state.game
    allowed = allowed_actions(state)[seat]
    ctx = score_context(state, seat)
    if g.phase == "opening":
        return Roll(seat, source.roll())
    if g.phase == "turn":
        if "resign" in allowed:
            level_offered = player.resignation_offer(g.position, ctx)
            if level_offered is not None and level_offered > g.rejected[seat]:
                return Resign(seat, level_offered)
        if "double" in allowed and player.should_double(g.position, ctx):
            return Double(seat)
        return Roll(seat, source.roll())
    if g.phase == "moving":
        assert g.dice is not None
        if g.last_roll:
            return Play(seat, str(_last_roll_move(g.position, g.dice)))
        return Play(seat, str(player.choose_move(g.position, g.dice, ctx)))
    if g.phase == "doubled":
        # ``g.position`` has the doubler on roll; ``ctx`` still has the cube before the double
        answer = player.respond_to_double(g.position, ctx)
        if answer == "beaver" and "beaver" in allowed:
            return Beaver(seat)
        return Take(seat) if answer == "take" else Drop(seat)
    if g.phase == "beavered":
        # we doubled to 2v and were beavered to 4v: take, drop (paying 2v) or raccoon
        probs = player.evaluator.evaluate([g.position])[0]
        model = EquityModel(ctx, player.met)  # the cube shows 4v, owned by the opponent
        take = model.on_roll(probs)
        if take < model.value(-(g.cube.value // 2)):
            return Drop(seat)
        if "raccoon" in allowed:
            raccoon = EquityModel(replace(ctx, cube_value=g.cube.value * 2), player.met)
            if raccoon.on_roll(probs) > take:
                return Raccoon(seat)
        return Take(seat)
    if g.phase == "raccooned":
        # we beavered to 4v, the doubler raccooned to 8v: we keep the cube, the doubler is on roll
        probs = player.evaluator.evaluate([g.position])[0]
        model = EquityModel(ctx, player.met)
        keep = model.complement(EquityModel(ctx.flipped(), player.met).on_roll(probs))
        return Take(seat) if keep >= model.value(-(g.cube.value // 2)) else Drop(seat)
    if g.phase == "resigning":
        assert g.resigned_by is not None
        accept = player.accept_resignation(g.position, g.resign_level, ctx, bot_on_roll=False)
        return AcceptResign(seat) if accept else RejectResign(seat)
    raise IllegalActionError(f"no decision for player {seat} in phase {g.phase}")
