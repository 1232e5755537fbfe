"""Keyed JSON documents of a subject: the one store behind ``analyses`` and ``rollouts``.

A :class:`SubjectDocuments` reads and writes a table whose rows are JSON text (``data``)
keyed by a *subject* (a table id, or ``import-KEY`` for an imported match) and one more
key column (an analysis' level, a rollout's decision), with ``created_at``.  Storing
replaces the row of the same keys; two servers storing the same document at once both
succeed (the second finds the first's row and leaves it: the same document).

>>> from gammon.storage import Database
>>> from gammon.storage.models import Rollout
>>> db = Database("sqlite://"); db.migrate()
>>> docs = SubjectDocuments(db.engine, Rollout, Rollout.decision)
>>> docs.store("t1", "12:checker", '{"trials": 144}', 10)
>>> docs.store("t1", "12:checker", '{"trials": 288}', 11)   # replaced
>>> docs.find("t1", "12:checker").data, docs.of_subject("t1"), docs.count()
('{"trials": 288}', {'12:checker': '{"trials": 288}'}, 1)
>>> docs.find("t1", "30:cube") is None, docs.delete("t1"), docs.count()
(True, 1, 0)
>>> db.close()
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, Row, and_, delete, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import InstrumentedAttribute

from gammon.storage.models import Analysis, Rollout

__all__ = ["SubjectDocuments"]


class SubjectDocuments:
    """The queries of a table of JSON documents keyed by ``(subject, key)``.

    ``model`` is the table's mapped class (with ``subject``, ``data`` and ``created_at``
    columns), ``key`` its second key column; further columns of a row (an analysis'
    ``schema``) are read with :meth:`find` and written with :meth:`store`'s ``extra``.
    """

    def __init__(
        self,
        engine: Engine,
        model: type[Analysis] | type[Rollout],
        key: InstrumentedAttribute[str],
    ) -> None:
        self.engine = engine
        self.model = model
        self.key = key

    def _where(self, subject: str, key: str) -> Any:
        return and_(self.model.subject == subject, self.key == key)

    def find(self, subject: str, key: str, *columns: str) -> Row[Any] | None:
        """The row of ``(subject, key)`` (its ``data`` and the named ``columns``), if any."""
        wanted = [self.model.data, *(getattr(self.model, c) for c in columns)]
        with self.engine.connect() as conn:
            return conn.execute(select(*wanted).where(self._where(subject, key))).first()

    def of_subject(self, subject: str) -> dict[str, str]:
        """Every stored document of ``subject``: key -> JSON text."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(self.key, self.model.data).where(self.model.subject == subject)
            ).all()
        return {str(key): str(data) for key, data in rows}

    def store(self, subject: str, key: str, data: str, now: int, **extra: Any) -> None:
        """Keep a document (replacing any stored under the same keys); ``extra``: the
        row's other columns."""
        values = {"subject": subject, self.key.key: key, "data": data, "created_at": now}
        try:
            with self.engine.begin() as conn:
                conn.execute(delete(self.model).where(self._where(subject, key)))
                conn.execute(insert(self.model).values(**values, **extra))
        except IntegrityError:
            pass  # stored meanwhile by another server

    def delete(self, subject: str) -> int:
        """Forget every document of ``subject`` (an imported match deleted); how many."""
        with self.engine.begin() as conn:
            result = conn.execute(delete(self.model).where(self.model.subject == subject))
            return int(result.rowcount)

    def count(self) -> int:
        """How many documents are kept."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(self.model)).scalar_one())
