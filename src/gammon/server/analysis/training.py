"""Training from one's mistakes (docs/training.md): the harvest of every stored analysis
into puzzles, a puzzle as its page shows it, and how an answer is judged.

Each analysis the site stores (:meth:`gammon.server.analysis.runner.AnalysisRunner.keep`: those
asked for on the analysis page, the fair-play checks of every rated match, a grandmaster
analysis) is handed to :func:`harvest_analysis`, which keeps its decisions that lost at
least :data:`~gammon.storage.puzzles.PUZZLE_ERROR` as puzzles
(:class:`gammon.storage.puzzles.Puzzles`): the players' own, and the shared set's from a
public table.  An imported match gives none (which side the uploader played is not
known, and an import is nobody else's to see).

A checker puzzle offers every legal move of its roll (generated here from the Position ID,
in every variant); a cube puzzle offers no double or double, or take, pass (and beaver
when the analysis judged it).  An answer is right when it loses at most
:data:`CORRECT_WITHIN` against the analysis' best; a legal move the analysis did not rank
is wrong, and lost at least the best less the lowest ranked.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from gammon.errors import GammonError
from gammon.position import Position
from gammon.server.community.ratinggraph import rating_graph
from gammon.server.protocol import ServerError
from gammon.storage.puzzles import PuzzleRow, Puzzles, TrendPoint

if TYPE_CHECKING:
    from gammon.storage import Database

__all__ = [
    "CORRECT_WITHIN",
    "MAX_CHOICES",
    "Judged",
    "choices",
    "error_trend",
    "harvest_analysis",
    "judge",
    "picture",
]

log = logging.getLogger(__name__)

#: An answer that loses at most this much (normalised equity) against the best is right.
CORRECT_WITHIN: Final = 0.02
#: A checker puzzle lists at most this many legal moves (the judged ones always among them).
MAX_CHOICES: Final = 200
#: The cube answers, in the order they are offered.
_CUBE_ANSWERS: Final = ("no double", "double", "take", "drop", "beaver")


async def harvest_analysis(db: Database, subject: str, level: str, data: dict[str, Any]) -> None:
    """Keep the puzzles of an analysis just stored (of a finished table: an import gives
    none); the seats and the table's privacy are read from its result."""
    if subject.startswith("import-"):
        return
    puzzles = Puzzles(db.engine)

    def work() -> int:
        found = puzzles.seats_of(subject)
        if found is None:  # no result: a table that never started, or not on this site
            return 0
        seats, public = found
        return puzzles.harvest(subject, data, seats, public, int(time.time() * 1000))

    made = await db.run(work)
    if made:
        log.info("training: %d puzzles from %s (%s)", made, subject, level)


def _position(p: PuzzleRow) -> Position:
    try:
        return Position.from_position_id(p.position_id, p.variant)
    except GammonError as exc:  # a puzzle stored by another version: not offered
        raise ServerError("not_found", f"this puzzle cannot be shown: {exc}"[:200]) from None


def _dice(p: PuzzleRow) -> tuple[int, int]:
    text = p.dice or ""
    if len(text) != 2 or not text.isdigit():
        raise ServerError("not_found", "this puzzle cannot be shown: no dice")
    return int(text[0]), int(text[1])


def choices(p: PuzzleRow) -> list[str]:
    """The answers a puzzle offers: the legal moves of its roll (at most
    :data:`MAX_CHOICES`, those judged always in), or the cube answers judged."""
    judged = [a for a, _ in p.candidates]
    if p.kind != "checker":
        return [a for a in _CUBE_ANSWERS if a in judged]
    moves = [str(m) for m in _position(p).legal_moves(_dice(p))]
    if len(moves) > MAX_CHOICES:
        keep = set(judged)
        moves = [m for m in moves if m in keep] + [m for m in moves if m not in keep]
        moves = sorted(moves[:MAX_CHOICES], key=moves.index)
    return moves


def picture(p: PuzzleRow) -> str:
    """The puzzle's board as SVG, the deciding player at the bottom (a response: the side
    doubled), with the dice of a checker play and the cube."""
    position = _position(p)
    if p.kind == "response":
        position = position.flipped()
    cube = p.cube.get("value") if position.variant.cube else None
    owner = {"me": "player", "them": "opponent"}.get(str(p.cube.get("owner")))
    dice = _dice(p) if p.kind == "checker" else None
    try:
        return position.svg(dice=dice, cube=cube, cube_owner=owner)
    except (GammonError, ValueError) as exc:
        raise ServerError("not_found", f"this puzzle cannot be shown: {exc}"[:200]) from None


@dataclass(frozen=True, slots=True)
class Judged:
    """An answer judged: ``correct``; ``error`` the equity it lost against the best (None:
    a move the analysis did not rank, which lost at least ``at_least``); ``equity`` the
    answer's own (None: not ranked)."""

    answer: str
    correct: bool
    error: float | None
    equity: float | None
    at_least: float


def judge(p: PuzzleRow, answer: str) -> Judged:
    """Judge ``answer`` to puzzle ``p`` (``bad_message`` when it is not one it offers)."""
    answer = answer.strip()
    best = p.candidates[0][1]
    lowest = min(e for _, e in p.candidates)
    if p.kind != "checker":
        equities = dict(p.candidates)
        if answer not in equities:
            raise ServerError("bad_message", "that is not one of this puzzle's answers")
        error = max(0.0, best - equities[answer])
        return Judged(answer, error <= CORRECT_WITHIN, error, equities[answer], error)
    position, dice = _position(p), _dice(p)
    chosen = next((m for m in position.legal_moves(dice) if str(m) == answer), None)
    if chosen is None:
        raise ServerError("bad_message", "that is not one of this puzzle's answers")
    ranked: dict[Position, float] = {}
    for text, equity in p.candidates:
        try:
            ranked.setdefault(position.parse_move(text, dice).position_after(), equity)
        except GammonError:
            continue  # a move text this version reads otherwise: not ranked
    found = ranked.get(chosen.position_after())
    if found is None:
        return Judged(answer, False, None, None, max(0.0, best - lowest))
    lost = max(0.0, best - found)
    return Judged(answer, lost <= CORRECT_WITHIN, lost, found, lost)


def error_trend(points: Sequence[TrendPoint], t: Callable[[str], str]) -> dict[str, Any]:
    """A profile's error-rate trend: the graph (inline SVG, :func:`rating_graph`, with its
    title and description) and the rows of its table alternative, newest first."""
    if not points:
        return {"graph": "", "rows": []}
    rates = [p.error_rate for p in points]
    desc = t("{n} analysed matches: from {first} to {last} mEMG per decision").format(
        n=len(points), first=f"{rates[0]:.1f}", last=f"{rates[-1]:.1f}"
    )
    graph = rating_graph(
        [(p.ended_at, p.error_rate) for p in points],
        t("Error rate per analysed match"),
        desc,
        "error-trend",
    )
    rows = [
        {
            "when": datetime.fromtimestamp(p.ended_at / 1000, tz=UTC).strftime("%Y-%m-%d"),
            "table_id": p.table_id,
            "opponent": p.opponent,
            "error_rate": p.error_rate,
        }
        for p in reversed(points)
    ]
    return {"graph": graph, "rows": rows}
