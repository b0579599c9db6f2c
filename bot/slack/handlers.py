"""What the app does with each kind of Slack request.

Every listener acknowledges first, in the request's own thread (Bolt answers
Slack's HTTP request at that moment); then, in the app's listener pool or a
worker process's job (see :mod:`bot.slack.listeners`), it asks the core and sends the reply with
retrying clients. Any failure after that is logged with the request's ids and,
when possible, turned into a short apology in the user's language; nothing
propagates.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.conversation import COMMAND, Turn, carried_over
from bot.models import Channel, Intent, Lang
from bot.settings import Settings
from bot.slack import labels, outbox
from bot.slack.asks import Ask
from bot.slack.blocks import (
    ACTION_DETAILS,
    ACTION_EXPERIMENT,
    ACTION_LANG,
    ACTION_NEW_ESTIMATE,
    ACTION_RATIO,
    ACTION_SHARE,
    RATIOS,
    details_message,
    reply_message,
    text_message,
    with_language_notice,
)
from bot.slack.language import LanguagePreferences
from bot.slack.listeners import Handoff, ack_then
from bot.slack.records import TeamRecords, with_record_button
from bot.slack.views import (
    FP32_BLOCK,
    MODAL_CALLBACK,
    ModalInput,
    estimate_modal,
    field_errors,
    home_view,
    read_modal,
)
from bot.store import Store

# A DM is one conversation: follow-ups outside a thread share this key.
DM_THREAD = "-"
log = logging.getLogger(__name__)


class Handlers:
    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.languages = LanguagePreferences(store)
        self.records = TeamRecords(self)

    def register(self, app: App, handoff: Handoff) -> None:
        """Ack in the request's own thread, then hand the work on (``handoff``).

        The app runs with ``process_before_response``, so Slack gets its 200 as
        soon as the listener returns, and retries, Web API calls and the
        core's work all happen after it (see :mod:`bot.slack.listeners`).
        """
        works = {
            app.command(COMMAND): self.on_command,
            app.event("app_mention"): self.on_mention,
            app.event("message"): self.on_message,
            app.event("app_home_opened"): self.on_home_opened,
            app.action(ACTION_NEW_ESTIMATE): self.on_new_estimate,
            app.action(ACTION_LANG): self.on_language_button,
            app.action(ACTION_DETAILS): self.on_details,
            app.action(ACTION_EXPERIMENT): self.on_experiment,
            app.action(ACTION_SHARE): self.on_share,
        }
        for index in range(len(RATIOS)):
            works[app.action(ACTION_RATIO.format(index=index))] = self.on_reanswer
        acks = [(listen, _ack_now, work) for listen, work in works.items()]
        acks.append((app.view(MODAL_CALLBACK), self.check_modal, self.on_modal_submit))
        for listen, acknowledge, work in acks:
            listen(ack_then(handoff, acknowledge, work))
        self.records.register(app, handoff)

    # -- slash command ------------------------------------------------------

    def on_command(self, command: dict, client: WebClient, context: BoltContext) -> None:
        ids = _ids(context, trigger=command.get("trigger_id"))
        url = command.get("response_url")
        lang = None

        def apologize(message: dict) -> None:
            self.respond(url, {**message, "response_type": "ephemeral"}, ids)

        with self.guard(ids, lambda: lang, apologize):
            lang = self.languages.preferred(client, context.team_id, context.user_id)
            recorded = self.records.command(command.get("text") or "", client, context)
            if recorded is not None:  # record / history / delete
                self.respond(url, {**recorded, "response_type": "ephemeral"}, ids)
                return
            team = self.records.for_team(context.team_id)
            turn = Ask(command.get("text") or "", Channel.COMMAND, lang).answer(team)
            lang = turn.reply.lang
            self._remember_choice(turn, context)
            ask = Ask(command.get("text") or "", Channel.COMMAND, lang)
            message = reply_message(turn, ask, shareable=True)
            self.respond(url, {**message, "response_type": "ephemeral"}, ids)

    # -- mentions and DMs ---------------------------------------------------

    def on_mention(self, event: dict, body: dict, client: WebClient, context: BoltContext) -> None:
        if _from_bot(event):
            return
        root = event.get("thread_ts") or event["ts"]
        text = (event.get("text") or "").replace(f"<@{context.bot_user_id}>", " ").strip()
        self._converse(
            client,
            context,
            body,
            text,
            Channel.MENTION,
            key=root if event.get("thread_ts") else None,
            root=root,
            reply_ts=root,
        )

    def on_message(self, event: dict, body: dict, client: WebClient, context: BoltContext) -> None:
        """DMs only: edits, deletions, other subtypes and bots are ignored."""
        if event.get("channel_type") != "im" or event.get("subtype") or _from_bot(event):
            return
        thread = event.get("thread_ts")
        self._converse(
            client,
            context,
            body,
            event.get("text") or "",
            Channel.DM,
            key=thread or DM_THREAD,
            root=thread or DM_THREAD,
            reply_ts=thread,
        )

    def _converse(
        self,
        client: WebClient,
        context: BoltContext,
        body: dict,
        text: str,
        channel: Channel,
        *,
        key: str | None,
        root: str,
        reply_ts: str | None,
    ) -> None:
        """Answer in place: ``key`` finds an earlier FP32 time, ``root`` stores this one."""
        event = body["event"]
        ids = _ids(context, body=body)
        lang = None

        def apologize(message: dict) -> None:
            client.chat_postMessage(channel=event["channel"], thread_ts=reply_ts, **message)

        with self.guard(ids, lambda: lang, apologize):
            lang = self.languages.preferred(client, context.team_id, event.get("user"))
            recorded = self.records.command(text, client, context)
            if recorded is not None:  # record / history / delete
                client.chat_postMessage(channel=event["channel"], thread_ts=reply_ts, **recorded)
                return
            thread = self.store.thread(context.team_id, event["channel"], key) if key else None
            hours = thread.fp32_hours if thread else None
            setup = thread.setup if thread else None
            ask = Ask(text, channel, lang, thread_hours=hours, thread_setup=setup)
            turn = ask.answer(self.records.for_team(context.team_id))
            lang = turn.reply.lang
            self._remember_choice(turn, context, user_id=event.get("user"))
            message = reply_message(turn, replace(ask, lang=lang))
            # At a DM's top level a thread may start under the question or under the answer.
            top_level = root == DM_THREAD
            roots = [root, event["ts"]] if top_level and event.get("ts") else [root]
            self._remember_thread(turn, context, event["channel"], roots, hours)
            sent = client.chat_postMessage(channel=event["channel"], thread_ts=reply_ts, **message)
            if top_level and sent.get("ts"):
                self._remember_thread(turn, context, event["channel"], [sent["ts"]], hours)

    def _remember_thread(
        self,
        turn: Turn,
        context: BoltContext,
        channel_id: str,
        roots: list[str],
        hours: float | None,
    ) -> None:
        """Keep the thread's latest FP32 time and what it named, for the next follow-up.

        A DM's top level keeps the time only: it is many separate questions, where
        "36 hours" should not mean the last model asked about. A thread started
        under one of those messages is about that message alone, so each top-level
        turn is also kept whole under its own ts and its answer's.
        """
        carried = carried_over(turn, hours)
        if carried is None:
            return
        latest, setup = carried
        for root in roots:
            kept = {} if root == DM_THREAD else setup
            if latest is not None or kept:
                self.store.remember_thread(context.team_id, channel_id, root, latest, kept)

    # -- App Home and the modal ---------------------------------------------

    def on_home_opened(
        self, event: dict, body: dict, client: WebClient, context: BoltContext
    ) -> None:
        if event.get("tab") != "home":
            return
        ids = _ids(context, body=body)
        with self.guard(ids, lambda: None, None):
            lang = self.languages.preferred(client, context.team_id, event["user"]) or Lang.EN
            client.views_publish(user_id=event["user"], view=home_view(lang))

    def on_new_estimate(self, body: dict, client: WebClient, context: BoltContext) -> None:
        ids = _ids(context, trigger=body.get("trigger_id"))
        with self.guard(ids, lambda: None, None):
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
            turn = self._modal_turn(fields, context)
            reason = turn.advice.reason
            if reason is not None:
                errors = field_errors(
                    reason, turn.reply.text, fields, lambda: self._time_refused(fields, context)
                )
        except Exception:
            log.exception("modal answer failed %s", _ids(context))
            errors = {FP32_BLOCK: fields.say(labels.APOLOGY)}
        if errors:
            ack(response_action="errors", errors=errors)
            return
        ack()

    def on_modal_submit(self, view: dict, client: WebClient, context: BoltContext) -> None:
        """A valid modal's estimate goes to the user's DM with the bot."""
        ids = _ids(context)
        fields = read_modal(view)
        if fields.number_errors():  # check_modal already showed them
            return
        with self.guard(ids, lambda: fields.lang, None):
            turn = self._modal_turn(fields, context)
            if turn.advice.reason is not None:  # check_modal already showed the error
                return
            ask = Ask(fields.as_message(), Channel.DM, fields.lang, force_lang=True)
            response = client.chat_postMessage(channel=context.user_id, **reply_message(turn, ask))
            roots = [DM_THREAD, *([response["ts"]] if response.get("ts") else [])]
            self._remember_thread(turn, context, response["channel"], roots, None)

    def _time_refused(self, fields: ModalInput, context: BoltContext) -> bool:
        """Whether the FP32 time alone is refused (the ratio is not to blame)."""
        ask = Ask(fields.time_alone(), Channel.DM, fields.lang, force_lang=True)
        return ask.answer().advice.reason is not None

    def _modal_turn(self, fields: ModalInput, context: BoltContext) -> Turn:
        ask = Ask(fields.as_message(), Channel.DM, fields.lang, force_lang=True)
        return ask.answer(self.records.for_team(context.team_id))

    # -- buttons under a reply ----------------------------------------------

    def on_reanswer(self, action: dict, body: dict, context: BoltContext) -> None:
        """Ratio buttons: the same question asked again with another ratio."""
        self._button(
            action,
            body,
            context,
            lambda ask: reply_message(ask.answer(), ask, shareable=_is_ephemeral(body)),
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
            with self.guard(_ids(context), lambda: ask.lang, None):
                changed = self.languages.choose(context.team_id, context.user_id, ask.lang)

        def build(ask: Ask) -> dict:
            turn = ask.answer(self.records.for_team(context.team_id))
            message = reply_message(turn, ask, shareable=_is_ephemeral(body))
            return with_language_notice(message, turn.reply.lang) if changed else message

        self._button(action, body, context, build, replace=True)

    def on_details(self, action: dict, body: dict, context: BoltContext) -> None:
        self._button(
            action,
            body,
            context,
            lambda ask: details_message(ask.answer(self.records.for_team(context.team_id)).reply),
            replace=False,
        )

    def on_experiment(self, action: dict, body: dict, context: BoltContext) -> None:
        value = action.get("value")
        lang = Lang(value) if value in (Lang.AR.value, Lang.EN.value) else Lang.EN
        ids = _ids(context)
        with self.guard(ids, lambda: lang, None):
            message = with_record_button(
                text_message(labels.label(lang, labels.EXPERIMENT_RECIPE)), lang
            )
            self.respond(
                body.get("response_url"),
                {**message, "response_type": "ephemeral", "replace_original": False},
                ids,
            )

    def on_share(self, action: dict, body: dict, context: BoltContext) -> None:
        """Post the ephemeral answer for everyone, then remove the private copy."""
        ids = _ids(context)
        ask = Ask.decode(action.get("value"))
        url = body.get("response_url")
        lang = ask.lang if ask else None
        with self.guard(ids, lambda: lang, self._ephemeral_apology(url, ids)):
            if ask is None:
                self.respond(url, _expired(lang), ids)
                return
            turn = ask.answer(self.records.for_team(context.team_id))
            message = reply_message(turn, ask)
            shared_by = labels.label(
                turn.reply.lang, labels.SHARED_BY, user=f"<@{context.user_id}>"
            )
            message["blocks"].append(
                {"type": "context", "elements": [{"type": "mrkdwn", "text": shared_by}]}
            )
            sent = self.respond(
                url, {**message, "response_type": "in_channel", "replace_original": False}, ids
            )
            if sent:
                self.respond(url, {"delete_original": True}, ids)

    def _button(
        self,
        action: dict,
        body: dict,
        context: BoltContext,
        build: Callable[[Ask], dict],
        *,
        replace: bool,
    ) -> None:
        """Answer a click privately; on a private message, update it in place."""
        ids = _ids(context)
        ask = Ask.decode(action.get("value"))
        url = body.get("response_url")
        with self.guard(ids, lambda: ask.lang if ask else None, self._ephemeral_apology(url, ids)):
            if ask is None:
                self.respond(url, _expired(None), ids)
                return
            message = build(ask)
            in_place = replace and _is_ephemeral(body)
            self.respond(
                url, {**message, "response_type": "ephemeral", "replace_original": in_place}, ids
            )

    # -- plumbing -----------------------------------------------------------

    def respond(self, url: str | None, message: dict, ids: dict) -> bool:
        """POST to a ``response_url`` (through the outbox in a job); False (logged) when it failed."""
        return outbox.respond(url, message, self.settings, ids)

    def _ephemeral_apology(self, url: str | None, ids: dict) -> Callable[[dict], None]:
        def apologize(message: dict) -> None:
            self.respond(
                url, {**message, "response_type": "ephemeral", "replace_original": False}, ids
            )

        return apologize

    def _remember_choice(
        self, turn: Turn, context: BoltContext, user_id: str | None = None
    ) -> None:
        choice = turn.query.lang_choice
        if turn.query.intent is Intent.SET_LANG and choice is not None:
            self.languages.choose(context.team_id, user_id or context.user_id, choice)

    @contextmanager
    def guard(
        self, ids: dict, lang: Callable[[], Lang | None], apologize: Callable[[dict], None] | None
    ) -> Iterator[None]:
        """Log any failure with the request's ids; apologize to the user if we can."""
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


def _ack_now(ack: Ack) -> None:
    ack()


def _ids(context: BoltContext, *, body: dict | None = None, trigger: str | None = None) -> dict:
    """The ids worth logging to find a request again (never tokens or text)."""
    ids = {"team": context.team_id, "user": context.user_id, "channel": context.channel_id}
    if body is not None:
        ids["event_id"] = body.get("event_id")
    if trigger:
        ids["trigger"] = trigger
    return {key: value for key, value in ids.items() if value}


def _from_bot(event: dict) -> bool:
    return bool(
        event.get("bot_id") or event.get("bot_profile") or event.get("subtype") == "bot_message"
    )


def _is_ephemeral(body: dict) -> bool:
    return bool((body.get("container") or {}).get("is_ephemeral"))


def _expired(lang: Lang | None) -> dict:
    message = text_message(labels.label(lang or Lang.EN, labels.EXPIRED))
    return {**message, "response_type": "ephemeral", "replace_original": False}
