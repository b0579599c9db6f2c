"""Socket Mode: the same app over a WebSocket, for teams with no public URL.

The connection is opened with ``apps.connections.open`` through the app's own
WebClient, so ``SLACK_API_URL`` and the retry handlers apply here as well.

A connection can die without a word (a NAT or proxy forgetting it): slack-sdk's
client pings every ``ping_interval`` and replaces a connection that has not
answered for four intervals. With Bolt's default (10 s) that was about 50 s
deaf; ``SOCKET_PING_INTERVAL_S`` (2 s) notices within about 10 s.
"""

from __future__ import annotations

import logging

from slack_bolt.adapter.socket_mode import SocketModeHandler

from bot.settings import Settings
from bot.slack.app import create_app
from bot.store import open_store

log = logging.getLogger(__name__)


def run_socket_mode(settings: Settings) -> int:
    store = open_store(settings)
    app = create_app(settings, store)
    app_token = settings.slack_app_token.get_secret_value()  # type: ignore[union-attr]
    log.info("connecting to Slack in Socket Mode")
    SocketModeHandler(app, app_token, ping_interval=settings.socket_ping_interval_s).start()
    return 0
