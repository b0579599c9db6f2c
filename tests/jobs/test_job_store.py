"""The jobs table and the outbox on SQLite always, and on PostgreSQL with TEST_DATABASE_URL."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from bot.jobs import JobStore, OutboxStore
from bot.jobs.store import now


def test_concurrent_claims_take_each_job_once(engine):
    jobs = JobStore(engine)
    added = {jobs.add("work", {"n": n}) for n in range(60)}

    def claim_all(worker: str) -> list[int]:
        taken = []
        while batch := jobs.claim(worker, 4, lease_s=30):
            taken += [job.id for job in batch]
        return taken

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(claim_all, ["a", "b", "c", "d"]))
    claimed = [job for result in results for job in result]
    assert sorted(claimed) == sorted(added)  # every job, none twice


def test_a_lapsed_lease_is_claimed_again_and_a_released_one_at_once(engine):
    jobs = JobStore(engine)
    first, second = jobs.add("work", {}), jobs.add("work", {})
    assert [job.id for job in jobs.claim("dead", 1, lease_s=0.3)] == [first]
    assert [job.id for job in jobs.claim("other", 5, lease_s=30)] == [second]
    assert jobs.claim("other", 5, lease_s=30) == []
    time.sleep(0.4)
    (again,) = jobs.claim("other", 5, lease_s=30)
    assert (again.id, again.attempts) == (first, 2)
    assert jobs.release("other", [second]) == 1
    assert [job.id for job in jobs.claim("third", 5, lease_s=30)] == [second]


def test_a_finished_jobs_id_is_never_given_to_another(engine):
    jobs = JobStore(engine)
    job = jobs.add("work", {})
    jobs.claim("w", 1, lease_s=30)
    jobs.finish([job])
    assert jobs.add("work", {}) > job  # its id keys answers in the outbox


def test_an_answer_sent_once_is_not_ours_to_send_again(engine, outbox_answer):
    jobs, outbox = JobStore(engine), OutboxStore(engine)
    job = jobs.add("work", {})
    row = outbox.stage(job, 1, outbox_answer(), worker="w1", lease_s=30)
    assert row.ours and not row.done
    # Another worker running the same job meanwhile must leave it alone...
    assert not outbox.stage(job, 1, outbox_answer(), worker="w2", lease_s=30).ours
    outbox.sent(row.id, {"ok": True})
    # ...and once it is sent, nobody sends it again.
    again = outbox.stage(job, 1, outbox_answer(), worker="w2", lease_s=30)
    assert again.done and not again.ours and again.result == {"ok": True}
    assert outbox.claim_due("w3", 10, lease_s=30) == []


def test_a_jobs_answers_go_out_in_order(engine, outbox_answer):
    jobs, outbox = JobStore(engine), OutboxStore(engine)
    job = jobs.add("work", {})
    first = outbox.stage(job, 1, outbox_answer(), worker="w", lease_s=30)
    outbox.retry_at(first.id, now() + timedelta(seconds=0.3))
    second = outbox.stage(job, 2, outbox_answer(), worker="w", lease_s=30)
    assert not second.ours  # waits for the first
    assert outbox.claim_due("w", 10, lease_s=30) == []  # the first is not due yet
    time.sleep(0.35)
    assert [row.id for row in outbox.claim_due("w", 10, lease_s=30)] == [first.id]
    outbox.sent(first.id, None)
    assert [row.id for row in outbox.claim_due("w", 10, lease_s=30)] == [second.id]


def test_answers_past_their_life_are_dropped_and_sent_ones_of_finished_jobs_forgotten(
    engine, outbox_answer
):
    jobs, outbox = JobStore(engine), OutboxStore(engine)
    job, done_job = jobs.add("work", {}), jobs.add("work", {})
    lapsed = outbox.stage(job, 1, outbox_answer(minutes=-1), worker="w", lease_s=30)
    sent = outbox.stage(done_job, 1, outbox_answer(), worker="w", lease_s=30)
    outbox.sent(sent.id, None)
    jobs.finish([done_job])
    assert [row.id for row in outbox.expired()] == [lapsed.id]
    assert outbox.claim_due("w", 10, lease_s=0) == []
    assert outbox.expired() == []


def test_claims_go_in_turn_order_so_one_users_backlog_waits_behind_another_users_job(engine):
    """Turns as the intake gives them (bot.slack.fairness): a flooding user's jobs a
    step apart, another user's at the time of its ack."""
    from bot.settings import Settings
    from bot.slack.fairness import IntakeLimits

    limits = IntakeLimits(Settings(_env_file=None))
    jobs = JobStore(engine)
    # 30 acks of one user, then one of another's, within a millisecond.
    turns = [limits.turn("T1", "UFLOOD") for _ in range(30)] + [limits.turn("T1", "UOTHER")]
    flood = [jobs.add("work", {"n": n}, turn=turn) for n, turn in enumerate(turns[:-1])]
    other = jobs.add("work", {}, turn=turns[-1])
    claimed = [job.id for job in jobs.claim("w", 2, lease_s=30)]
    assert claimed == [flood[0], other]
    rest = [job.id for job in jobs.claim("w", 100, lease_s=30)]
    assert rest == flood[1:]  # the flooder's own jobs stay in their order
