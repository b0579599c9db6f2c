"""The spool (bot/jobs/spool.py): durable, atomic files; leftovers; moved into the jobs table once."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.jobs import JobStore, Spool
from bot.jobs.spool import SUFFIX, TEMPORARY, UNREADABLE
from bot.store import connect

REQUEST = {"body": {"text": "100 2"}, "payload": {"text": "100 2"}, "context": {"team_id": "T1"}}


def test_a_kept_job_is_one_whole_file_synced_before_keep_returns(tmp_path, monkeypatch):
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    spool = Spool(tmp_path / "spool")

    job = spool.keep("answer_command", REQUEST)

    files = sorted(p.name for p in (tmp_path / "spool").iterdir())
    assert files == [job.key + SUFFIX]  # no temporary file left beside it
    assert len(synced) == 2  # the file's bytes, then the directory that names it
    (again,) = Spool(tmp_path / "spool").leftovers()  # as a restarted process reads it
    assert (again.key, again.work, again.request) == (job.key, "answer_command", REQUEST)
    assert again.spooled_at == job.spooled_at


def test_held_jobs_are_not_leftovers_until_their_process_is_gone(tmp_path):
    spool = Spool(tmp_path)
    first = spool.keep("work", REQUEST)
    second = spool.keep("work", REQUEST)
    assert spool.leftovers() == []  # this process answers both

    restarted = Spool(tmp_path)
    assert [job.key for job in restarted.leftovers()] == [first.key, second.key]  # oldest first
    restarted.hold(first.key)
    assert [job.key for job in restarted.leftovers()] == [second.key]

    spool.drop(second.key)
    assert restarted.leftovers() == []
    assert [p.name for p in tmp_path.iterdir()] == [first.key + SUFFIX]


def test_a_write_cut_short_was_never_acked_and_is_cleaned_at_start(tmp_path):
    spool = Spool(tmp_path)
    kept = spool.keep("work", REQUEST)
    (tmp_path / ("cut" + TEMPORARY)).write_text('{"key": "cut", "wo')  # killed mid-write

    restarted = Spool(tmp_path)
    assert [job.key for job in restarted.leftovers()] == [kept.key]
    restarted.forget_unfinished_writes()
    assert sorted(p.name for p in tmp_path.iterdir()) == [kept.key + SUFFIX]


def test_an_unwritable_directory_raises_and_leaves_nothing(tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")  # what the spool's folder should be is a file: no write can succeed
    spool = Spool(blocker / "spool")
    with pytest.raises(OSError):
        spool.keep("work", REQUEST)
    assert spool.leftovers() == []


def test_an_unreadable_file_is_set_aside_not_retried(tmp_path, caplog):
    spool = Spool(tmp_path)
    (tmp_path / ("broken" + SUFFIX)).write_text("not json")
    good = Spool(tmp_path / "other").keep("work", REQUEST)
    shutil.move(tmp_path / "other" / (good.key + SUFFIX), tmp_path)

    assert [job.key for job in spool.leftovers()] == [good.key]
    assert (tmp_path / ("broken" + UNREADABLE)).exists()
    assert "cannot be read" in caplog.text
    assert [job.key for job in spool.leftovers()] == [good.key]  # logged once, not again
    assert caplog.text.count("cannot be read") == 1


@pytest.fixture
def jobs(any_database_url: str) -> Iterator[JobStore]:
    store = connect(any_database_url)
    yield JobStore(store.engine)
    store.engine.dispose()


def test_a_file_moved_in_twice_makes_one_job_waiting_or_answered(jobs, tmp_path: Path):
    job = Spool(tmp_path).keep("answer_command", REQUEST)
    assert jobs.take_spooled(job) is True
    # Killed between the commit and the file's delete: the next start moves it in again.
    assert jobs.take_spooled(job) is False
    (claimed,) = jobs.claim("w", 5, lease_s=30)
    assert (claimed.work, claimed.request, claimed.created_at) == (
        "answer_command",
        REQUEST,
        job.spooled_at,  # its answers' life counts from the ack, not from the replay
    )
    jobs.finish([claimed.id])
    assert jobs.take_spooled(job) is False  # answered and gone: still not a second job
    assert jobs.pending() == 0
