"""The spool: jobs the database did not take, kept in plain files until it does.

Before ``mpbot serve`` acks a request, its job is committed to the database
(:mod:`bot.jobs`). When the database cannot take it in time (down,
read-only, locked, or just slow), the request is acked and answered by the HTTP
process itself; this module makes that answer survive a kill too. The job is
written to a file first, one per job: to a temporary name, fsync'd, renamed,
and the directory fsync'd, so a file is there whole or not at all, and it is
there before the ack leaves (a few milliseconds). When the in-process answer
is done, the file is deleted. A file whose process died before that is a
*leftover*: the next start (or this process, for files it does not hold)
moves it into the jobs table, or answers it itself while the database is
still away.

Why files, and not a second SQLite database: the database is what just
failed, often by being locked or slow; a directory has no lock to wait on,
and a rename is atomic on every POSIX filesystem. Each file is named by a
random key that is also recorded, with its job, when the file is moved into
the database (:meth:`bot.jobs.JobStore.take_spooled`), so a file moved twice
(a kill between the commit and the delete) makes one job.

One directory per replica: a file this process holds (it is answering it now)
is known only to this process's memory, so another live process reading the
same directory would take it for a leftover and answer it again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.files import open_private, private_folder

SUFFIX = ".job"
# Written but not yet renamed: never acked (the ack waits for the rename).
TEMPORARY = ".tmp"
# A file that cannot be read back is set aside under this suffix, not retried.
UNREADABLE = ".unreadable"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SpooledJob:
    key: str
    work: str
    request: dict
    spooled_at: datetime


class Spool:
    """The directory of spooled jobs, and which of them this process is answering."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._held: set[str] = set()
        self._lock = threading.Lock()

    def keep(self, work: str, request: dict) -> SpooledJob:
        """Write a job durably before its request is acked; held by this process.

        Raises :class:`OSError` when the directory cannot take it (read-only, full).
        """
        job = SpooledJob(uuid.uuid4().hex, work, request, datetime.now(UTC))
        text = json.dumps(
            {
                "key": job.key,
                "work": job.work,
                "request": job.request,
                "spooled_at": job.spooled_at.isoformat(),
            }
        )
        final = self._path(job.key)
        temporary = final.with_suffix(TEMPORARY)
        self.hold(job.key)  # before the rename: no replay may see it unheld
        try:
            private_folder(self.directory)
            with open_private(temporary) as file:  # 0600: a job holds its response_url
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, final)
            self._sync_directory()
        except OSError:  # not kept: nothing of it may stay to be replayed later
            for path in (temporary, final):
                with contextlib.suppress(OSError):  # a full disk still deletes
                    path.unlink(missing_ok=True)
            self.let_go(job.key)
            raise
        return job

    def hold(self, key: str) -> None:
        """This process answers the job now: :meth:`leftovers` leaves it out."""
        with self._lock:
            self._held.add(key)

    def drop(self, key: str) -> None:
        """The job is answered or in the database: its file goes."""
        try:
            self._path(key).unlink(missing_ok=True)
        except OSError as error:  # still held: this process will not take it up again
            log.error("spooled job %s could not be deleted (%s)", key, error)
            return
        self.let_go(key)

    def let_go(self, key: str) -> None:
        """This process is done with the job; a file still there (not answered) is a
        leftover that :meth:`leftovers` hands out again (the replay moves it in)."""
        with self._lock:
            self._held.discard(key)

    def leftovers(self) -> list[SpooledJob]:
        """Spooled jobs no thread of this process is answering, oldest first."""
        try:
            paths = [p for p in self.directory.iterdir() if p.suffix == SUFFIX]
        except FileNotFoundError:  # nothing was ever spooled
            return []
        except OSError as error:
            log.error("spool %s cannot be read (%s)", self.directory, error)
            return []
        # Looked at after the listing: a file listed was renamed in after its hold.
        with self._lock:
            held = set(self._held)
        jobs = [self._read(path) for path in paths if path.stem not in held]
        return sorted((job for job in jobs if job), key=lambda job: job.spooled_at)

    def forget_unfinished_writes(self) -> None:
        """At start: temporary files of a dead process were never acked."""
        try:
            for path in self.directory.glob("*" + TEMPORARY):
                path.unlink(missing_ok=True)
        except OSError as error:
            log.error("spool %s cannot be cleaned (%s)", self.directory, error)

    def _read(self, path: Path) -> SpooledJob | None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return SpooledJob(
                data["key"],
                data["work"],
                data["request"],
                datetime.fromisoformat(data["spooled_at"]),
            )
        except FileNotFoundError:  # answered and deleted meanwhile
            return None
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.error("spooled job %s cannot be read (%s); set aside", path.name, error)
            with contextlib.suppress(OSError):
                path.rename(path.with_suffix(UNREADABLE))
            return None

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}{SUFFIX}"

    def _sync_directory(self) -> None:
        """The rename itself must survive a crash, not only the file's bytes."""
        descriptor = os.open(self.directory, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
