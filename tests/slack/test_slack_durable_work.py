"""Nothing acked is lost: ``mpbot serve`` under kills, restarts, Slack outages and replicas.

Each test runs real ``mpbot serve`` process groups on loopback against the
recording fake Slack (tests/slack/conftest.py), with short leases and
backoffs so each fault plays out in seconds. A command's answer is counted
on its own ``response_url`` (one per command), so a lost answer and an answer
sent twice both show.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest
from databases import POSTGRES_URL, wipe
from served import FAST, Served, answers_by_hook, replicas_in
from slackmsg import dm_event
from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.slack.workers import THREADS
from bot.store import make_engine

# Each job asks users.info for the user's locale before it answers.
SLOW_LOOKUP = "/api/users.info"
# Short enough that a fault plays out in seconds.


@pytest.fixture
def database_url(any_database_url: str) -> str:
    """Both stores where the store matters (overrides conftest's SQLite-only fixture)."""
    return any_database_url


@pytest.fixture
def replicas(slack, tmp_path) -> Iterator[Callable[..., Served]]:
    """Start ``mpbot serve`` replicas (``replica(url, **settings)``); all killed at the end."""
    with replicas_in(slack.url, tmp_path, FAST) as replica:
        yield replica


def _hook(index: int) -> str:
    return f"h{index:04d}x"


def _answers(slack) -> Counter:
    return answers_by_hook(slack, "h")


def _posts(slack) -> int:
    return len([c for c in slack.calls if c.path == "/api/chat.postMessage"])


def _send(client, slack, indexes, *, timestamp: int | None = None) -> list[int]:
    """Send one command per index, 8 at a time; the statuses of their acks."""

    def one(index: int) -> int:
        return client.command(
            "100 2",
            response_url=slack.response_url(_hook(index)),
            user=f"U{index:04d}",  # each user's locale is looked up once (users.info)
            timestamp=timestamp,
        ).status

    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(one, indexes))


def _wait_answered(slack, count: int, timeout: float) -> Counter:
    deadline = time.monotonic() + timeout
    while len(answers := _answers(slack)) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    return answers


def _client(signed_client, served: Served):
    return signed_client(served.url)


def _working_on_a_backlog(slack, replicas, signed_client, url, count, lookup_s) -> Served:
    """One replica with one worker, ``count`` commands acked, each job held ``lookup_s``
    by Slack's user look-up, and the worker past its first answers."""
    slack.hold[SLOW_LOOKUP] = lookup_s
    served = replicas(url, work_processes=1)
    served.wait_for_workers(1)
    assert _send(_client(signed_client, served), slack, range(count)) == [200] * count
    _wait_answered(slack, 3, timeout=30)
    return served


def _assert_each_once(answers: Counter, count: int, *, twice_at_most: int = 0) -> None:
    missing = [_hook(i) for i in range(count) if answers[_hook(i)] == 0]
    assert not missing, f"{len(missing)} of {count} acked commands never answered: {missing[:5]}"
    twice = [hook for hook, times in answers.items() if times > 1]
    assert len(twice) <= twice_at_most, f"answered more than once: {twice}"


def test_pod_killed_mid_burst_then_restarted_answers_every_acked_command(
    slack, replicas, database_url, signed_client
):
    # Slack takes its time to look up each user, so a backlog builds. (Slow
    # answer posts would leave posts in flight at the kill: taken by Slack, not
    # yet confirmed, so sent again after the restart, as any client would.)
    count = 60
    served = _working_on_a_backlog(slack, replicas, signed_client, database_url, count, 0.15)
    served.kill_group()
    before = len(_answers(slack))
    assert before < count, "the kill came too late to test anything"

    replicas(database_url, work_processes=1)
    # The dead pod's claimed jobs are handed back at the restart, after its sent
    # journal is recorded. A post on the wire at the kill may be sent again: Slack
    # took it, the worker never heard.
    # At most one per worker thread (so well under 1% of a real burst).
    _assert_each_once(_wait_answered(slack, count, timeout=40), count, twice_at_most=THREADS)


# The bound on answers sent twice when a pod dies mid-burst.
DOUBLE_RATE_MAX = 0.01


@contextmanager
def _writes_held(url: str) -> Iterator[Callable[[], int]]:
    """No job can finish while this is open (SQLite's write lock; on PostgreSQL the jobs
    table locked against writes, reads still allowed); yields a count of the jobs left."""
    if url.startswith("sqlite"):
        connection = sqlite3.connect(make_url(url).database, isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield lambda: connection.execute("SELECT count(*) FROM jobs").fetchone()[0]
        finally:
            connection.rollback()
            connection.close()
        return
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            connection.execute(text("SET lock_timeout = 0"))
            connection.execute(text("LOCK TABLE jobs IN EXCLUSIVE MODE"))
            yield lambda: connection.execute(text("SELECT count(*) FROM jobs")).scalar_one()
            connection.rollback()
    finally:
        engine.dispose()


def _jobs(url: str, where: str = "true") -> int:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return connection.execute(text(f"SELECT count(*) FROM jobs WHERE {where}")).scalar_one()
    finally:
        engine.dispose()


def _wait_jobs(url: str, count: int, where: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while _jobs(url, where) != count:
        assert time.monotonic() < deadline, f"{_jobs(url, where)} jobs where {where}, not {count}"
        time.sleep(0.1)


@contextmanager
def _answered_with_finishes_held(
    slack, served: Served, url: str, signed_client, count: int
) -> Iterator[None]:
    """``count`` commands, each job past Slack taking its answer, none finished: the
    body runs while no finish can commit."""
    # Each job waits on its user's look-up until the writes are held; then it posts.
    slack.hold[SLOW_LOOKUP] = 3.0  # the last claim may come a second or two after the first
    assert _send(_client(signed_client, served), slack, range(count)) == [200] * count
    _wait_jobs(url, count, "claimed_by IS NOT NULL", timeout=20)
    with _writes_held(url) as left:
        deadline = time.monotonic() + 30
        while len(_answers(slack)) < count:
            assert time.monotonic() < deadline, served.log()
            time.sleep(0.05)
        time.sleep(0.2)  # every job is now waiting on its finish
        assert left() == count, "a job finished before the writes were held: nothing tested"
        slack.hold.clear()
        yield


def _assert_all_finished_each_answered_once(slack, url: str, count: int) -> None:
    _wait_jobs(url, 0, "true", timeout=60)
    time.sleep(0.5)  # a second copy would be on its way by now
    _assert_each_once(_answers(slack), count)


def test_pod_killed_after_slack_took_its_answers_but_before_any_commit_answers_each_once(
    slack, replicas, database_url, signed_client
):
    # The window a kill sends answers twice in, held open: Slack took every post, and
    # the commits that would say so cannot land. The sent journal says so instead.
    served = replicas(database_url)
    served.wait_for_workers(2)
    count = 12  # fewer than the worker threads: every job is in the window at once
    with _answered_with_finishes_held(slack, served, database_url, signed_client, count):
        served.kill_group()

    replicas(database_url)
    _assert_all_finished_each_answered_once(slack, database_url, count)


def test_a_worker_killed_before_its_commits_land_is_replaced_without_answering_twice(
    slack, replicas, database_url, signed_client
):
    served = replicas(database_url, work_processes=1)
    (worker,) = served.wait_for_workers(1)
    count = THREADS - 2
    with _answered_with_finishes_held(slack, served, database_url, signed_client, count):
        os.kill(worker, signal.SIGKILL)
        time.sleep(0.3)  # the supervisor sees the death while the writes are still held

    _assert_all_finished_each_answered_once(slack, database_url, count)
    log = served.log()
    assert "starting another" in log and "recorded as sent" in log, log


def test_a_spool_folder_that_cannot_be_written_turns_the_journal_off_and_answers_as_before(
    slack, replicas, sqlite_url, signed_client, tmp_path
):
    (tmp_path / "full").write_text("")  # where the spool folder should be, a file
    served = replicas(sqlite_url, job_spool_dir=tmp_path / "full" / "spool")
    served.wait_for_workers(2)
    assert _send(_client(signed_client, served), slack, range(20)) == [200] * 20
    _assert_each_once(_wait_answered(slack, 20, timeout=60), 20)
    # Once per worker process (the second may still be starting), however many answers.
    deadline = time.monotonic() + 60
    while (log := served.log()).count("the sent journal cannot be written") < 2:
        assert time.monotonic() < deadline, log
        time.sleep(0.1)
    assert log.count("the sent journal cannot be written") == 2, log
    assert "Traceback" not in log, log


def test_a_starting_server_leaves_a_live_servers_journals_alone(
    slack, replicas, signed_client, tmp_path
):
    # Two servers sharing one spool folder, by mistake: the second one's start must
    # not take the first one's live workers for dead (their journals and leases).
    shared = tmp_path / "shared-spool"
    first = replicas(f"sqlite:///{tmp_path / 'first.db'}", job_spool_dir=shared)
    first.wait_for_workers(2)
    deadline = time.monotonic() + 30
    while len(list(shared.glob("sent-*.log"))) < 2:
        assert time.monotonic() < deadline, first.log()
        time.sleep(0.1)
    journals = sorted(shared.glob("sent-*.log"))

    second = replicas(f"sqlite:///{tmp_path / 'second.db'}", job_spool_dir=shared)
    second.wait_for_workers(2)
    assert second.log().count("is a live process's; left alone") == 2, second.log()
    assert all(path.exists() for path in journals)
    assert _send(_client(signed_client, first), slack, range(5)) == [200] * 5
    _assert_each_once(_wait_answered(slack, 5, timeout=30), 5)


def test_pod_killed_while_answering_a_large_burst_answers_at_most_1_percent_twice(
    slack, replicas, database_url, signed_client
):
    # No slow lookups: the workers answer as fast as they can, so at the kill
    # every worker thread is about as likely as it can be to be between Slack
    # taking a post and the commit that says so (the window an answer is sent
    # twice in). What no client can know is a post on the wire at the kill: one
    # per job thread at most, whatever the burst's size. The burst is large
    # enough that this bound (2 workers' threads) is below the issue's 1%, so
    # the test holds both promises at once, however loaded the machine.
    # One workspace's burst past its intake limit would be told to slow down: not here.
    served = replicas(database_url, team_requests_burst=5000)
    served.wait_for_workers(2)
    count = 2000
    in_flight_at_most = 2 * THREADS
    assert in_flight_at_most <= count * DOUBLE_RATE_MAX
    assert _send(_client(signed_client, served), slack, range(count)) == [200] * count
    _wait_answered(slack, count * 2 // 5, timeout=120)
    killed_at = time.monotonic()
    served.kill_group()
    before = len(_answers(slack))
    assert before < count * 9 // 10, "the kill came too late to test anything"

    replicas(database_url, team_requests_burst=5000)
    answers = _wait_answered(slack, count, timeout=240)
    twice = {hook for hook, times in answers.items() if times > 1}
    # Posts the dead pod had sent but whose answer it had not been given yet (the
    # stand-in answered after the kill): only the others were the journal's to know.
    firsts = [_first_call(slack, hook) for hook in twice]
    answered = [
        killed_at - c.answered_at for c in firsts if (c.answered_at or killed_at) < killed_at
    ]
    print(
        f"pod kill after {before} of {count} answered: {len(twice)} answered twice, "
        f"{len(twice) - len(answered)} of them answered by the stand-in after the kill "
        f"(in flight); the others answered {[round(s * 1000, 1) for s in answered]} ms before it"
    )
    print(served.log()[-20000:])
    _assert_each_once(answers, count, twice_at_most=in_flight_at_most)


def test_sigterm_with_a_backlog_exits_within_the_grace_period_and_loses_nothing(
    slack, replicas, sqlite_url, signed_client
):
    # About 10 s of work for one worker (8 threads x 0.4 s a job): more than a loaded
    # machine takes to send the burst, so a backlog is still there at SIGTERM.
    count = 200
    served = _working_on_a_backlog(slack, replicas, signed_client, sqlite_url, count, 0.4)
    started = time.monotonic()
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=FAST["shutdown_grace_s"] + 6) == 0
    assert time.monotonic() - started < FAST["shutdown_grace_s"] + 5
    assert len(_answers(slack)) < count, "the backlog was gone before SIGTERM"
    assert "did not stop within the grace period" not in served.log(), served.log()
    log = served.log()
    assert "unfinished job(s) handed back" in log or "come back with their leases" in log, log

    replicas(sqlite_url, work_processes=1)
    _assert_each_once(_wait_answered(slack, count, timeout=90), count, twice_at_most=1)


def test_a_killed_worker_is_replaced_health_recovers_and_its_jobs_are_done(
    slack, replicas, sqlite_url, signed_client
):
    slack.hold[SLOW_LOOKUP] = 0.3
    served = replicas(sqlite_url, work_processes=2)
    first = served.wait_for_workers(2)
    client = _client(signed_client, served)
    assert _send(client, slack, range(30)) == [200] * 30
    os.kill(first[0], signal.SIGKILL)

    deadline = time.monotonic() + 30
    while not (
        served.health() == 200 and len(served.workers()) == 2 and first[0] not in served.workers()
    ):
        assert time.monotonic() < deadline, served.log()
        time.sleep(0.1)
    assert _send(client, slack, range(30, 40)) == [200] * 10
    _assert_each_once(_wait_answered(slack, 40, timeout=30), 40, twice_at_most=1)
    assert "starting another" in served.log()


def test_slack_down_for_20_seconds_then_back_gets_every_answer_once(
    slack, replicas, database_url, signed_client
):
    served = replicas(database_url)
    served.wait_for_workers(2)
    client = _client(signed_client, served)
    # Bolt checks the token with auth.test on the first request (issue11b moves
    # that to start-up); let it pass before Slack goes down.
    _send(client, slack, [99])
    _wait_answered(slack, 1, timeout=10)
    slack.calls.clear()
    slack.outage = (503, {"Content-Type": "text/plain"}, b"Service Unavailable")
    down_since = time.monotonic()
    assert _send(client, slack, range(20)) == [200] * 20
    for index in range(5):
        event = dm_event("100 2", ts=f"1700000000.{index:06d}", channel=f"D0DM{index}")
        assert client.event(event, event_id=f"EvDown{index}").status == 200
    time.sleep(max(0.0, 20 - (time.monotonic() - down_since)))
    assert not _answers(slack)
    slack.outage = None

    answers = _wait_answered(slack, 20, timeout=20)
    _assert_each_once(answers, 20)
    deadline = time.monotonic() + 20
    while len(slack.api("chat.postMessage")) < 5 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1)  # any second copy would have come by now
    channels = Counter(call.body["channel"] for call in slack.api("chat.postMessage"))
    all_posts = [(c.body.get("channel"), c.scripted) for c in slack.calls if "chat.post" in c.path]
    assert channels == Counter({f"D0DM{index}": 1 for index in range(5)}), all_posts


def test_429_waits_its_retry_after_without_holding_up_other_answers(
    slack, replicas, sqlite_url, signed_client
):
    served = replicas(sqlite_url)
    served.wait_for_workers(2)
    client = _client(signed_client, served)
    limited = range(20)  # more than all workers' threads together
    retry_after_s = 8  # long enough that a loaded machine still answers the others first
    for index in limited:
        path = f"/{_hook(index)}/T0TEAM/1234/abcd"
        slack.script[path] = [(429, {"Retry-After": str(retry_after_s)}, b"rate limited")]
    assert _send(client, slack, limited) == [200] * 20
    assert _send(client, slack, range(20, 25)) == [200] * 5
    # The first answers to arrive are the others': none waited behind a 429's pause.
    others = _wait_answered(slack, 5, timeout=10)
    assert set(others) == {_hook(i) for i in range(20, 25)}, "answers waited behind the 429s"

    _assert_each_once(_wait_answered(slack, 25, timeout=30), 25)
    limited_hooks = {_hook(i) for i in limited}
    first_429 = min(call.at for call in slack.calls if call.scripted)
    first_retry = min(at for hook, at in _answer_times(slack) if hook in limited_hooks)
    assert first_retry - first_429 >= retry_after_s, "Retry-After was not waited for"


def _first_call(slack, hook: str):
    return min(
        (call for call in slack.calls if call.path.startswith(f"/{hook}/")), key=lambda c: c.at
    )


def _answer_times(slack) -> list[tuple[str, float]]:
    return [
        (call.path.split("/")[1], call.at)
        for call in slack.calls
        if call.path.startswith("/h") and not call.scripted
    ]


def test_an_answer_slack_took_is_not_sent_again(slack, replicas, sqlite_url, signed_client):
    served = replicas(sqlite_url)
    served.wait_for_workers(2)
    client = _client(signed_client, served)
    # Slack takes each post, then drops the connection, or hangs past our timeout.
    slack.script[f"/{_hook(0)}/T0TEAM/1234/abcd"] = [(0, {}, b"")]
    slack.script[f"/{_hook(1)}/T0TEAM/1234/abcd"] = [(-1, {"hang_s": 4}, b"")]
    slack.script["/api/chat.postMessage"] = [(0, {}, b"")]
    assert _send(client, slack, range(2)) == [200, 200]
    assert client.event(dm_event("100 2"), event_id="EvTaken").status == 200
    # Each taken once (on a loaded machine the workers may take a while to start)...
    slack.wait(lambda: [c for c in slack.calls if c.path.startswith("/h")], count=2, timeout=60)
    slack.wait(
        lambda: [c for c in slack.calls if c.path == "/api/chat.postMessage"],
        timeout=60,
    )
    # ...and not again, well past every retry today's code made.
    time.sleep(FAST["slack_timeout_s"] + 4)
    taken = Counter(call.path.split("/")[1] for call in slack.calls if call.path.startswith("/h"))
    assert taken == Counter({_hook(0): 1, _hook(1): 1})
    assert _posts(slack) == 1


def test_a_backlog_older_than_five_minutes_is_still_answered(
    slack, replicas, sqlite_url, signed_client
):
    served = replicas(sqlite_url)
    workers = served.wait_for_workers(2)
    client = _client(signed_client, served)
    # Signed 294 s ago: Slack's 5-minute window still takes it at the edge...
    old = int(time.time()) - 294
    served.signal_workers(signal.SIGSTOP)
    try:
        assert _send(client, slack, range(5), timestamp=old) == [200] * 5
        time.sleep(8)  # ...and the work waits until the request is over 5 minutes old
    finally:
        for pid in workers:
            os.kill(pid, signal.SIGCONT)
    _assert_each_once(_wait_answered(slack, 5, timeout=15), 5)


@pytest.mark.skipif(not POSTGRES_URL, reason="set TEST_DATABASE_URL to run against PostgreSQL")
def test_two_replicas_share_the_work_and_one_finishes_what_a_dead_one_claimed(
    slack, replicas, signed_client, tmp_path
):
    wipe(POSTGRES_URL)
    try:
        # Two pods: a spool folder each (what one holds, only its own process knows).
        first = replicas(POSTGRES_URL, work_processes=1, job_spool_dir=tmp_path / "spool-1")
        second = replicas(POSTGRES_URL, work_processes=1, job_spool_dir=tmp_path / "spool-2")
        first_workers = first.wait_for_workers(1)
        second.wait_for_workers(1)
        to_first = _client(signed_client, first)

        # The first replica's workers are frozen: what it acks, the second one answers.
        first.signal_workers(signal.SIGSTOP)
        assert _send(to_first, slack, range(10)) == [200] * 10
        _assert_each_once(_wait_answered(slack, 10, timeout=15), 10)
        for pid in first_workers:
            os.kill(pid, signal.SIGCONT)

        # Both take jobs from a slow Slack; the first dies holding some of them.
        slack.hold[SLOW_LOOKUP] = 0.3
        to_second = _client(signed_client, second)
        assert _send(to_first, slack, range(10, 40, 2)) == [200] * 15
        assert _send(to_second, slack, range(11, 40, 2)) == [200] * 15
        time.sleep(0.5)
        first.kill_group()
        assert len(_answers(slack)) < 40
        # Nothing lost; a post on the wire at the kill may go out again, one per worker
        # thread at most (the 1% rate is the 1,000-command pod-kill test's to hold).
        _assert_each_once(_wait_answered(slack, 40, timeout=40), 40, twice_at_most=THREADS)
    finally:
        wipe(POSTGRES_URL)
