"""The fair-play check (``gammon.bots.fairplay``, docs/fairplay.md) on simulated accounts:
its false-positive rate on honest play and its detection rate on accounts that play the
analyser's move for a fraction of their decisions.

    .venv/bin/python benchmarks/fairplay.py                      # small: a few minutes
    .venv/bin/python benchmarks/fairplay.py --accounts 24 --test 8 --raw /tmp/fp.json

Every account is a bgsage bot of its own (a level, a noise seed of its own).  Accounts
are paired at random in rounds; each round every account plays one rated match
(``--length`` points, cube on), which is then analysed as the site analyses it
(``Analyzer("expert")``, the real analysis, 1-ply) and checked for each seat against
that account's earlier checks, exactly as the server does (the rows it would store: the
flagged ones are left out of the baseline).

* **Honest accounts** at ``--levels`` (default beginner, intermediate and expert:
  "expert" plays the analyser's own level, so it agrees with the analysis on nearly every
  decision: honest bot-level play).  Their false-positive rate is the share of checks
  flagged in the test rounds (after ``--history`` rounds of history).
* **Cheaters**: accounts of ``--cheat-base`` level that play their own game for the
  history rounds, then use the analyser's choice (the expert bot's, noise-free) for a
  fraction *f* of their decisions (``--fractions``, drawn per decision with a seeded
  generator).  Detection is the share of cheaters flagged in their first cheating match,
  and within their first five.

The reference is random flagging at the same false-positive rate: it flags a match with
probability FP, so it "detects" a cheater within one match with probability FP and within
five with ``1 - (1 - FP)^5``.  ``--raw`` keeps the analysed decisions (so the statistic
can be scored again with ``--from-raw`` without playing); the table is printed and, with
``--out``, written to a file (``benchmarks/results/fairplay.txt``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from gammon.bots.fairplay import (
    DEFAULT_PARAMS,
    FairPlayParams,
    SeatDecisions,
    check_against,
    seat_decisions,
)

if TYPE_CHECKING:
    from gammon.bots.bot import Level

#: Per worker process: the shared 1-ply evaluator, the analyser and the bots.
_WORKER: dict[str, Any] = {}


@dataclass(frozen=True, slots=True)
class Account:
    """A simulated account: its level, noise seed and, for a cheater, its fraction."""

    name: str
    level: str
    seed: int
    fraction: float = 0.0  # the share of decisions taken from the analyser once cheating


def _init() -> None:
    from gammon.bots.analysis import Analyzer
    from gammon.bots.bot import Bot
    from gammon.bots.evaluator import BgsageEvaluator

    evaluator = BgsageEvaluator(1, threads=1)
    _WORKER["evaluator"] = evaluator
    _WORKER["analyser_bot"] = Bot(evaluator, "expert")
    _WORKER["analyzer"] = Analyzer("expert", threads=1)


def _bot(level: str, seed: int) -> Any:
    from gammon.bots.bot import Bot

    key = f"bot {level} {seed}"
    bot = _WORKER.get(key)
    if bot is None:
        bot = _WORKER[key] = Bot(_WORKER["evaluator"], cast("Level", level), seed=seed)
    return bot


def play_and_analyse(
    task: tuple[int, tuple[tuple[str, int, float], tuple[str, int, float]], int, int],
) -> tuple[int, list[tuple[list[float], int]]]:
    """One rated match between two seats ``(level, seed, fraction)`` on dice ``dice_seed``,
    analysed at the expert level: each seat's per-decision errors and agreements."""
    from gammon.bots.seat import score_context
    from gammon.dice import Dice
    from gammon.match import Double, Drop, Match, Play, Roll, TableOptions, Take
    from gammon.match.engine import allowed_actions

    number, seats, dice_seed, length = task
    rng = random.Random(dice_seed)
    cheat = [random.Random(dice_seed * 7919 + s) for s in (0, 1)]
    bots = [_bot(level, seed) for level, seed, _ in seats]
    oracle = _WORKER["analyser_bot"]
    match = Match(TableOptions(match_length=length))

    def who(seat: int) -> Any:
        fraction = seats[seat][2]
        return oracle if fraction and cheat[seat].random() < fraction else bots[seat]

    while not match.state.over:
        state = match.state
        g = state.game
        if g.phase == "opening":
            match.push(Roll(0, Dice(rng.randint(1, 6), rng.randint(1, 6))))
            continue
        assert g.turn is not None
        seat = g.turn if g.phase != "doubled" else 1 - g.turn
        ctx = score_context(state, seat)
        action: Roll | Double | Play | Take | Drop
        if g.phase == "turn":
            may = "double" in allowed_actions(state).get(seat, ())
            if may and who(seat).should_double(g.position, ctx):
                action = Double(seat)
            else:
                action = Roll(seat, Dice(rng.randint(1, 6), rng.randint(1, 6)))
        elif g.phase == "moving":
            assert g.dice is not None
            moves = g.position.legal_moves(g.dice)
            move = moves[0] if len(moves) == 1 else who(seat).choose_move(g.position, g.dice, ctx)
            action = Play(seat, str(move))
        elif g.phase == "doubled":
            answer = who(seat).respond_to_double(g.position, ctx)
            action = Drop(seat) if answer == "drop" else Take(seat)
        else:  # pragma: no cover - no resignations here
            raise RuntimeError(f"unexpected phase {g.phase}")
        match.push(action)
    analysis = _WORKER["analyzer"].analyse(match.record())
    out = []
    for seat in (0, 1):
        d = seat_decisions(analysis, seat)
        out.append((list(d.errors), d.agreed))
    return number, out


def schedule(
    accounts: Sequence[Account], rounds: int, history: int, seed: int, length: int
) -> tuple[list[tuple[int, int, int]], list[Any]]:
    """The ``(round, account, account)`` pairs and the matches' tasks: in each round the accounts are shuffled and paired (an odd one out
    sits the round out); a cheater cheats from round ``history`` on."""
    rng = random.Random(seed)
    tasks = []
    pairs: list[tuple[int, int, int]] = []
    for r in range(rounds):
        order = list(range(len(accounts)))
        rng.shuffle(order)
        for i in range(0, len(order) - 1, 2):
            pairs.append((r, order[i], order[i + 1]))
    for number, (r, a, b) in enumerate(pairs):
        seats = tuple(
            (accounts[x].level, accounts[x].seed, accounts[x].fraction if r >= history else 0.0)
            for x in (a, b)
        )
        tasks.append((number, (seats[0], seats[1]), seed * 1_000_003 + number, length))
    return pairs, tasks


def simulate(
    accounts: Sequence[Account], rounds: int, history: int, seed: int, length: int, workers: int
) -> dict[str, Any]:
    """Play and analyse every match; the raw data (JSON-ready)."""
    pairs, tasks = schedule(accounts, rounds, history, seed, length)
    results: dict[int, list[tuple[list[float], int]]] = {}
    start = time.perf_counter()
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    with ctx.Pool(workers, initializer=_init) as pool:
        for number, seats in pool.imap_unordered(play_and_analyse, tasks):
            results[number] = seats
            done = len(results)
            if done % 20 == 0:
                print(f"  {done}/{len(tasks)} matches", file=sys.stderr, flush=True)
    games = []
    for number, (r, a, b) in enumerate(pairs):
        for seat, x in enumerate((a, b)):
            errors, agreed = results[number][seat]
            games.append({"round": r, "account": x, "errors": errors, "agreed": agreed})
    return {
        "accounts": [a.__dict__ for a in accounts]
        if False
        else [_account_dict(a) for a in accounts],
        "rounds": rounds,
        "history": history,
        "length": length,
        "seconds": time.perf_counter() - start,
        "matches": len(tasks),
        "games": games,
    }


def _account_dict(a: Account) -> dict[str, Any]:
    return {"name": a.name, "level": a.level, "seed": a.seed, "fraction": a.fraction}


def score(data: dict[str, Any], params: FairPlayParams) -> dict[int, list[tuple[int, bool, int]]]:
    """Each account's checks in round order, as the server makes them: ``(round, flagged,
    decisions)``, each against the account's last :data:`HISTORY_MATCHES` checks."""
    by_account: dict[int, list[dict[str, Any]]] = {}
    for g in data["games"]:
        by_account.setdefault(g["account"], []).append(g)
    out: dict[int, list[tuple[int, bool, int]]] = {}
    for account, games in by_account.items():
        kept: list[tuple[int, float, float]] = []
        rows = []
        for g in sorted(games, key=lambda g: g["round"]):
            decisions = SeatDecisions(tuple(g["errors"]))
            result = check_against(decisions, kept[::-1], params)
            kept.append((result.decisions, result.error_rate, result.agreement))
            rows.append((g["round"], result.flagged, result.decisions))
        out[account] = rows
    return out


def report(data: dict[str, Any], params: FairPlayParams, sweep: Sequence[float]) -> str:
    """The table: false positives per honest level, detection per cheating fraction, the
    reference, and the threshold sweep."""
    accounts = data["accounts"]
    history = data["history"]
    lines = [
        f"{data['matches']} matches of {data['length']} points, {len(accounts)} accounts, "
        f"{data['rounds']} rounds ({history} of history first), analysed at expert "
        f"in {data['seconds']:.0f} s; threshold {params.threshold}, "
        f"at least {params.min_decisions} decisions",
        "",
    ]

    def honest_rates(p: FairPlayParams) -> dict[str, tuple[int, int, int, int]]:
        checks = score(data, p)
        rates: dict[str, list[int]] = {}
        for index, a in enumerate(accounts):
            for r, flagged, _ in checks.get(index, []):
                if a["fraction"] and r >= history:
                    continue  # a cheater's cheating matches
                level = a["level"]
                row = rates.setdefault(level, [0, 0, 0, 0])
                if r >= history:
                    row[0] += flagged
                    row[1] += 1
                else:
                    row[2] += flagged
                    row[3] += 1
        return {k: (v[0], v[1], v[2], v[3]) for k, v in rates.items()}

    def detection(p: FairPlayParams) -> dict[tuple[str, float], tuple[int, int, int]]:
        checks = score(data, p)
        found: dict[tuple[str, float], list[int]] = {}
        for index, a in enumerate(accounts):
            if not a["fraction"]:
                continue
            rows = [(r, f) for r, f, _ in checks.get(index, []) if r >= history]
            rows.sort()
            row = found.setdefault((a["level"], a["fraction"]), [0, 0, 0])
            row[0] += bool(rows) and rows[0][1]
            row[1] += any(f for _, f in rows[:5])
            row[2] += 1
        return {k: (v[0], v[1], v[2]) for k, v in sorted(found.items())}

    honest = honest_rates(params)
    flags = sum(v[0] for v in honest.values())
    total = sum(v[1] for v in honest.values())
    fp = flags / total if total else 0.0
    lines.append("Honest accounts: flags / checks")
    lines.append(f"  {'level':<14}{'with history':>16}{'first ' + str(history) + ' matches':>20}")
    for level, (f, n, f0, n0) in sorted(honest.items()):
        lines.append(
            f"  {level:<14}{f:>7} / {n:<4} {_pct(f, n):>6}{f0:>8} / {n0:<4} {_pct(f0, n0):>6}"
        )
    lines.append(f"  {'all':<14}{flags:>7} / {total:<4} {_pct(flags, total):>6}")
    lines.append("")
    rounds_after = data["rounds"] - history
    lines.append(
        f"Cheaters (their own level otherwise), flagged: within 1 match / within "
        f"{min(5, rounds_after)} (random flagging at FP {100 * fp:.1f}%: "
        f"{100 * fp:.1f}% / {100 * (1 - (1 - fp) ** min(5, rounds_after)):.1f}%)"
    )
    for (level, fraction), (one, five, n) in detection(params).items():
        lines.append(
            f"  {level:<13} f = {fraction:<5} {one:>3} / {n:<3} {_pct(one, n):>6}"
            f"   {five:>3} / {n:<3} {_pct(five, n):>6}"
        )
    if sweep:
        lines.append("")
        lines.append("Threshold sweep: honest FP (with history) | detection within 1 / 5 matches")
        for t in sweep:
            p = _with(params, t)
            h = honest_rates(p)
            f, n = sum(v[0] for v in h.values()), sum(v[1] for v in h.values())
            d = detection(p)
            cells = "  ".join(
                f"{k[0][:5]} {k[1]}: {_pct(v[0], v[2])}/{_pct(v[1], v[2])}" for k, v in d.items()
            )
            lines.append(f"  {t:>5}: FP {_pct(f, n):>6} | {cells}")
    return "\n".join(lines) + "\n"


def _with(params: FairPlayParams, threshold: float) -> FairPlayParams:
    from dataclasses import replace

    return replace(params, threshold=threshold)


def _pct(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}%" if n else "-"


def make_accounts(
    levels: Sequence[str], honest: int, base: str, fractions: Sequence[float], cheaters: int
) -> list[Account]:
    """``honest`` accounts per level, ``cheaters`` per fraction (each its own noise seed)."""
    accounts: list[Account] = []
    for level in levels:
        accounts += [Account(f"{level}-{k}", level, 1000 + len(accounts)) for k in range(honest)]
    for f in fractions:
        for k in range(cheaters):
            accounts.append(Account(f"cheat-{f}-{k}", base, 1000 + len(accounts), f))
    return accounts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["beginner", "intermediate", "expert"])
    parser.add_argument("--honest", type=int, default=4, help="honest accounts per level")
    parser.add_argument("--cheat-base", default="beginner")
    parser.add_argument("--fractions", nargs="+", type=float, default=[0.25, 0.5, 0.75, 1.0])
    parser.add_argument("--cheaters", type=int, default=3, help="cheaters per fraction")
    parser.add_argument("--history", type=int, default=3, help="rounds before cheating")
    parser.add_argument("--test", type=int, default=5, help="rounds after the history")
    parser.add_argument("--length", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threshold", type=float, default=DEFAULT_PARAMS.threshold)
    parser.add_argument("--sweep", nargs="*", type=float, default=[3.0, 3.5, 4.0, 4.5])
    parser.add_argument("--raw", type=Path, help="keep the analysed decisions here (JSON)")
    parser.add_argument("--from-raw", type=Path, nargs="+", help="score kept decisions instead")
    parser.add_argument("--out", type=Path, help="write the table here too")
    args = parser.parse_args(argv)
    if args.from_raw:
        data = _merge([json.loads(p.read_text()) for p in args.from_raw])
    else:
        accounts = make_accounts(
            args.levels, args.honest, args.cheat_base, args.fractions, args.cheaters
        )
        rounds = args.history + args.test
        data = simulate(accounts, rounds, args.history, args.seed, args.length, args.workers)
        if args.raw:
            args.raw.write_text(json.dumps(data))
    params = _with(DEFAULT_PARAMS, args.threshold)
    text = report(data, params, args.sweep)
    print(text, end="")
    if args.out:
        command = "benchmarks/fairplay.py " + " ".join(argv if argv is not None else sys.argv[1:])
        args.out.write_text(f"$ .venv/bin/python {command.strip()}\n{text}")
    return 0


def _merge(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Several raw runs (other seeds) as one: their accounts kept apart."""
    first = runs[0]
    merged = {**first, "accounts": [], "games": [], "matches": 0, "seconds": 0.0}
    for run in runs:
        offset = len(merged["accounts"])
        merged["accounts"] += run["accounts"]
        merged["games"] += [{**g, "account": g["account"] + offset} for g in run["games"]]
        merged["matches"] += run["matches"]
        merged["seconds"] += run["seconds"]
    return merged


if __name__ == "__main__":
    sys.exit(main())
