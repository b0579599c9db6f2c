"""The sent journal (bot.jobs.sent_journal): append, read back, taken over, rotated.

The database side runs on SQLite always, and on PostgreSQL with TEST_DATABASE_URL.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
from datetime import timedelta

import pytest

from bot.jobs import JobStore, OutboxStore, SentEntry, SentJournal
from bot.jobs.sent_journal import journal_paths, journal_workers, read_entries, take_over
from bot.jobs.store import now

WORKER = "pod-7.example:4242"


def _entry(job_id: int, seq: int = 1, result: dict | None = None) -> SentEntry:
    return SentEntry(job_id, seq, "response_url", now() + timedelta(minutes=30), result)


def test_appended_entries_read_back_whole_and_in_order(tmp_path):
    journal = SentJournal(tmp_path, WORKER)
    written = [_entry(1), _entry(1, 2, {"ok": True, "ts": "1.2", "channel": "D1"}), _entry(9)]
    for entry in written:
        journal.append(entry)
    assert journal_workers(tmp_path) == [WORKER]
    assert read_entries(journal.paths()) == written
    assert journal_paths(tmp_path, "another:1") == []


def test_a_line_cut_short_is_skipped_and_the_rest_read(tmp_path, caplog):
    journal = SentJournal(tmp_path, WORKER)
    whole = _entry(1)
    journal.append(whole)
    (path,) = journal.paths()
    with path.open("a") as file:
        file.write('[2,1,"response_u')  # never happens with one write(), but must not stop a start
    assert read_entries([path]) == [whole]
    assert "cannot be read" in caplog.text


def _written_by_a_dead_worker(directory, worker: str, entries: list[SentEntry]) -> None:
    """A worker process that journals ``entries`` and dies (its locks go with it)."""
    child = multiprocessing.get_context("fork").Process(
        target=_journal_and_die, args=(directory, worker, entries)
    )
    child.start()
    child.join(timeout=30)
    assert child.exitcode == -signal.SIGKILL


def _journal_and_die(directory, worker: str, entries: list[SentEntry]) -> None:
    journal = SentJournal(directory, worker)
    for entry in entries:
        journal.append(entry)
    os.kill(os.getpid(), signal.SIGKILL)


def _taken_over(tmp_path, worker: str, engine) -> int | None:
    return take_over(tmp_path, worker, OutboxStore(engine))


def test_a_live_workers_journal_is_left_alone(tmp_path, engine):
    journal = SentJournal(tmp_path, WORKER)  # this process holds it, as a live worker does
    journal.append(_entry(1))
    assert _taken_over(tmp_path, WORKER, engine) is None
    assert len(journal.paths()) == 1
    journal.append(_entry(2))
    assert [entry.job_id for entry in read_entries(journal.paths())] == [1, 2]


def test_a_killed_workers_journal_is_free_to_take_over(tmp_path, engine):
    _written_by_a_dead_worker(tmp_path, WORKER, [_entry(1)])
    assert read_entries(journal_paths(tmp_path)) != []  # the page cache kept its write
    assert _taken_over(tmp_path, WORKER, engine) == 0  # job 1 is not there to run again
    assert journal_paths(tmp_path) == []


def test_take_over_records_what_slack_took_so_the_job_run_again_skips_it(
    tmp_path, engine, outbox_answer
):
    jobs, outbox = JobStore(engine), OutboxStore(engine)
    running = jobs.add("work", {})
    finished = jobs.add("work", {})
    jobs.finish([finished])
    taken = [_entry(running, 1, {"ok": True, "ts": "1.1"}), _entry(finished, 1)]
    _written_by_a_dead_worker(tmp_path, WORKER, taken)

    assert take_over(tmp_path, WORKER, outbox) == 1  # a finished job is never run again
    assert journal_paths(tmp_path) == []
    again = outbox.stage(running, 1, outbox_answer(), worker="replacement", lease_s=30)
    assert again.done and not again.ours and again.result == {"ok": True, "ts": "1.1"}
    # The second answer was not taken: it is the replacement's to send.
    assert outbox.stage(running, 2, outbox_answer(), worker="replacement", lease_s=30).ours


def test_take_over_is_idempotent(tmp_path, engine, outbox_answer):
    jobs, outbox = JobStore(engine), OutboxStore(engine)
    job = jobs.add("work", {})
    entries = [_entry(job, 1), _entry(job, 2)]
    assert outbox.record_sent(entries) == 2
    # A kill between the commit and the files' delete reads the same lines again.
    assert outbox.record_sent(entries) == 0
    assert outbox.stage(job, 1, outbox_answer(), worker="w", lease_s=30).done


def test_take_over_marks_an_answer_waiting_in_the_outbox_sent(tmp_path, engine, outbox_answer):
    jobs, outbox = JobStore(engine), OutboxStore(engine)
    job = jobs.add("work", {})
    row = outbox.stage(job, 1, outbox_answer(), worker="dead", lease_s=30)
    jobs.finish([job])  # a retried answer outlives its job
    assert outbox.record_sent([_entry(job, 1, {"ok": True})]) == 1
    assert outbox.claim_due("replacement", 10, lease_s=30) == []
    assert not outbox.stage(job, 1, outbox_answer(), worker="other", lease_s=30).ours
    assert row.id is not None


def test_a_database_error_keeps_the_journal_for_the_next_try(tmp_path):
    class Down:
        def record_sent(self, entries):
            raise OSError("database away")

    _written_by_a_dead_worker(tmp_path, WORKER, [_entry(1)])
    with pytest.raises(OSError):
        take_over(tmp_path, WORKER, Down())  # type: ignore[arg-type]
    assert len(journal_paths(tmp_path)) == 1


def test_only_the_named_workers_journal_is_taken_over(tmp_path, engine):
    outbox = OutboxStore(engine)
    _written_by_a_dead_worker(tmp_path, WORKER, [_entry(1)])
    _written_by_a_dead_worker(tmp_path, "pod-7.example:42", [_entry(2)])
    take_over(tmp_path, WORKER, outbox)
    assert journal_workers(tmp_path) == ["pod-7.example:42"]


def test_an_unwritable_directory_skips_the_journal_with_one_warning(tmp_path, caplog):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    with caplog.at_level(logging.WARNING):
        journal = SentJournal(blocked / "spool", WORKER)
        journal.append(_entry(1))
        journal.append(_entry(2))
    warnings = [r for r in caplog.records if "sent journal cannot be written" in r.getMessage()]
    assert len(warnings) == 1
    assert journal.paths() == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_directory_skips_the_journal(tmp_path, caplog):
    tmp_path.chmod(0o500)
    try:
        with caplog.at_level(logging.WARNING):
            SentJournal(tmp_path, WORKER).append(_entry(1))
    finally:
        tmp_path.chmod(0o700)
    assert "sent journal cannot be written" in caplog.text


def test_an_old_generation_goes_once_the_tasks_that_may_have_written_to_it_end(tmp_path):
    line = len(_entry(1).line())
    journal = SentJournal(tmp_path, WORKER, rotate_bytes=3 * line)
    with journal.task():  # started in generation 0, still running after two rotations
        for job_id in range(7):
            with journal.task():
                journal.append(_entry(job_id))
        assert len(journal.paths()) == 3  # generations 0, 1 (full) and 2
        kept = {entry.job_id for entry in read_entries(journal.paths())}
        assert kept == set(range(7))
    # Nothing runs now that started before the current generation: the old ones go.
    (current,) = journal.paths()
    assert [entry.job_id for entry in read_entries([current])] == [6]


def test_a_journal_does_not_grow_without_bound_under_steady_work(tmp_path):
    line = len(_entry(1).line())
    journal = SentJournal(tmp_path, WORKER, rotate_bytes=10 * line)
    for job_id in range(1000):
        with journal.task():
            journal.append(_entry(job_id))
    total = sum(path.stat().st_size for path in journal.paths())
    assert total <= 10 * line
