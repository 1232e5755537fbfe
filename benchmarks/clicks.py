"""Clicks a move with the game page's one-click rule, counted offline over bot games.

    .venv/bin/python benchmarks/clicks.py [--games 60] [--seed 1]

Plays ``--games`` money games between two bgsage "intermediate" bots (gammon[bot]) and writes
every turn's position, roll and legal moves as the server sends them to the mover
(``list_moves``), then runs ``benchmarks/clicks.mjs`` in Node over them: the page's own
``firstclick.js`` and ``movebuilder.js``, played by a player who clicks the lowest point that
can move (as ``tests/e2e/test_clicks.py``'s player does). It prints the clicks a move with one
click per die (the reference) and with the clicked point's share of the better move (what the
page does), and their ratio. The browser test measures the same in whole matches; this count
is steadier (thousands of turns) and takes seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from gammon import Position
from gammon.bots import Bot, ScoreContext
from gammon.server.table.views import list_moves

ROOT = Path(__file__).resolve().parents[1]


def write_turns(path: Path, games: int, seed: int) -> int:
    """Every turn of ``games`` bot games (moves listed in full) as JSON lines; how many."""
    rng = random.Random(seed)
    bot = Bot.with_bgsage("intermediate", seed=seed)
    ctx = ScoreContext()  # money
    count = 0
    with path.open("w") as out:
        for _ in range(games):
            pos = Position.initial()
            while not pos.is_game_over():
                dice = (rng.randint(1, 6), rng.randint(1, 6))
                if not pos.legal_moves(dice):
                    pos = pos.apply(pos.pass_move(dice))
                    continue
                listed = list_moves(pos, dice)
                if not listed["moves_omitted"]:
                    turn = {
                        "dice": list(dice),
                        "mine": list(pos.player),
                        "theirs": list(pos.opponent),
                        "moves": listed["moves"],
                    }
                    out.write(json.dumps(turn) + "\n")
                    count += 1
                pos = pos.apply(bot.choose_move(pos, dice, ctx))
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="bot games played (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="dice and bot seed (default 1)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        turns = Path(tmp) / "turns.jsonl"
        count = write_turns(turns, args.games, args.seed)
        print(f"{count} turns from {args.games} games (seed {args.seed})")
        sys.stdout.flush()
        script = ROOT / "benchmarks" / "clicks.mjs"
        done = subprocess.run(["node", str(script), str(turns)], check=False)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
