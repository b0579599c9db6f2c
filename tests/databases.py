"""The databases the bot runs on, for tests: which PostgreSQL, and how to empty it.

SQLite always; PostgreSQL when ``TEST_DATABASE_URL`` is set (``.ci/run`` sets it to
a local server). A PostgreSQL test starts and ends with every table dropped, so
tests on the one shared server never see each other's rows.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable

from sqlalchemy import MetaData, text
from sqlalchemy.engine import make_url

from bot.store import make_engine

POSTGRES_URL = os.environ.get("TEST_DATABASE_URL")


def wipe(url: str) -> None:
    """Drop every table so the next test starts from an empty database."""
    engine = make_engine(url)
    metadata = MetaData()
    metadata.reflect(engine)
    metadata.drop_all(engine)
    engine.dispose()


class WriteLock:
    """Another connection holding the database's write lock: no job can be committed."""

    def __init__(self, url: str) -> None:
        self._release: Callable[[], None] = lambda: None
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite":
            connection = sqlite3.connect(parsed.database, isolation_level=None)
            connection.execute("BEGIN IMMEDIATE")
            self._release = connection.close
        else:
            engine = make_engine(url)
            held = engine.connect()
            held.begin()
            held.execute(text("LOCK TABLE jobs IN EXCLUSIVE MODE"))  # reads pass, inserts wait
            self._release = lambda: (held.close(), engine.dispose())

    def release(self) -> None:
        self._release()
        self._release = lambda: None
