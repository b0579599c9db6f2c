"""Worker processes that run the jobs ``mpbot serve`` took before each ack.

In one process, the acks (Bolt's signature check, a job insert and a 200) and
the answers (database, the core, Block Kit, the POST to Slack) would share one
GIL, so under load every ack would wait behind answers. So the HTTP process
only verifies, commits the job (:mod:`bot.jobs`) and acks; worker processes
claim jobs from the database and run the listener's work with the request's parsed body, context
and a client of their own. Nothing goes through Bolt a second time: the
signature was checked once, at the edge, so a job is good however long it
waited.

A live worker keeps renewing the leases of what it runs, however long Slack
takes. The HTTP process supervises its workers: one that dies is replaced,
what its sent journal says Slack took is recorded (:mod:`bot.jobs.sent_journal`),
and its leases are handed back at once (a dead replica's lapse after
``JOB_LEASE_S``).
On SIGTERM workers stop claiming, finish what they run within
``SHUTDOWN_GRACE_S``, and hand back the rest for any replica to take.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import secrets
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime
from multiprocessing.connection import Connection, wait
from typing import TypeVar

from slack_bolt import App, BoltContext
from slack_sdk import WebClient
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler
from sqlalchemy.exc import SQLAlchemyError

from bot.jobs import ClaimedJob, JobStore, OutboxStore, SentJournal, Spool, SpooledJob
from bot.jobs.sent_journal import journal_workers, take_over
from bot.settings import Settings
from bot.slack.clients import DirectSends, counting, retry_handlers, run_counting_sends
from bot.slack.fairness import IntakeLimits
from bot.slack.listeners import Given, InPool, run_logged, work_name
from bot.slack.outbox import JobScope, OutboxClient, Postman, in_job
from bot.slack.pacing import ChannelPacer
from bot.slack.rooms.limits import SLOW_DOWN_WORK, WAIT_KEY
from bot.store.gate import Gate
from bot.store.writes import COMMIT_WAIT_S, Attempt

# Threads per worker process: the work mostly waits on Slack and the database.
THREADS = 8
# At most this many of them send answers the delivery loop retries.
DELIVERY_THREADS = 4
# How often a worker looks for answers whose retry time has come, and sweeps old ones.
OUTBOX_POLL_S = 0.25
SWEEP_EVERY_S = 30.0
# A live worker renews its leases this many times per lease.
RENEWALS_PER_LEASE = 3
# What a worker keeps of Bolt's context for a job: ids only, never tokens.
CONTEXT_KEYS = (
    "enterprise_id",
    "is_enterprise_install",
    "team_id",
    "user_id",
    "channel_id",
    "bot_id",
    "bot_user_id",
    "actor_enterprise_id",
    "actor_team_id",
    "actor_user_id",
)
# How long a job thread may hold the GIL while another waits (Python's default is
# 5 ms). Slack's answer to a post waits for the GIL behind threads busy with the
# core; until the worker has read it (and written it to its sent journal) a kill
# sends the answer twice, so that wait is kept short.
SWITCH_INTERVAL_S = 0.001
# Of a hostname, what a worker's id keeps (it must fit jobs.claimed_by's 64 characters).
HOSTNAME_CHARS = 40
# How often the supervisor looks at its workers when none has ended.
SUPERVISE_EVERY_S = 1.0
# Of the grace period, what a worker keeps to hand back its jobs and exit.
STOP_MARGIN_S = 2.0
T = TypeVar("T")
log = logging.getLogger(__name__)


def worker_id(pid: int, pool: str) -> str:
    """Who holds a lease: unique across replicas (a pod's hostname, cut to fit) and
    restarts (the pid, and the ``pool``'s random token: a restarted container
    numbers its processes as the dead one did, and must not take a dead worker's
    leases or journal for its own)."""
    return f"{socket.gethostname()[:HOSTNAME_CHARS]}:{pid}:{pool}"


class JobIntake:
    """The :class:`Handoff` of ``mpbot serve``: commit the job before the ack leaves.

    If the database cannot take it (down, read-only, too slow), the work is
    done in this process after the ack instead (``degraded``, logged): the
    answer does not need the database, so a user still gets it. So that a kill
    of this process cannot lose it, the job is first written to the ``spool``
    (:mod:`bot.jobs.spool`), and its file deleted once the work is done; a
    spool that cannot take it either is an ERROR, the answer not durable. With
    the store's ``gate`` the commit gets the gate's budget, so a frozen
    database cannot hold the ack (:mod:`bot.store.gate`).
    """

    def __init__(
        self,
        jobs: JobStore,
        fallback: InPool | None = None,
        wake: Callable[[], None] = lambda: None,
        gate: Gate | None = None,
        spool: Spool | None = None,
        limits: IntakeLimits | None = None,
    ) -> None:
        self.jobs = jobs
        self.fallback = fallback
        self.wake = wake
        self.gate = gate
        self.spool = spool
        self.limits = limits
        self.works: dict[str, Callable[..., None]] = {}

    def register(self, work: Callable[..., None]) -> None:
        self.works[work_name(work)] = work
        if self.fallback is not None:
            self.fallback.register(work)

    def __call__(self, work: Callable[..., None], given: Given) -> None:
        request = job_request(given)
        work, turn = self._fair(work, request, given)
        name = work_name(work)
        try:
            committed = self._commit(name, request, turn)
        except SQLAlchemyError as error:
            if self.fallback is None:
                raise
            committed, why = False, type(error).__name__
        else:
            why = self.gate.degraded if self.gate is not None else None
        if committed:
            self.wake()
            return
        if self.fallback is None:
            raise RuntimeError(f"the database did not take the job for {name}: {why}")
        log.warning(
            "degraded: the database did not take the job for %s (%s); answering in-process",
            name,
            why,
        )
        kept = self._keep(name, request)
        client = counting(given.client)
        given.context["client"] = client
        done = self.fallback.submit(work, replace(given, client=client), run_counting_sends)
        if kept is not None and self.spool is not None:
            done.add_done_callback(settle(self.spool, kept.key, name))

    def _fair(
        self, work: Callable[..., None], request: dict, given: Given
    ) -> tuple[Callable[..., None], datetime | None]:
        """The request's work, the "slow down" reply when its user or workspace is past
        the intake limits, and its turn in the claim order (:mod:`bot.slack.fairness`)."""
        if self.limits is None:
            return work, None
        context = request["context"]
        team, user = context.get("team_id"), context.get("user_id")
        turn = self.limits.turn(team, user)
        slow_down = self.works.get(SLOW_DOWN_WORK)
        wait = self.limits.admit(team, user)
        if not wait or slow_down is None:
            return work, turn
        log.info(
            "user %s of team %s past the intake limits: %s answered with slow down (%.0f s)",
            user,
            team,
            work_name(work),
            wait,
        )
        context[WAIT_KEY] = given.context[WAIT_KEY] = wait
        return slow_down, turn

    def _commit(self, name: str, request: dict, turn: datetime | None = None) -> bool:
        if self.gate is None:
            self.jobs.add(name, request, turn=turn)
            return True

        def add(attempt: Attempt, timeout: float | None) -> bool:
            return self.jobs.add(name, request, attempt=attempt, timeout=timeout, turn=turn) > 0

        return bool(within_budget(self.gate, self.jobs, "job intake", add, False))

    def _keep(self, name: str, request: dict) -> SpooledJob | None:
        """The job in the spool before the ack leaves; None (an ERROR) if it cannot be."""
        if self.spool is None:
            return None
        try:
            return self.spool.keep(name, request)
        except OSError as error:
            log.error(
                "the spool cannot keep the job for %s either (%s: %s); its answer is not "
                "durable: a kill before it is sent loses it",
                name,
                type(error).__name__,
                error.strerror or "no reason given",
            )
            return None


def settle(spool: Spool, key: str, work: str) -> Callable[[Future], None]:
    """When work answered in-process (its job only in ``spool``) ends: the file goes,
    unless Slack took none of its answers (down as well as the database), or the
    work never ran (its pool shut down first). Then the file stays, for the
    replay to move into the database once it is back, and the outbox sends it
    with its retries, within the answer's life."""

    def settled(done: Future) -> None:
        ran = not done.cancelled() and done.exception() is None
        sends = done.result() if ran else None
        if isinstance(sends, DirectSends) and (sends.taken or not sends.missed):
            spool.drop(key)
            return
        log.warning(
            "degraded: Slack took no answer for %s either; kept in the spool until "
            "the database takes it",
            work,
        )
        spool.let_go(key)

    return settled


def within_budget(gate: Gate, jobs: JobStore, what: str, write: Callable, fallback: T) -> T:
    """``write(attempt, timeout)`` within the gate's budget, else ``fallback``.

    Past the budget the caller does the work itself, so the write must then
    never commit (a worker would do the work again): it is handed an
    :class:`Attempt` given up here, unless its commit had already begun; then
    that commit's outcome decides (its statements are done: it is quick).
    """
    attempt = Attempt()

    def call(timeout: float | None = None) -> T:
        try:
            return attempt.settle(write(attempt, timeout))
        except TimeoutError:  # SQLite's writer stopped waiting (given up, or lost track)
            attempt.lost_track()
            raise
        except BaseException:
            attempt.failed()
            raise

    if jobs.writes.waits_itself:  # SQLite's writer thread: wait for it right here
        result = gate.bounded(what, call, fallback)
    else:
        result = gate.run(what, call, fallback)
    if result is fallback and not attempt.give_up():
        landed, value = attempt.outcome(COMMIT_WAIT_S)
        if landed:
            return value  # type: ignore[return-value]
        if landed is None:
            log.warning(
                "%s: a commit begun within the budget is still unanswered; it may land", what
            )
    return result


def job_request(given: Given) -> dict:
    context = {key: given.context.get(key) for key in CONTEXT_KEYS}
    return {
        "body": given.body,
        "payload": given.payload,
        "context": {key: value for key, value in context.items() if value is not None},
    }


class WorkerPool:
    """The HTTP process's side: start, watch, replace and stop the worker processes.

    It shares no lock with them: a worker frozen or killed while holding one
    would stall every ack (a ``multiprocessing.Queue`` did). Wake-ups are one
    byte down each worker's pipe, written without blocking; stopping is SIGTERM.
    """

    def __init__(self, settings: Settings, processes: int) -> None:
        # spawn: a fresh interpreter, not a fork of a process with live sockets and threads.
        self._context = multiprocessing.get_context("spawn")
        self.settings = settings
        # This pool's part of its workers' ids (see worker_id).
        self._token = secrets.token_hex(3)
        self._processes: list = [None] * processes
        self._wakers: list = [None] * processes
        self._stopping = threading.Event()
        # Dead workers (their ids) whose sent journals and leases are still to be taken over.
        self._dead: list[str] = []
        self._supervisor = threading.Thread(
            target=self._supervise, name="mpbot-supervisor", daemon=True
        )

    def start(self) -> None:
        # At start every journal is a dead worker's (one spool folder per replica):
        # what Slack took is recorded before any worker can run those jobs again.
        self._dead = journal_workers(self.settings.job_spool_dir)
        self._take_over()
        for index in range(len(self._processes)):
            self._spawn(index)
        self._supervisor.start()

    def wake(self) -> None:
        """Tell idle workers a job is waiting (they also look every ``JOB_POLL_S``)."""
        for waker in self._wakers:
            if waker is None:  # not started yet: a worker claims what is there when it starts
                continue
            try:
                os.write(waker.fileno(), b"j")
            except (BlockingIOError, OSError):  # a full pipe is already a wake-up
                pass

    def alive(self) -> bool:
        """Every worker runs; a stopping pool is not ready, and its workers are left to
        ``stop`` (two threads waiting on one child race: one of them is told the
        child is not its own, and takes it for alive)."""
        if self._stopping.is_set():
            return False
        return all(process is not None and process.is_alive() for process in self._processes)

    def stop(self) -> None:
        """Workers finish or hand back their jobs within the grace period, then end."""
        self._stopping.set()
        if self._supervisor.is_alive():  # it looks at the workers too: let it finish first
            self._supervisor.join(timeout=SUPERVISE_EVERY_S + 1)
        for process in self._processes:
            process.terminate()  # SIGTERM: the worker drains (see JobRunner.run)
        deadline = time.monotonic() + self.settings.shutdown_grace_s
        for process in self._processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                log.warning("%s did not stop within the grace period; killed", process.name)
                process.kill()
                process.join()

    def _spawn(self, index: int) -> None:
        reader, writer = self._context.Pipe(duplex=False)
        os.set_blocking(writer.fileno(), False)
        process = self._context.Process(
            target=run_worker,
            args=(self.settings, reader, self._token),
            name=f"mpbot-worker-{index}",
            daemon=True,
        )
        process.start()
        reader.close()
        old = self._wakers[index]
        self._processes[index], self._wakers[index] = process, writer
        if old is not None:
            old.close()

    def _supervise(self) -> None:
        while not self._stopping.is_set():
            wait([process.sentinel for process in self._processes], timeout=SUPERVISE_EVERY_S)
            for index, process in enumerate(self._processes):
                if self._stopping.is_set() or process.is_alive():
                    continue
                log.error(
                    "worker process %s (pid %s) exited with %s; starting another",
                    process.name,
                    process.pid,
                    process.exitcode,
                )
                self._dead.append(worker_id(process.pid, self._token))
                self._take_over()
                self._spawn(index)
            if self._dead:  # the database failed a take-over: try again
                self._take_over()

    def _take_over(self) -> None:
        """Dead workers' sent journals into the database, then their leases back at once.

        In that order: a job handed back is run again at once, and must find
        what Slack took of it. A worker whose journal the database did not
        take keeps its leases (they run out after ``JOB_LEASE_S``), and is
        tried again on the supervisor's next round.
        """
        if not self._dead:
            return
        from bot.store import make_engine

        engine = make_engine(self.settings.database_url.get_secret_value())
        jobs, outbox = JobStore(engine), OutboxStore(engine)
        try:
            for worker in list(self._dead):
                self._take_over_one(jobs, outbox, worker)
                self._dead.remove(worker)
        except SQLAlchemyError as error:
            log.error("could not take over the dead worker's jobs: %s", type(error).__name__)
        finally:
            engine.dispose()

    def _take_over_one(self, jobs: JobStore, outbox: OutboxStore, worker: str) -> None:
        marked = take_over(self.settings.job_spool_dir, worker, outbox)
        if marked is None:  # alive after all (another server's, sharing the folder)
            return
        if marked:
            log.info("%d answer(s) Slack took from the dead worker recorded as sent", marked)
        handed = jobs.release(worker)
        outbox.release(worker)
        if handed:
            log.warning("%d job(s) of the dead worker handed back", handed)


class StopRequest:
    """SIGTERM, taken by a thread of its own, so nothing the main thread waits on
    (a database call, say) can delay it: the grace period counts from its arrival,
    and when the grace period is up this thread ends the process itself."""

    def __init__(self, grace_s: float) -> None:
        self._event = threading.Event()
        self._grace_s = grace_s
        self.at: float | None = None
        # Blocked here, before any other thread exists, so every thread inherits
        # the block and SIGTERM reaches only the listener's sigwait.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        threading.Thread(target=self._listen, name="mpbot-sigterm", daemon=True).start()

    def set(self) -> None:
        self.at = self.at or time.monotonic()
        self._event.set()

    def is_set(self) -> bool:
        return self._event.is_set()

    def _listen(self) -> None:
        signal.sigwait({signal.SIGTERM})
        self.set()
        time.sleep(max(0.0, self._grace_s - STOP_MARGIN_S / 4))
        log.warning(
            "worker stopped at the grace period; unfinished jobs come back with their leases"
        )
        logging.shutdown()
        os._exit(0)


def run_worker(settings: Settings, wake: Connection, pool: str) -> None:
    """A worker process: build the app once, then run jobs until SIGTERM."""
    from bot.slack.app import create_app  # the app imports the listeners this module feeds
    from bot.slack.logs import configure_logging
    from bot.store import DatabaseLimits, Store, make_engine

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the HTTP process stops us in order
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    stop = StopRequest(settings.shutdown_grace_s)
    configure_logging(settings)
    limits = DatabaseLimits.of(settings)
    url = settings.database_url.get_secret_value()
    store = Store(make_engine(url, limits), limits)  # migrated by serve
    intake = JobIntake(JobStore(store.engine))
    app = create_app(settings, store, intake)
    runner = JobRunner(settings, app, intake.works, store.engine, worker_id(os.getpid(), pool))
    runner.run(wake, stop)


def given_for(request: dict, client: WebClient) -> Given:
    """What a job's work is given: its request as taken before the ack, and ``client``."""
    context = BoltContext(request["context"])
    context["client"] = client
    return Given(body=request["body"], payload=request["payload"], context=context, client=client)


def bot_token(
    settings: Settings, app: App, team_id: str | None, enterprise_id: str | None
) -> str | None:
    """The workspace's bot token: the one bot token, or the installation's (OAuth)."""
    if settings.slack_bot_token is not None and not settings.oauth_enabled:
        return settings.slack_bot_token.get_secret_value()
    store = app.installation_store
    bot = store.find_bot(enterprise_id=enterprise_id, team_id=team_id) if store else None
    return bot.bot_token if bot else None


class JobRunner:
    """Claims jobs and due answers and runs them in a thread pool, until stopped."""

    def __init__(self, settings: Settings, app: App, works: dict, engine, name: str) -> None:
        self.settings = settings
        self.app = app
        self.works = works
        self.name = name
        self.jobs = JobStore(engine)
        # What Slack took, on disk at once: read by whoever takes over if this process dies.
        self.journal = SentJournal(settings.job_spool_dir, self.name)
        self.postman = Postman(
            settings,
            OutboxStore(engine),
            self.token_for,
            self.name,
            self.journal,
            ChannelPacer(settings.job_spool_dir),
        )
        self.pool = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="mpbot-job")
        self._busy = 0
        self._sending = 0
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        # The jobs running now: on SIGTERM, the answers they sent are written down
        # before their jobs are handed back.
        self._running: set[JobScope] = set()
        # A thread that finishes writes a byte here: the loop claims the next job at
        # once instead of at its next poll (which, with no new acks, is JOB_POLL_S away).
        self._freed_r, self._freed_w = os.pipe()
        os.set_blocking(self._freed_w, False)
        self._handlers = [
            handler
            for handler in retry_handlers(settings)
            if not isinstance(handler, RateLimitErrorRetryHandler)  # no sleeping on a 429
        ]

    def run(self, wake: Connection, stop: StopRequest) -> None:
        parent = multiprocessing.parent_process()
        next_outbox = next_sweep = next_renewal = time.monotonic()
        # Whether jobs may be waiting: at start, after the HTTP process's wake-up or a
        # poll, and while each claim took as many as there was room for. A claim that
        # finds nothing is a write transaction for nothing (at a paced load, most were).
        waiting = True
        while not stop.is_set():
            if parent is not None and not parent.is_alive():
                log.error("the HTTP process is gone; worker %s stops", self.name)
                break
            if waiting and self._free() > 0:
                waiting = self._claim_jobs()
            if time.monotonic() >= next_outbox:
                next_outbox = time.monotonic() + OUTBOX_POLL_S
                self._claim_answers()
            if time.monotonic() >= next_renewal:
                next_renewal = time.monotonic() + self.settings.job_lease_s / RENEWALS_PER_LEASE
                self._guarded(self._renew)
            if time.monotonic() >= next_sweep:
                next_sweep = time.monotonic() + SWEEP_EVERY_S
                self._guarded(self.postman.sweep)
            if not waiting or self._free() == 0:
                waiting = self._wait(wake, min(self.settings.job_poll_s, OUTBOX_POLL_S)) or waiting
        self._drain(stop.at or time.monotonic())

    def _wait(self, wake: Connection, timeout: float) -> bool:
        """Until a job is waiting (the HTTP process's wake-up), a thread is free again, or
        ``timeout`` (a poll: other replicas' jobs, leases run out). False when only a
        thread came free: a job is then worth claiming only if one was waiting before."""
        ready = wait([wake, self._freed_r], timeout)
        for one in ready:
            os.read(one if isinstance(one, int) else one.fileno(), 4096)  # all so far
        return not ready or wake in ready

    def _free(self) -> int:
        with self._lock:
            return THREADS - self._busy

    def _renew(self) -> None:
        """Keep the leases of what this worker runs: only a dead worker's run out."""
        self.jobs.renew(self.name, self.settings.job_lease_s)
        self.postman.outbox.renew(self.name, self.settings.job_lease_s)

    def _claim_jobs(self) -> bool:
        """Claim what there is room for; True when that was all the room (more may wait)."""
        free = self._free()
        if free <= 0:
            return True
        jobs = self._guarded(
            lambda: self.jobs.claim(self.name, free, self.settings.job_lease_s), default=[]
        )
        for job in jobs:
            self._submit(self.run_job, job)
        return len(jobs) == free

    def _claim_answers(self) -> None:
        with self._lock:
            free = min(THREADS - self._busy, DELIVERY_THREADS - self._sending)
        if free <= 0:
            return
        for row in self._guarded(lambda: self.postman.due(free), default=[]):
            with self._lock:
                self._sending += 1
            self._submit(self._deliver, row)

    def _deliver(self, row) -> None:
        try:
            self.postman.send_due(row)
        finally:
            with self._lock:
                self._sending -= 1

    def _submit(self, function: Callable, item) -> None:
        with self._lock:
            self._busy += 1
        self.pool.submit(self._counted, function, item)

    def _counted(self, function: Callable, item) -> None:
        try:
            with self.journal.task():
                function(item)
        except Exception:
            log.exception("worker %s: %s failed", self.name, function.__name__)
        finally:
            with self._lock:
                self._busy -= 1
                self._idle.notify_all()
            try:
                os.write(self._freed_w, b"f")
            except (BlockingIOError, OSError):  # a full pipe is already a wake-up
                pass

    def run_job(self, job: ClaimedJob) -> None:
        work = self.works.get(job.work)
        if work is None:
            log.error("job %s names unknown work %s; dropped", job.id, job.work)
        elif job.attempts > self.settings.job_max_attempts:
            log.error("job %s (%s) given up after %d runs", job.id, job.work, job.attempts - 1)
        else:
            context = job.request["context"]
            scope = JobScope(
                job.id,
                job.created_at,
                context.get("team_id"),
                context.get("enterprise_id"),
                self.postman,
                first_run=job.attempts == 1,
                user_id=context.get("user_id"),
            )
            with self._lock:
                self._running.add(scope)
            try:
                with in_job(scope):
                    run_logged(work, self.given(job))
            finally:
                with self._lock:
                    self._running.discard(scope)
        # With it, the answers Slack took (scope.taken) are settled: a finished job is
        # never run again. Until then only the sent journal knows them (a machine
        # crash loses it), so it goes out as soon as the job ends.
        self.jobs.finish([job.id])

    def given(self, job: ClaimedJob) -> Given:
        context = job.request["context"]
        client = OutboxClient(
            token=self.token_for(context.get("team_id"), context.get("enterprise_id")),
            base_url=self.settings.slack_api_url,
            timeout=self.settings.slack_timeout_s,
            retry_handlers=self._handlers,
        )
        return given_for(job.request, client)

    def token_for(self, team_id: str | None, enterprise_id: str | None) -> str | None:
        return bot_token(self.settings, self.app, team_id, enterprise_id)

    def _drain(self, stopped_at: float) -> None:
        """Finish the running jobs within the grace period, then hand back what is left.

        The hand-back has the last ``STOP_MARGIN_S``: if the database is too slow
        to take it, :class:`StopRequest` ends the process at the deadline and the
        jobs come back when their leases run out.
        """
        deadline = stopped_at + max(0.0, self.settings.shutdown_grace_s - STOP_MARGIN_S)
        with self._lock:
            while self._busy and time.monotonic() < deadline:
                self._idle.wait(timeout=0.1)
        jobs = self._release()
        log.info("worker %s stopped; %d unfinished job(s) handed back", self.name, jobs)
        logging.shutdown()
        os._exit(0)  # the pool's threads may still be running what was handed back

    def _release(self) -> int:
        with self._lock:
            running = list(self._running)
        for scope in running:
            self._guarded(lambda scope=scope: self.postman.record_taken(scope))
        jobs = self._guarded(lambda: self.jobs.release(self.name), default=0)
        self._guarded(lambda: self.postman.outbox.release(self.name))
        return jobs

    def _guarded(self, action: Callable, default=None):
        """Database trouble in the loop is logged and waited out, never fatal."""
        try:
            return action()
        except SQLAlchemyError as error:
            log.error("worker %s: database unavailable (%s)", self.name, type(error).__name__)
            time.sleep(self.settings.job_poll_s)
            return default
