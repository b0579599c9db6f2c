"""The store on SQLite always, and on PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from sqlalchemy import MetaData

from bot.store import Store, connect, make_engine


def _wipe(url: str) -> None:
    """Drop every table so each test starts from an empty database."""
    engine = make_engine(url)
    metadata = MetaData()
    metadata.reflect(engine)
    metadata.drop_all(engine)
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("TEST_DATABASE_URL is not set (.ci/run sets it to a local PostgreSQL)")
    _wipe(url)
    yield url
    _wipe(url)


@pytest.fixture
def store(database_url) -> Iterator[Store]:
    opened = connect(database_url)
    yield opened
    opened.engine.dispose()
