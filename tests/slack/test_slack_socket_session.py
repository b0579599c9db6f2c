"""``mpbot socket`` end to end: a real Socket Mode session against a fake Slack.

The app runs in its own process exactly as ``mpbot socket`` starts it. The
fake Slack has two halves: the recording Web API from ``conftest`` (whose
``apps.connections.open`` hands out WebSocket URLs) and a small aiohttp
WebSocket server that plays Slack's side of the session: ``hello``, envelopes,
then ``disconnect``. Everything waits with a deadline, so a broken session
fails the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from aiohttp import WSMsgType, web
from netfaults import Relay
from slackmsg import BOT_TOKEN, BOT_USER, TEAM, block_text, mention_event

APP_TOKEN = "xapp-1-A0APP-1234-socketmodeapptoken"
ARABIC_LETTERS = set("ابتثجحخدذرزسشصضطظعغفقكلمنهوي")
DEADLINE_S = 10.0


@dataclass
class Session:
    """One WebSocket connection the app opened, and what it sent on it."""

    ticket: str
    ws: web.WebSocketResponse
    received: list[dict] = field(default_factory=list)


@dataclass
class FakeSocketSlack:
    """Slack's Socket Mode endpoint: greets each connection with ``hello``."""

    loop: asyncio.AbstractEventLoop
    url: str = ""
    sessions: list[Session] = field(default_factory=list)

    async def _serve(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        session = Session(request.query.get("ticket", ""), ws)
        self.sessions.append(session)
        await ws.send_json(
            {
                "type": "hello",
                "num_connections": len(self.sessions),
                "debug_info": {"host": "applink-fake", "approximate_connection_time": 18060},
                "connection_info": {"app_id": "A0APP"},
            }
        )
        async for message in ws:
            if message.type is WSMsgType.TEXT:
                session.received.append(json.loads(message.data))
        return ws

    def send(self, session: Session, message: dict) -> None:
        asyncio.run_coroutine_threadsafe(session.ws.send_json(message), self.loop).result(5)

    def close(self, session: Session) -> None:
        asyncio.run_coroutine_threadsafe(session.ws.close(), self.loop).result(5)

    def link(self, ticket: int) -> str:
        return f"{self.url}/link/?ticket={ticket}&app_id=A0APP"


def wait_for(found: Callable[[], object], what: str, timeout: float = DEADLINE_S) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def socket_slack() -> Iterator[FakeSocketSlack]:
    loop = asyncio.new_event_loop()
    fake = FakeSocketSlack(loop)
    app = web.Application()
    app.router.add_get("/link/", fake._serve)
    runner = web.AppRunner(app, handle_signals=False)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    fake.url = f"ws://127.0.0.1:{port}"
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield fake
    asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(5)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    loop.close()


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
    urls = [relayed, *(socket_slack.link(n) for n in range(2, 6))]
    slack.script["apps.connections.open"] = [
        (200, {"Content-Type": "application/json"}, json.dumps({"ok": True, "url": url}).encode())
        for url in urls
    ]
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.upper().startswith(("SLACK_", "DATABASE_", "LOG_"))
        and "proxy" not in name.lower()
    }
    env |= {
        "SLACK_BOT_TOKEN": BOT_TOKEN,
        "SLACK_APP_TOKEN": APP_TOKEN,
        "SLACK_API_URL": slack.url + "/api/",
        "DATABASE_URL": database_url,
        "SLACK_RETRY_BACKOFF_S": "0.05",
        "NO_PROXY": "*",
    }
    log = tmp_path / "mpbot-socket.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from bot.cli.main import main; sys.exit(main(['socket']))",
            ],
            cwd=tmp_path,  # no stray .env is read
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        yield log
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def _command(text: str, response_url: str) -> dict:
    """A slash command's form fields, as Socket Mode wraps them."""
    return {
        "token": "legacy-verification-token",
        "team_id": TEAM,
        "team_domain": "team",
        "channel_id": "C0GENERAL",
        "channel_name": "general",
        "user_id": "U0ALICE",
        "user_name": "alice",
        "command": "/mpestimate",
        "text": text,
        "api_app_id": "A0APP",
        "is_enterprise_install": "false",
        "response_url": response_url,
        "trigger_id": "13345224609.738474920.8088930838d88f008e0",
    }


def _mention(text: str, ts: str) -> dict:
    return {
        "token": "legacy-verification-token",
        "team_id": TEAM,
        "api_app_id": "A0APP",
        "event": mention_event(text, ts=ts),
        "type": "event_callback",
        "event_id": "Ev0SOCKET1",
        "event_time": int(time.time()),
        "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}],
    }


def _acked(session: Session, envelope_id: str) -> dict:
    return wait_for(
        lambda: [m for m in session.received if m.get("envelope_id") == envelope_id],
        f"the ack of {envelope_id}",
    )[0]


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
        socket_slack.send(
            second,
            {
                "envelope_id": "env-after-drop",
                "type": "slash_commands",
                "accepts_response_payload": True,
                "payload": _command("100 2", slack.response_url("hook-drop")),
            },
        )
        assert _acked(second, "env-after-drop") == {"envelope_id": "env-after-drop"}
        slack.wait(lambda: slack.responses("hook-drop"))
    except AssertionError:
        print(log.read_text(errors="replace"))
        raise
    print(f"silent drop noticed and replaced in {noticed_s:.1f} s")
