"""Decisions of an analysed match rolled out on demand, kept so that a second visit shows
them (``rollouts``).

A rollout is keyed by its *subject* (a table id, or ``import-KEY`` for an imported
match) and its *decision* (``{action index}:{kind}``: the action of the match record that
made the decision, and ``checker``, ``cube`` or ``response``); ``data`` is the result as
JSON (docs/analysis.md, "Rollouts").

>>> from gammon.storage import Database, Store
>>> db = Database("sqlite://"); db.migrate(); rollouts = Store(db).rollouts
>>> rollouts.get("t1", "12:checker") is None
True
>>> rollouts.put("t1", "12:checker", '{"trials": 144}', 10)
>>> rollouts.put("t1", "30:cube", '{"trials": 72}', 11)
>>> rollouts.put("t1", "12:checker", '{"trials": 288}', 12)   # replaced
>>> rollouts.get("t1", "12:checker"), rollouts.count()
('{"trials": 288}', 2)
>>> sorted(rollouts.of_subject("t1"))
['12:checker', '30:cube']
>>> rollouts.delete("t1"), rollouts.count()
(2, 0)
>>> db.close()
"""

from __future__ import annotations

from sqlalchemy import Engine

from gammon.storage.documents import SubjectDocuments
from gammon.storage.models import Rollout

__all__ = ["Rollouts"]


class Rollouts(SubjectDocuments):
    """The queries of the ``rollouts`` table (``Store.rollouts``): documents keyed by
    subject and decision (:meth:`of_subject` lists a subject's)."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, Rollout, Rollout.decision)

    def get(self, subject: str, decision: str) -> str | None:
        """The stored rollout (JSON text) of ``decision`` of ``subject``, if any."""
        found = self.find(subject, decision)
        return None if found is None else str(found.data)

    def put(self, subject: str, decision: str, data: str, now: int) -> None:
        """Keep a rollout (replacing any stored for the same decision); two servers storing
        the same one at once both succeed (the second leaves the first's row)."""
        self.store(subject, decision, data, now)
