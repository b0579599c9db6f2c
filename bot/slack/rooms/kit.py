"""What the rooms share, built once per app; each room keeps only the parts it uses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from slack_bolt import Ack

from bot.settings import Settings
from bot.slack.language import LanguagePreferences
from bot.slack.listeners import Handoff, ack_then
from bot.slack.memory import Threads
from bot.slack.records import TeamRecords
from bot.slack.replies import Guard, Responder
from bot.store import Store


@dataclass(frozen=True)
class Kit:
    responder: Responder
    guard: Guard
    languages: LanguagePreferences
    records: TeamRecords
    threads: Threads
    # Where the work after each ack goes (:mod:`bot.slack.listeners`).
    handoff: Handoff

    @classmethod
    def build(cls, settings: Settings, store: Store, handoff: Handoff) -> Kit:
        return cls(
            responder=Responder(settings),
            guard=Guard(),
            languages=LanguagePreferences(store),
            records=TeamRecords(store),
            threads=Threads(store),
            handoff=handoff,
        )

    def listen(
        self,
        listener: Callable,
        work: Callable[..., None],
        acknowledge: Callable[..., None] | None = None,
    ) -> None:
        """Ack in the request's own thread (``acknowledge``, a plain ack by default), then
        hand ``work`` on.

        The app runs with ``process_before_response``, so Slack gets its 200 as
        soon as the listener returns, and retries, Web API calls and the
        core's work all happen after it (see :mod:`bot.slack.listeners`).
        """
        listener(ack_then(self.handoff, acknowledge or ack_now, work))


def ack_now(ack: Ack) -> None:
    ack()
