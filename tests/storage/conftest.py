"""The storage tests' database: SQLite, and PostgreSQL when the services are there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the storage tests need the server extra")

from gammon.storage import Database, Store
from serverkit import postgres_schema


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A migrated database, closed (and its PostgreSQL schema dropped) afterwards."""
    if request.param == "sqlite":
        database = Database(f"sqlite:///{tmp_path / 'store.db'}")
        database.migrate()
        yield database
        database.close()
        return
    with postgres_schema() as url:
        database = Database(url, pool_size=4)
        database.migrate()
        yield database
        database.close()


@pytest.fixture
def store(db: Database) -> Store:
    return Store(db)
