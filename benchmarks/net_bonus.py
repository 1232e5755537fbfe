"""The nets' acey-deucey 1-2: the CPU time of the staged search, and what it misses.

A 1-2 has up to 224,158 legal plays, so the nets choose it by the staged search of
``gammon.bots.nets.bonus`` (the best few boards after the 1 and the 2, then each double
step by step) instead of evaluating every play.  This benchmark takes the 1-2 of
positions met in random acey-deucey games (``--games``, all their distinct positions
whose 1 and 2 can both be played, up to ``--positions``) and the worst known position
(224,158 plays), and times one decision on each: the search and the move it plays
(``bonus_ranking`` then ``Position.move_to``), cold (the rules' caches emptied), in CPU
seconds.  With ``--exact N`` it also lists every play of the first N positions with at
most ``--limit`` plays, values them all with the net and prints how often the search's
play is the best one and the mean equity it gives up.

Run:  PYTHONPATH=src .venv/bin/python benchmarks/net_bonus.py [--net PATH] [--mids 4] \\
          [--width 4] [--games 40] [--positions 400] [--exact 100] [--limit 20000]

``--net`` is a weights file or checkpoint (default: the shipped acey-deucey net, else a
random one).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402 (after the thread settings)

from gammon import Position  # noqa: E402
from gammon.bots.nets.bonus import MIDS, WIDTH, bonus_plays, bonus_ranking  # noqa: E402
from gammon.bots.nets.bot import has_net, load_net, mover_outputs  # noqa: E402
from gammon.bots.nets.features import input_size  # noqa: E402
from gammon.bots.nets.net import Net, equity  # noqa: E402
from gammon.dice import Dice  # noqa: E402
from gammon.rules import track  # noqa: E402

ROLL = Dice(1, 2)
#: The 1-2 with the most legal plays known (224,158).
WORST = "AADqdR1AFVRLAg:w3.1"


def sample(games: int, count: int, seed: int) -> list[Position]:
    """Distinct positions of random games whose 1-2 is a lazy one, the worst one last."""
    rng = random.Random(seed)
    found: dict[str, Position] = {}
    for _ in range(games):
        position = Position.initial("acey-deucey")
        for _ in range(2000):
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            if bonus_plays(position, ROLL) is not None:
                found.setdefault(position.position_id(), position)
            if {dice.d1, dice.d2} == {1, 2}:
                move = position.first_legal_move(dice) or position.pass_move(dice)
            else:
                legal = position.legal_moves(dice)
                move = rng.choice(legal) if legal else position.pass_move(dice)
            again = position.earns_bonus_roll(move)
            after = position.apply(move)
            if after.result() is not None:
                break
            position = after.flipped() if again else after
    chosen = list(found.values())
    chosen = random.Random(seed + 1).sample(chosen, min(count, len(chosen)))
    return [*chosen, Position.from_position_id(WORST, "acey-deucey")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--net", help="weights file or checkpoint")
    parser.add_argument("--mids", type=int, default=MIDS)
    parser.add_argument("--width", type=int, default=WIDTH)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--exact", type=int, default=0, help="positions compared with all plays")
    parser.add_argument("--limit", type=int, default=20000, help="most plays listed for --exact")
    args = parser.parse_args()
    if args.net:
        net = Net.load(args.net)[0]
    elif has_net("acey-deucey"):
        net = load_net("acey-deucey")
    else:
        net = Net.initial(input_size("acey-deucey"), 40, seed=1)
    positions = sample(args.games, args.positions, args.seed)
    spent: list[float] = []
    for position in positions:
        track._bonus.cache_clear()
        track._all_plays.cache_clear()
        start = time.process_time()
        ranked = bonus_ranking(net, position, ROLL, mids=args.mids, width=args.width)
        assert ranked is not None
        position.move_to(ROLL, ranked.keys[0])
        spent.append(time.process_time() - start)
    ms = sorted(1000 * s for s in spent)
    print(
        f"{len(ms)} 1-2 decisions (mids {args.mids}, width {args.width}): CPU ms mean "
        f"{statistics.fmean(ms):.1f}, median {statistics.median(ms):.1f}, "
        f"95th percentile {ms[int(0.95 * (len(ms) - 1))]:.1f}, max {ms[-1]:.1f}; "
        f"the worst known position ({WORST}) {1000 * spent[-1]:.1f}"
    )
    if args.exact:
        exact(net, positions[:-1], args)


def exact(net: Net, positions: list[Position], args: argparse.Namespace) -> None:
    """How often the search plays the net's best play, and the equity it gives up."""
    same = compared = 0
    lost: list[float] = []
    for position in positions:
        lazy = bonus_plays(position, ROLL)
        assert lazy is not None
        if lazy.count(args.limit) > args.limit:
            continue
        moves = position.legal_moves(ROLL)
        values = equity(mover_outputs(net, position, moves)[3])
        ranked = bonus_ranking(net, position, ROLL, mids=args.mids, width=args.width)
        assert ranked is not None
        best = float(values.max())
        chosen = float(values[[m.key for m in moves].index(ranked.keys[0])])
        same += chosen >= best - 1e-12
        lost.append(best - chosen)
        compared += 1
        if compared == args.exact:
            break
    print(
        f"against every play ({compared} positions of at most {args.limit} plays): the best "
        f"play {same} times ({100 * same / max(compared, 1):.0f}%), equity given up mean "
        f"{np.mean(lost):.4f}, max {np.max(lost):.4f}"
    )


if __name__ == "__main__":
    main()
