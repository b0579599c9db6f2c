"""Socket Mode: the same app over a WebSocket, for teams with no public URL.

Every envelope goes through the durable intake ``mpbot serve`` uses
(:mod:`bot.slack.durable`): its listener commits the job, and only then does
Bolt's handler send the envelope's ack on the socket (the app runs with
``process_before_response``). Worker processes answer the jobs; a restarted
process, or any replica on the same database, answers what a killed one
acked. Slack never sends an acked envelope again, so nothing acked may live
only in this process's memory.

The connection is opened with ``apps.connections.open`` through the app's own
WebClient settings, so ``SLACK_API_URL`` and the retry handlers apply here as
well. It is opened once before anything else starts: with Slack unreachable
or the app token refused, ``mpbot socket`` stops with one line saying so.

A connection can die without a word (a NAT or proxy forgetting it): slack-sdk's
client pings every ``ping_interval`` and replaces a connection that has not
answered for four intervals. With Bolt's default (10 s) that was about 50 s
deaf; ``SOCKET_PING_INTERVAL_S`` (2 s) notices within about 10 s.

An envelope whose payload Bolt cannot read (the shapes the HTTP edge refuses
with a 400, :func:`bot.slack.edge.readable_socket_payload`), or that no
listener takes (HTTP's 404), is acked, so Slack does not send it again, and
logged in one line; inside Bolt it raised or was left unacked.
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
import time

from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_bolt.adapter.socket_mode.internals import run_bolt_app, send_response
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.socket_mode.client import BaseSocketModeClient
from slack_sdk.socket_mode.request import SocketModeRequest
from slack_sdk.socket_mode.response import SocketModeResponse

from bot.settings import Settings
from bot.slack.clients import retry_handlers
from bot.slack.durable import DurableIntake
from bot.slack.edge import readable_socket_payload

# Envelopes handled at once (each waits for its job's commit before its ack).
ENVELOPE_THREADS = 16
log = logging.getLogger(__name__)
_QUIET = logging.getLogger(f"{__name__}.first-connection")
_QUIET.setLevel(logging.CRITICAL)
# The session's own log (slack-sdk's client): its reconnects, stale connections.
_SESSION = logging.getLogger(f"{__name__}.session")


class SlackUnreachable(Exception):
    """Socket Mode could not start: said in one line, never with a token."""


class CheckedSocketModeHandler(SocketModeHandler):
    """Bolt's Socket Mode handler, behind the edge's shape checks; every envelope acked."""

    def handle(self, client: BaseSocketModeClient, req: SocketModeRequest) -> None:  # type: ignore[override]
        started = time.time()
        if not readable_socket_payload(req.payload):
            self._ack_only(client, req, "malformed Socket Mode payload")
            return
        answer = run_bolt_app(self.app, req)
        if answer.status != 200:  # no listener for it (Bolt logged which), or refused
            self._ack_only(client, req, f"Socket Mode payload not handled ({answer.status})")
            return
        send_response(client, req, answer, started)

    @staticmethod
    def _ack_only(client: BaseSocketModeClient, req: SocketModeRequest, why: str) -> None:
        """Acked, so Slack does not send it again; one line, never the payload."""
        client.send_socket_mode_response(SocketModeResponse(envelope_id=req.envelope_id))
        log.warning("%s (%s envelope): acked, not answered", why, req.type)


def run_socket_mode(settings: Settings) -> int:
    app_token = settings.slack_app_token.get_secret_value()  # type: ignore[union-attr]
    try:
        url = open_connection(settings, app_token)
    except SlackUnreachable as error:
        print(f"mpbot socket: {error}", file=sys.stderr)
        return 1
    durable = DurableIntake(settings)
    durable.start()
    handler = CheckedSocketModeHandler(
        durable.app,
        app_token,
        logger=_SESSION,
        ping_interval=settings.socket_ping_interval_s,
        concurrency=ENVELOPE_THREADS,
    )
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    try:
        try:
            first_connect(handler, url)
        except SlackUnreachable as error:
            print(f"mpbot socket: {error}", file=sys.stderr)
            return 1
        log.info(
            "connected to Slack in Socket Mode with %d worker process(es)",
            settings.work_processes,
        )
        stop.wait()
        log.info("stopping: no new envelopes; workers finish or hand back their jobs")
    finally:
        handler.close()
        durable.stop()
    return 0


def first_connect(handler: SocketModeHandler, url: str) -> None:
    """The first WebSocket, on ``url``; :class:`SlackUnreachable` if it does not open.

    slack-sdk logs a failed connection and leaves it to its reconnect loop
    (forever, a line each time); at start that is a bad setting or no network.
    """
    errors: list[Exception] = []
    handler.client.on_error_listeners.append(errors.append)
    handler.client.wss_uri = url  # connect() uses the URL just issued
    _SESSION.setLevel(logging.CRITICAL)  # the one line below says it
    try:
        handler.connect()
        connected = handler.client.is_connected()
        if not connected:
            handler.close()  # its reconnect loop would try again forever
    finally:
        _SESSION.setLevel(logging.NOTSET)
        handler.client.on_error_listeners.remove(errors.append)
    if not connected:
        error = errors[0] if errors else ConnectionError("no handshake")
        raise SlackUnreachable(_cannot("reach the Socket Mode URL", error))


def open_connection(settings: Settings, app_token: str) -> str:
    """A WebSocket URL from ``apps.connections.open``; :class:`SlackUnreachable` if none."""
    # Quiet: its retries would each say what the one line below says.
    client = WebClient(
        base_url=settings.slack_api_url,
        timeout=settings.slack_timeout_s,
        retry_handlers=retry_handlers(settings),
        logger=_QUIET,
    )
    try:
        response = client.apps_connections_open(app_token=app_token)
    except SlackApiError as error:
        refusal = error.response.get("error") if isinstance(error.response.data, dict) else None
        raise SlackUnreachable(
            f"Slack refused apps.connections.open ({error.response.status_code} "
            f"{refusal or 'no error given'}): check SLACK_APP_TOKEN"
        ) from None
    except (OSError, SlackClientError) as error:
        raise SlackUnreachable(_cannot("reach Slack at SLACK_API_URL", error)) from None
    return response["url"]


def _cannot(what: str, error: BaseException) -> str:
    reason = getattr(error, "reason", None) or getattr(error, "strerror", None) or error
    return f"cannot {what} ({type(error).__name__}: {reason}); is the network up?"
