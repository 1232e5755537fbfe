"""The registry of journal entry kinds: everything that can happen at a table.

A table's journal (``entries`` in the database) is a list of entries, each a
kind from :data:`JOURNAL` and a JSON object of data.  This module is the only
list of the kinds and of the fields each one holds; :func:`gammon.server.table.state.reduce`
folds exactly these kinds, clients receive them as ``event`` messages, and
docs/protocol.md ("Event kinds") documents the same list (a test checks it).

>>> [kind for kind in JOURNAL][:4]
['created', 'sit', 'leave', 'start']
>>> JOURNAL["escrow"].required
('seat', 'amount')
>>> check_entry("seed", {"seat": 0})
Traceback (most recent call last):
...
gammon.server.protocol.ServerError: a seed entry needs seed
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal

from gammon.server.protocol import ServerError

__all__ = ["JOURNAL", "EntryKind", "JournalKind", "check_entry"]

#: The kind of a journal entry.
EntryKind = Literal[
    "created",
    "sit",
    "leave",
    "start",
    "seed",
    "action",
    "escrow",
    "resume",
    "chat",
    "chat_removed",
    "end",
]


@dataclass(frozen=True, slots=True)
class JournalKind:
    """One kind of journal entry: the fields its data must hold, those it may hold,
    and those no client is ever sent (``private``)."""

    name: EntryKind
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()
    private: tuple[str, ...] = ()
    summary: str = ""


#: Every journal entry kind, in the order a table meets them.
JOURNAL: Final[Mapping[str, JournalKind]] = MappingProxyType(
    {
        k.name: k
        for k in (
            JournalKind(
                "created",
                ("by", "private", "options"),
                ("reserved",),
                summary="the table (always version 1); a rematch's seat kept for a while",
            ),
            JournalKind(
                "sit",
                ("seat", "name", "kind"),
                ("user", "level", "escrow"),
                private=("user",),
                summary="someone sits down; at a staked table with the escrow it holds",
            ),
            JournalKind("leave", ("seat",), ("name",), summary="a seat is freed before the match"),
            JournalKind(
                "start",
                ("commitment", "players"),
                ("match_id", "scheme", "balances", "seeds"),
                private=("seeds",),
                summary="the match begins: the dice commitment and the seeds given before",
            ),
            JournalKind("seed", ("seat", "seed"), summary="a client seed"),
            JournalKind(
                "action",
                ("action",),
                ("by", "reason"),
                summary="one engine action, with its dice",
            ),
            JournalKind(
                "escrow", ("seat", "amount"), summary="a seat's escrow held again for a new game"
            ),
            JournalKind("resume", (), ("grace",), summary="the server came back"),
            JournalKind(
                "chat",
                ("name", "text"),
                ("seat", "html", "user"),
                private=("user",),
                summary="a chat line",
            ),
            JournalKind(
                "chat_removed",
                ("seq",),
                ("by",),
                summary="a moderator removed chat line ``seq`` (docs/moderation.md)",
            ),
            JournalKind(
                "end",
                ("reason",),
                ("winner", "score", "server_seed", "by"),
                summary="the table is finished; the server seed is revealed",
            ),
        )
    }
)


def check_entry(kind: str, data: Any) -> JournalKind:
    """The registered kind of an entry whose data holds what it must (else ``bad_message``)."""
    spec = JOURNAL.get(kind)
    if spec is None:
        raise ServerError("bad_message", f"unknown journal entry kind {kind!r}")
    if not isinstance(data, dict):
        raise ServerError("bad_message", f"a {kind} entry's data is an object")
    for name in spec.required:
        if name not in data:
            raise ServerError("bad_message", f"a {kind} entry needs {name}")
    return spec
