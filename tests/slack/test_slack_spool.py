"""Acked while the database took no job, then the pod killed: the spool still answers every command.

When the database cannot take a job before the ack, ``mpbot serve`` answers
it in-process, and first writes it to its spool (``JOB_SPOOL_DIR``,
bot/jobs/spool.py). Here real ``mpbot serve`` process groups run on loopback
with their database locked by another connection (it takes no job, as when
it is down, read-only or too slow), Slack answers 503 so nothing is answered
yet, and the group is SIGKILLed: the restarted replica must answer
every acked command, once, from the spool.
"""

from __future__ import annotations

import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from databases import WriteLock
from served import Served, answers_by_hook, replicas_in

from bot.jobs.spool import SUFFIX

# Slack down: the in-process answers keep retrying (1, 2, 4 ... s apart) until the kill.
OUTAGE = (503, {"Content-Type": "text/plain"}, b"Service Unavailable")
RETRYING = {"slack_retry_count": 10, "slack_retry_backoff_s": 1}
FAST = {"job_lease_s": 2, "job_poll_s": 0.1, "shutdown_grace_s": 4, "slack_timeout_s": 2}


@pytest.fixture
def database_url(any_database_url: str) -> str:
    """Both stores (overrides conftest's SQLite-only fixture)."""
    return any_database_url


@pytest.fixture
def replicas(slack, tmp_path) -> Iterator[Callable[..., Served]]:
    """``replica(url, **settings)``: ``mpbot serve`` sharing one spool folder (a pod's volume)."""
    with replicas_in(slack.url, tmp_path, FAST, workers=1) as replica:
        yield replica


@pytest.fixture
def lock() -> Iterator[Callable[[str], WriteLock]]:
    """``lock(url)``; released at the end (ask for the database's fixture first, so
    its teardown, which drops PostgreSQL's tables, comes after)."""
    held: list[WriteLock] = []

    def take(url: str) -> WriteLock:
        held.append(WriteLock(url))
        return held[-1]

    yield take
    for one in held:
        one.release()


def _hook(index: int) -> str:
    return f"s{index:04d}x"


def _answers(slack) -> Counter:
    return answers_by_hook(slack, "s")


def _send(client, slack, indexes) -> list[int]:
    def one(index: int) -> int:
        hook = slack.response_url(_hook(index))
        return client.command("100 2", response_url=hook, user=f"U{index:04d}").status

    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(one, indexes))


def _each_answered_once(slack, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while len(_answers(slack)) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1)  # a second copy would come by now
    answers = _answers(slack)
    missing = [_hook(i) for i in range(count) if not answers[_hook(i)]]
    assert not missing, f"{len(missing)} of {count} acked commands never answered: {missing[:5]}"
    twice = [hook for hook, times in answers.items() if times > 1]
    assert len(twice) <= count // 100, f"answered more than once: {twice}"


def _spooled(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "spool").glob("*" + SUFFIX))


def _acked_unanswered_then_killed(slack, replicas, lock, signed_client, url, count) -> WriteLock:
    """``count`` commands acked while the database took no job, the pod killed before
    any was answered; the lock is still held."""
    served = replicas(url, **RETRYING)
    held = lock(url)
    slack.outage = OUTAGE
    assert _send(signed_client(served.url), slack, range(count)) == [200] * count
    served.kill_group()
    slack.outage = None
    assert not _answers(slack), "answered before the kill: nothing left to test"
    assert "did not take the job" in served.log()
    return held


def test_no_job_taken_then_pod_killed_the_restart_answers_every_acked_command(
    database_url, slack, replicas, lock, signed_client, tmp_path
):
    count = 40
    held = _acked_unanswered_then_killed(slack, replicas, lock, signed_client, database_url, count)
    assert len(_spooled(tmp_path)) == count
    held.release()

    restarted = replicas(database_url)
    _each_answered_once(slack, count)
    assert _spooled(tmp_path) == []
    assert f"{count} spooled job(s) moved into the database" in restarted.log()


def test_database_still_away_at_restart_the_replica_answers_its_leftovers(
    sqlite_url, slack, replicas, lock, signed_client, tmp_path
):
    count = 10
    held = _acked_unanswered_then_killed(slack, replicas, lock, signed_client, sqlite_url, count)

    restarted = replicas(sqlite_url)  # the lock still held
    _each_answered_once(slack, count)
    assert _spooled(tmp_path) == []
    assert "did not take spooled job" in restarted.log()
    held.release()  # back: nothing is left to answer again
    time.sleep(5)
    assert sum(_answers(slack).values()) == count


def test_a_spool_file_moved_in_twice_makes_one_job_and_one_answer(
    sqlite_url, slack, replicas, lock, signed_client, tmp_path
):
    held = _acked_unanswered_then_killed(slack, replicas, lock, signed_client, sqlite_url, 1)
    (spooled,) = _spooled(tmp_path)
    copy = shutil.copy(spooled, tmp_path / "copy")
    held.release()

    restarted = replicas(sqlite_url)
    _each_answered_once(slack, 1)
    assert _spooled(tmp_path) == []
    # As if the kill had come between the job's commit and the file's delete.
    shutil.move(copy, spooled)
    deadline = time.monotonic() + 15
    while _spooled(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _spooled(tmp_path) == [], restarted.log()  # the running replica took it...
    time.sleep(3)
    assert _answers(slack) == Counter({_hook(0): 1})  # ...and made no second job


def test_a_spool_that_cannot_be_written_still_answers_and_says_so(
    sqlite_url, slack, signed_client, lock, tmp_path
):
    (tmp_path / "full").write_text("")  # where the spool folder should be, a file
    served = Served(slack.url, sqlite_url, tmp_path / "serve.log")
    served.env |= {"JOB_SPOOL_DIR": str(tmp_path / "full" / "spool")}
    try:
        served.start()
        lock(sqlite_url)
        assert _send(signed_client(served.url), slack, [0]) == [200]
        _each_answered_once(slack, 1)
        log = served.log()
    finally:
        served.close()
    assert "ERROR" in log and "answer is not durable" in log, log
    assert "/s0000x/" not in log  # the response URL stays out of it


def test_database_and_slack_down_at_once_each_answer_waits_in_the_spool_then_arrives_once(
    database_url, slack, replicas, lock, signed_client, tmp_path
):
    count = 10
    served = replicas(database_url, slack_retry_count=1, slack_retry_backoff_s=0.1)
    held = lock(database_url)
    slack.outage = OUTAGE
    assert _send(signed_client(served.url), slack, range(count)) == [200] * count
    deadline = time.monotonic() + 30
    while served.log().count("Slack took no answer") < count and time.monotonic() < deadline:
        time.sleep(0.1)
    assert served.log().count("Slack took no answer") == count, served.log()
    assert len(_spooled(tmp_path)) == count  # the in-process tries gave up; nothing forgotten
    slack.outage = None
    time.sleep(3)
    assert not _answers(slack)  # they wait for the database, not a retry loop of their own
    held.release()
    _each_answered_once(slack, count)
    assert _spooled(tmp_path) == []
