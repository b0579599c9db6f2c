"""Which SQLAlchemy URL a ``DATABASE_URL`` means, and why one cannot be used here.

The store speaks SQLite and PostgreSQL (its upserts, locks and timeouts are
theirs) through synchronous drivers; a plain ``postgresql://`` means psycopg 3,
the driver the package installs. The settings check this when they are read,
so a typo in the dialect or a driver that is not installed stops the start with
one line naming the dialect, never the URL (it may hold a password), instead of
a traceback from deep inside the first connection.
"""

from __future__ import annotations

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

# The backends the store's queries are written for.
SUPPORTED_BACKENDS = ("sqlite", "postgresql")
# Driver names that mean psycopg 3 (``postgres://`` is what some hosts hand out).
PSYCOPG_ALIASES = ("postgresql", "postgres")
EXAMPLES = "sqlite:///mpbot.db or postgresql://user@host/db"


def engine_url(url: str) -> URL:
    """``url`` as SQLAlchemy should open it (raises ``ArgumentError`` on a malformed one)."""
    parsed = make_url(url)
    if parsed.drivername in PSYCOPG_ALIASES:
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def unusable(url: str) -> str | None:
    """Why ``url`` cannot be opened with what is installed, or None when it can.

    The reason names the dialect and driver the user wrote, never the rest of the URL.
    """
    try:
        parsed = engine_url(url)
    except ArgumentError:
        return f"must be a database URL such as {EXAMPLES}"
    written = make_url(url).drivername
    try:
        dialect = parsed.get_dialect()
    except NoSuchModuleError:
        return f"unknown database dialect or driver {written!r}; use {EXAMPLES}"
    if parsed.get_backend_name() not in SUPPORTED_BACKENDS:
        return f"{parsed.get_backend_name()} is not supported; use {EXAMPLES}"
    if dialect.is_async:
        return f"{written} is an asyncio driver; use a synchronous one, as in {EXAMPLES}"
    try:
        dialect.import_dbapi()
    except ImportError as error:
        missing = error.name or str(error)
        return f"the driver for {written} is not installed (no module {missing!r})"
    return None
