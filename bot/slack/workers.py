"""Worker processes for the work after each ack (``mpbot serve``).

In one process, the acks (Bolt's signature check and a 200, ~0.15 ms of CPU)
and the answers (database, the core, Block Kit, the ``response_url`` POST,
~1.7 ms) share one GIL, so under load every ack waits behind answers. Slack
needs the ack within 3 s but takes an answer on ``response_url`` later, so the
HTTP process only acks and queues the request (its raw body and headers, a few
hundred bytes); worker processes, at a lower CPU priority so the acks win a
busy machine, each build their own app, store and clients once and
re-dispatch every request through Bolt as a ``lazy_only`` request naming the
work to run. That is how Bolt's AWS Lambda adapter runs lazy listeners: Bolt
verifies the signature again, authorizes, skips the ack and runs only that
listener, with fresh ``client``/``context``/``body`` of the worker's own.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import wait

from slack_bolt import App, BoltRequest
from slack_bolt.util.utils import get_name_for_callable

from bot.settings import Settings
from bot.slack.app import create_app
from bot.slack.logs import configure_logging
from bot.store import DatabaseLimits, Store, make_engine

# Lower priority than the HTTP process: on a saturated machine the acks get the CPU.
NICE = 19
# Threads per worker process, as the in-process pool: the work mostly waits on Slack.
THREADS = 5
STOP_TIMEOUT_S = 10.0
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Job:
    """A request the HTTP process acked, and the name of the work it still needs."""

    body: str
    headers: dict[str, list[str]]
    work: str


class WorkQueue:
    """The HTTP process's side: worker processes and the queue that feeds them."""

    def __init__(self, settings: Settings, processes: int, threads: int = THREADS) -> None:
        # spawn: a fresh interpreter, not a fork of a process with live sockets and threads.
        context = multiprocessing.get_context("spawn")
        self._queue = context.Queue()
        self._threads = threads
        self._processes = [
            context.Process(
                target=run_worker,
                args=(settings, self._queue, threads),
                name=f"mpbot-worker-{index}",
                daemon=True,
            )
            for index in range(processes)
        ]

    def start(self) -> None:
        for process in self._processes:
            process.start()

    def handoff(self, work: Callable[..., None], _kwargs: dict, request: BoltRequest) -> None:
        """A :data:`bot.slack.listeners.Handoff`: the worker rebuilds the arguments itself."""
        self.put(request, get_name_for_callable(work))

    def put(self, request: BoltRequest, work: str) -> None:
        headers = {name: list(values) for name, values in request.headers.items()}
        self._queue.put(Job(body=request.raw_body, headers=headers, work=work))

    def alive(self) -> bool:
        return all(process.is_alive() for process in self._processes)

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> None:
        """Let the workers finish what is queued (up to ``timeout``), then end them."""
        for _ in range(len(self._processes) * self._threads):
            self._queue.put(None)
        deadline = time.monotonic() + timeout
        for process in self._processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                log.warning("%s did not finish its queue in %g s; stopped", process.name, timeout)
                process.terminate()
                process.join()


def run_worker(settings: Settings, queue: multiprocessing.Queue, threads: int) -> None:
    """A worker process: build the app once, then run queued work until told to stop."""
    os.nice(NICE)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the HTTP process stops us in order
    configure_logging(settings)
    limits = DatabaseLimits.of(settings)
    url = settings.database_url.get_secret_value()
    store = Store(make_engine(url, limits), limits)  # migrated by serve
    app = create_app(settings, store, in_worker=True)
    runners = [
        threading.Thread(target=_run_jobs, args=(app, queue), daemon=True) for _ in range(threads)
    ]
    for runner in runners:
        runner.start()
    parent = multiprocessing.parent_process()
    while any(runner.is_alive() for runner in runners):
        if parent is not None and wait([parent.sentinel], timeout=1.0):
            log.error("the HTTP process is gone; worker %s stops", os.getpid())
            return
        for runner in runners:
            runner.join(timeout=0)


def _run_jobs(app: App, queue: multiprocessing.Queue) -> None:
    while (job := queue.get()) is not None:
        try:
            redispatch(app, job)
        except Exception:
            log.exception("after-ack work %s failed", job.work)


def redispatch(app: App, job: Job) -> None:
    """Run ``job``'s work through Bolt: signature, authorization, then only that listener."""
    headers = {
        **job.headers,
        "x-slack-bolt-lazy-only": ["1"],
        "x-slack-bolt-lazy-function-name": [job.work],
    }
    response = app.dispatch(BoltRequest(body=job.body, headers=headers))
    if response.status != 200:
        # 401 here: the request waited past Bolt's 5-minute signature window.
        log.error("after-ack work %s not run: Bolt answered %s", job.work, response.status)
