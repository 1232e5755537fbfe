"""A table's client messages, turned into journal entries.

Only who may send what, and the table's own conditions (seated, not stale, the
match started), are checked here; whether a game action is allowed now is the
engine's question alone (:func:`gammon.match.apply`, through the ``action``
entry's :func:`gammon.server.table.state.reduce`).
"""

from __future__ import annotations

import html

from gammon.match import Action, Play, Roll, action_to_dict
from gammon.match.actions import ACTIONS
from gammon.server.protocol import ClientMessage, ServerError, clean_chat
from gammon.server.table.actor.fanout import Fanout
from gammon.server.table.actor.host import Record, Table, loaded, off_the_board
from gammon.server.table.actor.seating import Seating
from gammon.server.table.actor.seeds import Seeds
from gammon.server.table.connection import Connection
from gammon.server.table.state import escrow_due
from gammon.server.table.steps import canonical_move
from gammon.storage import UserRow

__all__ = ["Messages"]


class Messages:
    """What each client message does at one table (a collaborator of its actor)."""

    def __init__(self, table: Table, seeds: Seeds, seating: Seating, fanout: Fanout) -> None:
        self._table = table
        self._seeds = seeds
        self._seating = seating
        self._fanout = fanout

    @staticmethod
    def _need_user(conn: Connection) -> UserRow:
        if conn.user is None:
            raise ServerError("auth_required", "sign in or play as a guest first")
        return conn.user

    def _need_seat(self, conn: Connection) -> int:
        seat = self._table.seat(conn)
        if seat is None:
            raise ServerError("not_seated", "you are not seated at this table")
        return seat

    async def handle(self, conn: Connection, message: ClientMessage) -> Record | None:
        """Do what a message asks: the entry it made, or None when nothing changed."""
        kind = message.type
        fields = message.fields
        if kind == "chat":
            user = self._need_user(conn)
            seat = self._table.seat(conn)
            if seat is None and not loaded(self._table).options.spectator_chat:
                raise ServerError(
                    "chat_closed", "only the players may chat at this table (visitors may not)"
                )
            text = clean_chat(fields["text"])
            return await self._table.commit(
                "chat",
                {
                    "name": user.name,
                    "seat": seat,
                    "text": text,
                    "html": html.escape(text),
                    "user": user.id,
                },
            )
        if kind == "sit":
            return await self._seating.sit_user(self._need_user(conn), fields["seat"])
        if kind == "leave":
            return await self._seating.leave_user(self._need_user(conn))
        if kind == "client_seed":
            self._need_seat(conn)
            return await self._seeds.give(conn, fields["seed"])
        return await self._player_action(conn, message)

    async def _player_action(self, conn: Connection, message: ClientMessage) -> Record:
        state = loaded(self._table)
        seat = self._need_seat(conn)
        fields = message.fields
        if "player" in fields and fields["player"] != seat:
            raise ServerError(
                "forbidden", f"you sit in seat {seat}: you cannot act for the other seat"
            )
        if "version" in fields and fields["version"] != state.version:
            raise ServerError(
                "stale", f"version {fields['version']} is not the current version {state.version}"
            )
        if state.status == "finished":
            raise ServerError("table_finished", "the table is finished")
        if escrow_due(state):  # settle the last game's escrow before the next game's action
            await self._seating.top_up()
            state = loaded(self._table)
            if state.status == "finished":
                raise ServerError("table_finished", "the table is finished")
        if state.status != "playing" or state.match is None:
            raise ServerError("not_started", "the match has not started")
        action: Action
        if message.type == "roll":
            # the dice are a pure function of the journal: drawing them for a roll the
            # engine then refuses reveals nothing (the refusal names no dice)
            action = Roll(seat, self._seeds.next_dice(state))
        elif message.type == "move":
            action = await self._play(seat, fields["move"])
        else:
            spec = ACTIONS[message.type]
            action = spec.cls(seat, *(fields[f.name] for f in spec.fields))
        return await self._table.commit(
            "action", {"action": action_to_dict(action), "by": "player", "reason": None}
        )

    async def _play(self, seat: int, text: str) -> Play:
        """The move as its canonical text (the journal keeps that), read off the loop where
        the rules are heavy."""
        state = loaded(self._table)
        assert state.match is not None
        g = state.match.game
        if g.phase != "moving" or g.turn != seat or g.dice is None:
            return Play(seat, text)  # the engine refuses it with its own message
        if self._fanout.is_listed_move(text):
            return Play(seat, text)  # already one of the canonical texts
        if off_the_board(state):
            work = self._table.host.work
            return Play(
                seat, await work.run(self._table.id, canonical_move, g.position, g.dice, text)
            )
        return Play(seat, canonical_move(g.position, g.dice, text))
