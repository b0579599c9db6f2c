"""A burst is not an outage: a call that waited for a busy pool past its budget gets
its fallback, but the database is not marked degraded (bot.store.gate). A call
that is slow itself, or fails, degrades it."""

from __future__ import annotations

import threading

from sqlalchemy.exc import OperationalError

from bot.jobs import JobStore
from bot.store import connect
from bot.store.gate import THREADS, Gate
from bot.store.writes import Attempt


def test_queued_calls_alone_never_degrade_the_gate():
    gate = Gate(budget_s=0.3, retry_after_s=60)
    release = threading.Event()
    occupied = [gate._pool.submit(release.wait, 5) for _ in range(THREADS)]
    try:
        assert gate.run("queued", lambda: "ran", "fallback") == "fallback"
        assert gate.degraded is None
        assert gate.run("queued again", lambda: "ran", "fallback") == "fallback"  # still busy
    finally:
        release.set()
        for future in occupied:
            future.result()
    assert gate.run("next", lambda: "ran", "fallback") == "ran"


def test_a_call_that_itself_runs_past_its_budget_degrades():
    gate = Gate(budget_s=0.2, retry_after_s=60)
    release = threading.Event()
    assert gate.run("slow", lambda: release.wait(5), False) is False
    release.set()
    assert "no answer within 0.2 s" in gate.degraded


def test_a_database_error_still_degrades():
    gate = Gate(budget_s=1, retry_after_s=60)

    def fails():
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    assert gate.run("read", fails, "fallback") == "fallback"
    assert "server closed the connection" in gate.degraded
    assert gate.run("read", lambda: "ran", "fallback") == "fallback"  # skipped while degraded


def test_a_write_its_writer_thread_does_not_commit_in_time_degrades_and_never_lands(tmp_path):
    """SQLite's job insert waits for its writer thread in the caller's (Gate.bounded):
    past the budget it falls back, and the insert that had not run is skipped."""
    store = connect(f"sqlite:///{tmp_path}/gate.db")
    jobs, gate = JobStore(store.engine), Gate(budget_s=0.2, retry_after_s=60)
    release = threading.Event()
    held = threading.Thread(target=jobs.writes.run, args=(lambda _: release.wait(5),))
    held.start()  # the writer thread is busy with another commit
    try:
        attempt = Attempt()
        added = gate.bounded(
            "job intake",
            lambda budget: jobs.add("work", {}, attempt=attempt, timeout=budget),
            0,
        )
        assert added == 0 and "no answer within 0.2 s" in gate.degraded
        assert not attempt.may_run()  # given up by the writer's run, past its timeout
    finally:
        release.set()
        held.join()
    assert jobs.pending() == 0
    assert gate.bounded("next", lambda budget: "ran", "fallback") == "fallback"  # degraded
    gate._retry_at = 0.0
    assert gate.bounded("next", lambda budget: jobs.add("work", {}, timeout=budget), 0) > 0
    assert gate.degraded is None
    store.engine.dispose()
