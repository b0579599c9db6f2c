"""The queries behind jobs and the outbox; each runs in its own short transaction.

Claims are one statement: rows whose lease is empty or past get this worker's
name and a new lease, and come back. On PostgreSQL the candidate rows are
picked ``FOR UPDATE SKIP LOCKED``, so replicas claiming at once take different
rows without waiting on each other; SQLite runs one writer at a time, so its
``UPDATE ... RETURNING`` is atomic by itself.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import (
    Connection,
    Engine,
    and_,
    bindparam,
    delete,
    exists,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql import Select

from bot.jobs.sent_journal import SentEntry
from bot.jobs.spool import SpooledJob
from bot.jobs.tables import jobs, outbox
from bot.store.schema import processed_events
from bot.store.writes import Attempt, GivenUp, writes

# Rows per IN (...) list when a journal is read into the database.
CHUNK = 500
# A spooled job's key is recorded as taken beside Slack's event ids (and
# forgotten with them, after two hours): prefixed, so the two never meet.
SPOOL_KEY_PREFIX = "spool:"


@dataclass(frozen=True)
class ClaimedJob:
    id: int
    work: str
    request: dict
    created_at: datetime
    attempts: int


@dataclass(frozen=True)
class OutboxRow:
    id: int | None  # None: not stored yet (a first run sends before it stores)
    job_id: int
    kind: str
    target: str
    message: dict
    team_id: str | None
    enterprise_id: str | None
    expires_at: datetime
    attempts: int
    done: bool
    result: dict | None
    # Whether this caller holds the row's lease and may send it now.
    ours: bool = False
    seq: int = 0


class JobStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # Writes go through the engine's writer: on SQLite, a group commit (bot.store.writes).
        self.writes = writes(engine)
        # Built once, as the claim: on every ack, building the insert cost more than running it.
        self._insert = insert(jobs).returning(jobs.c.id)
        self._claim = self._claim_statement()
        self._forget_answers = delete(outbox).where(
            outbox.c.job_id.in_(bindparam("ids", expanding=True)), outbox.c.done_at.is_not(None)
        )
        self._forget_jobs = delete(jobs).where(jobs.c.id.in_(bindparam("ids", expanding=True)))

    def add(
        self,
        work: str,
        request: dict,
        attempt: Attempt | None = None,
        timeout: float | None = None,
        turn: datetime | None = None,
    ) -> int:
        """Commit a job (before its request is acked); its id, or 0 if its ``attempt``
        was given up first. ``turn``: its place in the claim order (the time of its
        ack unless told). ``timeout``: see the writer's ``run`` (:mod:`bot.store.writes`).
        """
        moment = now()
        values = {
            "work": work,
            "request": request,
            "created_at": moment,
            "attempts": 0,
            "lease_until": turn or moment,
        }

        def write(connection: Connection) -> int:
            if attempt is not None and not attempt.may_run():
                return 0
            job_id = connection.execute(self._insert, values).scalar_one()
            _commit_unless_given_up(attempt)
            return job_id

        return self.writes.run(write, timeout, attempt)

    def take_spooled(
        self,
        job: SpooledJob,
        attempt: Attempt | None = None,
        timeout: float | None = None,
    ) -> bool:
        """Commit a spooled job (:mod:`bot.jobs.spool`); False when its key was taken
        before (or its ``attempt`` given up first).

        The key is recorded in the job's own transaction, so a file moved in
        twice (a kill between this commit and the file's delete) makes one
        job, whether the first one is still waiting or already answered.
        ``timeout``: see the writer's ``run`` (:mod:`bot.store.writes`).
        """
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        mark = (
            dialect.insert(processed_events)
            .values(event_id=SPOOL_KEY_PREFIX + job.key, received_at=now())
            .on_conflict_do_nothing()
            .returning(processed_events.c.event_id)
        )
        values = {
            "work": job.work,
            "request": job.request,
            "attempts": 0,
            "lease_until": job.spooled_at,
        }

        def write(connection: Connection) -> bool:
            if attempt is not None and not attempt.may_run():
                return False
            if connection.execute(mark).scalar_one_or_none() is None:
                return False
            connection.execute(self._insert, values | {"created_at": job.spooled_at})
            _commit_unless_given_up(attempt)
            return True

        return self.writes.run(write, timeout, attempt)

    def claim(self, worker: str, limit: int, lease_s: float) -> list[ClaimedJob]:
        """Up to ``limit`` free jobs, in turn order, leased to ``worker`` for ``lease_s``."""
        moment = now()
        values = {
            "moment": moment,
            "limit": limit,
            "lease": moment + timedelta(seconds=lease_s),
            "worker": worker,
        }

        rows = self.writes.run(lambda connection: connection.execute(self._claim, values).all())
        claimed = [
            ClaimedJob(row.id, row.work, row.request, aware(row.created_at), row.attempts)
            for row in rows
        ]
        return sorted(claimed, key=lambda job: job.id)

    def finish(self, job_ids: Collection[int]) -> int:
        """The jobs are done (or given up): forget them and the answers they already sent."""
        ids = {"ids": list(job_ids)}

        def write(connection: Connection) -> int:
            connection.execute(self._forget_answers, ids)
            return connection.execute(self._forget_jobs, ids).rowcount

        return self.writes.run(write) if job_ids else 0

    def release(self, worker: str, job_ids: list[int] | None = None) -> int:
        """Give ``worker``'s leases back (all, or ``job_ids``), for any replica to claim now."""
        condition = jobs.c.claimed_by == worker
        if job_ids is not None:
            condition = and_(condition, jobs.c.id.in_(job_ids))
        # Back in the claim order at the time of their ack: ahead of what came since.
        statement = (
            update(jobs).where(condition).values(lease_until=jobs.c.created_at, claimed_by=None)
        )
        return self.writes.run(lambda connection: connection.execute(statement).rowcount)

    def renew(self, worker: str, lease_s: float) -> None:
        """Extend ``worker``'s leases: it is alive and still running those jobs."""
        statement = (
            update(jobs)
            .where(jobs.c.claimed_by == worker)
            .values(lease_until=now() + timedelta(seconds=lease_s))
        )
        self.writes.run(lambda connection: connection.execute(statement))

    def pending(self) -> int:
        with self.engine.connect() as connection:
            return len(connection.execute(select(jobs.c.id)).all())

    def _claim_statement(self):
        """The claim, built once (building it cost more than running it on SQLite)."""
        # Fair: in turn order (an unclaimed job's lease_until is its turn, set at intake,
        # bot.slack.fairness), so one user's backlog waits behind everyone else's next
        # job. The index on lease_until gives the order; no request is read to find it.
        moment = bindparam("moment")
        free = (
            select(jobs.c.id)
            .where(or_(jobs.c.claimed_by.is_(None), jobs.c.lease_until < moment))
            .order_by(jobs.c.lease_until, jobs.c.id)
            .limit(bindparam("limit"))
        )
        return (
            update(jobs)
            .where(jobs.c.id.in_(self._locked(free).scalar_subquery()))
            .values(
                lease_until=bindparam("lease"),
                claimed_by=bindparam("worker"),
                attempts=jobs.c.attempts + 1,
            )
            .returning(jobs.c.id, jobs.c.work, jobs.c.request, jobs.c.created_at, jobs.c.attempts)
        )

    def _locked(self, candidates: Select) -> Select:
        if self.engine.dialect.name == "postgresql":
            return candidates.with_for_update(skip_locked=True)
        return candidates


class OutboxStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.writes = writes(engine)

    def stage(
        self,
        job_id: int,
        seq: int,
        row: dict,
        *,
        worker: str,
        lease_s: float,
    ) -> OutboxRow:
        """The job's ``seq``-th answer: stored once, leased to ``worker`` if it may send now.

        ``row`` holds kind, target, message, team_id, enterprise_id and
        expires_at. A job run again gets its earlier row back: done (sent) rows
        are not sent again, and rows another worker holds are left to it. An
        answer waits for the job's earlier unsent ones, so they arrive in order.
        """
        moment = now()
        lease = moment + timedelta(seconds=lease_s)
        values = {
            **row,
            "job_id": job_id,
            "seq": seq,
            "created_at": moment,
            "next_at": moment,
            "lease_until": lease,
            "claimed_by": worker,
            "attempts": 0,
        }
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite

        def write(connection: Connection):
            connection.execute(dialect.insert(outbox).values(**values).on_conflict_do_nothing())
            taken = connection.execute(
                update(outbox)
                .where(
                    outbox.c.job_id == job_id,
                    outbox.c.seq == seq,
                    outbox.c.done_at.is_(None),
                    or_(outbox.c.claimed_by == worker, _lease_free(outbox.c.lease_until, moment)),
                    ~_earlier_unsent(moment),
                )
                .values(lease_until=lease, claimed_by=worker)
                .returning(outbox.c.id)
            ).scalar_one_or_none()
            if taken is None:  # not ours to send now: free its lease if we held it
                connection.execute(
                    update(outbox)
                    .where(outbox.c.job_id == job_id, outbox.c.seq == seq)
                    .where(outbox.c.claimed_by == worker, outbox.c.done_at.is_(None))
                    .values(lease_until=None, claimed_by=None)
                )
            found = connection.execute(
                select(outbox).where(outbox.c.job_id == job_id, outbox.c.seq == seq)
            ).one()
            return taken, found

        taken, found = self.writes.run(write)
        return _row(found, ours=taken is not None)

    def add(
        self,
        row: OutboxRow,
        *,
        result: dict | None = None,
        next_at: datetime | None = None,
        attempts: int = 1,
    ) -> None:
        """Store an answer a job's first run tried without staging: taken (``result``), or
        due again (``next_at``; ``attempts`` 0: not tried yet, its slot is later)."""
        moment = now()

        def write(connection: Connection):
            connection.execute(
                insert(outbox).values(
                    job_id=row.job_id,
                    seq=row.seq,
                    kind=row.kind,
                    target=row.target,
                    message=row.message,
                    team_id=row.team_id,
                    enterprise_id=row.enterprise_id,
                    created_at=moment,
                    expires_at=row.expires_at,
                    next_at=next_at or moment,
                    attempts=attempts,
                    done_at=None if next_at else moment,
                    result=result,
                )
            )

        self.writes.run(write)

    def record_sent(self, entries: Sequence[SentEntry]) -> int:
        """A dead worker's sent journal (:mod:`bot.jobs.sent_journal`) as done rows; how many.

        Idempotent. An answer waiting in the outbox is marked done; a first
        run's answer, never stored, gets a done row, if its job is still there
        to be run again (a finished job never is). A done row is read only for
        its ``result``, so its target and message stay empty here.
        """
        moment = now()
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        ids = sorted({entry.job_id for entry in entries})

        def write(connection: Connection) -> int:
            live: set[int] = set()
            unsent: set[tuple[int, int]] = set()
            for start in range(0, len(ids), CHUNK):
                chunk = ids[start : start + CHUNK]
                live |= set(
                    connection.execute(select(jobs.c.id).where(jobs.c.id.in_(chunk))).scalars()
                )
                waiting = select(outbox.c.job_id, outbox.c.seq).where(
                    outbox.c.job_id.in_(chunk), outbox.c.done_at.is_(None)
                )
                unsent |= {(row.job_id, row.seq) for row in connection.execute(waiting)}
            marked = 0
            for entry in entries:
                if (entry.job_id, entry.seq) in unsent:
                    marked += connection.execute(
                        update(outbox)
                        .where(outbox.c.job_id == entry.job_id, outbox.c.seq == entry.seq)
                        .where(outbox.c.done_at.is_(None))
                        .values(
                            done_at=moment,
                            result=entry.result,
                            lease_until=None,
                            claimed_by=None,
                            attempts=outbox.c.attempts + 1,
                        )
                    ).rowcount
                elif entry.job_id in live:
                    added = connection.execute(
                        dialect.insert(outbox)
                        .values(
                            job_id=entry.job_id,
                            seq=entry.seq,
                            kind=entry.kind,
                            target="",
                            message={},
                            created_at=moment,
                            expires_at=entry.expires_at,
                            next_at=moment,
                            attempts=1,
                            done_at=moment,
                            result=entry.result,
                        )
                        .on_conflict_do_nothing()
                        .returning(outbox.c.id)
                    ).scalar_one_or_none()
                    marked += added is not None
            return marked

        return self.writes.run(write)

    def claim_due(self, worker: str, limit: int, lease_s: float) -> list[OutboxRow]:
        """Unsent answers whose retry time has come, leased to ``worker``."""
        moment = now()
        due = _free(select(outbox.c.id), outbox.c.lease_until, moment).where(
            outbox.c.done_at.is_(None),
            outbox.c.next_at <= moment,
            outbox.c.expires_at > moment,
            ~_earlier_unsent(moment),
        )
        due = due.order_by(outbox.c.next_at).limit(limit)
        if self.engine.dialect.name == "postgresql":
            due = due.with_for_update(skip_locked=True)
        statement = (
            update(outbox)
            .where(outbox.c.id.in_(due.scalar_subquery()))
            .values(lease_until=moment + timedelta(seconds=lease_s), claimed_by=worker)
            .returning(*outbox.c)
        )

        rows = self.writes.run(lambda connection: connection.execute(statement).all())
        return [_row(row, ours=True) for row in rows]

    def sent(self, row_id: int, result: dict | None) -> None:
        """Slack took it (or refused it for good): never send it again."""

        def write(connection: Connection):
            connection.execute(
                update(outbox)
                .where(outbox.c.id == row_id)
                .values(
                    done_at=now(), result=result, lease_until=None, attempts=outbox.c.attempts + 1
                )
            )

        self.writes.run(write)

    def retry_at(self, row_id: int, moment: datetime) -> None:
        def write(connection: Connection):
            connection.execute(
                update(outbox)
                .where(outbox.c.id == row_id)
                .values(
                    next_at=moment,
                    lease_until=None,
                    claimed_by=None,
                    attempts=outbox.c.attempts + 1,
                )
            )

        self.writes.run(write)

    def release(self, worker: str) -> int:
        def write(connection: Connection):
            return connection.execute(
                update(outbox)
                .where(outbox.c.claimed_by == worker, outbox.c.done_at.is_(None))
                .values(lease_until=None, claimed_by=None)
            ).rowcount

        return self.writes.run(write)

    def renew(self, worker: str, lease_s: float) -> None:
        def write(connection: Connection):
            connection.execute(
                update(outbox)
                .where(outbox.c.claimed_by == worker, outbox.c.done_at.is_(None))
                .where(outbox.c.lease_until.is_not(None))
                .values(lease_until=now() + timedelta(seconds=lease_s))
            )

        self.writes.run(write)

    def expired(self) -> list[OutboxRow]:
        """Forget unsent answers past their life, and sent ones of finished jobs; the former."""
        moment = now()
        lapsed = and_(outbox.c.done_at.is_(None), outbox.c.expires_at <= moment)
        orphaned = and_(
            outbox.c.done_at.is_not(None), ~exists().where(jobs.c.id == outbox.c.job_id)
        )

        def write(connection: Connection):
            gone = connection.execute(select(outbox).where(lapsed)).all()
            connection.execute(delete(outbox).where(or_(lapsed, orphaned)))
            return gone

        gone = self.writes.run(write)
        return [_row(row) for row in gone]


def _free(query: Select, lease_until, moment: datetime) -> Select:
    return query.where(_lease_free(lease_until, moment))


def _lease_free(lease_until, moment: datetime):
    return or_(lease_until.is_(None), lease_until < moment)


def _earlier_unsent(moment: datetime):
    """An earlier answer of the same job is still to be sent."""
    earlier = outbox.alias("earlier")
    return exists().where(
        earlier.c.job_id == outbox.c.job_id,
        earlier.c.seq < outbox.c.seq,
        earlier.c.done_at.is_(None),
        earlier.c.expires_at > moment,
    )


def _row(row, *, ours: bool = False) -> OutboxRow:
    return OutboxRow(
        id=row.id,
        job_id=row.job_id,
        kind=row.kind,
        target=row.target,
        message=row.message,
        team_id=row.team_id,
        enterprise_id=row.enterprise_id,
        expires_at=aware(row.expires_at),
        attempts=row.attempts,
        done=row.done_at is not None,
        result=row.result,
        ours=ours,
        seq=row.seq,
    )


def _commit_unless_given_up(attempt: Attempt | None) -> None:
    """The write's statements ran; its commit may begin only if its caller still waits."""
    if attempt is not None and not attempt.may_commit():
        raise GivenUp("the caller gave up on this write; rolled back")


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; they were stored in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
