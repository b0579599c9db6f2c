"""HTTP mode: the Bolt app behind waitress, plus the health endpoints.

One WSGI callable serves Slack's requests on ``/slack/events`` (commands,
events, interactivity; checked first by :mod:`bot.slack.edge`), Bolt's OAuth
pages when OAuth is on, and the health checks:

- ``/livez``: the process serves HTTP (Kubernetes' liveness probe);
- ``/readyz``: it can ack and its worker processes run; the database answers,
  or (``READY_WITHOUT_DATABASE``, the default) its absence is declared in the
  body: ``ready (degraded: ...)``, since every replica would fail alike and
  the answers go out without it;
- ``/healthz``: the same as ``/readyz`` (older probes and the Dockerfile).

Connections: waitress holds up to ``HTTP_CONNECTION_LIMIT`` without a thread
each, closes one idle for ``HTTP_CHANNEL_TIMEOUT_S``, and refuses a body over
``HTTP_MAX_BODY_BYTES`` before reading it. It does not close a connection
that trickles (a byte every few seconds is never idle): the edge's channel
(:func:`bot.slack.edge.channel_class`) gives each request
``HTTP_REQUEST_DEADLINE_S`` from its first byte to its last, and answers a
refused body with a 413 the client can read. Per-IP limits are the reverse
proxy's (``deploy/nginx``): behind one, every client has its address.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Self

from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler
from waitress import wasyncore
from waitress.server import create_server

from bot.settings import Settings
from bot.slack.app import EVENTS_PATH
from bot.slack.durable import DurableIntake
from bot.slack.edge import channel_class, guarded
from bot.store import Store

LIVE_PATH = "/livez"
READY_PATH = "/readyz"
HEALTH_PATH = "/healthz"
# Enough to keep both cores busy while some requests wait on the database.
THREADS = 16
# Slack's own headers are small; a few KB of cookies at most behind a proxy.
MAX_HEADER_BYTES = 32 * 1024
# After a refused body: how long what the client still sends is read and dropped.
LINGER_S = 5.0
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Health:
    """What the health endpoints look at."""

    store: Store
    workers_alive: Callable[[], bool] = lambda: True
    ready_without_database: bool = True

    def ready(self) -> tuple[bool, str]:
        if not self.workers_alive():
            return False, "a worker process stopped"
        if self.store.ping():
            return True, "ready"
        reason = f"database unavailable: {self.store.degraded or 'no answer'}"
        if self.ready_without_database:
            return True, f"ready (degraded: {reason})"
        return False, reason


def wsgi_app(app: App, health: Health, settings: Settings) -> Callable:
    slack = SlackRequestHandler(app, path=EVENTS_PATH)
    secret = settings.slack_signing_secret
    events = guarded(
        slack,
        secret.get_secret_value() if secret else "",
        settings.http_max_body_bytes,
        health.store.first_delivery,  # a replayed signed request is answered once
    )

    def application(environ: dict, start_response: Callable) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO"), environ.get("REQUEST_METHOD")
        if method in ("GET", "HEAD") and path == LIVE_PATH:
            return _plain(start_response, True, "live")
        if method in ("GET", "HEAD") and path in (READY_PATH, HEALTH_PATH):
            return _plain(start_response, *health.ready())
        if method == "POST" and path == EVENTS_PATH:
            return events(environ, start_response)
        return slack(environ, start_response)  # OAuth pages; Bolt answers 404 to the rest

    return application


def _plain(start_response: Callable, ok: bool, text: str) -> list[bytes]:
    status = "200 OK" if ok else "503 Service Unavailable"
    body = (text + "\n").encode()
    start_response(status, [("Content-Type", "text/plain; charset=utf-8")])
    return [body]


def server_options(settings: Settings) -> dict:
    """waitress's limits: see the module's docstring."""
    return {
        "threads": THREADS,
        "ident": "mpbot",
        "connection_limit": settings.http_connection_limit,
        "channel_timeout": settings.http_channel_timeout_s,
        # How often idle connections are looked for (waitress's default is 30 s).
        "cleanup_interval": 1,
        "max_request_body_size": settings.http_max_body_bytes,
        "max_request_header_size": MAX_HEADER_BYTES,
        # poll(), not select(): past 1,024 open sockets select() cannot wait on them.
        "asyncore_use_poll": True,
    }


def edge_server(application: Callable, settings: Settings, **where: object):
    """A waitress server whose connections keep the edge's deadlines (:func:`channel_class`)."""
    server = create_server(application, **where, **server_options(settings))
    server.channel_class = channel_class(settings.http_request_deadline_s, LINGER_S)
    return server


def serve(settings: Settings, host: str, port: int) -> int:
    """Run until interrupted or terminated (the ``mpbot serve`` command).

    This process verifies, commits each request's job and acks;
    ``WORK_PROCESSES`` worker processes do the work (the intake Socket Mode
    shares, :mod:`bot.slack.durable`).
    On SIGTERM or Ctrl-C the server stops taking requests and the workers
    finish or hand back their jobs within ``SHUTDOWN_GRACE_S``.
    """
    durable = DurableIntake(settings)
    durable.start()
    health = Health(durable.store, durable.alive, settings.ready_without_database)
    application = wsgi_app(durable.app, health, settings)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)  # waitress closes on SystemExit
    log.info(
        "serving Slack on http://%s:%s%s (health: %s, %s) with %d worker process(es)",
        host,
        port,
        EVENTS_PATH,
        LIVE_PATH,
        READY_PATH,
        settings.work_processes,
    )
    server = edge_server(application, settings, host=host, port=port)
    server.print_listen("Serving on http://{}:{}")
    try:
        server.run()
    finally:
        durable.stop()
    return 0


def _exit_on_sigterm(_signum: int, _frame: object) -> None:
    raise SystemExit(0)


class BackgroundServer:
    """The same server on a free port in a thread (tests and the benchmark)."""

    def __init__(
        self,
        application: Callable,
        host: str = "127.0.0.1",
        port: int = 0,
        settings: Settings | None = None,
    ) -> None:
        self._sockets: dict = {}  # waitress's socket map, so stopping can empty it
        self._server = edge_server(
            application,
            settings or Settings(_env_file=None),
            map=self._sockets,
            host=host,
            port=port,
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
        try:
            self._server.trigger.pull_trigger(lambda: wasyncore.close_all(self._sockets))
        except OSError:  # the loop already closed its trigger: nothing polls the map now
            wasyncore.close_all(self._sockets)
        self._thread.join(timeout=5)
        self._server.task_dispatcher.shutdown()
