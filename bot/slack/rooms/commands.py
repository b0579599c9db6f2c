"""The slash command: ``/mpestimate ...``, answered privately on its ``response_url``."""

from __future__ import annotations

from slack_bolt import App, BoltContext
from slack_sdk import WebClient

from bot.conversation import COMMAND
from bot.models import Channel
from bot.slack.asks import Ask
from bot.slack.blocks import reply_message
from bot.slack.language import LanguagePreferences
from bot.slack.records import TeamRecords
from bot.slack.replies import Guard, Responder, request_ids
from bot.slack.rooms.kit import Kit


def register(app: App, kit: Kit) -> None:
    room = Commands(kit.responder, kit.guard, kit.languages, kit.records)
    kit.listen(app.command(COMMAND), room.on_command)


class Commands:
    def __init__(
        self,
        responder: Responder,
        guard: Guard,
        languages: LanguagePreferences,
        records: TeamRecords,
    ) -> None:
        self.responder = responder
        self.guard = guard
        self.languages = languages
        self.records = records

    def on_command(self, command: dict, client: WebClient, context: BoltContext) -> None:
        ids = request_ids(context, trigger=command.get("trigger_id"))
        url = command.get("response_url")
        text = command.get("text") or ""
        lang = None

        def answer(message: dict) -> None:
            self.responder.respond(url, {**message, "response_type": "ephemeral"}, ids)

        with self.guard(ids, lambda: lang, answer):
            lang = self.languages.preferred(client, context.team_id, context.user_id)
            recorded = self.records.command(text, client, context)
            if recorded is not None:  # record / history / delete
                answer(recorded)
                return
            turn = Ask(text, Channel.COMMAND, lang).answer(self.records.for_team(context.team_id))
            lang = turn.reply.lang
            self.languages.remember_choice(turn, context.team_id, context.user_id)
            answer(reply_message(turn, Ask(text, Channel.COMMAND, lang), shareable=True))
