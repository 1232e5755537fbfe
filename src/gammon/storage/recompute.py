"""Recomputing a rating pool from scratch, after a result was voided (docs/moderation.md).

The pool's rated, non-voided results are replayed in the order they were first settled,
through :func:`gammon.match.ratings.rate`, the function that settled them
(:func:`gammon.storage.standings.record_result`): the ratings are then exactly those of
a site where the voided match never counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.engine import Connection

from gammon.match.ratings import RatedPlayer, rate
from gammon.storage.models import Rating, RatingChange, Result

__all__ = ["recompute_pool"]


@dataclass(slots=True)
class _Standing:
    player: RatedPlayer
    matches: int = 0
    wins: int = 0
    losses: int = 0
    updated_at: int = 0


def recompute_pool(conn: Connection, pool: str) -> None:
    """Every rating of ``pool`` from scratch: its rated, non-voided results replayed in
    the order they were first settled (their first rating change's id, then the result's),
    through :func:`gammon.match.ratings.rate` as :func:`gammon.storage.standings.record_result`
    settled them; the ``rating_changes`` and ``ratings`` rows that differ are rewritten,
    those of voided results and of players left without a rated match deleted.

    The pool's rating rows are locked first, so a result settled meanwhile waits."""
    conn.execute(select(Rating.user_id).where(Rating.pool == pool).with_for_update()).all()
    first = (
        select(RatingChange.table_id, func.min(RatingChange.id).label("first"))
        .where(RatingChange.pool == pool)
        .group_by(RatingChange.table_id)
        .subquery()
    )
    results = conn.execute(
        select(
            Result.table_id,
            Result.user0,
            Result.user1,
            Result.winner,
            Result.match_length,
            Result.ended_at,
            first.c.first,
        )
        .outerjoin(first, first.c.table_id == Result.table_id)
        .where(
            and_(
                Result.pool == pool,
                Result.rated.is_(True),
                Result.voided.is_(False),
                Result.winner.is_not(None),
                Result.user0.is_not(None),
                Result.user1.is_not(None),
            )
        )
    ).all()
    order = sorted(results, key=lambda r: (r.first is None, r.first or 0, r.ended_at))
    standing: dict[int, _Standing] = {}
    changes: dict[tuple[str, int], tuple[int, float, float, int]] = {}
    sequence: list[tuple[str, int]] = []
    for r in order:
        ids = (int(r.user0), int(r.user1))
        win_id, lose_id = ids[r.winner], ids[1 - r.winner]
        for uid in ids:
            standing.setdefault(uid, _Standing(RatedPlayer()))
        change = rate(standing[win_id].player, standing[lose_id].player, r.match_length)
        after = {win_id: change.winner, lose_id: change.loser}
        for uid in sorted(ids):
            s = standing[uid]
            changes[(r.table_id, uid)] = (
                int(r.ended_at),
                s.player.rating,
                after[uid].rating,
                after[uid].experience,
            )
            sequence.append((r.table_id, uid))
            s.player = after[uid]
            s.matches += 1
            s.wins += int(uid == win_id)
            s.losses += int(uid != win_id)
            s.updated_at = int(r.ended_at)
    _rewrite_changes(conn, pool, changes, sequence)
    _rewrite_ratings(conn, pool, standing)


def _rewrite_changes(
    conn: Connection,
    pool: str,
    changes: dict[tuple[str, int], tuple[int, float, float, int]],
    sequence: Sequence[tuple[str, int]],
) -> None:
    existing = conn.execute(
        select(
            RatingChange.id,
            RatingChange.table_id,
            RatingChange.user_id,
            RatingChange.at,
            RatingChange.rating_before,
            RatingChange.rating_after,
            RatingChange.experience,
        ).where(RatingChange.pool == pool)
    ).all()
    kept = set()
    for row in existing:
        key = (row.table_id, row.user_id)
        want = changes.get(key)
        if want is None:
            conn.execute(delete(RatingChange).where(RatingChange.id == row.id))
            continue
        kept.add(key)
        have = (int(row.at), float(row.rating_before), float(row.rating_after), row.experience)
        if have != want:
            conn.execute(
                update(RatingChange)
                .where(RatingChange.id == row.id)
                .values(at=want[0], rating_before=want[1], rating_after=want[2], experience=want[3])
            )
    for key in sequence:
        if key not in kept:
            at, before, after, experience = changes[key]
            conn.execute(
                insert(RatingChange).values(
                    table_id=key[0],
                    user_id=key[1],
                    pool=pool,
                    at=at,
                    rating_before=before,
                    rating_after=after,
                    experience=experience,
                )
            )


def _rewrite_ratings(conn: Connection, pool: str, standing: dict[int, _Standing]) -> None:
    existing = conn.execute(
        select(
            Rating.user_id,
            Rating.rating,
            Rating.experience,
            Rating.matches,
            Rating.wins,
            Rating.losses,
            Rating.updated_at,
        ).where(Rating.pool == pool)
    ).all()
    have = {int(r.user_id): r for r in existing}
    for uid in have:
        if uid not in standing:
            conn.execute(delete(Rating).where(and_(Rating.user_id == uid, Rating.pool == pool)))
    for uid in sorted(standing):
        s = standing[uid]
        values = {
            "rating": s.player.rating,
            "experience": s.player.experience,
            "matches": s.matches,
            "wins": s.wins,
            "losses": s.losses,
            "updated_at": s.updated_at,
        }
        row = have.get(uid)
        if row is None:
            conn.execute(insert(Rating).values(user_id=uid, pool=pool, **values))
        elif (
            float(row.rating),
            row.experience,
            row.matches,
            row.wins,
            row.losses,
            int(row.updated_at),
        ) != tuple(values.values()):
            conn.execute(
                update(Rating)
                .where(and_(Rating.user_id == uid, Rating.pool == pool))
                .values(values)
            )
