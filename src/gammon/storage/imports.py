"""Imported matches: the match files players upload, kept as their records (``imports``).

Each is the file's record as an action log, with the reader's warnings and the games
it did not replay exactly, and belongs to the player who uploaded it (deleted with
the account).  A player keeps at most ``cap`` of them: one more is refused with
:class:`ImportLimitError` and nothing is deleted to make room.

>>> from gammon.storage import Database, Store
>>> db = Database("sqlite://"); db.migrate(); imports = Store(db).imports
>>> ann = Store(db).create_user("ann", None, guest=True, balance=0, now=1).id
>>> first = ImportRow("k1", ann, "a.mat", "mat", 10, "{}\\n", "[]", "[]", 120, "{}")
>>> imports.add(first, cap=2)
>>> imports.add(ImportRow("k2", ann, "b.sgf", "sgf", 20, "{}\\n", "[]", "[]", 80, "{}"), cap=2)
>>> imports.add(ImportRow("k3", ann, "c.xg", "xg", 30, "{}\\n", "[]", "[]", 99, "{}"), cap=2)
Traceback (most recent call last):
...
gammon.storage.imports.ImportLimitError: you keep at most 2 imported matches: delete one to import another
>>> imports.get("k1", ann) == first, imports.get("k1", ann + 1)
(True, None)
>>> shown = imports.page(ann, 1, size=1)
>>> shown.total, shown.pages, [row.file_name for row in shown.rows]
(2, 2, ['b.sgf'])
>>> imports.delete("k2", ann), imports.delete("k2", ann), imports.count(ann)
(True, False, 1)
>>> db.close()
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, Engine, and_, delete, func, insert, select

from gammon.errors import GammonError
from gammon.storage.models import Import, User

__all__ = ["ImportLimitError", "ImportListing", "ImportPage", "ImportRow", "Imports"]


class ImportLimitError(GammonError):
    """A player who already keeps ``cap`` imported matches uploads one more."""

    code = "too_many_imports"

    def __init__(self, cap: int) -> None:
        super().__init__(f"you keep at most {cap} imported matches: delete one to import another")
        self.cap = cap


@dataclass(frozen=True, slots=True)
class ImportRow:
    """An imported match: ``log`` is its record as an action log; ``warnings`` (the
    reader's, ``[{"line", "game", "message", "exact"}, ...]``) and ``unchecked`` (the
    games not replayed exactly) are JSON, and so is ``summary``, what its page shows;
    ``uploaded_at`` in ms, ``size`` in bytes."""

    id: str
    owner_id: int
    file_name: str
    format: str
    uploaded_at: int
    log: str
    warnings: str
    unchecked: str
    size: int
    summary: str


@dataclass(frozen=True, slots=True)
class ImportListing:
    """An imported match as its owner's list shows it (without the record)."""

    id: str
    file_name: str
    format: str
    uploaded_at: int
    size: int


@dataclass(frozen=True, slots=True)
class ImportPage:
    """One page of a player's imported matches, newest first: page ``number`` of
    ``pages`` (at least 1), out of ``total``."""

    number: int
    pages: int
    total: int
    rows: tuple[ImportListing, ...]


_ROW_COLUMNS = tuple(Import.__table__.columns)
_LISTING_COLUMNS = (Import.id, Import.file_name, Import.format, Import.uploaded_at, Import.size)


def _count(conn: Connection, owner_id: int) -> int:
    query = select(func.count()).select_from(Import).where(Import.owner_id == owner_id)
    return int(conn.execute(query).scalar_one())


class Imports:
    """The queries of the ``imports`` table (``Store.imports``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, row: ImportRow, cap: int) -> None:
        """Keep an imported match, unless its owner already keeps ``cap``
        (:class:`ImportLimitError`, nothing written).

        Two uploads at once never both take the last place: on PostgreSQL the owner's
        row is locked first; on SQLite the insert holds the one write lock while the
        matches are counted.
        """
        with self.engine.begin() as conn:
            conn.execute(select(User.id).where(User.id == row.owner_id).with_for_update())
            conn.execute(
                insert(Import).values(
                    id=row.id,
                    owner_id=row.owner_id,
                    file_name=row.file_name,
                    format=row.format,
                    uploaded_at=row.uploaded_at,
                    log=row.log,
                    warnings=row.warnings,
                    unchecked=row.unchecked,
                    size=row.size,
                    summary=row.summary,
                )
            )
            if _count(conn, row.owner_id) > cap:
                raise ImportLimitError(cap)  # rolls the insert back

    def owns(self, import_id: str, owner_id: int) -> bool:
        """Whether ``owner_id`` uploaded the match with this key (its text not read)."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(Import.id).where(and_(Import.id == import_id, Import.owner_id == owner_id))
            ).first()
        return found is not None

    def get(self, import_id: str, owner_id: int) -> ImportRow | None:
        """The imported match with this key, if ``owner_id`` uploaded it."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(*_ROW_COLUMNS).where(
                    and_(Import.id == import_id, Import.owner_id == owner_id)
                )
            ).first()
        if found is None:
            return None
        return ImportRow(
            found.id,
            found.owner_id,
            found.file_name,
            found.format,
            int(found.uploaded_at),
            found.log,
            found.warnings,
            found.unchecked,
            int(found.size),
            found.summary,
        )

    def count(self, owner_id: int) -> int:
        """How many imported matches a player keeps."""
        with self.engine.connect() as conn:
            return _count(conn, owner_id)

    def page(self, owner_id: int, number: int, size: int = 20) -> ImportPage:
        """Page ``number`` (from 1; past the last, the last) of a player's imported
        matches, ``size`` a page, newest first."""
        with self.engine.begin() as conn:
            total = _count(conn, owner_id)
            pages = max(1, -(-total // size))
            number = min(max(1, number), pages)
            rows = conn.execute(
                select(*_LISTING_COLUMNS)
                .where(Import.owner_id == owner_id)
                .order_by(Import.uploaded_at.desc(), Import.id.desc())
                .offset((number - 1) * size)
                .limit(size)
            )
            listed = tuple(
                ImportListing(r.id, r.file_name, r.format, int(r.uploaded_at), int(r.size))
                for r in rows
            )
        return ImportPage(number, pages, total, listed)

    def delete(self, import_id: str, owner_id: int) -> bool:
        """Delete an imported match of ``owner_id``; whether there was one."""
        with self.engine.begin() as conn:
            result = conn.execute(
                delete(Import).where(and_(Import.id == import_id, Import.owner_id == owner_id))
            )
            return bool(result.rowcount)
