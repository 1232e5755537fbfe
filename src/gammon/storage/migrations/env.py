"""Alembic environment: gammon runs migrations itself, on a connection it passes in.

``Database.migrate`` sets ``config.attributes["connection"]``; there is no
``alembic.ini`` and no logging set-up here (the server configures logging).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from gammon.storage import (
    contest_models,  # noqa: F401  (registers the tables)
    moderation_models,  # noqa: F401  (registers the tables)
)
from gammon.storage.models import Base


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    """Run the migrations on the connection ``Database.migrate`` passed in."""
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("gammon migrations run through gammon.storage.Database.migrate()")
    _run(connection)


if hasattr(context, "config"):  # imported by Alembic (not by a doctest collector)
    main()
