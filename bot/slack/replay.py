"""Spooled jobs (:mod:`bot.jobs.spool`) go into the jobs table as soon as the database takes them.

The HTTP process of ``mpbot serve`` spools a job when the database did not
take it before the ack, and answers it itself. A file no thread of this
process holds was left by a process that died before answering: at start,
and every ``REPLAY_EVERY_S`` after (so within seconds of the database being
back: the gate lets a call through again after its retry period or a
successful health check), each such file is committed as a job, idempotently
(:meth:`bot.jobs.JobStore.take_spooled`), and deleted; the workers answer it
as any job. A replica that starts while the database is still away answers
its leftovers itself, from the spool, and deletes each file once answered.
"""

from __future__ import annotations

import logging
import threading
import time

from slack_bolt import App

from bot.jobs import Spool, SpooledJob
from bot.settings import Settings
from bot.slack.clients import run_counting_sends, web_client
from bot.slack.workers import JobIntake, bot_token, given_for, settle, within_budget

# How often the HTTP process looks for spooled jobs the database may take now.
REPLAY_EVERY_S = 2.0
log = logging.getLogger(__name__)


class SpoolReplay:
    """Moves leftover spooled jobs into the database, or answers them here at start."""

    def __init__(self, settings: Settings, app: App, intake: JobIntake, spool: Spool) -> None:
        if intake.gate is None or intake.fallback is None:
            raise ValueError("replay needs the intake's gate and its in-process fallback")
        self.settings = settings
        self.app = app
        self.intake = intake
        self.spool = spool
        self._thread = threading.Thread(target=self._loop, name="mpbot-spool", daemon=True)

    def start(self) -> None:
        """Leftovers of a dead process: into the database, or answered here while it is away."""
        self.spool.forget_unfinished_writes()
        for job in self.move_in():
            self._answer_here(job)
        self._thread.start()

    def move_in(self) -> list[SpooledJob]:
        """Commit each leftover as a job and delete its file; those the database did not take."""
        leftovers = self.spool.leftovers()
        moved = 0
        for index, job in enumerate(leftovers):
            if self._take(job) is None:
                return leftovers[index:]
            self.spool.drop(job.key)
            moved += 1
        if moved:
            log.info("%d spooled job(s) moved into the database", moved)
            self.intake.wake()
        return []

    def _take(self, job: SpooledJob) -> bool | None:
        """True: committed; False: taken before (the file is a copy); None: not now."""
        jobs, gate = self.intake.jobs, self.intake.gate
        assert gate is not None  # checked in __init__

        def take(attempt, timeout: float | None) -> bool:
            return jobs.take_spooled(job, attempt=attempt, timeout=timeout)

        return within_budget(gate, jobs, "spool replay", take, None)

    def _answer_here(self, job: SpooledJob) -> None:
        work = self.intake.works.get(job.work)
        if work is None:
            log.error("spooled job %s names unknown work %s; dropped", job.key, job.work)
            self.spool.drop(job.key)
            return
        log.warning(
            "degraded: the database did not take spooled job %s (%s); answering in-process",
            job.key,
            job.work,
        )
        context = job.request["context"]
        token = bot_token(
            self.settings, self.app, context.get("team_id"), context.get("enterprise_id")
        )
        given = given_for(job.request, web_client(self.settings, token))
        self.spool.hold(job.key)
        fallback = self.intake.fallback
        assert fallback is not None  # checked in __init__
        done = fallback.submit(work, given, run_counting_sends)
        done.add_done_callback(settle(self.spool, job.key, job.work))

    def _loop(self) -> None:
        while True:
            time.sleep(REPLAY_EVERY_S)
            try:
                self.move_in()
            except Exception:  # the loop must outlive anything one pass meets
                log.exception("spool replay failed; trying again in %g s", REPLAY_EVERY_S)
