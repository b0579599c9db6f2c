"""Who the bot is: ``auth.test`` once at start-up, never on a request's path.

Bolt's single-workspace authorization calls ``auth.test`` on the first
request it sees, in the thread that owes Slack its ack: a slow or failing
Slack at a cold start pushed acks past 3 s. Here the app's ``authorize``
answers from memory (the bot token from the settings, and the bot's ids once
``auth.test`` has answered); ``auth.test`` itself runs in the background at
start-up and is retried there until Slack answers.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from slack_bolt.authorization import AuthorizeResult
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

# Until Slack answers auth.test, ask again this often (in the background).
RETRY_S = 30.0
log = logging.getLogger(__name__)


class BotIdentity:
    def __init__(self, client: WebClient, token: str) -> None:
        self._client = client
        self._token = token
        self._known = threading.Event()
        self.bot_id: str | None = None
        self.user_id: str | None = None
        self._stop = threading.Event()

    def start(self) -> None:
        """Ask Slack who we are in a background thread, retrying until it answers."""
        threading.Thread(target=self._learn, name="mpbot-auth-test", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def wait(self, timeout: float) -> bool:
        """True once ``auth.test`` has answered (tests and start-up logs)."""
        return self._known.wait(timeout)

    def authorizer(self) -> Callable[..., AuthorizeResult]:
        """Bolt's ``authorize`` (a plain function: Bolt passes arguments by name)."""

        def authorize(
            enterprise_id: str | None, team_id: str | None, user_id: str | None
        ) -> AuthorizeResult:
            """From memory, so no request waits on Slack."""
            return AuthorizeResult(
                enterprise_id=enterprise_id,
                team_id=team_id,
                bot_token=self._token,
                bot_id=self.bot_id,
                bot_user_id=self.user_id,
                user_id=user_id,
            )

        return authorize

    def _learn(self) -> None:
        while not self._stop.is_set():
            if self.check():
                return
            self._stop.wait(RETRY_S)

    def check(self) -> bool:
        """One ``auth.test``; True when Slack answered (a rejected token is not retried)."""
        try:
            identity = self._client.auth_test(token=self._token)
        except SlackApiError as error:
            if error.response.status_code >= 500 or error.response.status_code == 429:
                log.error(
                    "Slack answered auth.test with %d; serving anyway, retrying in %g s",
                    error.response.status_code,
                    RETRY_S,
                )
                return False
            log.error("Slack rejected SLACK_BOT_TOKEN: %s", error.response.get("error"))
            return True
        except OSError as error:
            log.error(
                "Slack API unreachable at SLACK_API_URL: %s; serving anyway, retrying in %g s",
                type(error).__name__,
                RETRY_S,
            )
            return False
        self.bot_id = identity.get("bot_id")
        self.user_id = identity.get("user_id")
        self._known.set()
        log.info(
            "connected to Slack as %s in team %s", identity.get("user_id"), identity.get("team_id")
        )
        return True
