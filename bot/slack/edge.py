"""The HTTP edge: a request is sized, decoded, signed and well-formed before Bolt sees it.

Bolt parses a body as soon as it builds its request, before it checks the
signature, and an unparsable or non-UTF-8 body became a 500 with a
traceback. Here every ``POST /slack/events`` is checked in the order that
costs least for a bad one: its size (413, nothing read), UTF-8 (400), Slack's
signature over the raw bytes with slack-sdk's :class:`SignatureVerifier`
(401, nothing parsed), then its shape: a JSON object, or a form whose
``payload`` is one, not nested deeper than any Slack payload (400). What
passes goes to Bolt unchanged. A rejection is one log line: status, reason and
size, never the body.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import parse_qs

from slack_sdk.signature import SignatureVerifier

# Slack's own payloads (a message's blocks inside a block_actions payload
# included) nest about a dozen levels; far deeper is not Slack.
MAX_JSON_DEPTH = 64
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rejection:
    status: str
    reason: str


TOO_LARGE = Rejection("413 Payload Too Large", "request body too large")
BAD_LENGTH = Rejection("400 Bad Request", "bad Content-Length")
NOT_UTF8 = Rejection("400 Bad Request", "body is not UTF-8")
UNSIGNED = Rejection("401 Unauthorized", "invalid or missing Slack signature")
MALFORMED = Rejection("400 Bad Request", "malformed Slack payload")


def guarded(slack: Callable, signing_secret: str, max_body_bytes: int) -> Callable:
    """A WSGI app: ``slack`` (Bolt's handler) behind the checks above."""
    verifier = SignatureVerifier(signing_secret)

    def application(environ: dict, start_response: Callable) -> Iterable[bytes]:
        raw = _read(environ, max_body_bytes)
        if isinstance(raw, Rejection):
            return _reject(raw, environ, start_response)
        problem = _problem(raw, environ, verifier)
        if problem is not None:
            return _reject(problem, environ, start_response, len(raw))
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


def _problem(raw: bytes, environ: dict, verifier: SignatureVerifier) -> Rejection | None:
    try:
        body = raw.decode("utf-8")
    except UnicodeDecodeError:
        return NOT_UTF8
    timestamp = environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP")
    signature = environ.get("HTTP_X_SLACK_SIGNATURE")
    if not verifier.is_valid(body, timestamp, signature):
        return None if _ssl_check(body, environ) else UNSIGNED
    return None if _well_formed(body, environ) else MALFORMED


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
