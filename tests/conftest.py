"""Fixtures every test folder shares: one database of each kind the bot runs on, and a
data folder of each test's own.

SQLite always; PostgreSQL when ``TEST_DATABASE_URL`` is set (``.ci/run`` sets it to
a local server). A PostgreSQL test starts and ends with every table dropped.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from databases import POSTGRES_URL, wipe


@pytest.fixture(autouse=True)
def own_data_folder(tmp_path, monkeypatch) -> None:
    """Each test's own user data folder (platformdirs reads ``XDG_DATA_HOME``), so no
    test writes a key, a database or a spool into the home of whoever runs them, and
    no two tests share one (the per-channel pace file among them)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))


@pytest.fixture(params=["sqlite", "postgresql"])
def any_database_url(request, tmp_path) -> Iterator[str]:
    """A fresh database of each kind: a SQLite file, then the wiped PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'bot.db'}"
        return
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set (.ci/run sets it to a local PostgreSQL)")
    wipe(POSTGRES_URL)
    yield POSTGRES_URL
    wipe(POSTGRES_URL)


@pytest.fixture
def frozen_url() -> Iterator[str]:
    """A PostgreSQL URL whose server accepts connections and never says a word."""
    with socket.create_server(("127.0.0.1", 0), backlog=64) as listener:
        port = listener.getsockname()[1]
        yield f"postgresql://mpbot:mpbot@127.0.0.1:{port}/mpbot"


@pytest.fixture
def refused_url() -> str:
    """A PostgreSQL URL where nothing listens (connection refused)."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
    return f"postgresql://mpbot:mpbot@127.0.0.1:{port}/mpbot"
