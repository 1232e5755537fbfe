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

from sqlalchemy import Engine, and_, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from gammon.storage.models import Rollout

__all__ = ["Rollouts"]


class Rollouts:
    """The queries of the ``rollouts`` table (``Store.rollouts``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get(self, subject: str, decision: str) -> str | None:
        """The stored rollout (JSON text) of ``decision`` of ``subject``, if any."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(Rollout.data).where(
                    and_(Rollout.subject == subject, Rollout.decision == decision)
                )
            ).scalar_one_or_none()
        return None if found is None else str(found)

    def of_subject(self, subject: str) -> dict[str, str]:
        """Every stored rollout of ``subject``: decision → JSON text."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(Rollout.decision, Rollout.data).where(Rollout.subject == subject)
            ).all()
        return {str(r.decision): str(r.data) for r in rows}

    def put(self, subject: str, decision: str, data: str, now: int) -> None:
        """Keep a rollout (replacing any stored for the same decision); two servers storing
        the same one at once both succeed (the second leaves the first's row)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    delete(Rollout).where(
                        and_(Rollout.subject == subject, Rollout.decision == decision)
                    )
                )
                conn.execute(
                    insert(Rollout).values(
                        subject=subject, decision=decision, data=data, created_at=now
                    )
                )
        except IntegrityError:
            pass  # stored meanwhile by another server

    def delete(self, subject: str) -> int:
        """Forget every rollout of ``subject`` (an imported match deleted); how many."""
        with self.engine.begin() as conn:
            return int(conn.execute(delete(Rollout).where(Rollout.subject == subject)).rowcount)

    def count(self) -> int:
        """How many rollouts are kept."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(Rollout)).scalar_one())
