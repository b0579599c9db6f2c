"""Events: ``@mpestimate`` mentions (answered in the thread) and direct messages.

Follow-ups in a thread or a DM reuse what the bot's last answer there said
(:mod:`bot.slack.memory`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from slack_bolt import App, BoltContext
from slack_sdk import WebClient

from bot.models import Channel
from bot.slack.asks import Ask
from bot.slack.blocks import reply_message
from bot.slack.language import LanguagePreferences
from bot.slack.memory import DM_THREAD, Threads
from bot.slack.records import TeamRecords
from bot.slack.replies import Guard, request_ids
from bot.slack.rooms.kit import Kit


def register(app: App, kit: Kit) -> None:
    room = Conversations(kit.guard, kit.languages, kit.records, kit.threads)
    kit.listen(app.event("app_mention"), room.on_mention)
    kit.listen(app.event("message"), room.on_message)


@dataclass(frozen=True)
class Place:
    """Where a message sits: ``key`` finds an earlier FP32 time, ``root`` stores this one,
    ``reply_ts`` is the thread the answer goes to (None: the DM's top level)."""

    key: str | None
    root: str
    reply_ts: str | None


@dataclass
class Conversations:
    """What the room's listeners need, handed in by ``register`` from the kit."""

    guard: Guard
    languages: LanguagePreferences
    records: TeamRecords
    threads: Threads

    def on_mention(self, event: dict, body: dict, client: WebClient, context: BoltContext) -> None:
        if from_bot(event):
            return
        root = event.get("thread_ts") or event["ts"]
        text = (event.get("text") or "").replace(f"<@{bot_user(context, body)}>", " ").strip()
        place = Place(key=root if event.get("thread_ts") else None, root=root, reply_ts=root)
        self.converse(client, context, body, text, Channel.MENTION, place)

    def on_message(self, event: dict, body: dict, client: WebClient, context: BoltContext) -> None:
        """DMs only: edits, deletions, other subtypes and bots are ignored."""
        if event.get("channel_type") != "im" or event.get("subtype") or from_bot(event):
            return
        thread = event.get("thread_ts")
        place = Place(key=thread or DM_THREAD, root=thread or DM_THREAD, reply_ts=thread)
        self.converse(client, context, body, event.get("text") or "", Channel.DM, place)

    def converse(
        self,
        client: WebClient,
        context: BoltContext,
        body: dict,
        text: str,
        channel: Channel,
        place: Place,
    ) -> None:
        """Answer in place, then remember what this turn said for the next follow-up."""
        event = body["event"]
        ids = request_ids(context, body=body)
        team, where = context.team_id, event["channel"]
        lang = None

        def post(message: dict) -> dict:
            return client.chat_postMessage(channel=where, thread_ts=place.reply_ts, **message)

        with self.guard(ids, lambda: lang, post):
            lang = self.languages.preferred(client, team, event.get("user"))
            recorded = self.records.command(text, client, context)
            if recorded is not None:  # record / history / delete
                if channel is Channel.DM:
                    post(recorded)
                else:  # only the asker sees it: a history names up to 10 recorders
                    client.chat_postEphemeral(
                        channel=where, user=event.get("user"), thread_ts=place.reply_ts, **recorded
                    )
                return
            thread = self.threads.recall(team, where, place.key)
            hours = thread.fp32_hours if thread else None
            setup = thread.setup if thread else None
            ask = Ask(text, channel, lang, thread_hours=hours, thread_setup=setup)
            turn = ask.answer(self.records.for_team(team))
            lang = turn.reply.lang
            self.languages.remember_choice(turn, team, event.get("user") or context.user_id)
            sent = post(reply_message(turn, replace(ask, lang=lang)))
            # After the post: the answer never waits on the database. At a DM's
            # top level a thread may start under the question or under the answer.
            roots = [place.root]
            if place.root == DM_THREAD:
                roots += [ts for ts in (event.get("ts"), sent.get("ts")) if ts]
            self.threads.remember(turn, team, where, roots, hours)


def bot_user(context: BoltContext, body: dict) -> str | None:
    """The bot's user id: from ``auth.test`` once known, else from the event's own
    ``authorizations`` (Slack lists the app's bot user there)."""
    if context.bot_user_id:
        return context.bot_user_id
    authorizations = body.get("authorizations") or [{}]
    return authorizations[0].get("user_id")


def from_bot(event: dict) -> bool:
    return bool(
        event.get("bot_id") or event.get("bot_profile") or event.get("subtype") == "bot_message"
    )
