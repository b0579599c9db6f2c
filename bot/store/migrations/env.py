"""Alembic environment: the store passes its own connection; the CLI uses DATABASE_URL."""

from __future__ import annotations

from alembic import context

from bot.store.schema import metadata


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    from bot.settings import load_settings
    from bot.store.db import make_engine

    engine = make_engine(load_settings().database_url.get_secret_value())
    with engine.begin() as fresh:
        _run(fresh)
