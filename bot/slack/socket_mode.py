"""Socket Mode: the same app over a WebSocket, for teams with no public URL.

The connection is opened with ``apps.connections.open`` through the app's own
WebClient, so ``SLACK_API_URL`` and the retry handlers apply here as well.
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
    SocketModeHandler(app, app_token).start()
    return 0
