"""Slack's side of Socket Mode for tests: a small aiohttp WebSocket server.

It greets each connection with ``hello`` and records what the app sends on
it (the envelopes' acks); a test sends envelopes and ``disconnect`` on cue.
Everything waits with a deadline, so a broken session fails a test instead
of hanging it.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from aiohttp import WSMsgType, web
from slackmsg import BOT_TOKEN, BOT_USER, TEAM, mention_event

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


APP_TOKEN = "xapp-1-A0APP-1234-socketmodeapptoken"


def hand_out(slack, urls: list[str]) -> None:
    """``apps.connections.open`` answers with these URLs, one per call, as Slack does."""
    slack.script["apps.connections.open"] = [
        (200, {"Content-Type": "application/json"}, json.dumps({"ok": True, "url": url}).encode())
        for url in urls
    ]


class SocketServed:
    """``mpbot socket`` in its own process group (a pod), logging to ``log_path``."""

    def __init__(self, slack_url: str, database_url: str, log_path: Path, **settings: object):
        self.log_path = log_path
        env = {
            name: value
            for name, value in os.environ.items()
            if not name.upper().startswith(("SLACK_", "DATABASE_", "LOG_", "JOB_", "WORK_"))
            and "proxy" not in name.lower()
        }
        self.env = env | {
            "SLACK_BOT_TOKEN": BOT_TOKEN,
            "SLACK_APP_TOKEN": APP_TOKEN,
            "SLACK_API_URL": slack_url + "/api/",
            "DATABASE_URL": database_url,
            "SLACK_RETRY_BACKOFF_S": "0.05",
            "NO_PROXY": "*",
            # The test's own (a pod's volume): restarts in one test share it.
            "JOB_SPOOL_DIR": str(log_path.parent / "spool"),
            **{name.upper(): str(value) for name, value in settings.items()},
        }
        self.process: subprocess.Popen | None = None

    def start(self) -> SocketServed:
        with self.log_path.open("ab") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot", "socket"],
                cwd=self.log_path.parent,  # no stray .env is read
                env=self.env,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, as a pod's processes are
            )
        return self

    def wait(self, timeout: float) -> int:
        assert self.process is not None
        return self.process.wait(timeout)

    def kill_group(self) -> None:
        """A pod killed: SIGKILL to every process of the group at once."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def close(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()


def command(text: str, response_url: str, user: str = "U0ALICE") -> dict:
    """A slash command's form fields, as Socket Mode wraps them."""
    return {
        "token": "legacy-verification-token",
        "team_id": TEAM,
        "team_domain": "team",
        "channel_id": "C0GENERAL",
        "channel_name": "general",
        "user_id": user,
        "user_name": "alice",
        "command": "/mpestimate",
        "text": text,
        "api_app_id": "A0APP",
        "is_enterprise_install": "false",
        "response_url": response_url,
        "trigger_id": "13345224609.738474920.8088930838d88f008e0",
    }


def mention(
    text: str,
    ts: str,
    event_id: str = "Ev0SOCKET1",
    user: str = "U0ALICE",
    channel: str = "C0GENERAL",
) -> dict:
    return {
        "token": "legacy-verification-token",
        "team_id": TEAM,
        "api_app_id": "A0APP",
        "event": mention_event(text, ts=ts, user=user, channel=channel),
        "type": "event_callback",
        "event_id": event_id,
        "event_time": int(time.time()),
        "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}],
    }
