"""Slow down: the answer to a request past the intake limits (:mod:`bot.slack.fairness`).

Such a request is acked and becomes a job like any other, whose work is this
reply instead of the estimate: private to its sender (the ``response_url`` of
a command or a click, an ephemeral message beside a mention, a DM otherwise),
in their language, saying how long to wait. Nothing is dropped unanswered.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from babel.dates import format_timedelta
from slack_bolt import App, BoltContext
from slack_sdk import WebClient

from bot.models import Lang
from bot.slack import labels
from bot.slack.blocks import text_message
from bot.slack.language import LanguagePreferences
from bot.slack.listeners import work_name
from bot.slack.replies import Guard, Responder, request_ids
from bot.slack.rooms.kit import Kit
from bot.understanding import language_of

# Where the intake puts how long the sender should wait (in the job's context).
WAIT_KEY = "slow_down_s"


def register(app: App, kit: Kit) -> None:
    kit.handoff.register(SlowDown(kit.responder, kit.guard, kit.languages).on_slow_down)


@dataclass
class SlowDown:
    responder: Responder
    guard: Guard
    languages: LanguagePreferences

    def on_slow_down(self, body: dict, client: WebClient, context: BoltContext) -> None:
        ids = request_ids(context)
        with self.guard(ids, lambda: None, None):
            lang = self._lang(body, client, context)
            wait = timedelta(seconds=max(1, round(float(context.get(WAIT_KEY) or 1))))
            words = labels.label(
                lang, labels.SLOW_DOWN, wait=format_timedelta(wait, locale=lang.value)
            )
            message = text_message(words)
            url = body.get("response_url")
            event = body.get("event") or {}
            if url:
                self.responder.ephemeral(url, message, ids)
            elif event.get("channel") and event.get("channel_type") != "im":
                client.chat_postEphemeral(channel=event["channel"], user=context.user_id, **message)
            elif context.user_id:
                client.chat_postMessage(channel=event.get("channel") or context.user_id, **message)

    def _lang(self, body: dict, client: WebClient, context: BoltContext) -> Lang:
        """The sender's stored or Slack language, else the language of their words."""
        preferred = self.languages.preferred(client, context.team_id, context.user_id)
        text = body.get("text") or (body.get("event") or {}).get("text") or ""
        return language_of(text, preferred)


SLOW_DOWN_WORK = work_name(SlowDown.on_slow_down)
