"""What every listener needs to answer: a responder for ``response_url`` and a guard.

Listeners get these two small objects, not the whole app: the responder posts
to a ``response_url`` with slack-sdk's retries, the guard logs any failure
with the request's ids and, where it can, turns it into a short apology in
the user's language. Nothing a listener raises propagates past the guard.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from slack_bolt import BoltContext
from slack_sdk.errors import SlackApiError

from bot.models import Lang
from bot.settings import Settings
from bot.slack import labels, outbox
from bot.slack.blocks import text_message

log = logging.getLogger(__name__)
Apology = Callable[[dict], None]


class Responder:
    """POSTs to a command's or a click's ``response_url`` (:mod:`bot.slack.outbox`)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def respond(self, url: str | None, message: dict, ids: dict) -> bool:
        """POST ``message`` to ``url`` (through the outbox in a job); False (logged) when
        it cannot arrive."""
        return outbox.respond(url, message, self.settings, ids)

    def ephemeral(self, url: str | None, message: dict, ids: dict) -> bool:
        """A private answer that leaves the message it came from alone."""
        reply = {**message, "response_type": "ephemeral", "replace_original": False}
        return self.respond(url, reply, ids)

    def apology(self, url: str | None, ids: dict) -> Apology:
        """How the guard apologizes on this ``response_url``."""
        return lambda message: self.ephemeral(url, message, ids)


class Guard:
    """Runs a listener's work; logs what fails with the request's ids, then apologizes."""

    @contextmanager
    def __call__(
        self, ids: dict, lang: Callable[[], Lang | None], apologize: Apology | None
    ) -> Iterator[None]:
        try:
            yield
        except SlackApiError as error:
            log.error(
                "Slack API call failed %s: %s (slack_req_id=%s)",
                ids,
                error.response.get("error"),
                error.response.headers.get("x-slack-req-id"),
            )
        except Exception:
            log.exception("could not answer %s", ids)
            if apologize is None:
                return
            try:
                apologize(text_message(labels.label(lang() or Lang.EN, labels.APOLOGY)))
            except (SlackApiError, OSError) as error:  # the apology's own failure: one line
                log.error("could not send the apology %s: %s", ids, type(error).__name__)


def request_ids(
    context: BoltContext, *, body: dict | None = None, trigger: str | None = None, **extra: str
) -> dict:
    """The ids worth logging to find a request again (never tokens or text)."""
    ids = {"team": context.team_id, "user": context.user_id, "channel": context.channel_id}
    if body is not None:
        ids["event_id"] = body.get("event_id")
    if trigger:
        ids["trigger"] = trigger
    ids |= extra
    return {key: value for key, value in ids.items() if value}


def is_ephemeral(body: dict) -> bool:
    """Whether a click came from a private (ephemeral) message."""
    return bool((body.get("container") or {}).get("is_ephemeral"))
