"""Replies as Block Kit messages, built as plain dicts within Slack's limits.

Every reply is built here, after the ack, for every command, so it is built
directly as JSON-ready dicts: ``slack_sdk.models`` reflects over each object to
serialize and validate it, which cost ~0.3 ms per reply (more than the core's
answer). The limits are enforced by construction instead (text clipped,
elements capped, button values bounded by :meth:`Ask.encode`), and the tests
feed every shape through ``slack_sdk.models.blocks.Block.parse`` so the
library's validators still judge the output.

A reply stays phone-sized: the answer in a section, one context line of notes,
then buttons. Details (sources, factors, the experiment recipe) only appear
when someone asks for them.
"""

from __future__ import annotations

from bot.conversation import Turn
from bot.models import Kind, Lang, Reply
from bot.slack import labels
from bot.slack.asks import Ask

RATIOS = (1.5, 2.0, 2.5)
# Kinds that carry an FP32 time worth re-dividing, and an experiment worth running.
ESTIMATES = (Kind.ESTIMATE, Kind.RANGE, Kind.PRESET)
# Slack's Block Kit limits (https://api.slack.com/reference/block-kit).
SECTION_CHARS = 3000
CONTEXT_ELEMENTS = 10
BUTTON_TEXT_CHARS = 75
ACTIONS_ELEMENTS = 25

ACTION_RATIO = "mp_ratio_{index}"
ACTION_DETAILS = "mp_details"
ACTION_EXPERIMENT = "mp_experiment"
ACTION_LANG = "mp_lang"
ACTION_SHARE = "mp_share"
ACTION_NEW_ESTIMATE = "mp_new_estimate"


def reply_message(turn: Turn, ask: Ask, *, shareable: bool = False) -> dict:
    """``text`` (the notification and screen-reader fallback) plus ``blocks``."""
    reply = turn.reply
    blocks: list[dict] = [_section(reply.summary)]
    if reply.notes:
        blocks.append(_context(reply.notes))
    if reply.kind is Kind.HELP and reply.details:
        blocks.extend(_sections(reply.details))
    buttons = _buttons(turn, ask, shareable=shareable)
    if buttons:
        blocks.append({"type": "actions", "elements": buttons[:ACTIONS_ELEMENTS]})
    return {"text": reply.text, "blocks": blocks}


def details_message(reply: Reply) -> dict:
    lines = reply.details or [reply.summary]
    return {
        "text": "\n".join(lines),
        "blocks": _sections(lines),
    }


def text_message(mrkdwn: str, plain: str | None = None) -> dict:
    return {"text": plain or mrkdwn, "blocks": [_section(mrkdwn)]}


def _buttons(turn: Turn, ask: Ask, *, shareable: bool) -> list[dict]:
    reply, lang = turn.reply, turn.reply.lang
    answered = ask if ask.lang else Ask(ask.text, ask.channel, lang, ask.thread_hours)
    buttons: list[dict] = []
    hours = turn.advice.fp32_hours
    if reply.kind in ESTIMATES and hours is not None:
        for index, ratio in enumerate(RATIOS):
            value = answered.with_ratio(ratio, hours).encode()
            if value:
                buttons.append(
                    _button(
                        labels.label(lang, labels.RATIO_BUTTON, ratio=f"{ratio:g}"),
                        ACTION_RATIO.format(index=index),
                        value,
                    )
                )
    value = answered.encode()
    if reply.details and reply.kind is not Kind.HELP and value:
        buttons.append(_button(labels.label(lang, labels.DETAILS_BUTTON), ACTION_DETAILS, value))
    if reply.kind in ESTIMATES:
        buttons.append(
            _button(labels.label(lang, labels.EXPERIMENT_BUTTON), ACTION_EXPERIMENT, lang.value)
        )
    other = Lang.EN if lang is Lang.AR else Lang.AR
    switched = answered.in_lang(other).encode()
    if switched:
        buttons.append(_button(labels.LANGUAGE_NAMES[other], ACTION_LANG, switched))
    if shareable and reply.kind in ESTIMATES and value:
        buttons.append(
            _button(labels.label(lang, labels.SHARE_BUTTON), ACTION_SHARE, value, primary=True)
        )
    return buttons


def _button(text: str, action_id: str, value: str, *, primary: bool = False) -> dict:
    button = {
        "type": "button",
        "text": {"type": "plain_text", "text": _clip(text, BUTTON_TEXT_CHARS), "emoji": True},
        "action_id": action_id,
        "value": value,
    }
    if primary:
        button["style"] = "primary"
    return button


def _section(mrkdwn: str) -> dict:
    return {"type": "section", "text": _mrkdwn(_clip(mrkdwn, SECTION_CHARS))}


def _mrkdwn(text: str) -> dict:
    return {"type": "mrkdwn", "text": text}


def _sections(lines: list[str]) -> list[dict]:
    """Lines packed into as few sections as Slack's 3,000-character limit allows."""
    chunks: list[str] = []
    for line in lines:
        if chunks and len(chunks[-1]) + 1 + len(line) <= SECTION_CHARS:
            chunks[-1] += "\n" + line
        else:
            chunks.append(line)
    return [_section(chunk) for chunk in chunks]


def _context(notes: list[str]) -> dict:
    kept = notes[: CONTEXT_ELEMENTS - 1] + (
        ["\n".join(notes[CONTEXT_ELEMENTS - 1 :])] if len(notes) >= CONTEXT_ELEMENTS else []
    )
    return {"type": "context", "elements": [_mrkdwn(_clip(n, SECTION_CHARS)) for n in kept]}


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
