"""A real app on loopback, a fake Slack that records what the app sends.

``FakeSlack`` is a small http.server standing in for both the Web API
(``SLACK_API_URL``) and the ``response_url`` endpoints. It records every
call and can be told to answer 429 with Retry-After, 500, to drop the
connection or hang (scripted per path), to answer everything with one
failure for a while (``outage``), or to take its time (``hold``). ``SlackClient`` sends requests exactly as Slack does: form-encoded
slash commands, JSON event callbacks and ``payload=`` interactivity, each
signed with the signing secret (v0 HMAC-SHA256, as Slack documents it).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING

import pytest
from databases import POSTGRES_URL
from slackmsg import BOT_TOKEN, BOT_USER, SIGNING_SECRET, TEAM
from socketslack import socket_slack  # noqa: F401 (Slack's side of Socket Mode, a fixture)
from sqlalchemy.engine import make_url

if TYPE_CHECKING:
    from netfaults import Relay

from slack_bolt import App

from bot.settings import Settings
from bot.slack.app import create_app
from bot.slack.server import BackgroundServer, Health, wsgi_app
from bot.store import open_store


@dataclass
class Call:
    path: str
    headers: dict
    body: dict
    # Which attempt of a scripted failure answered it (0: a normal answer).
    scripted: bool = False
    # When the fake Slack took it, and when its answer was written back (time.monotonic()).
    at: float = field(default_factory=time.monotonic)
    answered_at: float | None = None

    @property
    def method(self) -> str:
        return self.path.rsplit("/", 1)[-1]


@dataclass
class FakeSlack:
    """Web API + response_url recorder. ``script[path_suffix]`` lists failures to serve first."""

    calls: list[Call] = field(default_factory=list)
    script: dict[str, list[tuple]] = field(default_factory=dict)
    locales: dict[str, str] = field(default_factory=dict)
    down: bool = False
    # While set, every call gets this (status, headers, body), recorded as scripted.
    outage: tuple | None = None
    # Seconds to wait before answering (and recording) calls whose path starts so.
    hold: dict[str, float] = field(default_factory=dict)
    # (posts, seconds): chat.postMessage past that many per channel in that window
    # gets 429 with Retry-After: 1, as Slack rate-limits a channel (about 1/s, bursts allowed).
    channel_limit: tuple[int, float] | None = None
    _channel_posts: dict[str, list[float]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    url: str = ""

    def api(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.path == f"/api/{method}" and not c.scripted]

    def responses(self, hook: str = "hook") -> list[Call]:
        return [c for c in self.calls if c.path.startswith(f"/{hook}") and not c.scripted]

    def response_url(self, hook: str = "hook") -> str:
        return f"{self.url}/{hook}/T0TEAM/1234/abcd"

    def wait(self, found: Callable[[], list], count: int = 1, timeout: float = 10.0) -> list:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            items = found()
            if len(items) >= count:
                return items
            time.sleep(0.02)
        raise AssertionError(
            f"expected {count} call(s), got {found()!r}; all calls: {[c.path for c in self.calls]}"
        )

    def answer(self, path: str, body: dict) -> tuple[int, dict, bytes]:
        """(status, headers, body) for one call; scripted failures come first.

        Status 0 drops the connection unanswered; -1 hangs ``headers["hang_s"]`` first.
        """
        with self.lock:
            if self.outage is not None:
                return self.outage
            for suffix, queue in self.script.items():
                if path.endswith(suffix) and queue:
                    return queue.pop(0)
            if path == "/api/chat.postMessage" and self._over_channel_limit(body):
                return 429, {"Retry-After": "1"}, b'{"ok": false, "error": "ratelimited"}'
        if path.startswith("/api/"):
            method = path.removeprefix("/api/")
            result: dict = {"ok": True}
            if method == "auth.test":
                result |= {
                    "user_id": BOT_USER,
                    "bot_id": "B0BOT",
                    "team_id": TEAM,
                    "team": "Team",
                    "url": "https://team.slack.com/",
                }
            elif method == "users.info":
                user = body.get("user")
                result |= {"user": {"id": user, "locale": self.locales.get(user, "en-US")}}
            elif method == "chat.postMessage":
                channel = body.get("channel", "")
                result |= {
                    "channel": "D" + channel[1:] if channel.startswith("U") else channel,
                    "ts": f"{time.time():.6f}",
                }
            return 200, {"Content-Type": "application/json"}, json.dumps(result).encode()
        return 200, {"Content-Type": "text/plain"}, b"ok"

    def _over_channel_limit(self, body: dict) -> bool:
        """Whether this post is one too many for its channel (and if not, count it)."""
        if self.channel_limit is None:
            return False
        posts, window = self.channel_limit
        moment = time.monotonic()
        recent = [
            at
            for at in self._channel_posts.get(body.get("channel", ""), [])
            if at > moment - window
        ]
        if len(recent) >= posts:
            return True
        self._channel_posts[body.get("channel", "")] = [*recent, moment]
        return False


def _handler(slack: FakeSlack) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
            if "json" in (self.headers.get("Content-Type") or ""):
                body = json.loads(raw or "{}")
            else:
                body = {k: v[0] for k, v in urllib.parse.parse_qs(raw).items()}
            for prefix, seconds in slack.hold.items():
                if self.path.startswith(prefix):
                    time.sleep(seconds)
            status, headers, payload = slack.answer(self.path, body)
            scripted = status != 200 or headers.get("X-Scripted") == "1"
            call = Call(self.path, dict(self.headers), body, scripted)
            with slack.lock:
                slack.calls.append(call)
            if status == -1:  # a hang: taken, then no answer in time
                time.sleep(headers["hang_s"])
            if slack.down or status in (0, -1):  # drop the connection without answering
                self.close_connection = True
                self.connection.close()
                return
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            self.wfile.flush()
            call.answered_at = time.monotonic()

        def log_message(self, *args: object) -> None:
            pass

    return Handler


class _SlackSizedServer(ThreadingHTTPServer):
    """Slack's edge does not reset connections under a burst; the standard library's
    listen backlog of 5 does (a reset after the request was written reads as "sent
    but unconfirmed", which the outbox does not resend), so the stand-in queues more."""

    request_queue_size = 1024


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    fake = FakeSlack()
    server = _SlackSizedServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield fake
    server.shutdown()
    server.server_close()


@dataclass
class Sent:
    status: int
    body: str


class SlackClient:
    """Sends signed requests to the app the way Slack's servers do."""

    def __init__(self, base_url: str, secret: str = SIGNING_SECRET) -> None:
        self.url = base_url + "/slack/events"
        self.secret = secret

    def post(
        self,
        body: bytes,
        content_type: str,
        *,
        timestamp: int | None = None,
        signature: str | None = None,
        headers: dict | None = None,
    ) -> Sent:
        ts = str(int(time.time()) if timestamp is None else timestamp)
        basestring = b"v0:" + ts.encode() + b":" + body
        sig = (
            signature
            or "v0=" + hmac.new(self.secret.encode(), basestring, hashlib.sha256).hexdigest()
        )
        request = urllib.request.Request(
            self.url,
            data=body,
            method="POST",
            headers={
                "Content-Type": content_type,
                "X-Slack-Request-Timestamp": ts,
                "X-Slack-Signature": sig,
                **(headers or {}),
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return Sent(response.status, response.read().decode())
        except urllib.error.HTTPError as error:
            return Sent(error.code, error.read().decode())

    def command(
        self,
        text: str,
        *,
        response_url: str,
        user: str = "U0ALICE",
        channel: str = "C0GENERAL",
        **kw,
    ) -> Sent:
        form = {
            "token": "legacy-verification-token",
            "team_id": TEAM,
            "team_domain": "team",
            "channel_id": channel,
            "channel_name": "general",
            "user_id": user,
            "user_name": "alice",
            "command": "/mpestimate",
            "text": text,
            "api_app_id": "A0APP",
            "response_url": response_url,
            # Slack's trigger ids are unique: two same commands are two requests.
            "trigger_id": f"13345224609.738474920.{uuid.uuid4().hex}",
        }
        return self.post(
            urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded", **kw
        )

    def event(self, event: dict, *, event_id: str, headers: dict | None = None, **kw) -> Sent:
        envelope = {
            "token": "legacy-verification-token",
            "team_id": TEAM,
            "api_app_id": "A0APP",
            "event": event,
            "type": "event_callback",
            "event_id": event_id,
            "event_time": int(time.time()),
            "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}],
        }
        return self.post(json.dumps(envelope).encode(), "application/json", headers=headers, **kw)

    def interact(self, payload: dict, **kw) -> Sent:
        payload = {
            "team": {"id": TEAM, "domain": "team"},
            "api_app_id": "A0APP",
            "token": "legacy-verification-token",
            **payload,
        }
        form = urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()
        return self.post(form, "application/x-www-form-urlencoded", **kw)

    def click(
        self,
        button: dict,
        *,
        response_url: str,
        user: str = "U0ALICE",
        ephemeral: bool = True,
        channel: str = "C0GENERAL",
    ) -> Sent:
        """A ``block_actions`` payload for one button taken from a sent message."""
        return self.interact(
            {
                "type": "block_actions",
                "user": {"id": user, "team_id": TEAM},
                "channel": {"id": channel},
                "trigger_id": "1.2.trigger",
                "container": {"type": "message", "is_ephemeral": ephemeral, "channel_id": channel},
                "response_url": response_url,
                "actions": [
                    {
                        "type": "button",
                        "action_id": button["action_id"],
                        "block_id": "b",
                        "value": button.get("value"),
                        "action_ts": f"{time.time():.6f}",
                    }
                ],
            }
        )


@dataclass
class Running:
    slack: FakeSlack
    client: SlackClient
    url: str
    settings: Settings
    app: App | None = None


@pytest.fixture
def database_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'bot.db'}"


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    """SQLite, for tests that run on it alone where ``database_url`` is both stores."""
    return f"sqlite:///{tmp_path / 'bot.db'}"


@pytest.fixture
def start_app(slack: FakeSlack, database_url: str) -> Iterator[Callable[..., Running]]:
    """Start the real app on a free port; call again for a restart on the same database."""
    servers: list[BackgroundServer] = []

    def start(**overrides: object) -> Running:
        values = {
            "slack_bot_token": BOT_TOKEN,
            "slack_signing_secret": SIGNING_SECRET,
            "slack_api_url": slack.url + "/api/",
            "database_url": database_url,
            "slack_retry_backoff_s": 0.05,
        }
        settings = Settings(_env_file=None, **(values | overrides))
        store = open_store(settings)
        health = Health(store, ready_without_database=settings.ready_without_database)
        app = create_app(settings, store)
        application = wsgi_app(app, health, settings)
        server = BackgroundServer(application, settings=settings).__enter__()
        servers.append(server)
        return Running(slack, SlackClient(server.url), server.url, settings, app)

    yield start
    for server in servers:
        server.__exit__(None, None, None)


@pytest.fixture
def bot(start_app) -> Running:
    return start_app()


@pytest.fixture
def signed_client() -> Callable[[str], SlackClient]:
    """Signs requests for an app at any base URL (an ``mpbot serve`` subprocess, say)."""
    return SlackClient


@pytest.fixture
def relayed_postgres() -> Iterator[tuple[str, Relay]]:
    """The test PostgreSQL behind a relay that can go silent (``relay.freeze()``), for
    a database that freezes mid-run with the bot's connections already open.

    ``netfaults`` is imported here, not at the top: tests/records loads this file by
    path, from a folder where the Slack test helpers are not importable."""
    from netfaults import Relay

    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set (.ci/run sets it to a local PostgreSQL)")
    real = make_url(POSTGRES_URL)
    relay = Relay(real.host or "127.0.0.1", real.port or 5432)
    try:
        relayed = real.set(host="127.0.0.1", port=relay.port)
        yield relayed.render_as_string(hide_password=False), relay
    finally:
        relay.close()
