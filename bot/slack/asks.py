"""A question to the core, small enough to ride in a Slack button.

Buttons cannot call back into a conversation, so each one carries the
question that produced its message (text, where it was asked, the language,
the thread's FP32 time and setup). Clicking it asks the core again: the bot keeps no
per-message state and any replica can answer the click.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.conversation import Turn, answer, thread_memory
from bot.models import Channel, Lang
from bot.records.models import Record
from bot.rendering import render

# Slack's limit for a button's value.
MAX_VALUE_CHARS = 2000
# The follow-up a ratio button asks, in the words a user would type.
RATIO_FOLLOW_UP = {Lang.EN: "and with ratio {ratio}?", Lang.AR: "وبمعامل {ratio}؟"}


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

    def answer(self, team_records: Sequence[Record] = ()) -> Turn:
        """Ask the core; ``team_records`` (the workspace's) come first for a matching setup."""
        turn = answer(
            self.text,
            self.channel,
            preferred_lang=self.lang,
            thread_fp32_hours=self.thread_hours,
            thread_setup=self.thread_setup,
            team_records=team_records,
        )
        if self.force_lang and self.lang is not None and turn.reply.lang != self.lang:
            turn = replace(turn, reply=render(turn.advice, self.lang))
        return turn

    def with_ratio(self, ratio: float, turn: Turn) -> Ask:
        """The follow-up "and with ratio N?" to ``turn``: its FP32 time and everything
        it named (read from the question's own text, not only from a thread) ride along,
        so "ResNet-50 on V100, 30 hours" stays about ResNet-50 on V100."""
        lang = self.lang or Lang.EN
        setup = {name: v for name, v in thread_memory(turn.query).items() if name != "ratio"}
        return Ask(
            text=RATIO_FOLLOW_UP[lang].format(ratio=f"{ratio:g}"),
            channel=self.channel,
            lang=lang,
            thread_hours=turn.advice.fp32_hours,
            thread_setup=setup or None,
            force_lang=True,
        )

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
            hours, setup = data["h"], data.get("s")
            return cls(
                text=str(data["t"]),
                channel=Channel(data["c"]),
                lang=Lang(data["l"]) if data["l"] else None,
                thread_hours=float(hours) if hours is not None else None,
                thread_setup=dict(setup) if setup else None,
                force_lang=bool(data["f"]),
            )
        except (ValueError, KeyError, TypeError):
            return None
