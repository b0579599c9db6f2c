"""Unauthenticated install-page views leave no rows behind once their state expires."""

from __future__ import annotations

import urllib.request
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from bot.store import connect

OAUTH = {
    "slack_bot_token": None,
    "slack_client_id": "111.222",
    "slack_client_secret": "oauth-client-secret-value",
}


def _states(database_url: str) -> tuple[int, int]:
    """(all rows, expired rows) in the OAuth state table."""
    now = datetime.now(UTC).replace(tzinfo=None)
    with connect(database_url).engine.connect() as connection:
        rows = connection.execute(text("SELECT expire_at FROM slack_oauth_states")).all()
    expired = [row for row in rows if datetime.fromisoformat(str(row.expire_at)) <= now]
    return len(rows), len(expired)


def test_expired_oauth_states_are_purged(start_app, database_url):
    running = start_app(**OAUTH)
    long_ago = datetime.now(UTC).replace(tzinfo=None) - timedelta(hours=1)
    with connect(database_url).engine.begin() as connection:
        for n in range(1067):  # views of /slack/install an hour ago, never completed
            connection.execute(
                text("INSERT INTO slack_oauth_states (state, expire_at) VALUES (:s, :e)"),
                {"s": f"old-{n}", "e": long_ago},
            )
    assert _states(database_url) == (1067, 1067)
    for _ in range(3):
        with urllib.request.urlopen(running.url + "/slack/install", timeout=5) as response:
            assert response.status == 200
    assert _states(database_url) == (3, 0)  # the three live ones only
