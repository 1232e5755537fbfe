"""Tournaments: registration, the start, every round's tables, results, the winner.

The database holds the whole state (:class:`gammon.storage.TournamentStore`); the
:class:`Tournaments` scheduler is a background task of every server process that looks at
each live tournament every :data:`TICK` seconds (and at once when one of its tables ends)
and does the next step, each step idempotent:

- *registering*: at ``starts_at``, or once full when there is none, seed the entrants
  (by rating: a player's in the tournament's pool, :data:`START_RATING` when unrated, a
  bot's calibrated :data:`BOT_RATINGS`) and write round 1 (a round robin: every round),
  or cancel it with fewer than two entrants;
- *running*: make the table of each pairing of the current round (its id derives from
  the pairing, :func:`gammon.server.play.arranged.arranged_id`) and seat both entrants; a player
  who has not come to the table (sent a client seed) ``grace`` seconds after it was made,
  or after the server (re)started, forfeits it (reason ``no_show``); read the results of the
  tables that ended; once every pairing of the round is done, pair the next round (a
  Swiss round from the scores so far, :mod:`gammon.server.play.swiss`) or record the winner
  and everyone's place (the trophies);
- an *arena* (:mod:`gammon.server.play.arena`) has no rounds to wait for: every tick pairs the
  players who are not in a match, until its deadline; then the matches in play finish.

So a tournament survives a restart in any phase: the steps look only at the database.
With several processes, one process steps a tournament per tick (a Redis claim), and the
guarded updates make a step that runs twice happen once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from gammon.match import TableOptions
from gammon.match.ratings import START_RATING, rating_pool
from gammon.server.community.inbox import Notices
from gammon.server.infra.clock import now_ms
from gammon.server.play import tournament_rules as rules
from gammon.server.play.arena import arena_pairs
from gammon.server.play.arranged import BotSeat, arranged_id, ensure_table
from gammon.server.play.bracket import (
    Seedable,
    knockout_first_round,
    knockout_rounds,
    next_round,
    round_robin,
    seeding,
)
from gammon.server.play.swiss import swiss_pairs, swiss_rounds
from gammon.server.protocol import ServerError
from gammon.server.table.bots import BOT_LEVELS, bots_available
from gammon.server.table.forms import table_request
from gammon.server.table.hub import Hub
from gammon.server.table.results import BOT_RATINGS
from gammon.storage import (
    EntrantRow,
    PairingRow,
    RegistrationError,
    TournamentRow,
    TournamentStore,
    UserRow,
)
from gammon.storage.tournaments import NewPairing

__all__ = [
    "ARENA_MINUTES",
    "FORMATS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "ROUND_ROBIN_MAX",
    "TICK",
    "TournamentSpec",
    "Tournaments",
    "tournament_spec",
]

log = logging.getLogger(__name__)

#: knockout (single elimination, byes for the top seeds), round_robin (small groups),
#: swiss (rounds paired by score) or arena (re-paired at once until a deadline).
FORMATS: Final = ("knockout", "round_robin", "swiss", "arena")
MAX_PLAYERS: Final = 64
ROUND_ROBIN_MAX: Final = 8
#: The most rounds of a Swiss tournament.
MAX_ROUNDS: Final = 12
#: An arena's length in minutes: the default and the bounds.
ARENA_MINUTES: Final = (30, 1, 240)
#: How many of an arena's matches its page lists (the latest).
ARENA_SHOWN: Final = 60
#: Seconds between two looks at the live tournaments.
TICK: Final = 1.0
#: The fields of the create form that are table options.
_TABLE_FIELDS: Final = (
    "variant",
    "match_length",
    "cube",
    "crawford",
    "clock",
    "clock_delay",
    "clock_reserve_base",
    "clock_reserve_per_point",
)

#: Ratings of some players for the seeding: user id -> rating (missing: unrated).
#: Seeding's ratings: (rating pool, user ids) -> each rated user's rating in that pool.
RatingSource = Callable[[str, Sequence[int]], Awaitable[Mapping[int, float]]]


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """A tournament as its creator asked for it."""

    name: str
    format: str
    options: TableOptions
    max_players: int
    #: Minutes from creation to the start; None: start when full.
    start_in: int | None
    #: Seconds a player has to come to a match's table.
    grace: int
    #: A Swiss tournament's rounds (None: as many as its players need).
    rounds: int | None = None
    #: An arena's minutes.
    duration: int | None = None
    #: Whether the creator plays in it (registered at once).
    play: bool = False


def _bounded(data: Mapping[str, Any], name: str, default: int, low: int, high: int) -> int:
    text = str(data.get(name, "") or default).strip()
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise ServerError("invalid_options", f"{name} must be {low} to {high}")
    return int(text)


def tournament_spec(data: Mapping[str, Any]) -> TournamentSpec:
    """Read the create form (HTML form semantics: an absent checkbox is false).

    >>> spec = tournament_spec({"name": "Friday", "format": "knockout", "match_length": "3",
    ...                         "max_players": "8"})
    >>> spec.options.match_length, spec.start_in, spec.grace, spec.play
    (3, None, 120, False)
    >>> spec = tournament_spec({"name": "x", "format": "arena", "match_length": "1",
    ...                         "duration": "45", "play": "on"})
    >>> spec.duration, spec.rounds, spec.play
    (45, None, True)
    >>> tournament_spec({"name": "x", "format": "round_robin", "match_length": "1",
    ...                  "max_players": "20"})
    Traceback (most recent call last):
    ...
    gammon.server.protocol.ServerError: a round robin has at most 8 players
    """
    name = str(data.get("name", "")).strip()
    if not 1 <= len(name) <= 60:
        raise ServerError("invalid_options", "a tournament's name has 1 to 60 characters")
    fmt = data.get("format")
    if fmt not in FORMATS:
        raise ServerError("invalid_options", "format must be " + ", ".join(FORMATS))
    options = table_request(
        {k: v for k, v in data.items() if k in _TABLE_FIELDS}, form=True
    ).options
    if not options.is_match:
        raise ServerError("invalid_options", "a tournament plays matches: a length of 1 or more")
    max_players = _bounded(data, "max_players", 8, 2, MAX_PLAYERS)
    if fmt == "round_robin" and max_players > ROUND_ROBIN_MAX:
        raise ServerError("invalid_options", f"a round robin has at most {ROUND_ROBIN_MAX} players")
    start = str(data.get("start_in", "")).strip()
    start_in = _bounded(data, "start_in", 0, 0, 10_080) if start else None
    grace = _bounded(data, "grace", 120, 1, 3600)
    rounds = duration = None
    if fmt == "swiss" and str(data.get("rounds", "")).strip():
        rounds = _bounded(data, "rounds", 1, 1, MAX_ROUNDS)
    if fmt == "arena":
        duration = _bounded(data, "duration", *ARENA_MINUTES)
    play = str(data.get("play", "")) not in ("", "off")
    return TournamentSpec(
        name, str(fmt), options, max_players, start_in, grace, rounds, duration, play
    )


class Tournaments:
    """Tournaments of one process: what players ask for, and the scheduler."""

    def __init__(self, hub: Hub, ratings: RatingSource | None = None) -> None:
        self.hub = hub
        self.store = TournamentStore(hub.db)
        #: Where seeding finds ratings (None: seeding by registration).
        self.ratings = ratings
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._started_at = now_ms()
        #: Where the players' notices of a round starting go (docs/notifications.md).
        self.notices: Notices | None = None

    # ------------------------------------------------------------------ requests

    async def create(self, user: UserRow, spec: TournamentSpec) -> int:
        """A new tournament open for registration, its creator registered when they play in
        it; its id."""
        if user.guest:
            raise ServerError("auth_required", "sign up to create a tournament")
        now = now_ms()
        starts_at = now + spec.start_in * 60_000 if spec.start_in is not None else None
        tournament_id = await self.hub.db.run(
            self.store.create,
            spec.name,
            user.id,
            spec.format,
            json.dumps(spec.options.to_dict(), separators=(",", ":")),
            spec.max_players,
            starts_at,
            spec.grace,
            now,
            spec.rounds,
            spec.duration,
        )
        if spec.play:
            await self._register(tournament_id, user.id, user.name, None)
        self._wake.set()
        return tournament_id

    async def _get(self, tournament_id: int) -> TournamentRow:
        row = await self.hub.db.run(self.store.tournament, tournament_id)
        if row is None:
            raise ServerError("not_found", "no such tournament")
        return row

    async def _register(
        self, tournament_id: int, user_id: int | None, name: str, level: str | None
    ) -> None:
        try:
            await self.hub.db.run(
                self.store.register, tournament_id, user_id, name, level, now_ms()
            )
        except RegistrationError as exc:
            raise ServerError(exc.code, str(exc)) from None
        self._wake.set()

    async def register(self, user: UserRow, tournament_id: int) -> None:
        """Register a player before the start."""
        await self._get(tournament_id)
        await self._register(tournament_id, user.id, user.name, None)

    async def add_bot(self, user: UserRow, tournament_id: int, level: str) -> None:
        """The creator enters a bot of some level."""
        row = await self._get(tournament_id)
        if row.created_by != user.id:
            raise ServerError("forbidden", "only the tournament's creator may enter bots")
        if level not in BOT_LEVELS or not bots_available():
            raise ServerError("not_available", "no bot of that level here")
        bots = [e for e in await self.hub.db.run(self.store.entrants, tournament_id) if e.bot_level]
        await self._register(tournament_id, None, f"gammon-bot {len(bots) + 1}", level)

    async def unregister(self, user: UserRow, tournament_id: int, entrant_id: int | None) -> None:
        """A player leaves before the start (``entrant_id`` None), or the creator takes out
        an entrant."""
        row = await self._get(tournament_id)
        entrants = await self.hub.db.run(self.store.entrants, tournament_id)
        if entrant_id is None:
            mine = [e.id for e in entrants if e.user_id == user.id]
            if not mine:
                raise ServerError("not_found", "you are not registered")
            entrant_id = mine[0]
        elif row.created_by != user.id and all(
            e.id != entrant_id or e.user_id != user.id for e in entrants
        ):
            raise ServerError("forbidden", "only the tournament's creator may do that")
        if not await self.hub.db.run(self.store.unregister, tournament_id, entrant_id):
            raise ServerError("stale", "registration is closed")

    def table_ended(self, _table_id: str) -> None:
        """A table ended somewhere in this process: look at the tournaments now."""
        self._wake.set()

    # ------------------------------------------------------------------ the page

    async def view(self, tournament_id: int) -> dict[str, Any]:
        """Everything the tournament page and its JSON show."""
        row = await self._get(tournament_id)
        entrants = await self.hub.db.run(self.store.entrants, tournament_id)
        pairings = await self.hub.db.run(self.store.pairings, tournament_id)
        by_id = {e.id: e for e in entrants}

        def who(entrant: int | None) -> dict[str, Any] | None:
            e = by_id.get(entrant) if entrant is not None else None
            if e is None:
                return None
            return {
                "id": e.id,
                "name": e.name,
                "bot": e.bot_level,
                "seed": e.seed,
                "rating": e.rating,
                "place": e.place,
            }

        rounds: dict[int, list[dict[str, Any]]] = {}
        for p in pairings:
            rounds.setdefault(p.round, []).append(
                {
                    "slot": p.slot,
                    "players": [who(p.player0), who(p.player1)],
                    "table": p.table_id,
                    "winner": p.winner,
                    "reason": p.reason,
                }
            )
        listed = [rounds[r] for r in sorted(rounds)]
        if row.format == "arena":  # no rounds: its matches, the latest first
            listed = [[m for r in reversed(listed) for m in r][:ARENA_SHOWN]] if listed else []
        table = None
        if row.format != "knockout" and row.status in ("running", "finished"):
            table = [
                {**line, "entrant": who(line["entrant"])}
                for line in rules.standings_lines(row.format, entrants, pairings)
            ]
        podium = sorted((e.place, e.id) for e in entrants if e.place and e.place <= 3)
        return {
            "id": row.id,
            "name": row.name,
            "format": row.format,
            "status": row.status,
            "round": row.round,
            "rounds_total": _rounds_total(row, len(entrants)),
            "duration": row.duration,
            "ends_at": row.ends_at,
            "options": json.loads(row.options),
            "max_players": row.max_players,
            "starts_at": row.starts_at,
            "grace": row.grace,
            "created_by": row.created_by,
            "entrants": [{**(who(e.id) or {}), "user": e.user_id} for e in entrants],
            "rounds": listed,
            "standings": table,
            "winner": who(row.winner),
            "podium": [{**(who(e) or {}), "place": place} for place, e in podium],
        }

    # ------------------------------------------------------------------ the scheduler

    async def start(self) -> None:
        """Start the scheduler (every live tournament is picked up at its first look)."""
        self._started_at = now_ms()
        self._task = asyncio.create_task(self._run(), name="gammon-tournaments")

    async def stop(self) -> None:
        """Stop the scheduler."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the tournament scheduler failed; it goes on")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), TICK)

    async def tick(self) -> None:
        """One look at every live tournament."""
        live = await self.hub.db.run(self.store.listing, ("registering", "running"), 1000)
        for row in live:
            if not await self.hub.bus.claim(f"tournament:{row.id}", TICK / 2):
                continue
            try:
                await self.step(row)
            except Exception:
                log.exception("tournament %d: a step failed (tried again next tick)", row.id)

    async def step(self, row: TournamentRow) -> None:
        """The next steps of one tournament."""
        if row.status == "registering":
            now = now_ms()
            due = row.starts_at is not None and now >= row.starts_at
            if due or (row.starts_at is None and row.entrants >= row.max_players):
                await self._start(row)
            return
        pairings = await self.hub.db.run(self.store.pairings, row.id)
        if row.format == "arena":
            await self._arena(row, pairings)
            return
        current = [p for p in pairings if p.round == row.round]
        for p in current:
            if p.reason is None:
                await self._play(row, p)
        pairings = await self.hub.db.run(self.store.pairings, row.id)
        current = [p for p in pairings if p.round == row.round]
        if current and all(p.reason is not None for p in current):
            await self._next(row, pairings)

    async def _start(self, row: TournamentRow) -> None:
        entrants = await self.hub.db.run(self.store.entrants, row.id)
        if len(entrants) < 2:
            await self.hub.db.run(self.store.cancel, row.id, now_ms())
            return
        found: Mapping[int, float] = {}
        users = [e.user_id for e in entrants if e.user_id is not None]
        if self.ratings is not None and users:
            variant = TableOptions.from_dict(json.loads(row.options)).variant
            found = await self.ratings(rating_pool(variant), users)
        ratings = {e.id: _seed_rating(e, found) for e in entrants}
        order = seeding(Seedable(e.id, ratings[e.id], i) for i, e in enumerate(entrants))
        seeded = [int(str(key)) for key in order]
        seeds = {entrant: i + 1 for i, entrant in enumerate(seeded)}
        ends_at = None
        rounds: list[list[tuple[int | None, int | None]]]
        if row.format == "knockout":
            rounds = [knockout_first_round(seeded)]
        elif row.format == "swiss":
            rounds = [list(swiss_pairs(seeded, []))]
        elif row.format == "arena":
            bots = {e.id for e in entrants if e.user_id is None}
            rounds = [list(arena_pairs(seeded, [], 0, bots))]
            ends_at = now_ms() + (row.duration or ARENA_MINUTES[0]) * 60_000
        else:
            rounds = round_robin(seeded)
        new = [
            _pairing(r + 1, slot, pair)
            for r, pairs in enumerate(rounds)
            for slot, pair in enumerate(pairs)
        ]
        start = self.store.start
        if await self.hub.db.run(start, row.id, seeds, new, now_ms(), ratings, ends_at):
            log.info("tournament %d started with %d entrants", row.id, len(entrants))
            self._wake.set()

    async def _play(self, row: TournamentRow, p: PairingRow) -> None:
        """Make a pairing's table, forfeit a no-show, or read its result."""
        hub = self.hub
        table_id = p.table_id or arranged_id(f"tournament:{row.id}:{p.round}:{p.slot}")
        table = await hub.db.run(hub.store.table, table_id)
        if table is not None and table.status == "finished":
            result = json.loads(table.result or "{}")
            seat = result.get("winner")
            winner = (p.player0, p.player1)[seat] if seat in (0, 1) else None
            if winner is None and row.format == "knockout":
                winner = p.player0  # nobody won (both absent): the better seed goes on
            reason = str(result.get("reason") or "match_over")[:16]
            await hub.db.run(
                self.store.finish_pairing, row.id, p.round, p.slot, winner, reason, now_ms()
            )
            if table_id in hub.actors:
                hub.maybe_evict(table_id)  # nobody watching: forget it in a while
            return
        if table is not None and table.status == "playing" and p.table_id is not None:
            actor = await hub.get(table_id)  # both seated: only a no-show can be due
            if actor is not None:
                await self._no_shows(row, actor)
            return
        if table is None and row.format == "arena" and _past(row):
            # paired just before the deadline, no table yet: at the deadline no new match
            # is made (the pairing is set aside, counted for nobody)
            await hub.db.run(
                self.store.finish_pairing, row.id, p.round, p.slot, None, "deadline", now_ms()
            )
            return
        entrants = {e.id: e for e in await hub.db.run(self.store.entrants, row.id)}
        seats: list[UserRow | BotSeat] = []
        for entrant in (p.player0, p.player1):
            e = entrants[entrant] if entrant is not None else None
            if e is None:
                return
            if e.user_id is None:
                seats.append(BotSeat(e.name, e.bot_level or "beginner"))
            else:
                user = await hub.db.run(hub.store.user, e.user_id)
                assert user is not None
                seats.append(user)
        options = TableOptions.from_dict(json.loads(row.options))
        actor = await ensure_table(  # the bracket decides: a block does not undo a pairing
            hub, table_id, options, None, (seats[0], seats[1]), private=False, despite_blocks=True
        )
        if p.table_id is None:
            await hub.db.run(self.store.set_table, row.id, p.round, p.slot, table_id)
            if self.notices is not None:  # tell both players where to go, once
                for me, other in ((seats[0], seats[1]), (seats[1], seats[0])):
                    if isinstance(me, UserRow):
                        data = {"tournament": row.id, "name": row.name, "round": p.round}
                        data |= {"table": table_id, "opponent": other.name}
                        self.notices.later(me.id, "round", data)
        await self._no_shows(row, actor)

    async def _no_shows(self, row: TournamentRow, actor: Any) -> None:
        """Forfeit the seats nobody came to within the grace."""
        state = actor.state
        if state is None or state.status != "playing" or state.match is None or state.locked:
            return
        if state.match.game.phase != "opening":
            return
        since = max(state.created_at, self._started_at)
        if now_ms() < since + row.grace * 1000:
            return
        absent = [
            seat
            for seat, who in enumerate(state.seats)
            if who is not None and who.kind != "bot" and state.seeds[seat] is None
        ]
        if not absent:
            return
        if len(absent) == 2:
            winner = 0 if row.format == "knockout" else None
            by = None if winner is None else 1
        else:
            by = absent[0]
            winner = 1 - by

        async def forfeit() -> None:
            current = actor.state
            if current is not None and current.status == "playing" and not current.locked:
                await actor.seating.end("no_show", winner, by=by)

        await actor.call(forfeit)

    async def _next(self, row: TournamentRow, pairings: Sequence[PairingRow]) -> None:
        """The round is over: pair the next one, or record the winner."""
        current = sorted((p for p in pairings if p.round == row.round), key=lambda p: p.slot)
        entrants = await self.hub.db.run(self.store.entrants, row.id)
        last = row.round >= _rounds_total(row, len(entrants))
        if row.format == "knockout":
            winners = [p.winner for p in current]
            if last or len(winners) == 1:
                await self._finish(row, entrants, pairings, winners[0])
                return
            pairs = next_round(list(winners))
            new = [_pairing(row.round + 1, slot, pair) for slot, pair in enumerate(pairs)]
        elif last:
            lines = rules.standings_lines(row.format, entrants, pairings)
            await self._finish(row, entrants, pairings, int(lines[0]["entrant"]))
            return
        elif row.format == "swiss":
            games = rules.swiss_games(pairings)
            pairs = swiss_pairs(rules.seeded_ids(entrants), games)
            new = [_pairing(row.round + 1, slot, pair) for slot, pair in enumerate(pairs)]
        else:
            new = []  # a round robin's rounds were all written at the start
        if await self.hub.db.run(self.store.advance, row.id, row.round, new, now_ms()):
            self._wake.set()

    async def _finish(
        self,
        row: TournamentRow,
        entrants: Sequence[EntrantRow],
        pairings: Sequence[PairingRow],
        winner: int | None,
    ) -> None:
        """Record everyone's place and points, then the winner (both steps repeatable)."""
        places = rules.final_places(row.format, entrants, pairings, winner)
        await self.hub.db.run(self.store.set_places, row.id, places)
        await self.hub.db.run(self.store.finish, row.id, winner, now_ms())

    async def _arena(self, row: TournamentRow, pairings: Sequence[PairingRow]) -> None:
        """An arena's step: play the matches, pair whoever waits until the deadline, then
        finish once the last match is over."""
        for p in pairings:
            if p.reason is None:
                await self._play(row, p)
        pairings = await self.hub.db.run(self.store.pairings, row.id)
        entrants = await self.hub.db.run(self.store.entrants, row.id)
        playing = {e for p in pairings if p.reason is None for e in (p.player0, p.player1)}
        if _past(row):
            if not playing:
                lines = rules.standings_lines("arena", entrants, pairings)
                await self._finish(row, entrants, pairings, int(lines[0]["entrant"]))
            return
        waiting = [e for e in rules.seeded_ids(entrants) if e not in playing]
        bots = {e.id for e in entrants if e.user_id is None}
        both = sum(p.player0 in bots and p.player1 in bots for p in pairings if p.reason is None)
        games = rules.arena_games(pairings)
        pairs = arena_pairs(waiting, games, len(playing), bots, both)
        new = [_pairing(row.round + 1, slot, pair) for slot, pair in enumerate(pairs)]
        if not new:
            return
        if await self.hub.db.run(self.store.advance, row.id, row.round, new, now_ms(), row.ends_at):
            self._wake.set()


def _past(row: TournamentRow) -> bool:
    """Whether an arena's time is up (no new match is made)."""
    return row.ends_at is not None and now_ms() >= row.ends_at


def _seed_rating(entrant: EntrantRow, found: Mapping[int, float]) -> float:
    """The rating an entrant is seeded with: a bot's calibrated one, a player's in the
    tournament's pool, or the starting rating of an unrated player."""
    if entrant.user_id is None:
        return BOT_RATINGS.get(entrant.bot_level or "", START_RATING)
    return found.get(entrant.user_id, START_RATING)


def _rounds_total(row: TournamentRow, entrants: int) -> int:
    if entrants < 2:
        return 0
    if row.format == "knockout":
        return knockout_rounds(entrants)
    if row.format == "swiss":
        return min(row.rounds or swiss_rounds(entrants), entrants - 1 or 1)
    if row.format == "arena":
        return 0  # no rounds: it ends at its deadline
    return entrants - 1 if entrants % 2 == 0 else entrants


def _pairing(rnd: int, slot: int, pair: tuple[int | None, int | None]) -> NewPairing:
    """A pairing to write: a bye is finished at once (its player goes on)."""
    a, b = pair
    if a is None or b is None:
        return (rnd, slot, a, b, a if a is not None else b, "bye")
    return (rnd, slot, a, b, None, None)
