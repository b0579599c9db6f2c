"""The team's measurements: history paging, delete, and the "Record my result" modal.

The ``record``/``history``/``delete`` commands themselves are read where
any text is (the commands and events rooms ask :class:`TeamRecords` first);
this room answers the buttons and the modal those messages carry.
"""

from __future__ import annotations

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from bot.models import Lang
from bot.records import RecordDraft
from bot.records.service import deletion_reply
from bot.rendering.records import RecordWords
from bot.slack.records import (
    ACTION_DELETE,
    ACTION_NEWER,
    ACTION_OLDER,
    ACTION_RECORD,
    RECORD_MODAL,
    AdminCheckFailed,
    TeamRecords,
    admin_check_failed,
    decode_value,
    field_errors,
    modal_lang,
    modal_values,
    record_modal,
    text_reply,
)
from bot.slack.replies import Guard, Responder, is_ephemeral, request_ids
from bot.slack.rooms.kit import Kit
from bot.understanding import read_fields


def register(app: App, kit: Kit) -> None:
    room = Records(kit.responder, kit.guard, kit.records)
    kit.listen(app.action(ACTION_RECORD), room.on_record_button)
    kit.listen(app.action(ACTION_NEWER), room.on_page)
    kit.listen(app.action(ACTION_OLDER), room.on_page)
    kit.listen(app.action(ACTION_DELETE), room.on_delete)
    kit.listen(app.view(RECORD_MODAL), room.on_record_submit, room.check_record)


class Records:
    def __init__(self, responder: Responder, guard: Guard, records: TeamRecords) -> None:
        self.responder = responder
        self.guard = guard
        self.records = records

    def on_page(self, action: dict, body: dict, context: BoltContext) -> None:
        value = decode_value(action.get("value"))
        url = body.get("response_url")
        ids = request_ids(context, action=action.get("action_id"))
        with self.guard(ids, lambda: value.lang, self.responder.apology(url, ids)):
            message = self.records.history(context.team_id, value.page, value.lang)
            self.responder.respond(url, in_place(message, body), ids)

    def on_delete(self, action: dict, body: dict, client: WebClient, context: BoltContext) -> None:
        value = decode_value(action.get("value"))
        url = body.get("response_url")
        ids = request_ids(context, action=ACTION_DELETE)
        with self.guard(ids, lambda: value.lang, self.responder.apology(url, ids)):
            if value.record_id is None:
                return
            try:
                outcome = self.records.delete(
                    client, context.team_id, context.user_id, value.record_id
                )
            except AdminCheckFailed:
                notice = admin_check_failed(value.lang, value.record_id)
            else:
                notice = deletion_reply(RecordWords(value.lang), outcome, value.record_id).text
            message = self.records.history(context.team_id, value.page, value.lang, notice)
            self.responder.respond(url, in_place(message, body), ids)

    def on_record_button(
        self, action: dict, body: dict, client: WebClient, context: BoltContext
    ) -> None:
        value = action.get("value")
        lang = Lang(value) if value in (Lang.AR.value, Lang.EN.value) else Lang.EN
        with self.guard(request_ids(context, action=ACTION_RECORD), lambda: lang, None):
            client.views_open(trigger_id=body["trigger_id"], view=record_modal(lang))

    def check_record(self, ack: Ack, view: dict) -> None:
        """Refusals go back under their fields, in the user's language, before closing."""
        fields = modal_values(view)
        result = read_fields(**fields)
        if isinstance(result, RecordDraft):
            ack()
        else:
            ack(response_action="errors", errors=field_errors(result, fields, modal_lang(view)))

    def on_record_submit(self, view: dict, client: WebClient, context: BoltContext) -> None:
        """After a clean submission: store it and confirm in a DM."""
        result = read_fields(**modal_values(view))
        if not isinstance(result, RecordDraft):
            return  # refused in check_record
        lang = modal_lang(view)
        with self.guard(request_ids(context, view=RECORD_MODAL), lambda: lang, None):
            record = self.records.add(context.team_id, context.user_id, result)
            client.chat_postMessage(
                channel=context.user_id, **text_reply(RecordWords(lang).recorded(record))
            )


def in_place(message: dict, body: dict) -> dict:
    """A private history is updated in place; one posted in a channel gets a private copy."""
    return {**message, "response_type": "ephemeral", "replace_original": is_ephemeral(body)}
