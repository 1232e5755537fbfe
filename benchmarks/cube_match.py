"""gammon's cube decisions against gnubg-nn's match cube decisions, in 7-point matches.

    .venv/bin/python benchmarks/cube_match.py --level world-class --gnubg-plies 0 --pairs 200 \\
        --append benchmarks/results/cube-match-world-class-gnubg0-seed31.json

Only the cube differs: both sides play their checkers with the same bot
(``--checker-level``, expert by default), and each takes its cube decisions
(double or not, take or pass) its own way:

* gammon: ``Bot.with_bgsage(--level)``: ``should_double`` and ``respond_to_double``
  in gammon's match cube model (Kazaross-XG2 table, Janowski cube life);
* gnubg-nn: ``gnubg_nn.evaluate_cube_decision`` at ``--gnubg-plies`` (gnubg's
  count: 0 = its raw networks, 2 = XG's 3-ply).  Its money play is "not
  implemented"; in a match the score and cube are set first with
  ``gnubg_nn.set.score(my_away, their_away, crawford)`` and
  ``gnubg_nn.set.cube(value, owner)``, then ``evaluate_cube_decision(key, n, -1,
  b"O", 1)`` on the 20-letter position key (gnubg's board ``[not on roll, on
  roll]``) returns ``(double, take, _, mwc no double, mwc double/take, mwc
  double/pass)`` for the side on roll.  Found by trying: the side on roll of such a
  key is ``b"O"`` (with ``b"X"`` the answers are the other side's), the owner is
  ``b"O"`` (the side on roll), ``b"X"`` (the other) or ``b" "`` (centred), and the
  arguments must be bytes.  Checked on a won race (double, pass from the side
  on roll, pass-equity 0.558 = the 7-point table's value of 6-away 7-away)
  and the opening (no double, take).

Each *pair* plays one dice sequence twice with the sides swapped; the figure is
gammon's match winning chance, the mean over pairs of the share of the pair's
two matches gammon won, with a normal 95% interval (the pairs are independent).
No luck adjustment: a match is won or lost, so this needs many pairs.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import multiprocessing
import os
import random
import sys
import time
from typing import Any

import gnubg_nn  # type: ignore[import-untyped]  # GPL: benchmark opponent only

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gammon.bots.bot import LEVELS, Bot, Level
from gammon.bots.equity import ScoreContext
from gammon.bots.seat import score_context
from gammon.match import Double, Drop, MatchState, Play, Roll, TableOptions, Take
from gammon.match.engine import allowed_actions, apply, new_match
from gammon.position import Position
from pair_summary import replace_block  # a sibling module of this script

MATCH_LENGTH = 7


def gnubg_cube(position: Position, ctx: ScoreContext, plies: int) -> tuple[bool, bool]:
    """gnubg-nn's (double, take) for the side on roll of ``position`` (``ctx`` theirs)."""
    mover = [max(position.board[i + 1], 0) for i in range(24)] + [position.board[25]]
    opp = [max(-position.board[24 - j], 0) for j in range(24)] + [position.board[0]]
    key = gnubg_nn.key_of_board([opp, mover])
    gnubg_nn.set.score(ctx.away_me, ctx.away_opp, 1 if ctx.crawford_game else 0)
    owner = {"centered": b" ", "me": b"O", "opponent": b"X"}[ctx.cube_owner]
    gnubg_nn.set.cube(ctx.cube_value, owner)
    verdict = gnubg_nn.evaluate_cube_decision(key, plies, -1, b"O", 1)
    return bool(verdict[0]), bool(verdict[1])


_WORKER: dict[str, Any] = {}


def _init(level: Level, checker_level: Level, plies: int) -> None:
    _WORKER["cube"] = Bot.with_bgsage(level, threads=1)
    _WORKER["checker"] = Bot.with_bgsage(checker_level, threads=1)
    _WORKER["plies"] = plies


def play_match(gammon_seat: int, dice_seed: int) -> tuple[int, float, int]:
    """One 7-point match: (1 if gammon won, ms per gammon cube decision, decisions)."""
    cube_bot: Bot = _WORKER["cube"]
    checker: Bot = _WORKER["checker"]
    plies: int = _WORKER["plies"]
    rng = random.Random(dice_seed)
    state: MatchState = new_match(TableOptions(match_length=MATCH_LENGTH))
    spent, decisions = 0.0, 0
    while not state.over:
        g = state.game
        if g.phase == "opening":
            state = apply(state, Roll(0, _roll(rng))).state
            continue
        assert g.turn is not None
        seat = g.turn if g.phase != "doubled" else 1 - g.turn
        ctx = score_context(state, seat)
        ours = seat == gammon_seat
        action: Any
        if g.phase == "turn":
            double = False
            if "double" in allowed_actions(state).get(seat, ()):
                start = time.perf_counter()
                if ours:
                    double = cube_bot.should_double(g.position, ctx)
                    spent, decisions = spent + time.perf_counter() - start, decisions + 1
                else:
                    double = gnubg_cube(g.position, ctx, plies)[0]
            action = Double(seat) if double else Roll(seat, _roll(rng))
        elif g.phase == "moving":
            assert g.dice is not None
            action = Play(seat, str(checker.choose_move(g.position, g.dice, ctx)))
        elif g.phase == "doubled":
            start = time.perf_counter()
            if ours:
                take = cube_bot.respond_to_double(g.position, ctx) != "drop"
                spent, decisions = spent + time.perf_counter() - start, decisions + 1
            else:  # the doubler is on roll: gnubg judges from the doubler's side
                take = gnubg_cube(g.position, ctx.flipped(), plies)[1]
            action = Take(seat) if take else Drop(seat)
        else:  # pragma: no cover - no beavers or resignations in this match
            raise RuntimeError(f"unexpected phase {g.phase}")
        state = apply(state, action).state
    won = 1 if state.winner == gammon_seat else 0
    return won, 1000 * spent / max(1, decisions), decisions


def _roll(rng: random.Random) -> Any:
    from gammon.dice import Dice

    return Dice(rng.randint(1, 6), rng.randint(1, 6))


def play_pair(task: tuple[int, int]) -> tuple[int, list[tuple[int, float, int]]]:
    seed, pair = task
    return pair, [play_match(seat, seed * 1_000_003 + pair) for seat in (0, 1)]


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and normal 95% interval.

    >>> interval([1.0, 0.0, 0.5, 0.5])
    (0.5, 0.099917, 0.900083)
    """
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return round(mean, 6), round(mean - half, 6), round(mean + half, 6)


#: The saved runs the cube table is built from.
CUBE_GLOB = "benchmarks/results/cube-match-*.json"


def cube_rows(runs: list[dict[str, Any]]) -> list[str]:
    """The cube-match table in markdown, one row per saved run.

    >>> run = {"level": "world-class", "checker_level": "expert", "gnubg_plies": 2, "seed": 3,
    ...        "mwc": [0.52, 0.45, 0.59], "ms_per_cube_decision": 30.0, "loads": [[9.0, 8, 7]],
    ...        "pairs": {"0": [], "1": []}}
    >>> print(cube_rows([run])[2])
    | world-class | gnubg-nn 2-ply | expert | 3 | 2 | 52.0% [45.0%, 59.0%] | 30.0 | 9.0 |
    """
    rows = [
        "| gammon's cube | gnubg-nn's match cube | checker play (both) | seed | pairs "
        "| gammon's match winning chance [95% CI] | ms per gammon cube decision | load |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        mean, low, high = r["mwc"]
        low, high = max(0.0, low), min(1.0, high)  # a chance: the normal interval clipped
        loads = ", ".join(f"{load[0]:.1f}" for load in r["loads"][-3:])
        rows.append(
            f"| {r['level']} | gnubg-nn {r['gnubg_plies']}-ply | {r['checker_level']} "
            f"| {r['seed']} | {len(r['pairs'])} "
            f"| {100 * mean:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%] "
            f"| {r['ms_per_cube_decision']} | {loads} |"
        )
    return rows


def write_table(page: str) -> None:
    """Write the cube-match table of every saved run into ``page`` (docs/bots.md)."""
    runs = []
    for path in sorted(glob.glob(CUBE_GLOB)):
        with open(path, encoding="utf-8") as handle:
            runs.append(json.load(handle))
    replace_block(page, "cube match table", cube_rows(runs))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", choices=LEVELS, default="world-class")
    parser.add_argument("--checker-level", choices=LEVELS, default="expert")
    parser.add_argument("--gnubg-plies", type=int, choices=(0, 1, 2), default=0)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS")
    parser.add_argument("--append", metavar="JSON", help="continue and save the run in JSON")
    parser.add_argument("--table", metavar="MARKDOWN", help="play nothing: write the cube table")
    args = parser.parse_args(argv)
    if args.table:
        write_table(args.table)
        return 0
    saved: dict[str, Any] = {}
    if args.append and os.path.exists(args.append):
        with open(args.append, encoding="utf-8") as handle:
            saved = json.load(handle)
        args.level, args.checker_level = saved["level"], saved["checker_level"]
        args.gnubg_plies, args.seed = saved["gnubg_plies"], saved["seed"]
    pairs: dict[str, list[Any]] = saved.get("pairs", {})
    first = max((int(k) for k in pairs), default=-1) + 1
    start = time.perf_counter()
    tasks = [(args.seed, i) for i in range(first, first + args.pairs)]
    loads: list[list[float]] = saved.get("loads", [])

    def save() -> dict[str, Any]:
        shares = [sum(m[0] for m in v) / 2 for v in pairs.values()]
        ms = [m[1] for v in pairs.values() for m in v]
        data = {
            "level": args.level,
            "checker_level": args.checker_level,
            "gnubg_plies": args.gnubg_plies,
            "seed": args.seed,
            "match_length": MATCH_LENGTH,
            "mwc": interval(shares) if shares else None,
            "ms_per_cube_decision": round(sum(ms) / len(ms), 2) if ms else None,
            "loads": [*loads, [round(x, 2) for x in os.getloadavg()]],
            "pairs": pairs,
        }
        if args.append:
            with open(args.append, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=1)
        return data

    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.workers, _init, (args.level, args.checker_level, args.gnubg_plies)) as pool:
        for number, matches in pool.imap_unordered(play_pair, tasks):
            pairs[str(number)] = matches
            data = save()  # every pair: a slow run loses nothing when stopped
            if len(pairs) % 5 == 0:
                print(f"\r{len(pairs)} pairs, mwc {data['mwc']}", end="", file=sys.stderr)
            if args.time_limit is not None and time.perf_counter() - start > args.time_limit:
                pool.terminate()
                break
    data = save()
    print(
        f"\ngammon {args.level} cube vs gnubg-nn {args.gnubg_plies}-ply match cube, "
        f"{len(pairs)} pairs of {MATCH_LENGTH}-point matches: gammon's MWC {data['mwc']}, "
        f"{data['ms_per_cube_decision']} ms per gammon cube decision, load {data['loads'][-1]}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
