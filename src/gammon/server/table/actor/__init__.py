"""The table actor and its collaborators (one asyncio task per open table).

- :mod:`~gammon.server.table.actor.actor`: :class:`TableActor`, which only sequences,
  persists and fans out;
- :mod:`~gammon.server.table.actor.host`: the small protocols between the actor, its
  process (:class:`TableHost`, the hub) and its collaborators (:class:`Table`);
- :mod:`~gammon.server.table.actor.seeds`: the fair dice (server seed, rolls, client seeds);
- :mod:`~gammon.server.table.actor.seating`: sits, leaves, escrow, the start and the end;
- :mod:`~gammon.server.table.actor.autopilot`: auto-rolls, clocks, idle forfeits, bots, resuming;
- :mod:`~gammon.server.table.actor.messages`: client messages turned into journal entries;
- :mod:`~gammon.server.table.actor.fanout`: snapshots, events and presence sent to connections.
"""

from gammon.server.table.actor.actor import TableActor
from gammon.server.table.actor.fanout import REPLAY_LIMIT
from gammon.server.table.actor.host import Record, Table, TableHost

__all__ = ["REPLAY_LIMIT", "Record", "Table", "TableActor", "TableHost"]
