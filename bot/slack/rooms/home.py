"""Views: the App Home tab, its *New estimate* button and the estimate modal.

Bad input goes back under its field (``response_action: errors``), which
needs the answer before the ack; a valid form's estimate arrives as a DM.
"""

from __future__ import annotations

import logging

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from bot.conversation import Turn
from bot.models import Lang
from bot.slack import labels
from bot.slack.asks import Ask
from bot.slack.blocks import ACTION_NEW_ESTIMATE, reply_message
from bot.slack.language import LanguagePreferences
from bot.slack.memory import DM_THREAD, Threads
from bot.slack.records import TeamRecords
from bot.slack.replies import Guard, request_ids
from bot.slack.rooms.kit import Kit
from bot.slack.views import (
    FP32_BLOCK,
    MODAL_CALLBACK,
    ModalInput,
    estimate_modal,
    field_errors,
    home_view,
    read_modal,
)

log = logging.getLogger(__name__)


def register(app: App, kit: Kit) -> None:
    room = Home(kit.guard, kit.languages, kit.records, kit.threads)
    kit.listen(app.event("app_home_opened"), room.on_home_opened)
    kit.listen(app.action(ACTION_NEW_ESTIMATE), room.on_new_estimate)
    kit.listen(app.view(MODAL_CALLBACK), room.on_modal_submit, room.check_modal)


class Home:
    def __init__(
        self, guard: Guard, languages: LanguagePreferences, records: TeamRecords, threads: Threads
    ) -> None:
        self.guard = guard
        self.languages = languages
        self.records = records
        self.threads = threads

    def on_home_opened(
        self, event: dict, body: dict, client: WebClient, context: BoltContext
    ) -> None:
        if event.get("tab") != "home":
            return
        with self.guard(request_ids(context, body=body), lambda: None, None):
            lang = self.languages.preferred(client, context.team_id, event["user"]) or Lang.EN
            client.views_publish(user_id=event["user"], view=home_view(lang))

    def on_new_estimate(self, body: dict, client: WebClient, context: BoltContext) -> None:
        with self.guard(request_ids(context, trigger=body.get("trigger_id")), lambda: None, None):
            lang = self.languages.preferred(client, context.team_id, context.user_id) or Lang.EN
            client.views_open(trigger_id=body["trigger_id"], view=estimate_modal(lang))

    def check_modal(self, ack: Ack, view: dict, context: BoltContext) -> None:
        """Invalid fields go back to the modal (``response_action: errors``) at once."""
        fields = read_modal(view)
        errors = fields.number_errors()
        if errors:
            ack(response_action="errors", errors=errors)
            return
        try:
            turn = self._turn(fields, context)
            reason = turn.advice.reason
            if reason is not None:
                errors = field_errors(
                    reason, turn.reply.text, fields, lambda: _time_refused(fields)
                )
        except Exception:
            log.exception("modal answer failed %s", request_ids(context))
            errors = {FP32_BLOCK: fields.say(labels.APOLOGY)}
        if errors:
            ack(response_action="errors", errors=errors)
            return
        ack()

    def on_modal_submit(self, view: dict, client: WebClient, context: BoltContext) -> None:
        """A valid modal's estimate goes to the user's DM with the bot."""
        fields = read_modal(view)
        if fields.number_errors():  # check_modal already showed them
            return
        with self.guard(request_ids(context), lambda: fields.lang, None):
            turn = self._turn(fields, context)
            if turn.advice.reason is not None:  # check_modal already showed the error
                return
            ask = Ask.structured(fields.as_query())
            response = client.chat_postMessage(channel=context.user_id, **reply_message(turn, ask))
            roots = [DM_THREAD, *([response["ts"]] if response.get("ts") else [])]
            self.threads.remember(turn, context.team_id, response["channel"], roots, None)

    def _turn(self, fields: ModalInput, context: BoltContext) -> Turn:
        return Ask.structured(fields.as_query()).answer(self.records.for_team(context.team_id))


def _time_refused(fields: ModalInput) -> bool:
    """Whether the FP32 time alone is refused (the ratio is not to blame)."""
    return Ask.structured(fields.as_query(with_ratio=False)).answer().advice.reason is not None
