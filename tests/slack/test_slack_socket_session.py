"""``mpbot socket`` end to end: a real Socket Mode session against a fake Slack.

The app runs in its own process exactly as ``mpbot socket`` starts it. The
fake Slack has two halves: the recording Web API from ``conftest`` (whose
``apps.connections.open`` hands out WebSocket URLs) and a small aiohttp
WebSocket server that plays Slack's side of the session: ``hello``, envelopes,
then ``disconnect``. Everything waits with a deadline, so a broken session
fails the test instead of hanging it.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from netfaults import Relay
from slackmsg import BOT_TOKEN, block_text
from socketslack import APP_TOKEN, Session, SocketServed, hand_out, wait_for
from socketslack import command as _command
from socketslack import mention as _mention

ARABIC_LETTERS = set("ابتثجحخدذرزسشصضطظعغفقكلمنهوي")


@pytest.fixture
def relay(socket_slack) -> Iterator[Relay]:
    """The first WebSocket's path: through a relay that a test can make go silent."""
    parts = urlsplit(socket_slack.url)
    opened = Relay(parts.hostname, parts.port)
    yield opened
    opened.close()


@pytest.fixture
def mpbot_socket(slack, socket_slack, relay, database_url, tmp_path) -> Iterator[Path]:
    """``mpbot socket`` in a child process; yields the file its stderr goes to."""
    # Each call hands out a fresh URL, as Slack does; a few spare ones for reconnects.
    # The first WebSocket runs through the relay, so a test can make it go silent.
    relayed = socket_slack.link(1).replace(
        f":{urlsplit(socket_slack.url).port}/", f":{relay.port}/"
    )
    hand_out(slack, [relayed, *(socket_slack.link(n) for n in range(2, 6))])
    served = SocketServed(slack.url, database_url, tmp_path / "mpbot-socket.log").start()
    log = served.log_path
    try:
        yield log
    finally:
        served.close()


def _acked(session: Session, envelope_id: str) -> dict:
    return wait_for(
        lambda: [m for m in session.received if m.get("envelope_id") == envelope_id],
        f"the ack of {envelope_id}",
    )[0]


def _command_answered(slack, socket_slack, session: Session, envelope_id: str) -> None:
    """``/mpestimate 100 2`` sent on ``session``: acked there and answered at its URL."""
    socket_slack.send(
        session,
        {
            "envelope_id": envelope_id,
            "type": "slash_commands",
            "accepts_response_payload": True,
            "payload": _command("100 2", slack.response_url(f"hook-{envelope_id}")),
        },
    )
    assert _acked(session, envelope_id) == {"envelope_id": envelope_id}
    slack.wait(lambda: slack.responses(f"hook-{envelope_id}"))


def test_socket_mode_session_acks_answers_and_reconnects(slack, socket_slack, mpbot_socket):
    log = mpbot_socket
    try:
        first = wait_for(lambda: socket_slack.sessions[:1], "the app to open a WebSocket")[0]
        (opened,) = slack.api("apps.connections.open")
        assert opened.headers["Authorization"] == f"Bearer {APP_TOKEN}"
        assert first.ticket == "1"

        # A slash command: acked on the socket, answered at its response_url.
        socket_slack.send(
            first,
            {
                "envelope_id": "env-cmd-ar",
                "type": "slash_commands",
                "accepts_response_payload": True,
                "payload": _command(
                    "التدريب يستغرق ١٠٠ ساعة ونسبة التسريع ٢", slack.response_url("hook-ar")
                ),
            },
        )
        assert _acked(first, "env-cmd-ar") == {"envelope_id": "env-cmd-ar"}
        (reply,) = slack.wait(lambda: slack.responses("hook-ar"))
        message = reply.body
        assert message["response_type"] == "ephemeral"
        assert ARABIC_LETTERS & set(message["text"]) and ARABIC_LETTERS & set(block_text(message))
        assert "50" in message["text"] or "٥٠" in message["text"]
        assert message["blocks"][0]["type"] == "section"

        # A mention: acked on the socket, answered in its thread through the Web API.
        socket_slack.send(
            first,
            {
                "envelope_id": "env-mention",
                "type": "events_api",
                "accepts_response_payload": False,
                "retry_attempt": 0,
                "retry_reason": "",
                "payload": _mention("100 hours, ratio 2", ts="1700000000.000100"),
            },
        )
        assert _acked(first, "env-mention") == {"envelope_id": "env-mention"}
        (post,) = slack.wait(lambda: slack.api("chat.postMessage"))
        assert post.headers["Authorization"] == f"Bearer {BOT_TOKEN}"
        assert post.body["channel"] == "C0GENERAL"
        assert post.body["thread_ts"] == "1700000000.000100"
        assert "50" in post.body["text"] and post.body["blocks"]

        # Slack asks the app to move: it opens a new URL and works on the new socket.
        socket_slack.send(
            first,
            {"type": "disconnect", "reason": "refresh_requested", "debug_info": {"host": "x"}},
        )
        second = wait_for(lambda: socket_slack.sessions[1:2], "a second WebSocket")[0]
        assert second.ticket == "2"
        assert len(slack.api("apps.connections.open")) >= 2
        socket_slack.close(first)  # as Slack does once the app has moved
        socket_slack.send(
            second,
            {
                "envelope_id": "env-cmd-en",
                "type": "slash_commands",
                "accepts_response_payload": True,
                "payload": _command("100 2", slack.response_url("hook-en")),
            },
        )
        assert _acked(second, "env-cmd-en") == {"envelope_id": "env-cmd-en"}
        (english,) = slack.wait(lambda: slack.responses("hook-en"))
        assert "50" in english.body["text"] and not ARABIC_LETTERS & set(english.body["text"])
        assert english.body["blocks"]
        assert not [m for m in first.received if m.get("envelope_id") == "env-cmd-en"]
    except AssertionError:
        print(log.read_text(errors="replace"))  # the app's own account, shown on failure
        raise

    output = log.read_text(errors="replace")
    assert APP_TOKEN not in output and BOT_TOKEN not in output


def test_a_silently_dropped_socket_is_replaced_within_15_seconds(
    slack, socket_slack, relay, mpbot_socket
):
    """Nothing closes, nothing arrives: only the client's own pings can tell."""
    log = mpbot_socket
    try:
        wait_for(lambda: socket_slack.sessions[:1], "the app to open a WebSocket")
        time.sleep(1.0)  # a ping or two answered first, as on a healthy connection
        relay.freeze()
        frozen_at = time.monotonic()
        second = wait_for(lambda: socket_slack.sessions[1:2], "a new WebSocket", timeout=15)[0]
        noticed_s = time.monotonic() - frozen_at
        assert second.ticket == "2"
        assert len(slack.api("apps.connections.open")) >= 2
        # The new connection works: a command sent on it is acked and answered.
        _command_answered(slack, socket_slack, second, "env-after-drop")
    except AssertionError:
        print(log.read_text(errors="replace"))
        raise
    print(f"silent drop noticed and replaced in {noticed_s:.1f} s")


def _closed_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        return listener.getsockname()[1]


def _stops_saying(served: SocketServed, says: str, *, alone: bool = True) -> None:
    """Exit 1 within seconds with the line ``says`` (``alone``: and nothing else), no
    traceback, no token."""
    assert served.wait(30) == 1
    output = served.log().strip()
    error = [line for line in output.splitlines() if says in line]
    assert error and error[0].startswith("mpbot socket: "), output
    assert not alone or output == error[0], output
    assert "Traceback" not in output and "ERROR" not in output, output
    assert APP_TOKEN not in output and BOT_TOKEN not in output


def test_mpbot_socket_without_network_stops_with_one_line(database_url, tmp_path):
    unreachable = f"http://127.0.0.1:{_closed_port()}"
    served = SocketServed(unreachable, database_url, tmp_path / "socket.log").start()
    _stops_saying(served, "cannot reach Slack at SLACK_API_URL")


def test_mpbot_socket_whose_websocket_is_unreachable_stops_with_one_line(
    slack, database_url, tmp_path
):
    hand_out(slack, [f"ws://127.0.0.1:{_closed_port()}/link/?ticket=1"])
    served = SocketServed(slack.url, database_url, tmp_path / "socket.log").start()
    # After the start-up lines (the database's migrations, the workers).
    _stops_saying(served, "cannot reach the Socket Mode URL", alone=False)


def test_mpbot_socket_with_a_refused_app_token_stops_with_one_line(slack, database_url, tmp_path):
    slack.script["apps.connections.open"] = [
        (200, {"Content-Type": "application/json"}, b'{"ok": false, "error": "invalid_auth"}')
    ]
    served = SocketServed(slack.url, database_url, tmp_path / "socket.log").start()
    _stops_saying(served, "invalid_auth): check SLACK_APP_TOKEN")


# Envelopes whose payload Bolt cannot read (the HTTP edge's malformed bodies, as
# Socket Mode carries them): an event that is a string, actions that are not a
# list, a nesting deeper than any Slack payload (below); and one no listener takes.
MALFORMED = {
    "events_api": {"type": "event_callback", "event": "app_mention", "team_id": "T0TEAM"},
    "block_actions": {"type": "block_actions", "actions": {"x": 1}, "team": {"id": "T0TEAM"}},
}
UNHANDLED = {"type": "view_submission", "view": {"id": "V1"}, "team": {"id": "T0TEAM"}}


def _deep(depth: int) -> dict:
    payload: dict = {"type": "event_callback", "team_id": "T0TEAM"}
    node = payload
    for _ in range(depth):
        node["x"] = {}
        node = node["x"]
    return payload


def test_malformed_socket_mode_payloads_are_acked_with_one_line_each(
    slack, socket_slack, mpbot_socket
):
    log = mpbot_socket
    session = wait_for(lambda: socket_slack.sessions[:1], "the app to open a WebSocket")[0]
    sent = [*MALFORMED.items(), ("events_api", _deep(200)), ("interactive", UNHANDLED)]
    for index, (kind, payload) in enumerate(sent):
        envelope_type = "interactive" if kind in ("interactive", "block_actions") else kind
        socket_slack.send(
            session,
            {"envelope_id": f"env-bad-{index}", "type": envelope_type, "payload": payload},
        )
        assert _acked(session, f"env-bad-{index}") == {"envelope_id": f"env-bad-{index}"}
    # Still answering afterwards.
    _command_answered(slack, socket_slack, session, "env-after")
    output = log.read_text(errors="replace")
    assert "Traceback" not in output, output
    assert output.count("malformed Socket Mode payload") == len(sent) - 1, output
    assert output.count("Socket Mode payload not handled (404)") == 1, output
