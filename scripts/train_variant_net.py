#!/usr/bin/env python3
"""Train a variant net by TD(λ) self-play (gammon.bots.nets.td), in parts.

    scripts/train_variant_net.py --variant plakoto --games 20000 --seed 1 \\
        --out /tmp/plakoto.ckpt.npz [--resume] [--every 500] [--ship] [--keep] \\
        [--hidden 40] [--alpha 0.1] [--alpha-half 10000] [--lam 0.7] [--epsilon 0.01] \\
        [--init src/gammon/bots/nets/data/plakoto.npz --init-games 8000]

``--games`` is the total to reach: with ``--resume`` the run continues from the
checkpoint ``--out`` (its settings win over the command line's).  A checkpoint is
written every ``--every`` games and at the end (``--keep`` keeps each one as
``<out>.<games>.npz`` too, to pick the strongest); ``--init`` starts a new run from
the weights of a net file (the shipped one, say) instead of random ones, counting
``--init-games`` games already played (for the learning rate), widened to ``--hidden``
units when it has fewer (the new units start with no effect); ``--ship`` also writes the weights
(float32, no training state) to src/gammon/bots/nets/data/<variant>.npz, the file
the package loads.  Logs games, games per second and moves per game.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

# one thread of BLAS: the net's products are small, and a second thread only spins (a
# run at 4 games per CPU second instead of 13 with two runs sharing the 2 cores)
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from gammon.bots.nets.net import Net  # noqa: E402 (numpy reads the settings above)
from gammon.bots.nets.td import TrainConfig, Trainer  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "src/gammon/bots/nets/data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--games", type=int, required=True, help="total games to reach")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, help="the checkpoint file")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--every", type=int, default=500, help="checkpoint every N games")
    parser.add_argument("--hidden", type=int, default=40)
    parser.add_argument("--alpha", type=float, default=0.1)
    parser.add_argument("--alpha-half", type=float, default=10000.0, help="games to halve alpha")
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--epsilon", type=float, default=0.01)
    parser.add_argument("--init", type=Path, help="start from this net file's weights")
    parser.add_argument("--init-games", type=int, default=0, help="games behind --init")
    parser.add_argument("--ship", action="store_true", help="also write the package's data file")
    parser.add_argument(
        "--keep", action="store_true", help="also keep each checkpoint as OUT.<games>.npz"
    )
    args = parser.parse_args()
    if args.resume:
        trainer = Trainer.resume(args.out)
        print(f"resumed {args.out} at game {trainer.games}: {trainer.config}", flush=True)
    else:
        config = TrainConfig(
            args.variant,
            hidden=args.hidden,
            seed=args.seed,
            lam=args.lam,
            alpha=args.alpha,
            alpha_half=args.alpha_half,
            epsilon=args.epsilon,
        )
        trainer = Trainer.new(config)
        if args.init is not None:
            trainer = trainer.from_weights(Net.load(args.init)[0], args.init_games)
        print(f"new run: {config} from {args.init or 'random weights'}", flush=True)
    start = last = time.process_time()
    wall = time.perf_counter()
    moves = 0
    done = 0
    while trainer.games < args.games:
        moves += trainer.play_game()
        done += 1
        if trainer.games % args.every == 0 or trainer.games == args.games:
            trainer.save(args.out)
            if args.keep:
                trainer.save(args.out.with_suffix(f".{trainer.games}.npz"))
            if args.ship:
                trainer.export(DATA / f"{trainer.config.variant}.npz")
            now = time.process_time()
            print(
                f"games {trainer.games} cpu {now - start:.0f}s "
                f"({done / max(now - last, 1e-9):.2f} games/cpu-s, "
                f"{done / max(time.perf_counter() - wall, 1e-9):.2f} games/s wall) "
                f"moves/game {moves / done:.1f} alpha {trainer.config.rate(trainer.games):.4f}",
                flush=True,
            )
            last, wall, moves, done = now, time.perf_counter(), 0, 0


if __name__ == "__main__":
    main()
