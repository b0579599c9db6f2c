"""A job commit past its budget either lands before the ack or never (never both).

Past ``DATABASE_BUDGET_S`` the HTTP process answers the command itself. A job
insert that got through later (it waited on SQLite's lock, or on a PostgreSQL
that froze and came back) would be answered a second time by a worker. Here
another connection holds the write lock while the intake gives up, then lets
go: the insert that was waiting must roll back.
"""

from __future__ import annotations

import time

from databases import WriteLock
from sqlalchemy.exc import OperationalError

from bot.jobs import JobStore
from bot.slack.workers import within_budget
from bot.store.gate import Gate

BUDGET_S = 0.3


def _add(jobs: JobStore):
    def add(attempt, timeout):
        return jobs.add("work", {"n": 1}, attempt=attempt, timeout=timeout)

    return add


def test_a_job_insert_given_up_while_it_waited_on_the_lock_never_lands(engine, any_database_url):
    jobs, gate = JobStore(engine), Gate(budget_s=BUDGET_S, retry_after_s=60)
    lock = WriteLock(any_database_url)
    try:
        started = time.monotonic()
        assert within_budget(gate, jobs, "job intake", _add(jobs), 0) == 0
        assert time.monotonic() - started < BUDGET_S + 0.5  # the ack was not held
    finally:
        lock.release()
    time.sleep(1.5)  # the waiting insert gets through now, and must roll back
    assert jobs.pending() == 0
    gate._retry_at = 0.0
    assert within_budget(gate, jobs, "job intake", _add(jobs), 0) > 0  # and the next one lands
    assert jobs.pending() == 1


def test_a_commit_begun_within_the_budget_is_waited_for_and_counts(engine):
    """Its statements ran before the budget was out: only the commit is left, so the
    caller takes its outcome instead of answering the command a second time."""
    jobs, gate = JobStore(engine), Gate(budget_s=BUDGET_S, retry_after_s=60)

    def slow_commit(attempt, timeout):
        def write(connection):
            assert attempt.may_commit()
            time.sleep(BUDGET_S + 0.3)  # the commit itself is slow
            return 42

        return jobs.writes.run(write, timeout, attempt)

    assert within_budget(gate, jobs, "job intake", slow_commit, 0) == 42


def test_a_commit_begun_that_fails_is_no_job_and_says_nothing_of_landing(engine, caplog):
    jobs, gate = JobStore(engine), Gate(budget_s=BUDGET_S, retry_after_s=60)

    def failing_commit(attempt, timeout):
        def write(connection):
            assert attempt.may_commit()
            time.sleep(BUDGET_S + 0.2)
            raise OperationalError("COMMIT", {}, Exception("database or disk is full"))

        return jobs.writes.run(write, timeout, attempt)

    assert within_budget(gate, jobs, "job intake", failing_commit, 0) == 0
    assert "may land" not in caplog.text
