"""Duplicate-pair results of the bot benchmarks: summaries, pooling, the calibration table.

``benchmarks/bot_vs_gnubg.py`` plays the pairs; this module holds what it
computes from them (no engine needed): each pair's points, the 95% intervals,
the pooling of runs of disjoint pairs, and the calibration table that
``bot_vs_gnubg.py --table docs/bots.md`` writes from the saved runs
(``benchmarks/results/calibration-*.json``).
"""

from __future__ import annotations

import glob
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GAMMON, GNUBG = "gammon", "gnubg"


@dataclass
class Clock:
    """Time spent and decisions made by one side."""

    checker_s: float = 0.0
    checker_n: int = 0
    cube_s: float = 0.0
    cube_n: int = 0

    def add(self, other: Clock) -> None:
        self.checker_s += other.checker_s
        self.checker_n += other.checker_n
        self.cube_s += other.cube_s
        self.cube_n += other.cube_n


@dataclass
class GameResult:
    """One game: gammon's points (negative: lost) and each side's clock."""

    points: int
    gammon_seat: int
    #: ``points`` less gammon's luck (times the cube) as judged by :class:`LuckJudge`
    adjusted: float
    #: 1 single, 2 gammon, 3 backgammon
    result: int
    clocks: dict[str, Clock] = field(default_factory=dict)


@dataclass
class Interval:
    """A mean over pairs with its 95% confidence interval."""

    mean: float
    low: float
    high: float
    sd_pair: float

    @classmethod
    def of(cls, values: list[float]) -> Interval:
        """The mean of ``values`` with a normal 95% interval (the pairs are independent)."""
        n = len(values)
        mean = sum(values) / n if n else 0.0
        var = sum((x - mean) ** 2 for x in values) / (n - 1) if n > 1 else 0.0
        half = 1.96 * math.sqrt(var / n) if n else 0.0
        return cls(mean, mean - half, mean + half, math.sqrt(var))

    def text(self) -> str:
        return (
            f"{self.mean:+.3f}  95% CI [{self.low:+.3f}, {self.high:+.3f}]  "
            f"(sd per pair {self.sd_pair:.3f})"
        )


@dataclass
class Summary:
    """The figures of a run: every pair's points, and each side's time per decision."""

    level: str
    cube: bool
    seed: int
    #: pair number -> [gammon's points per game, the same less gammon's luck]
    pair_points: dict[int, list[float]]
    games: int
    wins: int
    gammons: int
    backgammons: int
    ms_per_decision: dict[str, dict[str, float]]
    seconds: float
    #: ``--opponent`` (gnubg-nn at a depth, or a gammon level)
    opponent: str = "gnubg-nn-0ply"
    #: ``os.getloadavg()`` (1, 5, 15 minutes) at the end of each run pooled here
    loads: list[list[float]] = field(default_factory=list)

    @property
    def raw(self) -> Interval:
        """Points per game as played."""
        return Interval.of([p[0] for p in self.pair_points.values()])

    @property
    def adjusted(self) -> Interval:
        """Points per game less the luck of the dice (:class:`LuckJudge`)."""
        return Interval.of([p[1] for p in self.pair_points.values()])

    def spans(self) -> str:
        """The pair numbers played, as ranges."""
        ranges: list[list[int]] = []
        for number in sorted(self.pair_points):
            if ranges and ranges[-1][1] == number - 1:
                ranges[-1][1] = number
            else:
                ranges.append([number, number])
        return ", ".join(f"{a}-{b}" for a, b in ranges)

    def text(self) -> str:
        lines = [
            f"gammon {self.level} vs {self.opponent}, money"
            f"{'' if self.cube else ' (cubeless)'}, seed {self.seed}, pairs {self.spans()}: "
            f"{len(self.pair_points)} pairs = {self.games} games in {self.seconds:.0f} s",
            f"  points per game for gammon:       {self.raw.text()}",
            f"  the same, luck-adjusted:          {self.adjusted.text()}",
            f"  gammon won {self.wins} of {self.games} games "
            f"({self.gammons} gammons, {self.backgammons} backgammons among all results)",
        ]
        for side, ms in self.ms_per_decision.items():
            lines.append(
                f"  {side:>6}: {ms['all']:.2f} ms/decision "
                f"(checker {ms['checker']:.2f} over {ms['checker_n']:.0f}, "
                f"cube {ms['cube']:.2f} over {ms['cube_n']:.0f})"
            )
        ours, theirs = self.ms_per_decision[GAMMON]["all"], self.ms_per_decision[GNUBG]["all"]
        if theirs:
            lines.append(f"  time per decision, gammon / gnubg-nn: {ours / theirs:.1f}x")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data (``--json``; read back by ``--merge``)."""
        data = dict(self.__dict__)
        data["pair_points"] = {str(k): v for k, v in self.pair_points.items()}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Summary:
        """The summary :meth:`to_json` wrote."""
        data = dict(data)
        data["pair_points"] = {int(k): v for k, v in data["pair_points"].items()}
        return cls(**data)


def _ms(clocks: dict[str, Clock]) -> dict[str, dict[str, float]]:
    ms: dict[str, dict[str, float]] = {}
    for side, c in clocks.items():
        n_all = c.checker_n + c.cube_n
        ms[side] = {
            "all": 1000 * (c.checker_s + c.cube_s) / n_all if n_all else 0.0,
            "checker": 1000 * c.checker_s / c.checker_n if c.checker_n else 0.0,
            "cube": 1000 * c.cube_s / c.cube_n if c.cube_n else 0.0,
            "checker_n": float(c.checker_n),
            "cube_n": float(c.cube_n),
        }
    return ms


def summarise(
    level: str,
    results: dict[int, list[GameResult]],
    seconds: float,
    cube: bool,
    seed: int,
    opponent: str = "gnubg-nn-0ply",
) -> Summary:
    """Every pair's mean points (raw and luck-adjusted) and each side's time per decision."""
    games = [g for pair in results.values() for g in pair]
    clocks = {GAMMON: Clock(), GNUBG: Clock()}
    for game in games:
        for side, clock in game.clocks.items():
            clocks[side].add(clock)
    return Summary(
        level=level,
        cube=cube,
        seed=seed,
        pair_points={
            number: [
                sum(g.points for g in pair) / len(pair),
                sum(g.adjusted for g in pair) / len(pair),
            ]
            for number, pair in sorted(results.items())
        },
        games=len(games),
        wins=sum(1 for g in games if g.points > 0),
        gammons=sum(1 for g in games if g.result == 2),
        backgammons=sum(1 for g in games if g.result == 3),
        ms_per_decision=_ms(clocks),
        seconds=seconds,
        opponent=opponent,
        loads=[[round(x, 2) for x in os.getloadavg()]],
    )


def merge(parts: list[Summary]) -> Summary:
    """One summary of several runs of disjoint pairs (same level, seed and cube setting)."""
    first = parts[0]
    pair_points: dict[int, list[float]] = {}
    for p in parts:
        if (p.level, p.seed, p.cube, p.opponent) != (
            first.level,
            first.seed,
            first.cube,
            first.opponent,
        ):
            raise SystemExit("merge: the runs differ in level, opponent, seed or cube setting")
        overlap = pair_points.keys() & p.pair_points.keys()
        if overlap:
            raise SystemExit(f"merge: the runs overlap (pairs {sorted(overlap)[:5]}...)")
        pair_points.update(p.pair_points)
    ms: dict[str, dict[str, float]] = {}
    for side in (GAMMON, GNUBG):
        cn = sum(p.ms_per_decision[side]["checker_n"] for p in parts)
        un = sum(p.ms_per_decision[side]["cube_n"] for p in parts)
        cs = sum(
            p.ms_per_decision[side]["checker"] * p.ms_per_decision[side]["checker_n"] for p in parts
        )
        us = sum(p.ms_per_decision[side]["cube"] * p.ms_per_decision[side]["cube_n"] for p in parts)
        ms[side] = {
            "all": (cs + us) / (cn + un) if cn + un else 0.0,
            "checker": cs / cn if cn else 0.0,
            "cube": us / un if un else 0.0,
            "checker_n": cn,
            "cube_n": un,
        }
    return Summary(
        level=first.level,
        cube=first.cube,
        seed=first.seed,
        pair_points=dict(sorted(pair_points.items())),
        games=sum(p.games for p in parts),
        wins=sum(p.wins for p in parts),
        gammons=sum(p.gammons for p in parts),
        backgammons=sum(p.backgammons for p in parts),
        ms_per_decision=ms,
        seconds=sum(p.seconds for p in parts),
        opponent=first.opponent,
        loads=[load for p in parts for load in p.loads],
    )


def load_summary(path: str) -> Summary:
    """The summary saved at ``path`` (``--json`` or ``--append``)."""
    with open(path, encoding="utf-8") as handle:
        return Summary.from_json(json.load(handle))


#: The results the calibration table is built from: this page's runs and the earlier
#: 500-pair runs against gnubg-nn 0-ply.
CALIBRATION_GLOBS = (
    "benchmarks/results/calibration-*.json",
    "benchmarks/results/bot_vs_gnubg-*.json",
)
_NAMES = {"gnubg-nn-0ply": "gnubg-nn 0-ply", "gnubg-nn-2ply": "gnubg-nn 2-ply"}


def calibration_rows(summaries: list[Summary]) -> list[str]:
    """The calibration table in markdown: one row per level and opponent, pooled over runs.

    >>> s = Summary("expert", False, 7, {0: [1.0, 0.2], 1: [-1.0, 0.0]}, 4, 2, 0, 0,
    ...     {GAMMON: {"all": 2.0}, GNUBG: {"all": 1.0}}, 9.0, "world-class", [[1.5, 1.0, 0.5]])
    >>> print(calibration_rows([s])[2])
    | expert | world-class | cubeless, seed 7 | 2 | +0.100 [-0.096, +0.296] | +0.000 [-1.960, +1.960] | 2.0 / 1.0 | 1.5 |
    """
    groups: dict[tuple[str, str, bool, int], list[Summary]] = {}
    for s in summaries:
        groups.setdefault((s.level, s.opponent, s.cube, s.seed), []).append(s)
    rows = [
        "| level | opponent | play | pairs | luck-adjusted ppg [95% CI] "
        "| as played [95% CI] | ms per decision (level / opponent) | load (1 min) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for (level, opponent, cube, seed), parts in sorted(groups.items()):
        s = merge(parts) if len(parts) > 1 else parts[0]
        loads = [load[0] for load in s.loads]
        load = "not recorded"
        if loads:
            low, high = min(loads), max(loads)
            load = f"{low:.1f}" if low == high else f"{low:.1f}-{high:.1f}"
        rows.append(
            f"| {level} | {_NAMES.get(opponent, opponent)} "
            f"| {'cube' if cube else 'cubeless'}, seed {seed} | {len(s.pair_points)} "
            f"| {s.adjusted.mean:+.3f} [{s.adjusted.low:+.3f}, {s.adjusted.high:+.3f}] "
            f"| {s.raw.mean:+.3f} [{s.raw.low:+.3f}, {s.raw.high:+.3f}] "
            f"| {s.ms_per_decision[GAMMON]['all']:.1f} / {s.ms_per_decision[GNUBG]['all']:.1f} "
            f"| {load} |"
        )
    return rows


def write_table(page: str, *patterns: str) -> None:
    """Write the calibration table of the runs matching ``patterns`` into ``page``
    (by default :data:`CALIBRATION_GLOBS`).

    The table replaces what stands between the page's two calibration-table
    markers (they are added at the end when missing).
    """
    paths = sorted({p for pattern in patterns or CALIBRATION_GLOBS for p in glob.glob(pattern)})
    summaries = [load_summary(path) for path in paths]
    replace_block(page, "calibration table", calibration_rows(summaries))
    print(f"{page}: the calibration table of {len(summaries)} runs")


def replace_block(page: str, name: str, lines: list[str]) -> None:
    """Put ``lines`` between the page's ``<!-- NAME: start -->`` and ``<!-- NAME: end -->``
    markers (added at the end of the page when missing)."""
    start, end = f"<!-- {name}: start -->", f"<!-- {name}: end -->"
    block = "\n".join([start, "", *lines, "", end])
    path = Path(page)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if start in text and end in text:
        before, rest = text.split(start, 1)
        text = before + block + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")
