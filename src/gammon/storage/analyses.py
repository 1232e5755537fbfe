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

from sqlalchemy import Engine

from gammon.storage.documents import SubjectDocuments
from gammon.storage.models import Analysis

__all__ = ["Analyses"]


class Analyses(SubjectDocuments):
    """The queries of the ``analyses`` table (``Store.analyses``): documents keyed by
    subject and level, with their schema version."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, Analysis, Analysis.level)

    def get(self, subject: str, level: str, schema: int) -> str | None:
        """The stored analysis (JSON text) of ``subject`` at ``level`` in ``schema``, if any."""
        found = self.find(subject, level, "schema")
        if found is None or found.schema != schema:
            return None
        return str(found.data)

    def put(self, subject: str, level: str, schema: int, data: str, now: int) -> None:
        """Keep an analysis (replacing any stored for the same subject and level).

        Two servers storing the same analysis at once both succeed: the one whose insert
        comes second finds the other's row and leaves it (the same analysis).
        """
        self.store(subject, level, data, now, schema=schema)
