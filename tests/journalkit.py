"""A long table, written straight to the database: a money session of many games.

The server's own path (one transaction, one fan-out per entry) would take minutes for
thousands of entries; here the journal is folded with the server's pure
:func:`gammon.server.table.state.reduce` and the engine, with the table's verifiable dice,
and appended entry by entry before the server starts (which then resumes the table).
"""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import dataclass
from typing import Any

from gammon.dice import Dice
from gammon.match import Abandon, Action, Play, Roll, action_to_dict, to_act
from gammon.match.fairdice import VerifiableDice, commit
from gammon.server.community.auth import token_hash
from gammon.server.infra.clock import now_ms
from gammon.server.table.actor.actor import _update
from gammon.server.table.state import DICE_SCHEME, TableState, initial_state, reduce
from gammon.storage import Database, Store

__all__ = ["LongTable", "write_long_session"]


@dataclass(frozen=True)
class LongTable:
    """A table in play with a long journal, and the session tokens of its two players."""

    table_id: str
    tokens: tuple[str, str]
    csrf: tuple[str, str]
    version: int
    games: int


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


def write_long_session(
    database_url: str,
    games: int,
    plies: int = 30,
    options: dict[str, Any] | None = None,
    final_roll: tuple[int, int] | None = None,
    seed: int | None = None,
) -> LongTable:
    """Write a money session in play whose first ``games`` games are over (each game
    ``plies`` half-moves of first legal moves, then abandoned by the player on turn).

    ``final_roll``: the game in play then goes on ``plies`` half-moves too, and its
    player on turn rolls these dice (e.g. an acey-deucey 1-2), so that it is their move.
    ``seed``: moves are chosen at random (this seed) among the legal ones, not the first.
    """
    rng = random.Random(seed) if seed is not None else None
    db = Database(database_url)
    try:
        db.migrate()
        store = Store(db)
        at = now_ms() - 10_000_000
        tokens, csrfs, users = [], [], []
        for seat in (0, 1):
            name = f"long{secrets.token_hex(4)}{seat}"
            user = store.create_user(name, None, guest=True, balance=1000, now=at)
            token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(16)
            store.create_session(token_hash(token), user.id, csrf, at, at + 10**10)
            tokens.append(token)
            csrfs.append(csrf)
            users.append(user)
        # with a seed, the same table (its id and server seed make its dice) every time
        table_id = secrets.token_urlsafe(9) if rng is None else f"long{rng.randrange(10**8):08d}"
        opts = {"match_length": 0, "stake": 0, **(options or {})}
        from gammon.match import TableOptions

        created = {"by": users[0].name, "private": False, "options": TableOptions(**opts).to_dict()}
        store.create_table(
            table_id, users[0].id, _dumps(created["options"]), False, at, "created", _dumps(created)
        )
        state = initial_state(table_id, created, at)
        server_seed = secrets.token_bytes(32) if rng is None else rng.randbytes(32)

        def write(kind: str, data: dict[str, Any], seed: bytes | None = None) -> None:
            nonlocal state, at
            at += 100
            new, _events = reduce(state, kind, data, at)
            change = _update(state, new, kind, data, at)
            if seed is not None:
                from dataclasses import replace

                change = replace(change, server_seed=seed.hex())
            store.append(table_id, new.version, kind, _dumps(data), at, change)
            state = new

        for seat, user in enumerate(users):
            write("sit", {"seat": seat, "name": user.name, "kind": "guest", "user": user.id})
        start = {
            "match_id": table_id,
            "scheme": DICE_SCHEME,
            "commitment": commit(server_seed),
            "players": [u.name for u in users],
            "balances": None,
            "seeds": ["long-a", "long-b"],
        }
        write("start", start, server_seed)
        dice = VerifiableDice(server_seed, table_id, state.seeds_locked)
        while _games_over(state) < games:
            write(
                "action", {"action": action_to_dict(_next(state, dice, plies, rng)), "by": "player"}
            )
        while final_roll is not None:
            assert state.match is not None
            g = state.match.game
            if g.phase == "turn" and g.plies >= plies and g.turn is not None:
                roll = Roll(g.turn, Dice(*final_roll))
                write("action", {"action": action_to_dict(roll), "by": "player"})
                break
            write(
                "action", {"action": action_to_dict(_next(state, dice, 10**6, rng)), "by": "player"}
            )
        return LongTable(
            table_id, (tokens[0], tokens[1]), (csrfs[0], csrfs[1]), state.version, games
        )
    finally:
        db.close()


def _games_over(state: TableState) -> int:
    assert state.match is not None
    return len(state.match.games)


def _next(state: TableState, dice: VerifiableDice, plies: int, rng: random.Random | None) -> Action:
    match = state.match
    assert match is not None
    g = match.game
    seat = to_act(match)[0]
    if g.phase == "opening":
        return Roll(0, dice.roll())
    if g.phase == "turn":
        if g.plies >= plies:
            return Abandon(seat)
        return Roll(seat, dice.roll())
    assert g.phase == "moving" and g.dice is not None, g.phase
    moves = g.position.legal_moves(g.dice)
    return Play(seat, str(rng.choice(moves) if rng is not None else moves[0]))
