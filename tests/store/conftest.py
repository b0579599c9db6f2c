"""The store on SQLite always, and on PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.store import Store, connect


@pytest.fixture
def database_url(any_database_url: str) -> str:
    return any_database_url


@pytest.fixture
def store(database_url) -> Iterator[Store]:
    opened = connect(database_url)
    yield opened
    opened.engine.dispose()
