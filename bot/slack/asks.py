"""A question to the core, small enough to ride in a Slack button.

Buttons cannot call back into a conversation, so each one carries the
question that produced its message: the text (where it was asked, the language,
the thread's FP32 time and setup), or, for a ratio button and the App Home form,
the structured query itself (``Query`` as JSON), so nothing is read twice.
Clicking it asks the core again: the bot keeps no per-message state and any
replica can answer the click.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.conversation import Turn, answer, answer_query, with_ratio
from bot.models import Channel, Lang, Query
from bot.records.models import Record
from bot.rendering import render
from bot.rendering.reading import with_reading

# Slack's limit for a button's value.
MAX_VALUE_CHARS = 2000


@dataclass(frozen=True)
class Ask:
    text: str
    channel: Channel
    lang: Lang | None = None
    thread_hours: float | None = None
    # What the thread named before (GPU, model, ...; see bot.conversation.setup_of).
    thread_setup: dict | None = None
    # Reply in ``lang`` even when the message's own words are in the other one
    # (the language button, the modal).
    force_lang: bool = False
    # A structured query (Query as JSON) answered as it is, without reading ``text``.
    query: dict | None = None

    def answer(self, team_records: Sequence[Record] = ()) -> Turn:
        """Ask the core; ``team_records`` (the workspace's) come first for a matching setup."""
        if self.query is not None:
            query = Query.model_validate(self.query)
            if self.lang is not None:
                query = query.model_copy(update={"lang": self.lang})
            return answer_query(query, team_records)
        turn = answer(
            self.text,
            self.channel,
            preferred_lang=self.lang,
            thread_fp32_hours=self.thread_hours,
            thread_setup=self.thread_setup,
            team_records=team_records,
        )
        if self.force_lang and self.lang is not None and turn.reply.lang != self.lang:
            turn = replace(turn, reply=with_reading(render(turn.advice, self.lang), turn.query))
        return turn

    @classmethod
    def structured(cls, query: Query, channel: Channel = Channel.DM) -> Ask:
        """A button value holding ``query`` itself (JSON), answered in its language."""
        dumped = query.model_dump(mode="json", exclude_defaults=True)
        return cls(text="", channel=channel, lang=query.lang, force_lang=True, query=dumped)

    def with_ratio(self, ratio: float, turn: Turn) -> Ask:
        """``turn``'s question with ratio N (a ratio button): the query it read rides
        along as it is, so "ResNet-50 on V100, 30 hours" stays about ResNet-50 on V100."""
        return Ask.structured(with_ratio(turn, ratio, self.lang or Lang.EN), self.channel)

    def in_lang(self, lang: Lang) -> Ask:
        return replace(self, lang=lang, force_lang=True)

    def encode(self) -> str | None:
        """The button value, or None when the question is too long to carry."""
        value = json.dumps(
            {
                "t": self.text,
                "c": self.channel.value,
                "l": self.lang.value if self.lang else None,
                "h": self.thread_hours,
                "s": self.thread_setup or None,
                "f": self.force_lang,
                "q": self.query,
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )
        return value if len(value) <= MAX_VALUE_CHARS else None

    @classmethod
    def decode(cls, value: str | None) -> Ask | None:
        """Read a button value back; None for anything we did not write."""
        try:
            data = json.loads(value or "")
            hours, setup, query = data["h"], data.get("s"), data.get("q")
            if query is not None:
                Query.model_validate(query)  # a value we did not write is refused
            return cls(
                text=str(data["t"]),
                channel=Channel(data["c"]),
                lang=Lang(data["l"]) if data["l"] else None,
                thread_hours=float(hours) if hours is not None else None,
                thread_setup=dict(setup) if setup else None,
                force_lang=bool(data["f"]),
                query=dict(query) if query is not None else None,
            )
        except (ValueError, KeyError, TypeError):
            return None
