"""Records built directly, and the Slack harness with SQLite or PostgreSQL underneath."""

import os
from datetime import UTC, datetime, timedelta

import pytest

from bot.records.models import Measure, Record

# The Slack helper's harness (fake Slack, signed client, the real app on loopback).
from .harness import bot, slack, start_app  # noqa: F401  (fixtures)

START = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def make_record():
    counter = iter(range(1, 10_000))

    def make(**values) -> Record:
        record_id = next(counter)
        fields = {
            "id": record_id,
            "team_id": "T1",
            "user_id": "U1",
            "created_at": START + timedelta(minutes=record_id),
            "ratio": 2.0,
            "measure": Measure.RATIO,
        }
        fields.update(values)
        return Record(**fields)

    return make


POSTGRES_URL = os.environ.get("TEST_DATABASE_URL")


@pytest.fixture
def database_url(request, tmp_path) -> str:
    """SQLite in a temporary folder; PostgreSQL for tests parametrized with "postgresql"."""
    if getattr(request, "param", "sqlite") == "postgresql":
        if not POSTGRES_URL:
            pytest.skip("set TEST_DATABASE_URL to run against PostgreSQL")
        return POSTGRES_URL
    return f"sqlite:///{tmp_path / 'bot.db'}"
