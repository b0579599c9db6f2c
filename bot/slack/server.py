"""HTTP mode: the Bolt app behind waitress, plus ``GET /healthz``.

One WSGI callable serves Slack's requests on ``/slack/events`` (commands,
events, interactivity), Bolt's OAuth pages when OAuth is on, and the health
check that load balancers and Kubernetes probe.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from typing import Self

import waitress
from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler
from waitress.server import create_server

from bot.settings import Settings
from bot.slack.app import EVENTS_PATH, check_slack, create_app
from bot.store import Store, connect

HEALTH_PATH = "/healthz"
# Enough to keep both cores busy while some requests wait on the database.
THREADS = 16
log = logging.getLogger(__name__)


def wsgi_app(app: App, store: Store) -> Callable:
    slack = SlackRequestHandler(app, path=EVENTS_PATH)

    def application(environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == HEALTH_PATH and environ.get("REQUEST_METHOD") in (
            "GET",
            "HEAD",
        ):
            healthy = store.ping()
            status = "200 OK" if healthy else "503 Service Unavailable"
            start_response(status, [("Content-Type", "text/plain; charset=utf-8")])
            return [b"ok\n" if healthy else b"database unreachable\n"]
        return slack(environ, start_response)

    return application


def serve(settings: Settings, host: str, port: int) -> int:
    """Run until interrupted (the ``mpbot serve`` command)."""
    store = connect(settings.database_url.get_secret_value())
    app = create_app(settings, store)
    check_slack(app)
    application = wsgi_app(app, store)
    log.info("serving Slack on http://%s:%s%s (health: %s)", host, port, EVENTS_PATH, HEALTH_PATH)
    waitress.serve(application, host=host, port=port, threads=THREADS, ident="mpbot")
    return 0


class BackgroundServer:
    """The same server on a free port in a thread (tests and the benchmark)."""

    def __init__(self, application: Callable, host: str = "127.0.0.1", port: int = 0) -> None:
        self._server = create_server(
            application, host=host, port=port, threads=THREADS, ident="mpbot"
        )
        self.port = self._server.effective_port
        self.url = f"http://{host}:{self.port}"
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.close()
        self._thread.join(timeout=5)
