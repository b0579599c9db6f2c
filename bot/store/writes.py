"""Group commit: on SQLite, the writes of one process's threads share transactions.

SQLite has one writer at a time. Threads that each open their own write
transaction queue on its file lock, and a thread that finds it taken sleeps in
SQLite's busy handler (1, 2, 5 ... 100 ms between tries) rather than being
woken when the lock frees: under load most of a job's time went there. So on
SQLite one thread per process and engine takes every waiting write and runs
them in one transaction, one commit for the lot; each caller returns only once
that commit is done, so "committed before the ack" and "marked sent before
anything can send it again" hold exactly as with a transaction of its own. A
write that fails is run again alone, so one bad write cannot fail the others.

Processes queue the same way, one level up: the HTTP process and each worker
have a writer thread, and with SQLite's busy handler alone the one that lost
the race slept up to 100 ms while the other committed hundreds of times a
second (under load the workers' claims starved behind the acks' inserts). So
each writer takes an OS file lock (``flock``) beside the database file for
its transaction, and the next process is let in within a millisecond of the
lock freeing. The lock only orders writers; SQLite's own lock still guards
the data, so a writer that cannot get the file lock in time (or a database
without a file) just goes on to SQLite's lock and its busy timeout.

PostgreSQL takes concurrent writers without a file lock, and a replica's
writes there stay each in its own transaction.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from sqlalchemy import Connection, Engine

try:
    import fcntl
except ImportError:  # Windows: SQLite's own lock alone
    fcntl = None  # type: ignore[assignment]

# Enough to empty the queue of a busy process in one commit, short enough to keep it quick.
MOST_PER_COMMIT = 64
# How long a caller past its budget waits for a commit that had begun (see Attempt).
COMMIT_WAIT_S = 1.0
# A writer thread idle this long ends (another starts with the next write).
IDLE_EXIT_S = 5.0
# How long a writer waits for the file lock before it goes on to SQLite's own lock,
# and how often it looks while it waits (the lock is held for one commit, ~0.1 ms).
FILE_LOCK_WAIT_S = 1.0
FILE_LOCK_POLL_S = (0.0001, 0.001)
T = TypeVar("T")
log = logging.getLogger(__name__)
Write = Callable[[Connection], T]


class GivenUp(Exception):
    """Raised by a write whose caller gave up on it: its transaction rolls back."""


class Attempt:
    """A write its caller may give up on: it commits, or it is given up, never both.

    A caller past its budget does the work itself, so a write committing after
    that would have it done twice (a command answered in-process, and again by
    a worker from the job that landed late: a write stuck on SQLite's lock, or
    on a frozen PostgreSQL, still commits once it gets through). The write asks
    :meth:`may_run` first and :meth:`may_commit` after its statements, before
    the commit; the caller asks :meth:`give_up`. Whichever asks first decides.
    A caller too late to give up waits for the commit it can no longer stop
    (:meth:`outcome`): with the write's statements done, only the commit is left.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state: str | None = None  # None, "committing" or "given up"
        self._done = threading.Event()
        self._landed: bool | None = None
        self._result: object = None

    def may_run(self) -> bool:
        with self._lock:
            return self._state != "given up"

    def may_commit(self) -> bool:
        return self._decide("committing")

    def give_up(self) -> bool:
        """True: the write will never commit; False: its commit has begun."""
        return self._decide("given up")

    def _decide(self, state: str) -> bool:
        """Move to ``state``, unless the other decision came first."""
        with self._lock:
            if self._state not in (None, state):
                return False
            self._state = state
            return True

    def settle(self, result: T) -> T:
        """The write committed with ``result`` (called after the commit)."""
        self._end(True, result)
        return result

    def failed(self) -> None:
        """The write or its commit failed: nothing landed."""
        self._end(False)

    def lost_track(self) -> None:
        """Its writer stopped waiting for a commit that had begun: it may still land."""
        self._end(None)

    def outcome(self, wait_s: float) -> tuple[bool | None, object]:
        """(committed, result) once the begun commit has ended; committed is None
        when nobody knows (not ended within ``wait_s``, or :meth:`lost_track`)."""
        if not self._done.wait(wait_s):
            return None, None
        return self._landed, self._result

    def _end(self, landed: bool | None, result: object = None) -> None:
        self._landed, self._result = landed, result
        self._done.set()


class _Pending:
    __slots__ = ("done", "error", "result", "write")

    def __init__(self, write: Write) -> None:
        self.write = write
        self.done = threading.Event()
        self.result = None
        self.error: BaseException | None = None


class GroupCommit:
    """Runs writes for one engine, several to a transaction (see the module)."""

    def __init__(self, engine: Engine) -> None:
        # Weak: the registry below must not keep a disposed engine alive.
        self._engine = weakref.ref(engine)
        self._turn = WriterTurn.beside(sqlite_file(engine))
        self._queue: queue.SimpleQueue[_Pending] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()

    # The write runs on the writer thread, so a caller can stop waiting for it.
    waits_itself = True

    def run(
        self, write: Write[T], timeout: float | None = None, attempt: Attempt | None = None
    ) -> T:
        """``write(connection)`` in a committed transaction; its result, or its error.

        Past ``timeout`` seconds this raises :class:`TimeoutError`; the write may
        still run later, unless its ``attempt`` is given up here (the write checks
        it). An attempt whose commit has begun is waited for a while more instead.
        """
        pending = _Pending(write)
        self._queue.put(pending)
        self._ensure_thread()
        if not pending.done.wait(timeout):
            if attempt is None or attempt.give_up():
                raise TimeoutError(f"no commit within {timeout:g} s")
            if not pending.done.wait(COMMIT_WAIT_S):
                raise TimeoutError(f"a commit begun is still unanswered after {timeout:g} s")
        if pending.error is not None:
            raise pending.error
        return pending.result  # type: ignore[return-value]

    def _ensure_thread(self) -> None:
        with self._start:  # see _idle_end: a write is never left without a thread
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._loop, name="mpbot-group-commit", daemon=True
                )
                self._thread.start()

    def _loop(self) -> None:
        while True:
            try:
                batch = [self._queue.get(timeout=IDLE_EXIT_S)]
            except queue.Empty:
                if self._idle_end():
                    return
                continue
            while len(batch) < MOST_PER_COMMIT:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            self._commit(batch)

    def _idle_end(self) -> bool:
        with self._start:
            if self._queue.empty():
                self._thread = None
                return True
            return False

    def _commit(self, batch: list[_Pending]) -> None:
        engine = self._engine()
        if engine is None:
            for pending in batch:
                pending.error = RuntimeError("the database engine was disposed")
                pending.done.set()
            return
        if len(batch) > 1:
            try:
                with self._turn.held(), engine.begin() as connection:
                    results = [pending.write(connection) for pending in batch]
            except Exception:  # noqa: BLE001, S110 (one failed: each alone, for its own outcome)
                pass
            else:
                for pending, result in zip(batch, results, strict=True):
                    pending.result = result
                    pending.done.set()
                return
        for pending in batch:
            try:
                with self._turn.held(), engine.begin() as connection:
                    pending.result = pending.write(connection)
            except BaseException as error:  # noqa: BLE001 (the caller raises it)
                pending.error = error
            pending.done.set()


class WriterTurn:
    """The file lock that lets one process at a time write (see the module)."""

    def __init__(self, file) -> None:
        self._file = file  # None: no lock file (no fcntl, no database file, no write access)

    @classmethod
    def beside(cls, database: Path | None) -> WriterTurn:
        if fcntl is None or database is None:
            return cls(None)
        try:
            return cls(open(f"{database}.writer-lock", "a"))  # held for the engine's life
        except OSError as error:
            log.info("no writer lock beside %s (%s): SQLite's lock alone", database, error)
            return cls(None)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        locked = self._file is not None and self._acquire()
        try:
            yield
        finally:
            if locked:
                fcntl.flock(self._file, fcntl.LOCK_UN)

    def _acquire(self) -> bool:
        deadline = time.monotonic() + FILE_LOCK_WAIT_S
        pause, longest = FILE_LOCK_POLL_S
        while True:
            try:
                fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return False
            except OSError:
                return False
            time.sleep(pause)
            pause = min(pause * 2, longest)


def sqlite_file(engine: Engine) -> Path | None:
    """The SQLite database's file (plain or ``file:`` URI form); None for others."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    return Path(database.removeprefix("file:").split("?", 1)[0])


class OwnTransaction:
    """Each write in a transaction of its own (PostgreSQL)."""

    # The write runs in the caller's thread: only another thread can bound its wait.
    waits_itself = False

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def run(
        self, write: Write[T], timeout: float | None = None, attempt: Attempt | None = None
    ) -> T:
        with self.engine.begin() as connection:
            return write(connection)


_writers: weakref.WeakKeyDictionary[Engine, GroupCommit | OwnTransaction] = (
    weakref.WeakKeyDictionary()
)
_writers_lock = threading.Lock()


def writes(engine: Engine) -> GroupCommit | OwnTransaction:
    """The one writer of ``engine`` in this process (shared by every store on it)."""
    with _writers_lock:
        writer = _writers.get(engine)
        if writer is None:
            sqlite = engine.dialect.name == "sqlite"
            writer = GroupCommit(engine) if sqlite else OwnTransaction(engine)
            _writers[engine] = writer
        return writer
