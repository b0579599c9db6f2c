"""ack_then: the ack runs first with Bolt's arguments, the work after it, failures logged."""

from __future__ import annotations

import logging
from concurrent.futures import Executor, Future

import pytest

from bot.slack.listeners import InPool, ack_then


class Later(Executor):
    """Holds submitted work until run() (as a busy pool would)."""

    def __init__(self) -> None:
        self.pending: list = []

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.pending.append((fn, args, kwargs))
        return Future()

    def run(self) -> None:
        for fn, args, kwargs in self.pending:
            fn(*args, **kwargs)


def test_ack_runs_now_and_the_work_later_with_the_requests_own_arguments():
    seen: list = []
    pool = Later()
    listener = ack_then(
        InPool(pool),
        lambda ack: seen.append(("ack", ack)),
        lambda command, context: seen.append(("work", command, context)),
    )
    listener(ack="ACK", body={"b": 1}, payload={"text": "100 2"}, client="C", context="CTX")
    assert seen == [("ack", "ACK")]
    pool.run()
    assert seen[1] == ("work", {"text": "100 2"}, "CTX")


def test_a_failing_work_is_logged_not_lost(caplog):
    def work(body):
        raise RuntimeError("boom")

    pool = Later()
    listener = ack_then(InPool(pool), lambda ack: None, work)
    listener(ack=None, body={}, payload={}, client=None, context={})
    with caplog.at_level(logging.ERROR):
        pool.run()
    assert "work" in caplog.text and "boom" in caplog.text


def test_a_listener_asking_for_an_unknown_argument_is_refused_at_registration():
    with pytest.raises(TypeError, match="say"):
        ack_then(InPool(Later()), lambda ack: None, lambda say: None)
