"""Training from analysed matches (docs/training.md): puzzles harvested from the decisions
players got wrong, their answers, the puzzle ratings, and a player's error-rate trend.

*Harvest* (:meth:`Puzzles.harvest`): an analysis (``MatchAnalysis.to_dict()``) gives each
decision's equity loss; those that lost at least :data:`PUZZLE_ERROR` (the analysis'
"error" mark) become puzzles: the :data:`PER_MATCH` worst of each registered player in
their own scope (``u<id>``, "your mistakes") and, from a public table, the
:data:`PER_MATCH` worst of the match (either player's, a bot's too) in the ``shared``
set.  A scope holds a position (with its dice, cube and score) once, so harvesting again
(another level, another process) adds nothing.

*Answers* (:meth:`Puzzles.answer`): a player's first answer to a puzzle is kept and is
the one that counts; a shared puzzle is rated, both the player's puzzle rating and the
puzzle's moving by Elo with K = :data:`K` (:func:`elo`); one's own mistakes are practice
and move no rating.

>>> elo(1500.0, 1500.0, True), elo(1500.0, 1500.0, False)
((1516.0, 1484.0), (1484.0, 1516.0))
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Engine, and_, case, exists, func, select, update
from sqlalchemy.dialects import postgresql, sqlite

from gammon.errors import GammonError
from gammon.notation.xgid import read_xgid
from gammon.storage.models import History, Result, Table
from gammon.storage.puzzle_models import Puzzle, PuzzleAttempt, PuzzlePlayer

__all__ = [
    "PER_MATCH",
    "PUZZLE_ERROR",
    "SHARED",
    "START_RATING",
    "Answered",
    "K",
    "PuzzleRow",
    "Puzzles",
    "Seat",
    "TrendPoint",
    "elo",
    "puzzles_of",
]

#: A decision that lost at least this much (normalised equity: the "error" mark) is a puzzle.
PUZZLE_ERROR: Final = 0.08
#: Puzzles one match gives at most: per player in their own scope, and to the shared set.
PER_MATCH: Final = 10
#: Everybody's and every puzzle's first puzzle rating.
START_RATING: Final = 1500.0
#: The Elo K factor of an answer to a shared puzzle.
K: Final = 32.0
#: The scope of the shared set.
SHARED: Final = "shared"
#: A player's trend shows at most this many analysed matches (their newest).
TREND: Final = 30
#: ... found among their newest this many matches.
_TREND_SCAN: Final = 300


def elo(player: float, puzzle: float, solved: bool, k: float = K) -> tuple[float, float]:
    """The player's and the puzzle's ratings after an answer (the puzzle "wins" when the
    player fails): ``delta = k * (score - expected)``, added to one and taken from the other."""
    expected = 1.0 / (1.0 + 10.0 ** ((puzzle - player) / 400.0))
    delta = k * ((1.0 if solved else 0.0) - expected)
    return player + delta, puzzle - delta


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sat in a seat of the analysed match: an account (None: a bot) and its kind
    (``user``, ``guest``, ``bot``)."""

    user_id: int | None
    kind: str


@dataclass(frozen=True, slots=True)
class PuzzleRow:
    """A puzzle as the pages use it (``cube`` and ``candidates`` decoded)."""

    id: int
    scope: str
    owner_id: int | None
    source: str
    variant: str
    kind: str
    position_id: str
    xgid: str
    dice: str | None
    cube: dict[str, Any]
    #: ``(answer, equity)`` of every answer judged, the decider's equity, best first.
    candidates: tuple[tuple[str, float], ...]
    best: str
    played: str
    error: float
    rating: float
    attempts: int
    solved: int

    @property
    def shared(self) -> bool:
        """Whether it is in the shared (rated) set."""
        return self.scope == SHARED


@dataclass(frozen=True, slots=True)
class Answered:
    """What an answer did: ``first`` (it counts: a later one changes nothing), ``rated``
    (a shared puzzle's first answer), the player's puzzle rating before and after, and
    the puzzle's rating after."""

    first: bool
    rated: bool
    rating_before: float
    rating_after: float
    puzzle_rating: float


@dataclass(frozen=True, slots=True)
class TrendPoint:
    """One analysed match of a player: when it ended, the table, the opponent's name and the
    player's error rate (mEMG per decision)."""

    ended_at: int
    table_id: str
    opponent: str
    error_rate: float


def _cube(decision: Mapping[str, Any]) -> dict[str, Any]:
    """The cube and score as the deciding player sees them (from the decision's XGID), and
    a cube decision's equities."""
    out: dict[str, Any] = {}
    text = decision.get("xgid") or ""
    if text:
        try:
            x = read_xgid(str(text))
        except GammonError:
            x = None
        if x is not None:
            on_roll = decision.get("kind") != "response"  # the answer is the other side's
            bottom = (x.turn == 1) == on_roll
            mine, theirs = (
                (x.score_bottom, x.score_top) if bottom else (x.score_top, x.score_bottom)
            )
            owner = None
            if x.cube_owner:
                owner = "me" if (x.cube_owner == 1) == bottom else "them"
            out = {
                "value": x.cube_value,
                "owner": owner,
                "length": x.match_length,
                "score": [mine, theirs],
                "crawford": x.is_crawford,
            }
    cube = decision.get("cube")
    if isinstance(cube, Mapping):
        out["equities"] = {
            k: cube.get(k) for k in ("no_double", "double_take", "double_pass", "double_beaver")
        }
    return out


def _answers(decision: Mapping[str, Any]) -> list[tuple[str, float]]:
    """The answers of a decision with the decider's equity after each, best first."""
    kind = decision.get("kind")
    if kind == "checker":
        pairs = [(str(c["move"]), float(c["equity"])) for c in decision.get("candidates") or ()]
    else:
        cube = decision.get("cube") or {}
        take, drop, beaver = (
            cube.get("double_take"),
            cube.get("double_pass"),
            cube.get("double_beaver"),
        )
        if take is None or drop is None:
            return []
        answers = {"take": float(take), "drop": float(drop)}
        if beaver is not None:
            answers["beaver"] = float(beaver)
        if kind == "cube":  # the doubler gets the answer best for the other side
            pairs = [
                ("no double", float(cube.get("no_double", 0.0))),
                ("double", min(answers.values())),
            ]
        else:  # the responder's equity is minus the doubler's
            pairs = [(name, -value) for name, value in answers.items()]
    return sorted(pairs, key=lambda p: -p[1])


def puzzles_of(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every decision of an analysis that makes a puzzle (lost at least
    :data:`PUZZLE_ERROR`, with two answers or more), worst first, as the row's columns and
    ``player`` (the seat that erred)."""
    found: list[dict[str, Any]] = []
    for game in data.get("games") or ():
        variant = str(game.get("variant") or data.get("variant") or "standard")
        for d in game.get("decisions") or ():
            error = float(d.get("error") or 0.0)
            answers = _answers(d)
            if error < PUZZLE_ERROR or len(answers) < 2 or not math.isfinite(error):
                continue
            kind = str(d["kind"])
            position_id = str(d["position_id"])
            xgid = str(d.get("xgid") or "")
            dice = None if d.get("dice") is None else str(d["dice"])
            found.append(
                {
                    "player": int(d["player"]),
                    "game": int(d["game"]),
                    "action_index": int(d["action_index"]),
                    "variant": variant[:16],
                    "kind": kind,
                    "position_id": position_id[:64],
                    "xgid": xgid[:80],
                    "dice": dice,
                    "cube": json.dumps(_cube(d), separators=(",", ":")),
                    "candidates": json.dumps(answers, separators=(",", ":")),
                    "best": str(d["best"])[:120],
                    "played": str(d["played"])[:120],
                    "error": error,
                    "key": f"{variant}|{kind}|{xgid or position_id}|{dice or ''}"[:160],
                }
            )
    found.sort(key=lambda p: (-float(p["error"]), int(p["game"]), int(p["action_index"])))
    return found


def _insert(conn: Any, table: Any) -> Any:
    """An ``INSERT`` with ``ON CONFLICT`` clauses, in the connection's dialect."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def _row(r: Any) -> PuzzleRow:
    return PuzzleRow(
        r.id,
        r.scope,
        r.owner_id,
        r.source,
        r.variant,
        r.kind,
        r.position_id,
        r.xgid,
        r.dice,
        json.loads(r.cube),
        tuple((str(a), float(e)) for a, e in json.loads(r.candidates)),
        r.best,
        r.played,
        float(r.error),
        float(r.rating),
        int(r.attempts),
        int(r.solved),
    )


class Puzzles:
    """The training's queries (``puzzles``, ``puzzle_attempts``, ``puzzle_players``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ harvest

    def harvest(
        self,
        source: str,
        data: Mapping[str, Any],
        seats: Sequence[Seat],
        public: bool,
        now: int,
    ) -> int:
        """Keep the puzzles of an analysed match (see the module notes); how many are new."""
        found = puzzles_of(data)
        rows: list[dict[str, Any]] = []
        base = {"source": source[:32], "public": public, "created_at": now}
        for seat, who in enumerate(seats):
            if who.user_id is None or who.kind != "user":
                continue
            mine = [p for p in found if p["player"] == seat][:PER_MATCH]
            rows += [{**p, "scope": f"u{who.user_id}", "owner_id": who.user_id} for p in mine]
        if public:
            rows += [{**p, "scope": SHARED, "owner_id": None} for p in found[:PER_MATCH]]
        if not rows:
            return 0
        values = [
            {**{k: v for k, v in r.items() if k != "player"}, **base}
            | {"rating": START_RATING, "attempts": 0, "solved": 0}
            for r in rows
        ]
        with self.engine.begin() as conn:
            made = conn.execute(
                _insert(conn, Puzzle)
                .values(values)
                .on_conflict_do_nothing(index_elements=["scope", "key"])
                .returning(Puzzle.id)
            ).all()
        return len(made)

    # ------------------------------------------------------------------ reading

    def get(self, puzzle_id: int) -> PuzzleRow | None:
        """A puzzle, if there is one of that id."""
        with self.engine.connect() as conn:
            r = conn.execute(select(Puzzle).where(Puzzle.id == puzzle_id)).first()
        return None if r is None else _row(r)

    def attempt(self, user_id: int, puzzle_id: int) -> tuple[str, bool] | None:
        """A player's first answer to a puzzle and whether it was right (None: none yet)."""
        with self.engine.connect() as conn:
            r = conn.execute(
                select(PuzzleAttempt.answer, PuzzleAttempt.correct).where(
                    PuzzleAttempt.user_id == user_id, PuzzleAttempt.puzzle_id == puzzle_id
                )
            ).first()
        return None if r is None else (str(r.answer), bool(r.correct))

    def player(self, user_id: int) -> tuple[float, int, int]:
        """A player's puzzle rating, answers and right answers (the start before any)."""
        with self.engine.connect() as conn:
            r = conn.execute(
                select(PuzzlePlayer.rating, PuzzlePlayer.attempts, PuzzlePlayer.solved).where(
                    PuzzlePlayer.user_id == user_id
                )
            ).first()
        return (START_RATING, 0, 0) if r is None else (float(r[0]), int(r[1]), int(r[2]))

    def _unanswered(self, user_id: int) -> Any:
        return ~exists().where(
            PuzzleAttempt.user_id == user_id, PuzzleAttempt.puzzle_id == Puzzle.id
        )

    def next_mine(self, user_id: int) -> PuzzleRow | None:
        """The next of a player's own mistakes: the worst not answered yet, else one of
        those answered wrongly (at random), else None."""
        scope = Puzzle.scope == f"u{user_id}"
        with self.engine.connect() as conn:
            r = conn.execute(
                select(Puzzle)
                .where(scope, self._unanswered(user_id))
                .order_by(Puzzle.error.desc(), Puzzle.id)
                .limit(1)
            ).first()
            if r is None:
                wrong = select(PuzzleAttempt.puzzle_id).where(
                    PuzzleAttempt.user_id == user_id, PuzzleAttempt.correct.is_(False)
                )
                r = conn.execute(
                    select(Puzzle)
                    .where(scope, Puzzle.id.in_(wrong))
                    .order_by(func.random())
                    .limit(1)
                ).first()
        return None if r is None else _row(r)

    def next_shared(
        self, user_id: int | None, rating: float, variant: str | None
    ) -> PuzzleRow | None:
        """The shared puzzle nearest ``rating`` (of ``variant``, or any) that the player has
        not answered (None: none left)."""
        where = [Puzzle.scope == SHARED]
        if variant is not None:
            where.append(Puzzle.variant == variant)
        if user_id is not None:
            where.append(self._unanswered(user_id))
        near: list[Any] = []
        with self.engine.connect() as conn:
            for side, order in (
                (Puzzle.rating >= rating, Puzzle.rating.asc()),
                (Puzzle.rating < rating, Puzzle.rating.desc()),
            ):
                near += conn.execute(
                    select(Puzzle).where(*where, side).order_by(order, Puzzle.id).limit(1)
                ).all()
        if not near:
            return None
        return _row(min(near, key=lambda r: (abs(float(r.rating) - rating), r.id)))

    def counts(self, user_id: int | None) -> tuple[int, int, dict[str, int]]:
        """How many of the player's own mistakes wait (not answered yet), how many they have
        in all, and the shared set's puzzles per variant."""
        with self.engine.connect() as conn:
            waiting = total = 0
            if user_id is not None:
                scope = Puzzle.scope == f"u{user_id}"
                total = int(
                    conn.execute(select(func.count()).select_from(Puzzle).where(scope)).scalar_one()
                )
                waiting = int(
                    conn.execute(
                        select(func.count())
                        .select_from(Puzzle)
                        .where(scope, self._unanswered(user_id))
                    ).scalar_one()
                )
            shared = conn.execute(
                select(Puzzle.variant, func.count())
                .where(Puzzle.scope == SHARED)
                .group_by(Puzzle.variant)
            ).all()
        return waiting, total, {str(v): int(n) for v, n in sorted(shared)}

    # ------------------------------------------------------------------ answers

    def answer(
        self,
        user_id: int,
        puzzle_id: int,
        answer: str,
        correct: bool,
        error: float | None,
        now: int,
    ) -> Answered:
        """Keep a player's answer to a puzzle (see the module notes): the first one counts,
        moving both ratings when the puzzle is shared; a later one changes nothing."""
        with self.engine.begin() as conn:
            conn.execute(
                _insert(conn, PuzzlePlayer)
                .values(user_id=user_id, rating=START_RATING, attempts=0, solved=0, updated_at=now)
                .on_conflict_do_nothing(index_elements=["user_id"])
            )
            # the player's row first, then the puzzle's: two answers of one player wait
            # for each other, and no two transactions take the rows the other way round
            me = conn.execute(
                select(PuzzlePlayer.rating).where(PuzzlePlayer.user_id == user_id).with_for_update()
            ).scalar_one()
            puzzle = conn.execute(
                select(Puzzle.rating, Puzzle.scope).where(Puzzle.id == puzzle_id).with_for_update()
            ).one()
            mine, theirs = float(me), float(puzzle.rating)
            done = conn.execute(
                select(PuzzleAttempt.correct).where(
                    PuzzleAttempt.user_id == user_id, PuzzleAttempt.puzzle_id == puzzle_id
                )
            ).first()
            if done is not None:
                return Answered(False, False, mine, mine, theirs)
            rated = puzzle.scope == SHARED
            new_mine, new_theirs = elo(mine, theirs, correct) if rated else (mine, theirs)
            conn.execute(
                _insert(conn, PuzzleAttempt).values(
                    user_id=user_id,
                    puzzle_id=puzzle_id,
                    answer=answer[:120],
                    correct=correct,
                    error=error,
                    at=now,
                    rating_before=mine,
                    rating_after=new_mine,
                )
            )
            solved = 1 if correct else 0
            conn.execute(
                update(PuzzlePlayer)
                .where(PuzzlePlayer.user_id == user_id)
                .values(
                    rating=new_mine,
                    attempts=PuzzlePlayer.attempts + 1,
                    solved=PuzzlePlayer.solved + solved,
                    updated_at=now,
                )
            )
            conn.execute(
                update(Puzzle)
                .where(Puzzle.id == puzzle_id)
                .values(
                    rating=new_theirs,
                    attempts=Puzzle.attempts + 1,
                    solved=Puzzle.solved + solved,
                )
            )
        return Answered(True, rated, mine, new_mine, new_theirs)

    # ------------------------------------------------------------------ the trend

    def error_trend(self, user_id: int, limit: int = TREND) -> list[TrendPoint]:
        """A player's error rate in their newest analysed matches (at most ``limit``, found
        among their newest :data:`_TREND_SCAN` matches), oldest first."""
        newest = (
            select(History.result_id, History.seat, History.ended_at)
            .where(History.user_id == user_id)
            .order_by(History.ended_at.desc(), History.result_id.desc())
            .limit(_TREND_SCAN)
            .subquery()
        )
        mine = case((newest.c.seat == 0, Result.error0), else_=Result.error1)
        other = case((newest.c.seat == 0, Result.name1), else_=Result.name0)
        query = (
            select(newest.c.ended_at, Result.table_id, other.label("opponent"), mine.label("rate"))
            .join(Result, Result.id == newest.c.result_id)
            .where(and_(mine.is_not(None), Result.voided.is_(False)))
            .order_by(newest.c.ended_at.desc(), newest.c.result_id.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            TrendPoint(int(r.ended_at), str(r.table_id), str(r.opponent), float(r.rate))
            for r in reversed(rows)
        ]

    # ------------------------------------------------------------------ sources

    def seats_of(self, table_id: str) -> tuple[tuple[Seat, Seat], bool] | None:
        """A finished table's seats (from its result) and whether it was public (None: no
        result)."""
        with self.engine.connect() as conn:
            r = conn.execute(
                select(Result.user0, Result.kind0, Result.user1, Result.kind1, Table.private)
                .join(Table, Table.id == Result.table_id)
                .where(Result.table_id == table_id)
            ).first()
        if r is None:
            return None
        return (Seat(r.user0, r.kind0), Seat(r.user1, r.kind1)), not r.private
