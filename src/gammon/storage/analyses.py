"""Finished analyses, kept so that a second visit (even after a restart) is instant
(``analyses``).

An analysis is keyed by its *subject* (a table id, or ``import-KEY`` for an imported
match) and its level; ``data`` is the analysis as JSON (``MatchAnalysis.to_dict()``,
docs/analysis.md).  ``schema`` is the JSON's schema version: a row written with another
one is not served (the caller analyses again and :meth:`Analyses.put` replaces it).

>>> from gammon.storage import Database, Store
>>> db = Database("sqlite://"); db.migrate(); analyses = Store(db).analyses
>>> analyses.get("t1", "expert", 1) is None
True
>>> analyses.put("t1", "expert", 1, '{"schema": 1}', 10)
>>> analyses.get("t1", "expert", 1)
'{"schema": 1}'
>>> analyses.get("t1", "expert", 2) is None   # an older schema is not served
True
>>> analyses.put("t1", "expert", 2, '{"schema": 2}', 20)   # replaced
>>> analyses.get("t1", "expert", 2), analyses.count()
('{"schema": 2}', 1)
>>> analyses.delete("t1"), analyses.count()
(1, 0)
>>> db.close()
"""

from __future__ import annotations

from sqlalchemy import Engine, and_, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from gammon.storage.models import Analysis

__all__ = ["Analyses"]


class Analyses:
    """The queries of the ``analyses`` table (``Store.analyses``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get(self, subject: str, level: str, schema: int) -> str | None:
        """The stored analysis (JSON text) of ``subject`` at ``level`` in ``schema``, if any."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(Analysis.data, Analysis.schema).where(
                    and_(Analysis.subject == subject, Analysis.level == level)
                )
            ).first()
        if found is None or found.schema != schema:
            return None
        return str(found.data)

    def put(self, subject: str, level: str, schema: int, data: str, now: int) -> None:
        """Keep an analysis (replacing any stored for the same subject and level).

        Two servers storing the same analysis at once both succeed: the one whose insert
        comes second finds the other's row and leaves it (the same analysis).
        """
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    delete(Analysis).where(
                        and_(Analysis.subject == subject, Analysis.level == level)
                    )
                )
                conn.execute(
                    insert(Analysis).values(
                        subject=subject, level=level, schema=schema, data=data, created_at=now
                    )
                )
        except IntegrityError:
            pass  # stored meanwhile by another server

    def delete(self, subject: str) -> int:
        """Forget every analysis of ``subject`` (an imported match deleted); how many."""
        with self.engine.begin() as conn:
            return int(conn.execute(delete(Analysis).where(Analysis.subject == subject)).rowcount)

    def count(self) -> int:
        """How many analyses are kept."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(Analysis)).scalar_one())
