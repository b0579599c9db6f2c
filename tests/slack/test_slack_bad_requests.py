"""Malformed requests from outside get a clear 4xx and one log line, never a 500.

Each request goes to the real app on loopback, its log through the app's own
handler (``configure_logging``) to stderr, where the lines are counted.
"""

from __future__ import annotations

import io
import json
import logging
import socket
import time
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from slackmsg import TEAM

from bot.slack.logs import configure_logging

FORM = "application/x-www-form-urlencoded"
COMMAND = b"command=%2Fmpestimate&text=100+2&team_id=T0TEAM&user_id=U0ALICE"


@pytest.fixture
def app_log(bot):
    """The app's log lines, as ``mpbot serve``'s handler writes them (to a buffer here)."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    configure_logging(bot.settings)
    written = io.StringIO()
    root.handlers[0].setStream(written)

    def lines() -> list[str]:
        text, _ = written.getvalue(), written.truncate(0)
        written.seek(0)
        return [line for line in text.splitlines() if line.strip()]

    yield lines
    root.handlers[:], level = saved
    root.setLevel(level)


def _signed_headers(bot, body: bytes, timestamp: str) -> dict:
    """What a sender with the signing secret would send for ``timestamp`` (signed as given)."""
    import hashlib
    import hmac

    base = b"v0:" + timestamp.encode() + b":" + body
    digest = hmac.new(bot.client.secret.encode(), base, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": "v0=" + digest}


@pytest.mark.parametrize(
    "timestamp",
    ["abc", "1e3", "12.5", "9" * 5000, "", "-5", "0x10", "١٧٠٠٠٠٠٠٠٠".encode().decode("latin-1")],
    ids=["letters", "exponent", "fraction", "5000-digits", "empty", "negative", "hex", "arabic"],
)
def test_a_bad_timestamp_is_a_401_with_one_log_line(bot, app_log, timestamp):
    sent = bot.client.post(COMMAND, FORM, headers=_signed_headers(bot, COMMAND, timestamp))
    assert sent.status == 401 and "X-Slack-Request-Timestamp" in sent.body
    lines = app_log()
    assert len(lines) == 1 and "401" in lines[0], lines
    assert "Traceback" not in "".join(lines) and "9" * 100 not in lines[0]
    assert not bot.slack.responses()


@pytest.mark.parametrize(
    "view",
    [
        {"id": "V1", "type": "modal", "callback_id": "not_ours", "state": {"values": {}}},
        {"id": "V1", "callback_id": "not_ours", "state": {"values": {}}},  # no type
        {"callback_id": "mp_record"},
        {"type": "workflow_step", "callback_id": "not_ours"},
    ],
    ids=["unknown-callback", "no-view-type", "bare-known-callback", "workflow-step"],
)
def test_a_signed_view_submission_bolt_cannot_handle_is_a_4xx(bot, app_log, view):
    sent = bot.client.interact({"type": "view_submission", "user": {"id": "U0ALICE"}, "view": view})
    assert 400 <= sent.status < 500, sent
    lines = app_log()
    assert len(lines) == 1 and "Traceback" not in lines[0], lines


@pytest.mark.parametrize(
    "payload",
    [
        {"type": "block_actions", "actions": []},
        {"type": "block_actions", "actions": "x"},
        {"type": "shortcut"},
        {"type": "view_submission", "view": []},
        {"type": "block_suggestion", "team": "T"},
        {"type": "message_action", "user": 5},
    ],
)
def test_signed_interactions_of_the_wrong_shape_are_4xx(bot, app_log, payload):
    form = urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()
    sent = bot.client.post(form, FORM)
    assert 400 <= sent.status < 500, sent
    assert "Traceback" not in "".join(app_log())


def test_a_10_mb_unsigned_body_gets_a_413_the_client_reads(bot):
    huge = b"text=" + b"A" * (10 * 1024 * 1024)
    sent = bot.client.post(huge, FORM, signature="v0=" + "0" * 64)  # no reset: a real answer
    assert sent.status == 413
    assert bot.client.command("100 2", response_url=bot.slack.response_url()).status == 200


def test_a_replayed_signed_command_is_answered_once(bot):
    body = urllib.parse.urlencode(
        {
            "team_id": TEAM,
            "channel_id": "C0GENERAL",
            "user_id": "U0ALICE",
            "command": "/mpestimate",
            "text": "100 2",
            "response_url": bot.slack.response_url(),
            "trigger_id": "1.2.replayed",
        }
    ).encode()
    headers = _signed_headers(bot, body, str(int(time.time())))
    first = bot.client.post(body, FORM, headers=headers)
    replays = [bot.client.post(body, FORM, headers=headers) for _ in range(3)]
    assert first.status == 200 and all(r.status == 200 for r in replays)
    bot.slack.wait(bot.slack.responses)
    time.sleep(0.5)  # a second answer would have been sent by now
    assert len(bot.slack.responses()) == 1
    # Another command (its own trigger id) is answered as usual.
    bot.client.command("100 2", response_url=bot.slack.response_url("again"))
    bot.slack.wait(lambda: bot.slack.responses("again"))


def _raw(bot, request: bytes) -> bytes:
    """``request`` as it is, over a fresh socket; the status line that comes back."""
    host, port = bot.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0]


_HEADER_TEXT = st.text(
    st.characters(codec="latin-1", exclude_characters="\r\n"), max_size=200
) | st.sampled_from(["1e3", "12.5", "9" * 5000, "v0=", "v0=" + "g" * 64, "-0", "+5"])


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    timestamp=_HEADER_TEXT,
    signature=_HEADER_TEXT,
    body=st.binary(max_size=300) | st.sampled_from([b"payload=%7B%7D", b"{}", b"payload=1"]),
    content_type=st.sampled_from([FORM, "application/json", "text/plain", "", "multipart/x"]),
    sign=st.booleans(),
)
def test_no_header_or_body_makes_a_5xx(bot, timestamp, signature, body, content_type, sign):
    headers = {"X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": signature}
    if sign:  # signed as Slack signs, so the checks after the signature are reached too
        headers = _signed_headers(bot, body, str(int(time.time())))
    lines = [f"{name}: {value}" for name, value in headers.items()]
    if content_type:
        lines.append(f"Content-Type: {content_type}")
    head = "\r\n".join(
        ["POST /slack/events HTTP/1.1", "Host: x", f"Content-Length: {len(body)}", *lines]
    )
    status = _raw(bot, head.encode("latin-1") + b"\r\n\r\n" + body)
    assert status.startswith(b"HTTP/1."), status
    code = int(status.split()[1])
    assert code < 500, (status, headers, body)


_KEYS = [
    "type", "event", "view", "actions", "callback_id", "action_id", "block_id", "user", "team",
    "channel", "message", "authorizations", "command", "container", "state", "values", "text",
    "subtype", "thread_ts", "bot_id", "previous_message", "item", "enterprise", "tab", "id",
]  # fmt: skip
_TYPES = [
    "event_callback", "block_actions", "view_submission", "view_closed", "shortcut",
    "message_action", "block_suggestion", "interactive_message", "dialog_submission",
    "workflow_step_edit", "app_mention", "message", "app_home_opened", "modal", "workflow_step",
]  # fmt: skip
_LEAVES = st.none() | st.booleans() | st.integers() | st.sampled_from(_TYPES) | st.text(max_size=8)
_JSON = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(_KEYS), inner),
    max_leaves=12,
)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    payload=st.dictionaries(st.sampled_from(_KEYS), _JSON, max_size=6),
    kind=st.sampled_from(_TYPES),
    as_event=st.booleans(),
)
def test_no_signed_payload_of_any_shape_makes_a_5xx(bot, payload, kind, as_event):
    payload = {"type": kind, **payload}
    if as_event:
        body, content_type = json.dumps(payload).encode(), "application/json"
    else:
        body, content_type = urllib.parse.urlencode({"payload": json.dumps(payload)}).encode(), FORM
    sent = bot.client.post(body, content_type)
    assert sent.status < 500, (sent, payload)
