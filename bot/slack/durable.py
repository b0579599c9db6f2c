"""The one durable intake both transports share: HTTP (``mpbot serve``) and Socket Mode.

Whatever carries a request in (a signed POST, a Socket Mode envelope), the
app built here commits its job before the ack leaves (:class:`JobIntake`),
``WORK_PROCESSES`` worker processes answer it (:class:`WorkerPool`), a job the
database did not take is spooled and answered in this process, and what a
dead process left (its spool files, its workers' sent journals and leases)
is taken over at start (:class:`SpoolReplay`, :meth:`WorkerPool.start`). The
transport only decides how the ack travels.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from slack_bolt import App

from bot.jobs import JobStore, Spool
from bot.settings import Settings
from bot.slack.app import create_app
from bot.slack.fairness import IntakeLimits
from bot.slack.listeners import InPool
from bot.slack.replay import SpoolReplay
from bot.slack.workers import JobIntake, WorkerPool
from bot.store import Store, open_store

# Threads answering in this process when the database takes no job (degraded).
FALLBACK_THREADS = 16


class DurableIntake:
    """The store, the app whose listeners commit jobs, its workers and its spool replay."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store: Store = open_store(settings)
        self.workers = WorkerPool(settings, settings.work_processes)
        # When the database cannot take a job, this process answers it (degraded), and
        # the spool keeps it until then.
        fallback = InPool(
            ThreadPoolExecutor(max_workers=FALLBACK_THREADS, thread_name_prefix="mpbot-degraded")
        )
        spool = Spool(settings.job_spool_dir)
        self.intake = JobIntake(
            JobStore(self.store.engine),
            fallback,
            self.workers.wake,
            self.store.gate,
            spool,
            IntakeLimits(settings),
        )
        self.app: App = create_app(settings, self.store, self.intake)
        self._replay = SpoolReplay(settings, self.app, self.intake, spool)

    def start(self) -> None:
        """Take over what a dead process left, then start the workers."""
        self._replay.start()  # before the workers: they find the jobs
        self.workers.start()

    def alive(self) -> bool:
        return self.workers.alive()

    def stop(self) -> None:
        """Workers finish or hand back their jobs within ``SHUTDOWN_GRACE_S``."""
        self.workers.stop()
