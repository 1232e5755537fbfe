"""Bots: evaluators, equity and cube theory, match equity tables, and the bot itself.

Only :class:`BgsageEvaluator` needs the optional ``bgsage`` engine (``pip install
'gammon[bot]'``); it imports it when an instance is created, so everything here
imports with the standard library alone.

>>> from gammon import Position
>>> from gammon.bots import Bot, PipCountEvaluator, ScoreContext
>>> bot = Bot(PipCountEvaluator())          # a weak test double; use Bot.with_bgsage()
>>> move = bot.choose_move(Position.initial(), (3, 1), ScoreContext())
>>> move in Position.initial().legal_moves((3, 1))
True
"""

from gammon.bots.bot import LEVELS, Bot, Level, RankedMove
from gammon.bots.equity import (
    DEFAULT_CUBE_LIFE,
    CubeAction,
    CubeDecision,
    CubeOwner,
    EquityModel,
    ScoreContext,
    cube_decision,
    cubeful_equity,
    cubeless_equity,
    equity_after_move,
    match_winning_chance,
    money_equity,
)
from gammon.bots.evaluator import (
    BgsageEvaluator,
    Evaluator,
    MoveEvaluator,
    PipCountEvaluator,
    Probabilities,
    terminal_probabilities,
)
from gammon.bots.met import MatchEquityTable, score_after_game
from gammon.bots.variant_bot import HeuristicEvaluator, VariantBot

__all__ = [
    "DEFAULT_CUBE_LIFE",
    "LEVELS",
    "BgsageEvaluator",
    "Bot",
    "CubeAction",
    "CubeDecision",
    "CubeOwner",
    "EquityModel",
    "Evaluator",
    "HeuristicEvaluator",
    "Level",
    "MatchEquityTable",
    "MoveEvaluator",
    "PipCountEvaluator",
    "Probabilities",
    "RankedMove",
    "ScoreContext",
    "VariantBot",
    "cube_decision",
    "cubeful_equity",
    "cubeless_equity",
    "equity_after_move",
    "match_winning_chance",
    "money_equity",
    "score_after_game",
    "terminal_probabilities",
]
