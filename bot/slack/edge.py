"""The HTTP edge: a request is sized, decoded, signed and well-formed before Bolt sees it.

Bolt parses a body as soon as it builds its request, before it checks the
signature, and an unparsable or non-UTF-8 body became a 500 with a
traceback. Here every ``POST /slack/events`` is checked in the order that
costs least for a bad one: its size (413, nothing read), UTF-8 (400), Slack's
signature over the raw bytes with slack-sdk's :class:`SignatureVerifier`
(401, nothing parsed; a timestamp that is not a short run of digits is
refused before slack-sdk's ``int()`` sees it), then its shape: a JSON object,
or a form whose ``payload`` is one, not nested deeper than any Slack payload,
that Bolt can read: every field Bolt's readers and matchers index has the JSON
type Slack gives it (:data:`SLACK_TYPES`), and the request Bolt builds and
what it hands every listener are built here once under ``try`` (a
``view_submission`` without ``view.type`` raised a ``KeyError`` inside Bolt:
500). Last, an exact replay
of a signed command or interaction (the same signature: the same timestamp and
body, which holds a unique ``trigger_id``) inside Slack's 5-minute window is
acked and not answered again; events (JSON) are deduped by their ``event_id``
(:func:`bot.slack.app.answer_each_event_once`), whose retries Slack signs anew.
What passes goes to Bolt unchanged. A rejection is one log line: status,
reason and size, never the body. Socket Mode envelopes get the same shape
checks (:func:`readable_socket_payload`, :mod:`bot.slack.socket_mode`).

Below the requests, the connections: :func:`channel_class` gives waitress's
connections a request deadline, a "full server" rule and a lingering close.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import re
import socket
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import parse_qs

from slack_bolt.request import BoltRequest
from slack_bolt.request.payload_utils import (
    to_action,
    to_command,
    to_event,
    to_message,
    to_options,
    to_shortcut,
    to_step,
    to_view,
)
from slack_sdk.signature import SignatureVerifier
from waitress.channel import HTTPChannel
from waitress.utilities import RequestEntityTooLarge

# Slack's own payloads (a message's blocks inside a block_actions payload
# included) nest about a dozen levels; far deeper is not Slack.
MAX_JSON_DEPTH = 64
# Unix seconds: 10 digits until 2286. A longer or non-digit value is not Slack's.
TIMESTAMP = re.compile(r"[0-9]{1,12}")
# What Bolt reads from a body for every listener (its kwargs injection).
BOLT_READS = (
    to_options,
    to_shortcut,
    to_action,
    to_view,
    to_command,
    to_event,
    to_message,
    to_step,
)
# The JSON type of each field Bolt's readers and listener matchers index without
# checking, as Slack sends it (a list: of objects, never empty). Checked in the
# body and, through these fields, in what they hold: any other type is not Slack.
OPTIONAL = (dict, str, type(None))
SLACK_TYPES: dict[str, type | tuple[type, ...]] = {
    "event": dict,
    "view": dict,
    "message": dict,
    "previous_message": dict,
    "item": dict,
    "container": dict,
    "assistant_thread": dict,
    "function_data": dict,
    "workflow_step": dict,
    "actions": list,
    "authorizations": list,
    "team": OPTIONAL,
    "user": OPTIONAL,
    "channel": OPTIONAL,
    "enterprise": OPTIONAL,
    "type": str,
    "subtype": (str, type(None)),
    "command": str,
    "callback_id": str,
    "action_id": str,
    "block_id": str,
}
# With every connection slot taken, a request slower than this (or a connection
# idle as long) gives its slot up: Slack's arrive whole in milliseconds.
CROWDED_S = 1.0
# A body Bolt's readers fail on raises one of these (they index without checking).
UNREADABLE = (KeyError, IndexError, TypeError, AttributeError, ValueError, RecursionError)
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rejection:
    status: str
    reason: str


TOO_LARGE = Rejection("413 Payload Too Large", "request body too large")
BAD_LENGTH = Rejection("400 Bad Request", "bad Content-Length")
NOT_UTF8 = Rejection("400 Bad Request", "body is not UTF-8")
UNSIGNED = Rejection("401 Unauthorized", "invalid or missing Slack signature")
BAD_TIMESTAMP = Rejection("401 Unauthorized", "invalid or missing X-Slack-Request-Timestamp")
MALFORMED = Rejection("400 Bad Request", "malformed Slack payload")


def guarded(
    slack: Callable,
    signing_secret: str,
    max_body_bytes: int,
    first_delivery: Callable[[str], bool] = lambda _key: True,
) -> Callable:
    """A WSGI app: ``slack`` (Bolt's handler) behind the checks above.

    ``first_delivery(key)`` records a signed request's key and says whether it
    is new (the store's event dedupe, shared by the replicas).
    """
    verifier = SignatureVerifier(signing_secret)

    def application(environ: dict, start_response: Callable) -> Iterable[bytes]:
        raw = _read(environ, max_body_bytes)
        if isinstance(raw, Rejection):
            return _reject(raw, environ, start_response)
        try:
            body = raw.decode("utf-8")
        except UnicodeDecodeError:
            return _reject(NOT_UTF8, environ, start_response, len(raw))
        if not _ssl_check(body, environ):  # Bolt answers Slack's SSL check, signed or not
            problem = _problem(body, environ, verifier)
            if problem is not None:
                return _reject(problem, environ, start_response, len(raw))
            if not _is_json(body, environ) and not first_delivery(_replay_key(environ)):
                log.warning("replayed Slack request (same signature): acked, not answered again")
                return _ack(start_response)
        environ["wsgi.input"] = io.BytesIO(raw)
        environ["CONTENT_LENGTH"] = str(len(raw))
        return slack(environ, start_response)

    return application


def _read(environ: dict, limit: int) -> bytes | Rejection:
    """The body, unless it is larger than ``limit`` (then nothing more is read)."""
    declared = environ.get("CONTENT_LENGTH") or ""
    if declared:
        try:
            length = int(declared)
        except ValueError:
            return BAD_LENGTH
        if length < 0:
            return BAD_LENGTH
        if length > limit:
            return TOO_LARGE
        return environ["wsgi.input"].read(length)
    raw = environ["wsgi.input"].read(limit + 1)
    return TOO_LARGE if len(raw) > limit else raw


def _problem(body: str, environ: dict, verifier: SignatureVerifier) -> Rejection | None:
    timestamp = environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP") or ""
    if TIMESTAMP.fullmatch(timestamp) is None:
        return BAD_TIMESTAMP
    if not verifier.is_valid(body, timestamp, environ.get("HTTP_X_SLACK_SIGNATURE")):
        return UNSIGNED
    readable = _well_formed(body, environ) and _bolt_reads(body, environ)
    return None if readable else MALFORMED


def _replay_key(environ: dict) -> str:
    """The signature's digest (checked by now: 64 hex digits after ``v0=``)."""
    return "sig:" + environ["HTTP_X_SLACK_SIGNATURE"].removeprefix("v0=")[:60]


def _ssl_check(body: str, environ: dict) -> bool:
    """Slack's SSL check (``ssl_check=1``) is answered by Bolt, signed or not."""
    return not _is_json(body, environ) and parse_qs(body).get("ssl_check") == ["1"]


def _well_formed(body: str, environ: dict) -> bool:
    """Parses the way Bolt will (``slack_bolt.request.payload_utils``), without raising."""
    if not body:
        return True
    try:
        if _is_json(body, environ):
            return _shallow_object(json.loads(body))
        form = parse_qs(body)
        if "payload" in form:
            return _shallow_object(json.loads(form["payload"][0]))
    except (ValueError, RecursionError):
        return False
    return True


def _bolt_reads(body: str, environ: dict) -> bool:
    """Bolt builds its request (body, context) and its listeners' arguments without raising."""
    headers = {"content-type": environ.get("CONTENT_TYPE") or ""}
    return _readable(lambda: BoltRequest(body=body, headers=headers))


def readable_socket_payload(payload: object) -> bool:
    """A Socket Mode envelope's payload passes the same checks as an HTTP body's shape
    (Slack's own connection stands in for the signature)."""
    return _shallow_object(payload) and _readable(
        lambda: BoltRequest(body=payload, mode="socket_mode")  # type: ignore[arg-type]
    )


def _readable(build: Callable[[], BoltRequest]) -> bool:
    try:
        request = build()
        if not _slack_typed(request.body):
            return False
        for read in BOLT_READS:
            read(request.body)
    except UNREADABLE:
        return False
    return True


def _slack_typed(body: dict) -> bool:
    """Each field in :data:`SLACK_TYPES`, where present, has Slack's type (walked, not recursed)."""
    pending = [body]
    while pending:
        node = pending.pop()
        for key in SLACK_TYPES.keys() & node.keys():
            value = node[key]
            if not isinstance(value, SLACK_TYPES[key]):
                return False
            if isinstance(value, list):
                if not value or not all(isinstance(item, dict) for item in value):
                    return False
                pending.extend(value)
            elif isinstance(value, dict):
                pending.append(value)
    return True


def _is_json(body: str, environ: dict) -> bool:
    content_type = (environ.get("CONTENT_TYPE") or "").split(";")[0].strip().lower()
    return content_type == "application/json" or body.startswith("{")


def _shallow_object(value: object) -> bool:
    """A JSON object nested at most ``MAX_JSON_DEPTH`` deep (walked without recursion)."""
    if not isinstance(value, dict):
        return False
    pending = [(value, 1)]
    while pending:
        node, depth = pending.pop()
        if depth > MAX_JSON_DEPTH:
            return False
        children = node.values() if isinstance(node, dict) else node
        pending.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return True


def _ack(start_response: Callable) -> Iterable[bytes]:
    start_response(
        "200 OK", [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "0")]
    )
    return [b""]


def _reject(
    rejection: Rejection, environ: dict, start_response: Callable, size: int | None = None
) -> Iterable[bytes]:
    log.warning(
        "rejected %s %s: %s (%s bytes)",
        environ.get("REQUEST_METHOD"),
        environ.get("PATH_INFO"),
        rejection.status,
        size if size is not None else environ.get("CONTENT_LENGTH") or "?",
    )
    body = (rejection.reason + "\n").encode()
    start_response(
        rejection.status,
        [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))],
    )
    return [body]


def channel_class(
    request_deadline_s: float, linger_s: float, crowded_s: float = CROWDED_S
) -> type[HTTPChannel]:
    """waitress's connection, with the guards nginx has and waitress has not.

    - A request deadline: its header and body must arrive within
      ``request_deadline_s`` of its first byte. waitress only closes a
      connection *idle* for ``channel_timeout``, so a client sending a header
      line or a few body bytes every few seconds held its connection (one of
      ``connection_limit``) for ever; 1,100 of them stopped every command.
    - When the server holds ``connection_limit`` connections (it accepts no
      more), every connection not being answered whose request has taken
      longer than ``crowded_s`` (or that has been idle as long) is closed:
      Slack's request arrives whole in milliseconds, so what a new one waits
      for is at most about ``crowded_s``, however many slow clients came first.
    - A lingering close: after refusing a body it did not read (413), waitress
      closed the socket with the client still sending, and the kernel answered
      the unread bytes with a reset that destroyed the 413 on its way. Here the
      write side is shut after the answer and what the client still sends is
      read and dropped, for at most ``linger_s``, before the close.

    A connection is closed the way waitress closes one itself (``will_close``,
    acted on by its loop), except from its own read, where waitress closes at once.
    """

    class EdgeChannel(HTTPChannel):
        _began: float | None = None
        _linger_until: float | None = None
        _lingered = False
        _refused_unread = False

        def received(self, data: bytes) -> bool:
            now = time.monotonic()
            if self.request is None:
                self._began = now
            elif self._began is not None and now - self._began > request_deadline_s:
                _closed.count("request not complete within the deadline")
                self.handle_close()
                return False
            taken = super().received(data)
            if self.request is None:
                self._began = None
            return taken

        def service(self) -> None:
            if self.requests and isinstance(self.requests[0].error, RequestEntityTooLarge):
                self._refused_unread = True
            super().service()

        def handle_close(self) -> None:
            if self._refused_unread and not self._lingered and self.connected:
                with contextlib.suppress(OSError):
                    self.socket.shutdown(socket.SHUT_WR)
                    self._lingered = True
                    self._linger_until = time.monotonic() + linger_s
                    self.will_close = self.close_when_flushed = False
                    return
            super().handle_close()

        def handle_read(self) -> None:
            if self._linger_until is None:
                return super().handle_read()
            try:
                data = self.socket.recv(self.adj.recv_bytes)
            except OSError:
                data = b""
            if not data or time.monotonic() > self._linger_until:
                self._linger_until = None
                super().handle_close()

        def readable(self) -> bool:
            now = time.monotonic()
            if self._linger_until is not None:
                if now <= self._linger_until:
                    return True
                self._linger_until = None  # a client gone silent meanwhile
                self.will_close = True
                return False
            if self._crowded() and self._stalled(now):
                _closed.count("server full and the request slow or the connection idle")
                self.will_close = True
                return False
            return super().readable()

        def writable(self) -> bool:
            return self._linger_until is None and super().writable()

        def _crowded(self) -> bool:
            """As waitress counts it: every socket it polls (its own listener too)."""
            return len(self._map) >= self.adj.connection_limit

        def _stalled(self, now: float) -> bool:
            if self.requests or self.will_close or self.total_outbufs_len:
                return False  # being answered, or closing already
            if self._began is not None:
                return now - self._began > crowded_s
            return time.time() - self.last_activity > crowded_s

    return EdgeChannel


class _ClosedTally:
    """Connections the edge closed, logged as one line a second at most (not one each)."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}
        self._logged_at = 0.0

    def count(self, reason: str) -> None:
        self._counts[reason] = self._counts.get(reason, 0) + 1
        now = time.monotonic()
        if now - self._logged_at >= 1.0:
            said = "; ".join(f"{n} ({why})" for why, n in self._counts.items())
            log.warning("closed slow or idle connections: %s", said)
            self._counts.clear()
            self._logged_at = now


# Only waitress's loop thread closes connections, so no lock is needed.
_closed = _ClosedTally()
