"""``mpbot serve`` itself with its database frozen: the job commit before the ack is bounded too.

In production the ack path commits each job (:class:`bot.slack.workers.JobIntake`)
and dedupes events, both in the database. A PostgreSQL that accepts connections
and never answers, from the start or mid-run (a relay that goes silent under
open pooled connections), must not hold the ack: the commit gets the store
gate's budget, then the work is answered in-process (degraded, logged).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator

import pytest
from served import Served

ACK_S = 2.0  # within Slack's 3 s with room for a loaded machine


@pytest.fixture
def serve(slack, tmp_path) -> Iterator[Callable[..., Served]]:
    started: list[Served] = []

    def start(database_url: str) -> Served:
        served = Served(slack.url, database_url, tmp_path / f"serve-{len(started)}.log")
        started.append(served)
        return served.start()

    yield start
    for served in started:
        served.close()


def _acked_and_answered(slack, client, hook: str) -> None:
    started = time.monotonic()
    sent = client.command("100 2", response_url=slack.response_url(hook))
    acked = time.monotonic() - started
    assert sent.status == 200 and acked < ACK_S, acked
    (answer,) = slack.wait(lambda: slack.responses(hook), timeout=15)
    assert "about 50 hours" in answer.body["text"]


def test_serve_with_postgresql_frozen_from_the_start(slack, serve, signed_client):
    with socket.create_server(("127.0.0.1", 0), backlog=64) as listener:
        frozen = f"postgresql://mpbot:mpbot@127.0.0.1:{listener.getsockname()[1]}/mpbot"
        served = serve(frozen)
        client = signed_client(served.url)
        for index in range(3):
            _acked_and_answered(slack, client, f"frozen{index}")
        assert "degraded" in served.log()


def test_serve_with_postgresql_freezing_mid_run(slack, serve, signed_client, relayed_postgres):
    url, relay = relayed_postgres
    served = serve(url)
    served.wait_for_workers(1)
    client = signed_client(served.url)
    _acked_and_answered(slack, client, "warm")
    relay.freeze()
    for index in range(3):
        _acked_and_answered(slack, client, f"midrun{index}")
    assert "degraded" in served.log()
