"""The HTTP edge under abuse: malformed, unsigned, huge bodies, idle sockets, a cold Slack.

Each fault is sent to the real app on loopback. What must hold: a clear 4xx
(never a 500), no traceback in the response or the log, a rejected body
never logged whole, and a signed command still acked within Slack's 3 s.
"""

from __future__ import annotations

import json
import logging
import socket
import time
import urllib.error
import urllib.request

import pytest
from slack_sdk import WebClient
from slackmsg import BOT_TOKEN, dm_event

from bot.slack.identity import BotIdentity
from bot.slack.logs import MAX_LINE_CHARS, ScrubbingFormatter

ACK_DEADLINE_S = 3.0
FORM = "application/x-www-form-urlencoded"
JSON = "application/json"


def _no_traceback(caplog, sent_body: str) -> None:
    assert "Traceback" not in sent_body
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert "Traceback" not in caplog.text


@pytest.mark.parametrize(
    ("body", "content_type", "signed", "expected"),
    [
        (b'{"type": "event_callback", "event": ', JSON, True, 400),
        (b'{"type": "event_callback", "event": ', JSON, False, 401),
        (b'{"a":' + b"[" * 20_000 + b"]" * 20_000 + b"}", JSON, True, 400),
        (b'{"a":' + b"[" * 100 + b"]" * 100 + b"}", JSON, True, 400),
        (b"[1, 2, 3]", JSON, True, 400),
        (b"text=\xff\xfe100%202", FORM, True, 400),
        (b"text=\xff\xfe100%202", FORM, False, 400),
        (b"payload=%7Bnot-json", FORM, True, 400),
        (b"payload=%5B1%5D", FORM, True, 400),
        (b"payload=%7Bnot-json", FORM, False, 401),
        (b"command=%2Fmpestimate&text=100+2", FORM, False, 401),
    ],
    ids=[
        "bad-json",
        "bad-json-unsigned",
        "deep-json",
        "deeper-than-slack",
        "json-not-an-object",
        "not-utf8",
        "not-utf8-unsigned",
        "bad-payload",
        "payload-not-an-object",
        "bad-payload-unsigned",
        "command-unsigned",
    ],
)
def test_malformed_or_unsigned_bodies_get_4xx_and_no_traceback(
    bot, caplog, body, content_type, signed, expected
):
    caplog.set_level(logging.DEBUG)
    signature = None if signed else "v0=" + "0" * 64
    sent = bot.client.post(body, content_type, signature=signature)
    assert sent.status == expected, sent.body
    _no_traceback(caplog, sent.body)
    assert not bot.slack.calls or all(c.method == "auth.test" for c in bot.slack.calls)


def test_the_app_still_answers_after_the_garbage(bot):
    bot.client.post(b'{"a":' + b"[" * 20_000 + b"]" * 20_000 + b"}", JSON)
    bot.client.post(b"payload=%7Bnot-json", FORM)
    assert bot.client.event(dm_event("100 2"), event_id="EvAfter").status == 200
    assert "50" in bot.slack.wait(lambda: bot.slack.api("chat.postMessage"))[0].body["text"]


def test_a_10_mb_body_is_refused_unread_and_never_logged(bot, caplog):
    caplog.set_level(logging.DEBUG)
    huge = b"text=" + b"A" * (10 * 1024 * 1024)
    try:
        sent = bot.client.post(huge, FORM)
        status = sent.status
    except (urllib.error.URLError, ConnectionError):  # the server may close mid-upload
        status = 413
    assert status == 413
    assert "A" * 1000 not in caplog.text and len(caplog.text) < 20_000
    # The next request is served normally.
    assert bot.client.event(dm_event("100 2"), event_id="EvNext").status == 200
    assert "50" in bot.slack.wait(lambda: bot.slack.api("chat.postMessage"))[0].body["text"]


def test_a_huge_log_line_is_cut():
    formatter = ScrubbingFormatter([], as_json=False)
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "%s", ("B" * 5_000_000,), None)
    line = formatter.format(record)
    assert len(line) <= MAX_LINE_CHARS and line.endswith("[cut]")
    as_json = ScrubbingFormatter([], as_json=True).format(record)
    assert len(as_json) <= MAX_LINE_CHARS and json.loads(as_json)["message"].endswith("[cut]")


def test_200_idle_sockets_do_not_starve_a_new_command(bot):
    host, port = bot.url.removeprefix("http://").split(":")
    idle = [socket.create_connection((host, int(port)), timeout=5) for _ in range(200)]
    try:
        started = time.monotonic()
        sent = bot.client.command("100 2", response_url=bot.slack.response_url())
        acked_s = time.monotonic() - started
        assert sent.status == 200 and acked_s < ACK_DEADLINE_S, acked_s
        assert bot.slack.wait(bot.slack.responses)
    finally:
        for sock in idle:
            sock.close()


def test_idle_connections_are_closed_after_the_channel_timeout(start_app):
    running = start_app(http_channel_timeout_s=1)
    host, port = running.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as idle:
        idle.settimeout(4)
        assert idle.recv(1) == b""  # the server hung up on a connection that said nothing


@pytest.mark.parametrize("fault", ["slow", "failing"])
def test_a_cold_start_with_auth_test_slow_or_failing_still_acks_in_time(slack, start_app, fault):
    if fault == "slow":
        slack.hold["/api/auth.test"] = 6.0
    else:
        slack.script["auth.test"] = [(500, {}, b"")] * 20
    running = start_app()
    started = time.monotonic()
    sent = running.client.command("100 2", response_url=slack.response_url())
    acked_s = time.monotonic() - started
    assert sent.status == 200 and sent.body == "" and acked_s < ACK_DEADLINE_S, acked_s
    (answer,) = slack.wait(slack.responses)
    assert "about 50 hours" in answer.body["text"]
    # auth.test is asked at start-up (slack-sdk retries that one call), not per request:
    # asked per request, four more commands would mean at least four more calls.
    for n in range(4):
        running.client.command("100 2", response_url=slack.response_url(f"hook{n}"))
        slack.wait(lambda n=n: slack.responses(f"hook{n}"))
    start_up_calls = 1 + running.settings.slack_retry_count
    assert len([c for c in slack.calls if c.path == "/api/auth.test"]) <= start_up_calls


def test_the_bot_user_is_known_from_the_event_until_auth_test_answers(slack, start_app):
    slack.hold["/api/auth.test"] = 6.0
    running = start_app()
    event = {
        "type": "app_mention",
        "user": "U0ALICE",
        "text": "<@U0BOT> 100 hours, ratio 2",
        "ts": "1700000000.000100",
        "channel": "C0GENERAL",
        "event_ts": "1700000000.000100",
    }
    running.client.event(event, event_id="EvCold")
    (post,) = slack.wait(lambda: slack.api("chat.postMessage"))
    assert "50" in post.body["text"]


@pytest.mark.parametrize(
    ("answer", "settled"),
    [
        ((500, {}, b""), False),  # Slack is failing: ask again later
        ((429, {"Retry-After": "1"}, b""), False),
        ((200, {}, b'{"ok": false, "error": "invalid_auth"}'), True),  # a bad token: stop
    ],
)
def test_auth_test_is_asked_again_only_when_slack_itself_failed(slack, answer, settled):
    slack.script["auth.test"] = [answer] * 10
    client = WebClient(base_url=slack.url + "/api/", retry_handlers=[])
    identity = BotIdentity(client, BOT_TOKEN)
    assert identity.check() is settled
    assert not identity.wait(0)


def test_auth_test_answered_makes_the_bot_known(slack):
    identity = BotIdentity(WebClient(base_url=slack.url + "/api/"), BOT_TOKEN)
    assert identity.check() and identity.wait(0) and identity.user_id
