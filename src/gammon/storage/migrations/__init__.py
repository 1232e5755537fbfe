"""Alembic migrations of the gammon database (run by ``Database.migrate``)."""
