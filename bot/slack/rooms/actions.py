"""Buttons under a reply: other ratios, *Details*, the other language, the
experiment recipe, and *Share in channel*.

Each button carries the question that produced its message (:class:`Ask`), so
any replica can answer a click by asking the core again.
"""

from __future__ import annotations

from collections.abc import Callable

from slack_bolt import App, BoltContext

from bot.models import Lang
from bot.slack import labels
from bot.slack.asks import Ask
from bot.slack.blocks import (
    ACTION_DETAILS,
    ACTION_EXPERIMENT,
    ACTION_LANG,
    ACTION_RATIO,
    ACTION_SHARE,
    RATIOS,
    details_message,
    reply_message,
    text_message,
    with_language_notice,
)
from bot.slack.language import LanguagePreferences
from bot.slack.records import TeamRecords, with_record_button
from bot.slack.replies import Guard, Responder, is_ephemeral, request_ids
from bot.slack.rooms.kit import Kit


def register(app: App, kit: Kit) -> None:
    room = Buttons(kit.responder, kit.guard, kit.languages, kit.records)
    for index in range(len(RATIOS)):
        kit.listen(app.action(ACTION_RATIO.format(index=index)), room.on_reanswer)
    kit.listen(app.action(ACTION_LANG), room.on_language_button)
    kit.listen(app.action(ACTION_DETAILS), room.on_details)
    kit.listen(app.action(ACTION_EXPERIMENT), room.on_experiment)
    kit.listen(app.action(ACTION_SHARE), room.on_share)


class Buttons:
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

    def on_reanswer(self, action: dict, body: dict, context: BoltContext) -> None:
        """Ratio buttons: the same question asked again with another ratio."""
        self._answer(
            action,
            body,
            context,
            lambda ask: reply_message(ask.answer(), ask, shareable=is_ephemeral(body)),
            replace=True,
        )

    def on_language_button(self, action: dict, body: dict, context: BoltContext) -> None:
        """The answer again in the other language, which becomes the user's choice.

        Like ``lang ar``/``lang en``, the choice is stored: someone who asked for
        the other language wants it next time too. Since that is not obvious from a
        button, the first switched reply says so, and how to switch back.
        """
        ask = Ask.decode(action.get("value"))
        changed = False
        if ask is not None and ask.lang is not None:
            with self.guard(request_ids(context), lambda: ask.lang, None):
                changed = self.languages.choose(context.team_id, context.user_id, ask.lang)

        def build(ask: Ask) -> dict:
            turn = ask.answer(self.records.for_team(context.team_id))
            message = reply_message(turn, ask, shareable=is_ephemeral(body))
            return with_language_notice(message, turn.reply.lang) if changed else message

        self._answer(action, body, context, build, replace=True)

    def on_details(self, action: dict, body: dict, context: BoltContext) -> None:
        self._answer(
            action,
            body,
            context,
            lambda ask: details_message(ask.answer(self.records.for_team(context.team_id)).reply),
            replace=False,
        )

    def on_experiment(self, action: dict, body: dict, context: BoltContext) -> None:
        value = action.get("value")
        lang = Lang(value) if value in (Lang.AR.value, Lang.EN.value) else Lang.EN
        ids = request_ids(context)
        with self.guard(ids, lambda: lang, None):
            message = with_record_button(
                text_message(labels.label(lang, labels.EXPERIMENT_RECIPE)), lang
            )
            self.responder.ephemeral(body.get("response_url"), message, ids)

    def on_share(self, action: dict, body: dict, context: BoltContext) -> None:
        """Post the ephemeral answer for everyone, then remove the private copy."""
        ids = request_ids(context)
        ask = Ask.decode(action.get("value"))
        url = body.get("response_url")
        lang = ask.lang if ask else None
        with self.guard(ids, lambda: lang, self.responder.apology(url, ids)):
            if ask is None:
                self.responder.ephemeral(url, expired(lang), ids)
                return
            turn = ask.answer(self.records.for_team(context.team_id))
            message = reply_message(turn, ask)
            shared_by = labels.label(
                turn.reply.lang, labels.SHARED_BY, user=f"<@{context.user_id}>"
            )
            message["blocks"].append(
                {"type": "context", "elements": [{"type": "mrkdwn", "text": shared_by}]}
            )
            shared = {**message, "response_type": "in_channel", "replace_original": False}
            if self.responder.respond(url, shared, ids):
                self.responder.respond(url, {"delete_original": True}, ids)

    def _answer(
        self,
        action: dict,
        body: dict,
        context: BoltContext,
        build: Callable[[Ask], dict],
        *,
        replace: bool,
    ) -> None:
        """Answer a click privately; on a private message, update it in place."""
        ids = request_ids(context)
        ask = Ask.decode(action.get("value"))
        url = body.get("response_url")
        with self.guard(ids, lambda: ask.lang if ask else None, self.responder.apology(url, ids)):
            if ask is None:
                self.responder.ephemeral(url, expired(None), ids)
                return
            message = build(ask)
            in_place = replace and is_ephemeral(body)
            self.responder.respond(
                url, {**message, "response_type": "ephemeral", "replace_original": in_place}, ids
            )


def expired(lang: Lang | None) -> dict:
    """A button we did not write, or from an older version: say so, in English if unknown."""
    return text_message(labels.label(lang or Lang.EN, labels.EXPIRED))
