"""The databases the bot runs on, for tests: which PostgreSQL, and how to empty it.

SQLite always; PostgreSQL when ``TEST_DATABASE_URL`` is set (``.ci/run`` sets it to
a local server). A PostgreSQL test starts and ends with every table dropped, so
tests on the one shared server never see each other's rows.
"""

from __future__ import annotations

import os

from sqlalchemy import MetaData

from bot.store import make_engine

POSTGRES_URL = os.environ.get("TEST_DATABASE_URL")


def wipe(url: str) -> None:
    """Drop every table so the next test starts from an empty database."""
    engine = make_engine(url)
    metadata = MetaData()
    metadata.reflect(engine)
    metadata.drop_all(engine)
    engine.dispose()
