"""What the job-store tests share: a migrated store on each database, an outbox answer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest

from bot.jobs.store import now
from bot.store import connect


@pytest.fixture
def engine(any_database_url: str) -> Iterator:
    store = connect(any_database_url)
    yield store.engine
    store.engine.dispose()


@pytest.fixture
def outbox_answer() -> Callable[..., dict]:
    """``outbox_answer(minutes=30)``: a response_url answer's outbox values."""

    def values(minutes: float = 30) -> dict:
        return {
            "kind": "response_url",
            "target": "http://slack.invalid/hook",
            "message": {"text": "hi"},
            "team_id": "T1",
            "enterprise_id": None,
            "expires_at": now() + timedelta(minutes=minutes),
        }

    return values
