"""HTTP mode: the Bolt app behind waitress, plus ``GET /healthz``.

One WSGI callable serves Slack's requests on ``/slack/events`` (commands,
events, interactivity), Bolt's OAuth pages when OAuth is on, and the health
check that load balancers and Kubernetes probe.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable, Iterable
from typing import Self

import waitress
from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler
from waitress import wasyncore
from waitress.server import create_server

from bot.settings import Settings
from bot.slack.app import EVENTS_PATH, create_app
from bot.slack.workers import WorkQueue
from bot.store import Store, open_store

HEALTH_PATH = "/healthz"
# Enough to keep both cores busy while some requests wait on the database.
THREADS = 16
log = logging.getLogger(__name__)


def wsgi_app(app: App, store: Store, workers_alive: Callable[[], bool] = lambda: True) -> Callable:
    slack = SlackRequestHandler(app, path=EVENTS_PATH)

    def application(environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == HEALTH_PATH and environ.get("REQUEST_METHOD") in (
            "GET",
            "HEAD",
        ):
            problem = None
            if not store.ping():
                problem = b"database unreachable\n"
            elif not workers_alive():
                problem = b"a worker process stopped\n"
            status = "503 Service Unavailable" if problem else "200 OK"
            start_response(status, [("Content-Type", "text/plain; charset=utf-8")])
            return [problem or b"ok\n"]
        return slack(environ, start_response)

    return application


def serve(settings: Settings, host: str, port: int) -> int:
    """Run until interrupted or terminated (the ``mpbot serve`` command).

    This process verifies and acks; ``WORK_PROCESSES`` worker processes do the
    work after each ack (:mod:`bot.slack.workers`). On SIGTERM or Ctrl-C the
    server stops taking requests and the workers finish what is queued.
    """
    store = open_store(settings)
    processes = settings.work_processes
    workers = WorkQueue(settings, processes)
    app = create_app(settings, store, workers.handoff)
    workers.start()
    application = wsgi_app(app, store, workers.alive)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)  # waitress closes on SystemExit
    log.info(
        "serving Slack on http://%s:%s%s (health: %s) with %d worker process(es)",
        host,
        port,
        EVENTS_PATH,
        HEALTH_PATH,
        processes,
    )
    try:
        waitress.serve(application, host=host, port=port, threads=THREADS, ident="mpbot")
    finally:
        workers.stop()
    return 0


def _exit_on_sigterm(_signum: int, _frame: object) -> None:
    raise SystemExit(0)


class BackgroundServer:
    """The same server on a free port in a thread (tests and the benchmark)."""

    def __init__(self, application: Callable, host: str = "127.0.0.1", port: int = 0) -> None:
        self._sockets: dict = {}  # waitress's socket map, so stopping can empty it
        self._server = create_server(
            application, map=self._sockets, host=host, port=port, threads=THREADS, ident="mpbot"
        )
        self.port = self._server.effective_port
        self.url = f"http://{host}:{self.port}"
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        # Close the sockets from the server's own loop thread: closed from here, a
        # select() in progress there fails on a dead descriptor (EBADF). The loop
        # ends once its socket map is empty.
        self._server.trigger.pull_trigger(lambda: wasyncore.close_all(self._sockets))
        self._thread.join(timeout=5)
        self._server.task_dispatcher.shutdown()
