"""The sent journal: what Slack took, on disk within microseconds, until the database has it.

Why: a job's first run posts its answer, and the database learns that Slack
took it only with the commit that finishes the job (or the job's next outbox
write). That commit comes milliseconds after Slack's 2xx: it queues behind the
process's other writes (a group commit, a file lock, a busy database). A
worker killed in between left its job to be run again, and the answer was
posted twice. So each worker appends one line per answer Slack took (or
refused for good) to a file of its own in the spool directory, the moment it
hears from Slack: the job's id, the answer's number (``seq``), its kind and
life, and Slack's small result. One ``os.write`` on an ``O_APPEND``
descriptor, no fsync: a few microseconds.

Whoever takes over a dead worker's jobs first turns its journal into the
database's own record (:meth:`bot.jobs.OutboxStore.record_sent`: the done
outbox rows a reclaimed job looks for, written idempotently) and deletes it:
the restarted server before its workers start, and the HTTP process's
supervisor when it sees a worker die, before it hands the worker's leases
back. The job run again then finds those answers sent and skips them, as it
does any answer already recorded. A live worker's journal is never read: a
worker holds an ``flock`` on its files for as long as it lives (the kernel
drops it when the process dies, however it dies), and a take-over leaves a
file it cannot lock alone, leases and all (two servers sharing a folder by
mistake, say).

What it covers: a killed process (SIGKILL, the OOM killer, a crash). Bytes a
process wrote are in the kernel's page cache and reach the file though the
process is gone. What it does not cover: a machine crash (power, kernel panic)
inside the few milliseconds between the write and the database's commit; an
fsync per answer (milliseconds on real disks) would, at a cost on every
answer, for a fault that is far rarer and costs at most one duplicate per job
in flight. Nor a pod deleted with its ``emptyDir``: the journal goes with it,
and another replica reclaims the jobs after their lease.

Bounded: past ``ROTATE_BYTES`` the worker starts a new generation file. An
old generation is deleted once every task that started before it was rotated
out has ended: a task (a job, a retried answer) ends after the commit that
records what Slack took of it, so by then each of its lines is in the
database, or of a finished job, which is never run again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import threading
import urllib.parse
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from bot.files import private_folder

try:
    import fcntl
except ImportError:  # Windows: no lock; every journal found is taken for a dead worker's
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from bot.jobs.store import OutboxStore

# A new generation file past this size (about 8,000 answers).
ROTATE_BYTES = 1 << 20
_NAME = re.compile(r"^sent-(?P<worker>.+)\.(?P<generation>\d+)\.log$")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SentEntry:
    """One answer Slack took: the job's ``seq``-th, with what Slack answered."""

    job_id: int
    seq: int
    kind: str
    expires_at: datetime
    result: dict | None

    def line(self) -> bytes:
        fields = [self.job_id, self.seq, self.kind, self.expires_at.isoformat(), self.result]
        return (json.dumps(fields, separators=(",", ":")) + "\n").encode()

    @classmethod
    def parse(cls, line: str) -> SentEntry:
        job_id, seq, kind, expires_at, result = json.loads(line)
        return cls(int(job_id), int(seq), kind, datetime.fromisoformat(expires_at), result)


class SentJournal:
    """One worker's journal; each method is safe from any thread and never raises."""

    def __init__(self, directory: Path, worker: str, rotate_bytes: int = ROTATE_BYTES) -> None:
        self.directory = directory
        self.worker = worker
        self.rotate_bytes = rotate_bytes
        self._lock = threading.Lock()
        self._generation = 0
        self._written = 0
        # Generations rotated out but still on disk (and locked), and the tasks
        # running per start generation.
        self._old: dict[int, int] = {}
        self._running: Counter[int] = Counter()
        self._fd: int | None = None
        try:
            private_folder(directory)
            self._fd = self._open(self._generation)
        except OSError as error:
            self._give_up(error)

    def append(self, entry: SentEntry) -> None:
        """Slack took this answer: on disk before anything else happens."""
        line = entry.line()
        with self._lock:
            if self._fd is None:
                return
            try:
                os.write(self._fd, line)
            except OSError as error:
                self._give_up(error)
                return
            self._written += len(line)
            if self._written >= self.rotate_bytes:
                self._rotate()

    @contextlib.contextmanager
    def task(self) -> Iterator[None]:
        """A task whose lines are useless once it has ended (see the module)."""
        with self._lock:
            started = self._generation
            self._running[started] += 1
        try:
            yield
        finally:
            with self._lock:
                self._running[started] -= 1
                if not self._running[started]:
                    del self._running[started]
                self._collect()

    def paths(self) -> list[Path]:
        return journal_paths(self.directory, self.worker)

    def _open(self, generation: int) -> int:
        fd = os.open(self._path(generation), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        _hold_file(fd)  # ours for as long as this process lives
        return fd

    def _path(self, generation: int) -> Path:
        return self.directory / f"sent-{_safe(self.worker)}.{generation}.log"

    def _rotate(self) -> None:
        try:
            fd = self._open(self._generation + 1)
        except OSError as error:  # keep writing to the full one
            log.warning("sent journal %s cannot rotate (%s)", self.worker, error)
            self._written = 0
            return
        assert self._fd is not None
        self._old[self._generation] = self._fd  # still locked: a task may need its lines
        self._generation += 1
        self._fd, self._written = fd, 0
        self._collect()

    def _collect(self) -> None:
        """Delete the old generations no running task may have written to."""
        oldest_needed = min(self._running, default=self._generation)
        for generation in [g for g in self._old if g < oldest_needed]:
            with contextlib.suppress(OSError):
                self._path(generation).unlink()
            os.close(self._old.pop(generation))

    def _give_up(self, error: OSError) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
        self._fd = None
        log.warning(
            "the sent journal cannot be written in %s (%s); what Slack took is recorded "
            "only by each job's commit, so a kill before it may send an answer twice",
            self.directory,
            error.strerror or type(error).__name__,
        )


def journal_paths(directory: Path, worker: str | None = None) -> list[Path]:
    """The journal files in ``directory``: all of them, or ``worker``'s."""
    try:
        names = [path for path in directory.iterdir() if _NAME.match(path.name)]
    except OSError:  # no directory: nothing was journaled
        return []
    if worker is not None:
        names = [path for path in names if _NAME.match(path.name)["worker"] == _safe(worker)]
    return sorted(names)


def journal_workers(directory: Path) -> list[str]:
    """The workers with a journal in ``directory``."""
    names = {_NAME.match(path.name)["worker"] for path in journal_paths(directory)}
    return sorted(urllib.parse.unquote(name) for name in names)


def read_entries(paths: list[Path]) -> list[SentEntry]:
    """Every whole line of ``paths``; a line that cannot be read is skipped (logged)."""
    entries = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            log.error("sent journal %s cannot be read (%s)", path.name, error)
            continue
        for line in text.splitlines():
            try:
                entries.append(SentEntry.parse(line))
            except (ValueError, TypeError) as error:
                log.error("sent journal %s: a line cannot be read (%s)", path.name, error)
    return entries


def take_over(directory: Path, worker: str, outbox: OutboxStore) -> int | None:
    """A dead ``worker``'s journal into the database, then deleted; how many answers it
    marked, or None when a live process holds it (left alone).

    A database error propagates and the files stay, to be taken over again.
    """
    paths = journal_paths(directory, worker)
    with contextlib.ExitStack() as held:
        for path in paths:
            try:
                fd = os.open(path, os.O_RDONLY)
            except FileNotFoundError:  # deleted meanwhile
                continue
            held.callback(os.close, fd)
            if not _hold_file(fd):
                log.warning("sent journal %s is a live process's; left alone", path.name)
                return None
        entries = read_entries(paths)
        marked = outbox.record_sent(entries) if entries else 0
        for path in paths:
            with contextlib.suppress(OSError):
                path.unlink()
    return marked


def _hold_file(fd: int) -> bool:
    """Lock ``fd``'s file for this process, without waiting; False if another holds it."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _safe(worker: str) -> str:
    """A worker's name as a file name, reversibly (hostname:pid -> hostname%3Apid)."""
    return urllib.parse.quote(worker, safe="")
