"""Make the recorded matches the analysis tests replay: bot against bot at the beginner level
(the fastest), with a fixed seed so that the files are reproducible.

    PYTHONPATH=src python tests/data/analysis/make_matches.py [FILE...]

writes ``standard-7.jsonl`` (a 7-point match: the analysis board's browser test and its first
paint), ``tavla-3.jsonl``, ``portes-3.jsonl`` (board variants bgsage judges) and
``plakoto-1.jsonl`` (a track variant: the plakoto net judges it) and ``tavli-3.jsonl``
(portes, plakoto and fevga in turn: bgsage and the nets, game by game), ``jacquet-1.jsonl``
(jacquet's net judges it) and ``acey-deucey-1.jsonl`` (no net ships for acey-deucey: no
analyser).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from gammon.bots.seat import choose_action
from gammon.dice import Dice
from gammon.match import Match, TableOptions, to_act
from gammon.match.record import write_log

HERE = Path(__file__).parent

#: (file, variant, match length, seed)
MATCHES = (
    ("standard-7.jsonl", "standard", 7, 7),
    ("tavla-3.jsonl", "tavla", 3, 3),
    ("portes-3.jsonl", "portes", 3, 3),
    ("plakoto-1.jsonl", "plakoto", 1, 1),
    ("tavli-3.jsonl", "tavli", 3, 6),
    ("jacquet-1.jsonl", "jacquet", 1, 1),
    ("acey-deucey-1.jsonl", "acey-deucey", 1, 1),
)


class _Dice:
    """Seeded dice for the bots (a DiceSource)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def roll(self) -> Dice:
        return Dice(self.rng.randint(1, 6), self.rng.randint(1, 6))


def play(variant: str, length: int, seed: int) -> Match:
    """A whole match of the beginner bot against itself."""
    options = TableOptions(variant=variant, match_length=length, cube=variant == "standard")
    match = Match(options, players=("Ann", "Bob"))
    dice = _Dice(seed)
    while not match.state.over:
        seat = to_act(match.state)[0]
        match.push(choose_action(match.state, seat, "beginner", dice=dice))
    return match


def main() -> None:
    only = set(sys.argv[1:])  # file names: only those
    for name, variant, length, seed in MATCHES:
        if only and name not in only:
            continue
        (HERE / name).write_text(write_log(play(variant, length, seed).record()), encoding="utf-8")


if __name__ == "__main__":
    main()
