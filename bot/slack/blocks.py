"""Replies as Block Kit messages, built with ``slack_sdk.models`` so Slack's
limits (text lengths, element counts) are checked before anything is sent.

A reply stays phone-sized: the answer in a section, one context line of notes,
then buttons. Details (sources, factors, the experiment recipe) only appear
when someone asks for them.
"""

from __future__ import annotations

from dataclasses import replace

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    ContextBlock,
    MarkdownTextObject,
    SectionBlock,
)

from bot.conversation import Turn
from bot.models import Kind, Lang, Reply
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
    blocks: list[Block] = [_section(reply.summary)]
    if reply.notes:
        blocks.append(_context(reply.notes))
    if reply.kind is Kind.HELP and reply.details and not _expects_ratio(turn):
        blocks.extend(_sections(reply.details))
    buttons = _buttons(turn, ask, shareable=shareable)
    if buttons:
        blocks.append(ActionsBlock(elements=buttons))
    return {"text": reply.text, "blocks": [block.to_dict() for block in blocks]}


def details_message(reply: Reply) -> dict:
    lines = reply.details or [reply.summary]
    return {
        "text": "\n".join(lines),
        "blocks": [block.to_dict() for block in _sections(lines)],
    }


def with_language_notice(message: dict, lang: Lang) -> dict:
    """``message`` with one context line, above its buttons: replies stay in ``lang`` now."""
    notice = labels.label(lang, labels.NOW_IN_ARABIC if lang is Lang.AR else labels.NOW_IN_ENGLISH)
    blocks = list(message.get("blocks", []))
    at = next((i for i, b in enumerate(blocks) if b.get("type") == "actions"), len(blocks))
    blocks.insert(at, _context([notice]).to_dict())
    return {**message, "text": f"{message.get('text', '')}\n{notice}", "blocks": blocks}


def text_message(mrkdwn: str, plain: str | None = None) -> dict:
    return {"text": plain or mrkdwn, "blocks": [_section(mrkdwn).to_dict()]}


def _buttons(turn: Turn, ask: Ask, *, shareable: bool) -> list[ButtonElement]:
    reply, lang = turn.reply, turn.reply.lang
    answered = ask if ask.lang else replace(ask, lang=lang)
    buttons: list[ButtonElement] = []
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


def _button(text: str, action_id: str, value: str, *, primary: bool = False) -> ButtonElement:
    return ButtonElement(
        text=text, action_id=action_id, value=value, style="primary" if primary else None
    )


def _section(mrkdwn: str) -> SectionBlock:
    return SectionBlock(text=MarkdownTextObject(text=_clip(mrkdwn, SECTION_CHARS)))


def _sections(lines: list[str]) -> list[SectionBlock]:
    """Lines packed into as few sections as Slack's 3,000-character limit allows."""
    chunks: list[str] = []
    for line in lines:
        if chunks and len(chunks[-1]) + 1 + len(line) <= SECTION_CHARS:
            chunks[-1] += "\n" + line
        else:
            chunks.append(line)
    return [_section(chunk) for chunk in chunks]


def _context(notes: list[str]) -> ContextBlock:
    kept = notes[: CONTEXT_ELEMENTS - 1] + (
        ["\n".join(notes[CONTEXT_ELEMENTS - 1 :])] if len(notes) >= CONTEXT_ELEMENTS else []
    )
    return ContextBlock(elements=[MarkdownTextObject(text=_clip(n, SECTION_CHARS)) for n in kept])


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
