"""A finished table written straight into a server's database from a recorded match, for the
tests that need a whole match without playing it (the analysis board's): the journal a
real table would have (created, two bots sit, start, every action, end), each entry checked
by the server's own reducer.  The dice are the record's, so the table's dice do not match
its commitment (its verify page would say so); nothing else differs from a played match.
"""

from __future__ import annotations

import json
from pathlib import Path

from gammon.match.actions import action_to_dict
from gammon.match.fairdice import DICE_SCHEME, commit
from gammon.match.record import MatchRecord, read_log, replay
from gammon.server.table.state import TableState, initial_state, reduce
from gammon.storage import Database, Store, TableUpdate

DATA = Path(__file__).parent / "data" / "analysis"


def recorded(name: str) -> MatchRecord:
    """A recorded match of tests/data/analysis (``standard-7``, ``tavla-3``, ``plakoto-1``...)."""
    return read_log((DATA / f"{name}.jsonl").read_text(encoding="utf-8"))


def _seats(state: TableState) -> str:
    return json.dumps([s.public() if s is not None else None for s in state.seats])


def seed_finished_match(database_url: str, table_id: str, record: MatchRecord) -> None:
    """Write ``record`` as the finished table ``table_id`` (bot against bot) into the database
    (migrated first), as the server would have journalled it."""
    db = Database(database_url)
    try:
        db.migrate()
        store = Store(db)
        at = 1_700_000_000_000
        options = record.options.to_dict()
        created = {"by": "gammon-bot", "private": False, "options": options}
        store.create_table(
            table_id, None, json.dumps(options), False, at, "created", json.dumps(created)
        )
        state = initial_state(table_id, created, at)
        seed = bytes(range(32))
        final = replay(record)[-1]
        entries: list[tuple[str, dict[str, object]]] = [
            (
                "sit",
                {"seat": seat, "name": name, "kind": "bot", "user": None, "level": "beginner"},
            )
            for seat, name in enumerate(record.players)
        ]
        entries.append(
            (
                "start",
                {
                    "match_id": table_id,
                    "scheme": DICE_SCHEME,
                    "commitment": commit(seed),
                    "players": list(record.players),
                    "balances": None,
                    "seeds": ["", ""],
                },
            )
        )
        entries += [("action", {"action": action_to_dict(a), "by": "bot"}) for a in record.actions]
        entries.append(
            (
                "end",
                {
                    "reason": "match_over",
                    "winner": final.winner,
                    "score": list(final.score),
                    "server_seed": seed.hex(),
                },
            )
        )
        for seq, (kind, data) in enumerate(entries, start=2):
            at += 1000
            new, _events = reduce(state, kind, data, at)
            change = TableUpdate(
                status=new.status if new.status != state.status else None,
                seats=_seats(new) if new.seats != state.seats else None,
                server_seed=seed.hex() if kind == "start" else None,
                finished_at=at if kind == "end" else None,
                result=json.dumps(data) if kind == "end" else None,
            )
            store.append(table_id, seq, kind, json.dumps(data), at, change)
            state = new
    finally:
        db.close()
