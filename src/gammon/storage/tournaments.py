"""Queries of tournaments: registrations, rounds and their pairings, results, winners.

Every step of a tournament is one transaction guarded by the state it starts from
(``WHERE status = 'registering'``, ``WHERE round = r``, ``WHERE reason IS NULL``...), so a
step repeated after a restart, or run by two processes at once, happens once.

>>> from gammon.storage import Database, Store
>>> db = Database("sqlite://"); db.migrate(); store = Store(db); tours = TournamentStore(db)
>>> ann = store.create_user("ann", "x", guest=False, balance=0, now=1)
>>> tid = tours.create("Friday", ann.id, "knockout", "{}", 4, None, 60, now=2)
>>> a = tours.register(tid, ann.id, "ann", None, now=3)
>>> b = tours.register(tid, None, "bot 1", "beginner", now=4)
>>> tours.start(tid, {a: 1, b: 2}, [(1, 0, a, b, None, None)], now=5)
True
>>> tours.start(tid, {a: 1, b: 2}, [(1, 0, a, b, None, None)], now=6)
False
>>> tours.finish_pairing(tid, 1, 0, a, "match_over", now=7), tours.finish(tid, a, now=8)
(True, True)
>>> [(t.name, t.finished_at) for t in tours.won_by(ann.id)]
[('Friday', 8)]
>>> tours.set_places(tid, {a: (1, None), b: (2, None)})
>>> [(t.tournament.name, t.place) for t in tours.trophies(ann.id)]
[('Friday', 1)]
>>> db.close()
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from gammon.errors import GammonError
from gammon.storage.contest_models import Entrant, Pairing, Tournament
from gammon.storage.db import Database

__all__ = [
    "EntrantRow",
    "PairingRow",
    "RegistrationError",
    "TournamentRow",
    "TournamentStore",
    "Trophy",
]

#: ``(round, slot, player0, player1, winner, reason)``: a pairing to write (a bye is
#: written finished: its winner and the reason ``bye``).
NewPairing = tuple[int, int, int | None, int | None, int | None, str | None]


class RegistrationError(GammonError):
    """A registration refused: the tournament is full, started, or the player is in it."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament and how many entrants it has."""

    id: int
    name: str
    created_by: int
    created_at: int
    format: str
    options: str
    max_players: int
    starts_at: int | None
    grace: int
    status: str
    round: int
    started_at: int | None
    finished_at: int | None
    winner: int | None
    entrants: int
    #: A Swiss tournament's rounds; None for the other formats.
    rounds: int | None = None
    #: An arena's minutes; None for the other formats.
    duration: int | None = None
    #: An arena's deadline once started.
    ends_at: int | None = None


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """A registered player or bot."""

    id: int
    user_id: int | None
    name: str
    bot_level: str | None
    registered_at: int
    seed: int | None
    #: The rating it was seeded with (a bot: its calibrated rating).
    rating: float | None = None
    #: Points and place at the end.
    points: int | None = None
    place: int | None = None


@dataclass(frozen=True, slots=True)
class Trophy:
    """A place on a finished tournament's podium (for the player's profile)."""

    tournament: TournamentRow
    place: int
    points: int | None


@dataclass(frozen=True, slots=True)
class PairingRow:
    """One match of one round."""

    round: int
    slot: int
    player0: int | None
    player1: int | None
    table_id: str | None
    winner: int | None
    reason: str | None
    finished_at: int | None


_COUNT = (
    select(func.count())
    .where(Entrant.tournament_id == Tournament.id)
    .correlate(Tournament)
    .scalar_subquery()
    .label("entrants")
)
_COLUMNS = (*Tournament.__table__.columns, _COUNT)


def _tournament(r: Any) -> TournamentRow:
    return TournamentRow(
        r.id,
        r.name,
        r.created_by,
        r.created_at,
        r.format,
        r.options,
        r.max_players,
        r.starts_at,
        r.grace,
        r.status,
        r.round,
        r.started_at,
        r.finished_at,
        r.winner,
        int(r.entrants),
        r.rounds,
        r.duration,
        r.ends_at,
    )


class TournamentStore:
    """Every query about tournaments, on one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.engine = db.engine

    def create(
        self,
        name: str,
        created_by: int,
        fmt: str,
        options: str,
        max_players: int,
        starts_at: int | None,
        grace: int,
        now: int,
        rounds: int | None = None,
        duration: int | None = None,
    ) -> int:
        """A new tournament open for registration; its id."""
        with self.engine.begin() as conn:
            return int(
                conn.execute(
                    insert(Tournament)
                    .values(
                        name=name,
                        created_by=created_by,
                        created_at=now,
                        format=fmt,
                        options=options,
                        max_players=max_players,
                        starts_at=starts_at,
                        grace=grace,
                        status="registering",
                        round=0,
                        rounds=rounds,
                        duration=duration,
                    )
                    .returning(Tournament.id)
                ).scalar_one()
            )

    def tournament(self, tournament_id: int) -> TournamentRow | None:
        """One tournament, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(*_COLUMNS).where(Tournament.id == tournament_id)).first()
        return _tournament(row) if row is not None else None

    def listing(self, statuses: Sequence[str], limit: int = 100) -> list[TournamentRow]:
        """Tournaments in some statuses, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(*_COLUMNS)
                .where(Tournament.status.in_(statuses))
                .order_by(Tournament.created_at.desc(), Tournament.id.desc())
                .limit(limit)
            )
            return [_tournament(r) for r in rows]

    def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """A tournament's entrants in registration order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    Entrant.id,
                    Entrant.user_id,
                    Entrant.name,
                    Entrant.bot_level,
                    Entrant.registered_at,
                    Entrant.seed,
                    Entrant.rating,
                    Entrant.points,
                    Entrant.place,
                )
                .where(Entrant.tournament_id == tournament_id)
                .order_by(Entrant.registered_at, Entrant.id)
            )
            return [
                EntrantRow(
                    r.id,
                    r.user_id,
                    r.name,
                    r.bot_level,
                    r.registered_at,
                    r.seed,
                    r.rating,
                    r.points,
                    r.place,
                )
                for r in rows
            ]

    def register(
        self, tournament_id: int, user_id: int | None, name: str, bot_level: str | None, now: int
    ) -> int:
        """Register a player (or a bot: ``user_id`` None) before the start; the entrant id.

        The last place goes to one entrant only: on PostgreSQL the tournament's row is
        locked first; on SQLite the insert takes the database's one write lock, and the
        count made after it (in the same transaction) sees every entrant committed before,
        so an entrant past the limit is rolled back.
        """
        try:
            with self.engine.begin() as conn:
                row = conn.execute(
                    select(Tournament.status, Tournament.max_players)
                    .where(Tournament.id == tournament_id)
                    .with_for_update()
                ).first()
                if row is None or row.status != "registering":
                    raise RegistrationError("registration is closed", "stale")
                entrant = conn.execute(
                    insert(Entrant)
                    .values(
                        tournament_id=tournament_id,
                        user_id=user_id,
                        name=name,
                        bot_level=bot_level,
                        registered_at=now,
                        seed=None,
                    )
                    .returning(Entrant.id)
                ).scalar_one()
                count = conn.execute(
                    select(func.count()).where(Entrant.tournament_id == tournament_id)
                ).scalar_one()
                if count > row.max_players:
                    raise RegistrationError("the tournament is full", "seat_taken")
                return int(entrant)
        except IntegrityError:
            raise RegistrationError("you are registered already", "already_seated") from None

    def unregister(self, tournament_id: int, entrant_id: int) -> bool:
        """Remove an entrant before the start; False once started (or not there)."""
        with self.engine.begin() as conn:
            status = conn.execute(
                select(Tournament.status).where(Tournament.id == tournament_id).with_for_update()
            ).scalar()
            if status != "registering":
                return False
            result = conn.execute(
                delete(Entrant).where(
                    and_(Entrant.tournament_id == tournament_id, Entrant.id == entrant_id)
                )
            )
            return bool(result.rowcount == 1)

    def start(
        self,
        tournament_id: int,
        seeds: dict[int, int],
        pairings: Sequence[NewPairing],
        now: int,
        ratings: Mapping[int, float | None] | None = None,
        ends_at: int | None = None,
    ) -> bool:
        """Close registration: the seeds (and the ratings they came from), an arena's
        deadline, and round 1 (round robin: every round) in one transaction; False if it
        had started already (the update is conditional: one process starts it)."""
        ratings = ratings or {}
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(Tournament)
                .where(and_(Tournament.id == tournament_id, Tournament.status == "registering"))
                .values(status="running", round=1, started_at=now, ends_at=ends_at)
            ).rowcount
            if moved != 1:
                return False
            for entrant, seed in seeds.items():
                conn.execute(
                    update(Entrant)
                    .where(Entrant.id == entrant)
                    .values(seed=seed, rating=ratings.get(entrant))
                )
            _insert_pairings(conn, tournament_id, pairings, now)
            return True

    def cancel(self, tournament_id: int, now: int) -> bool:
        """Cancel a tournament that could not start (fewer than two entrants)."""
        with self.engine.begin() as conn:
            return bool(
                conn.execute(
                    update(Tournament)
                    .where(and_(Tournament.id == tournament_id, Tournament.status == "registering"))
                    .values(status="cancelled", finished_at=now)
                ).rowcount
                == 1
            )

    def pairings(self, tournament_id: int) -> list[PairingRow]:
        """Every pairing of a tournament, by round and slot."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(*Pairing.__table__.columns)
                .where(Pairing.tournament_id == tournament_id)
                .order_by(Pairing.round, Pairing.slot)
            )
            return [
                PairingRow(
                    r.round,
                    r.slot,
                    r.player0,
                    r.player1,
                    r.table_id,
                    r.winner,
                    r.reason,
                    r.finished_at,
                )
                for r in rows
            ]

    def set_table(self, tournament_id: int, rnd: int, slot: int, table_id: str) -> None:
        """Record a pairing's table (its id is derived from the pairing: the same each time)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(Pairing).where(_pairing(tournament_id, rnd, slot)).values(table_id=table_id)
            )

    def finish_pairing(
        self, tournament_id: int, rnd: int, slot: int, winner: int | None, reason: str, now: int
    ) -> bool:
        """A pairing's result; False if it had one already."""
        with self.engine.begin() as conn:
            return bool(
                conn.execute(
                    update(Pairing)
                    .where(and_(_pairing(tournament_id, rnd, slot), Pairing.reason.is_(None)))
                    .values(winner=winner, reason=reason, finished_at=now)
                ).rowcount
                == 1
            )

    def advance(
        self,
        tournament_id: int,
        rnd: int,
        pairings: Sequence[NewPairing],
        now: int,
        deadline: int | None = None,
    ) -> bool:
        """Go from round ``rnd`` to the next, writing its pairings (if not yet written);
        False if another step did it first, or ``now`` is past the ``deadline`` (an
        arena's end: no pairing is written once it has passed)."""
        if deadline is not None and now >= deadline:
            return False
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(Tournament)
                .where(
                    and_(
                        Tournament.id == tournament_id,
                        Tournament.status == "running",
                        Tournament.round == rnd,
                    )
                )
                .values(round=rnd + 1)
            ).rowcount
            if moved != 1:
                return False
            _insert_pairings(conn, tournament_id, pairings, now)
            return True

    def finish(self, tournament_id: int, winner: int | None, now: int) -> bool:
        """Record the winner (an entrant id); False if it was finished already."""
        with self.engine.begin() as conn:
            return bool(
                conn.execute(
                    update(Tournament)
                    .where(and_(Tournament.id == tournament_id, Tournament.status == "running"))
                    .values(status="finished", winner=winner, finished_at=now)
                ).rowcount
                == 1
            )

    def set_places(
        self, tournament_id: int, places: Mapping[int, tuple[int | None, int | None]]
    ) -> None:
        """Record the entrants' final ``(place, points)`` (the same each time it runs)."""
        with self.engine.begin() as conn:
            for entrant, (place, points) in places.items():
                conn.execute(
                    update(Entrant)
                    .where(and_(Entrant.id == entrant, Entrant.tournament_id == tournament_id))
                    .values(place=place, points=points)
                )

    def trophies(self, user_id: int, limit: int = 50) -> list[Trophy]:
        """A player's podium places (1 to 3) in finished tournaments, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(*_COLUMNS, Entrant.place.label("place"), Entrant.points.label("points"))
                .join(Entrant, Entrant.tournament_id == Tournament.id)
                .where(
                    and_(
                        Entrant.user_id == user_id,
                        Entrant.place.between(1, 3),
                        Tournament.status == "finished",
                    )
                )
                .order_by(Tournament.finished_at.desc(), Tournament.id.desc())
                .limit(limit)
            )
            return [Trophy(_tournament(r), int(r.place), r.points) for r in rows]

    def won_by(self, user_id: int, limit: int = 50) -> list[TournamentRow]:
        """The tournaments a player won, newest first (for the player's profile)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(*_COLUMNS)
                .join(Entrant, Entrant.id == Tournament.winner)
                .where(and_(Entrant.user_id == user_id, Tournament.status == "finished"))
                .order_by(Tournament.finished_at.desc())
                .limit(limit)
            )
            return [_tournament(r) for r in rows]


def _pairing(tournament_id: int, rnd: int, slot: int) -> Any:
    return and_(Pairing.tournament_id == tournament_id, Pairing.round == rnd, Pairing.slot == slot)


def _insert_pairings(
    conn: Any, tournament_id: int, pairings: Sequence[NewPairing], now: int
) -> None:
    for rnd, slot, p0, p1, winner, reason in pairings:
        conn.execute(
            insert(Pairing).values(
                tournament_id=tournament_id,
                round=rnd,
                slot=slot,
                player0=p0,
                player1=p1,
                table_id=None,
                winner=winner,
                reason=reason,
                finished_at=now if reason is not None else None,
            )
        )
