"""The bot's database: language preferences, thread context, event dedupe, team records.

Everything a replica must share with the others lives here, so the Slack app
itself stays stateless and scales out behind a load balancer. SQLite by
default, PostgreSQL in production; the schema is managed by Alembic.
"""

from bot.store.db import (
    DatabaseLimits,
    Store,
    connect,
    connect_or_degrade,
    make_engine,
    migrate,
    open_store,
)

__all__ = [
    "DatabaseLimits",
    "Store",
    "connect",
    "connect_or_degrade",
    "make_engine",
    "migrate",
    "open_store",
]
