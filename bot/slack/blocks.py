"""Replies as Block Kit messages, written as the JSON Slack reads.

Not with ``slack_sdk.models``: their ``to_dict`` validates each object by
reflection every time, which cost more than the core's whole answer (about
0.8 of 3 ms per reply). The limits a reply can reach (3,000 characters a
section, 10 context elements, 2,000 a button value) are applied here, and the
tests re-read every block with slack_sdk's models (``Block.parse``) so their
validators still check each shape.

A reply stays phone-sized: the answer in a section, one context line of notes,
then buttons. Details (sources, factors, the experiment recipe) only appear
when someone asks for them.
"""

from __future__ import annotations

from dataclasses import replace

from bot.conversation import Turn
from bot.models import Kind, Lang, Reply
from bot.rendering.reply import escape
from bot.slack import labels
from bot.slack.asks import Ask

RATIOS = (1.5, 2.0, 2.5)
# Kinds that carry an FP32 time worth re-dividing, and an experiment worth running.
ESTIMATES = (Kind.ESTIMATE, Kind.RANGE, Kind.PRESET)
SECTION_CHARS = 3000
CONTEXT_ELEMENTS = 10

ACTION_RATIO = "mp_ratio_{index}"
ACTION_DETAILS = "mp_details"
ACTION_EXPERIMENT = "mp_experiment"
ACTION_LANG = "mp_lang"
ACTION_SHARE = "mp_share"
ACTION_NEW_ESTIMATE = "mp_new_estimate"


def reply_message(turn: Turn, ask: Ask, *, shareable: bool = False) -> dict:
    """``text`` (the notification and screen-reader fallback) plus ``blocks``."""
    reply = turn.reply
    blocks = [_section(reply.summary)]
    if reply.notes:
        blocks.append(_context(reply.notes))
    if reply.kind is Kind.HELP and reply.details and not _expects_ratio(turn):
        blocks.extend(_sections(reply.details))
    buttons = _buttons(turn, ask, shareable=shareable)
    if buttons:
        blocks.append({"type": "actions", "elements": buttons})
    # The fallback is the console's plain text, where user text stays as typed; Slack
    # reads <!channel> and <@U…> in it too (notifications, screen readers): escaped whole.
    return {"text": escape(reply.text), "blocks": blocks}


def details_message(reply: Reply) -> dict:
    lines = reply.details or [reply.summary]
    return {
        "text": "\n".join(lines),
        "blocks": _sections(lines),
    }


def with_language_notice(message: dict, lang: Lang) -> dict:
    """``message`` with one context line, above its buttons: replies stay in ``lang`` now."""
    notice = labels.label(lang, labels.NOW_IN_ARABIC if lang is Lang.AR else labels.NOW_IN_ENGLISH)
    blocks = list(message.get("blocks", []))
    at = next((i for i, b in enumerate(blocks) if b.get("type") == "actions"), len(blocks))
    blocks.insert(at, _context([notice]))
    return {**message, "text": f"{message.get('text', '')}\n{notice}", "blocks": blocks}


def text_message(mrkdwn: str, plain: str | None = None) -> dict:
    return {"text": escape(plain) if plain else mrkdwn, "blocks": [_section(mrkdwn)]}


def _buttons(turn: Turn, ask: Ask, *, shareable: bool) -> list[dict]:
    reply, lang = turn.reply, turn.reply.lang
    answered = ask if ask.lang else replace(ask, lang=lang)
    buttons: list[dict] = []
    hours = turn.advice.fp32_hours
    if reply.kind in ESTIMATES and hours is not None:
        for index, ratio in enumerate(RATIOS):
            value = answered.with_ratio(ratio, turn).encode()
            if value:
                buttons.append(
                    _button(
                        labels.label(lang, labels.RATIO_BUTTON, ratio=f"{ratio:g}"),
                        ACTION_RATIO.format(index=index),
                        value,
                    )
                )
    value = answered.encode()
    answers = reply.kind in ESTIMATES or _expects_ratio(turn)
    if reply.details and (reply.kind is not Kind.HELP or answers) and value:
        buttons.append(_button(labels.label(lang, labels.DETAILS_BUTTON), ACTION_DETAILS, value))
    if answers:
        buttons.append(
            _button(labels.label(lang, labels.EXPERIMENT_BUTTON), ACTION_EXPERIMENT, lang.value)
        )
    other = Lang.EN if lang is Lang.AR else Lang.AR
    switched = answered.in_lang(other).encode()
    if switched:
        buttons.append(_button(labels.LANGUAGE_NAMES[other], ACTION_LANG, switched))
    if shareable and answers and value:
        buttons.append(
            _button(labels.label(lang, labels.SHARE_BUTTON), ACTION_SHARE, value, primary=True)
        )
    return buttons


def _expects_ratio(turn: Turn) -> bool:
    """A question that named a setup but gave no FP32 time: the answer is the ratio to expect."""
    return turn.advice.ratio is not None and turn.advice.fp32_hours is None


def _button(text: str, action_id: str, value: str, *, primary: bool = False) -> dict:
    button = {
        "type": "button",
        "text": {"type": "plain_text", "text": text, "emoji": True},
        "action_id": action_id,
        "value": value,
    }
    if primary:
        button["style"] = "primary"
    return button


def _section(mrkdwn: str) -> dict:
    return {"type": "section", "text": _mrkdwn(mrkdwn)}


def _mrkdwn(text: str) -> dict:
    return {"type": "mrkdwn", "text": _clip(text, SECTION_CHARS)}


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
    return {"type": "context", "elements": [_mrkdwn(note) for note in kept]}


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
