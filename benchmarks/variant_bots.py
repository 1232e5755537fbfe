"""Variant bots against each other or a player of random legal moves.

    .venv/bin/python benchmarks/variant_bots.py --games 200 [--variants fevga,plakoto] \
        [--bot heuristic|net] [--plies 1] [--opponent random|heuristic|net] \
        [--opponent-plies 1] [--width 3] [--margin 0.1] [--net VARIANT=PATH ...] [--workers 1]

``--bot`` is the bot measured: ``heuristic`` (gammon.bots.variant_bot.VariantBot, the
default) or ``net`` (gammon.bots.nets.NetBot with the shipped weights, or those of a
training checkpoint given by ``--net fevga=/tmp/fevga.ckpt.npz``); ``--opponent`` what
it plays against (``random`` legal moves by default).

For each variant, ``--games`` games (the bot takes seat 0 in even games and seat 1 in
odd ones, the dice come from one seeded generator per game, the same for every
variant).  Each game is played with the core API to the end (bear-off, or plakoto's
mother rule); the roll-off winner rolls again where the variant says so, and
acey-deucey's 1-2 keeps the turn.  Prints the bot's share of games won with a 95%
Wilson interval (a draw counts as half a win), its share of the points, and the
milliseconds per bot move (wall clock: the mean and the 95th percentile).  ``--width``
and ``--margin`` set the 2-ply search (the moves searched again; for the net, only
those within ``--margin`` equity of the best).  ``--workers`` plays the games in that many processes.

Measured on 2026-12-01 (the shared 2-core development machine, seed 20261201), the
heuristic bot against random moves:

    $ benchmarks/variant_bots.py --games 200 --variants tavla,...,jacquet   (1 ply)
    $ benchmarks/variant_bots.py --games 60 --variants acey-deucey          (1 ply)
    variant          won    95% interval  points  ms/move
    tavla          99.5%   97.2%- 99.9%   99.7%      0.3
    portes         98.5%   95.7%- 99.5%   99.2%      0.2
    plakoto        99.0%   96.4%- 99.7%   99.2%      2.7
    fevga          94.5%   90.4%- 96.9%   96.6%      2.6
    long-nardy     98.5%   95.7%- 99.5%   99.2%      2.3
    jacquet        95.0%   91.0%- 97.3%   97.1%      1.5

    (plakoto, fevga and jacquet measured again after their last rule changes: the
    bear-off with a pinned checker, fevga's starting quarter, jacquet's six in a row.)
    acey-deucey   100.0%   94.0%-100.0%  100.0%     19.6

    $ benchmarks/variant_bots.py --games 20 --plies 2 --variants fevga,plakoto,portes
    fevga 100.0% (83.9%-100.0%) 19.4 ms/move; plakoto 100.0% 26.2 ms; portes 100.0% 14.4 ms

acey-deucey is slow because a 1-2 roll has thousands of legal moves (the 1 and the 2,
then four steps of any double), which the random player generates too: 200 games take
tens of minutes, hence 60.

The nets against the heuristic bot, random moves and their own 2-ply search: see
docs/bots.md ("The variant nets").
"""

from __future__ import annotations

import argparse
import math
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from gammon import Dice, Position
from gammon.bots.nets.bot import NetBot
from gammon.bots.nets.net import Net
from gammon.bots.variant_bot import VariantBot
from gammon.move import Move

VARIANTS = ["tavla", "portes", "plakoto", "fevga", "long-nardy", "jacquet", "acey-deucey"]

Chooser = Callable[[Position, Dice, random.Random], Move]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def random_move(position: Position, dice: Dice, rng: random.Random) -> Move:
    legal = position.legal_moves(dice)
    return rng.choice(legal) if legal else position.pass_move(dice)


@dataclass(frozen=True)
class Player:
    """A player of the benchmark: ``random``, ``heuristic`` or ``net`` at some plies."""

    kind: str
    plies: int = 1
    nets: tuple[tuple[str, str], ...] = ()  # (variant, checkpoint path)
    width: int = 3
    margin: float = 0.1

    def chooser(self) -> Chooser:
        if self.kind == "random":
            return random_move
        if self.kind == "heuristic":
            bot: VariantBot | NetBot = VariantBot(plies=self.plies, width=self.width)
        else:
            nets = {v: Net.load(path)[0] for v, path in self.nets}
            bot = NetBot(plies=self.plies, width=self.width, nets=nets, margin=self.margin)
        return lambda position, dice, rng: bot.choose_move(position, dice)


def play(
    variant: str, players: tuple[Chooser, Chooser], bot_seat: int, seed: int
) -> tuple[int, int, list[float]]:
    """One game: (winner seat or -1 for a draw, points, the bot's seconds per move)."""
    rng = random.Random(seed)
    position = Position.initial(variant)
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            break
    turn = 0 if a > b else 1
    reroll = position.variant.opening == "reroll"
    dice = Dice(rng.randint(1, 6), rng.randint(1, 6)) if reroll else Dice(a, b)
    spent: list[float] = []
    for _ in range(20000):
        if turn == bot_seat:
            start = time.perf_counter()
            move = players[0](position, dice, rng)
            spent.append(time.perf_counter() - start)
        else:
            move = players[1](position, dice, rng)
        again = position.earns_bonus_roll(move)
        after = position.apply(move)
        if after.is_drawn():
            return -1, 0, spent
        result = after.result()
        if result is not None:
            winner = turn if result.winner == "opponent" else 1 - turn
            return winner, result.points, spent
        if again:
            position = after.flipped()
        else:
            position, turn = after, 1 - turn
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
    raise RuntimeError(f"{variant}: game {seed} did not end")


def _games(
    variant: str, bot: Player, opponent: Player, seeds: list[int]
) -> tuple[float, int, int, list[float]]:
    """Play the games of ``seeds`` (the bot's seat alternates with the seed)."""
    players = (bot.chooser(), opponent.chooser())
    wins = 0.0
    points_for = points_all = 0
    spent: list[float] = []
    for seed in seeds:
        seat = seed % 2
        winner, points, secs = play(variant, players, seat, seed)
        spent += secs
        points_all += points
        if winner == -1:
            wins += 0.5
        elif winner == seat:
            wins += 1
            points_for += points
    return wins, points_for, points_all, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--bot", choices=["heuristic", "net"], default="heuristic")
    parser.add_argument("--plies", type=int, default=1)
    parser.add_argument("--opponent", choices=["random", "heuristic", "net"], default="random")
    parser.add_argument("--opponent-plies", type=int, default=1)
    parser.add_argument("--width", type=int, default=3, help="2-ply: moves searched again")
    parser.add_argument("--margin", type=float, default=0.1, help="2-ply net: equity filter")
    parser.add_argument("--net", action="append", default=[], help="VARIANT=CHECKPOINT")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    nets = tuple(tuple(n.split("=", 1)) for n in args.net)
    bot = Player(args.bot, args.plies, nets, args.width, args.margin)  # type: ignore[arg-type]
    opponent = Player(args.opponent, args.opponent_plies, nets)  # type: ignore[arg-type]
    print(
        f"{args.bot} bot at {args.plies} ply vs {args.opponent}"
        + (f" at {args.opponent_plies} ply" if args.opponent != "random" else "")
        + f", {args.games} games each"
    )
    print(f"{'variant':12} {'won':>7} {'95% interval':>15} {'points':>7} {'ms/move':>8} {'p95':>6}")
    workers = max(1, args.workers)
    for variant in args.variants.split(","):
        seeds = [args.seed + g for g in range(args.games)]
        # seed parity sets the seat: keep each worker's share of both seats even
        parts = [seeds[i::workers] for i in range(workers)]
        if workers == 1:
            totals = [_games(variant, bot, opponent, seeds)]
        else:
            with ProcessPoolExecutor(workers) as pool:
                jobs = [pool.submit(_games, variant, bot, opponent, p) for p in parts]
                totals = [job.result() for job in jobs]
        wins = sum(t[0] for t in totals)
        points_for = sum(t[1] for t in totals)
        points_all = sum(t[2] for t in totals)
        spent = sorted(s for t in totals for s in t[3])
        low, high = wilson(wins, args.games)
        share = points_for / points_all if points_all else 0.0
        ms = 1000 * sum(spent) / max(len(spent), 1)
        p95 = 1000 * spent[min(len(spent) - 1, int(0.95 * len(spent)))] if spent else 0.0
        print(
            f"{variant:12} {wins / args.games:7.1%} {low:7.1%}-{high:6.1%} {share:7.1%} {ms:8.1f}"
            f" {p95:6.1f}",
            flush=True,
        )


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    main()
