"""App Home and the "New estimate" modal.

The modal collects the FP32 time, its unit, an optional ratio and an optional
GPU or model, then phrases them as one message for the core, so the modal and
a typed question are checked by exactly the same rules and worded alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from slack_sdk.models.blocks import (
    ActionsBlock,
    ButtonElement,
    DividerBlock,
    HeaderBlock,
    InputBlock,
    MarkdownTextObject,
    Option,
    PlainTextInputElement,
    SectionBlock,
    StaticSelectElement,
)
from slack_sdk.models.views import View

from bot.models import Lang, Reason
from bot.slack import labels
from bot.slack.blocks import ACTION_NEW_ESTIMATE

MODAL_CALLBACK = "mp_estimate_modal"
FP32_BLOCK, UNIT_BLOCK, RATIO_BLOCK, SETUP_BLOCK = "fp32", "unit", "ratio", "setup"
INPUT_ACTION = "value"
UNITS = (
    ("minutes", labels.UNIT_MINUTES),
    ("hours", labels.UNIT_HOURS),
    ("days", labels.UNIT_DAYS),
    ("weeks", labels.UNIT_WEEKS),
)
# Slack shows a field error under its input; it must stay short.
FIELD_ERROR_CHARS = 150
_RATIO_REASONS = {Reason.RATIO_NOT_POSITIVE, Reason.RATIO_BELOW_ONE}


def home_view(lang: Lang) -> dict:
    """Both languages' guides, the user's first, and the New estimate button."""
    other = Lang.EN if lang is Lang.AR else Lang.AR
    blocks = [HeaderBlock(text=labels.label(lang, labels.HOME_TITLE))]
    for shown in (lang, other):
        blocks.append(
            SectionBlock(text=MarkdownTextObject(text=labels.label(shown, labels.HOME_GUIDE)))
        )
        blocks.append(DividerBlock())
    blocks.append(
        ActionsBlock(
            elements=[
                ButtonElement(
                    text=labels.label(lang, labels.NEW_ESTIMATE),
                    action_id=ACTION_NEW_ESTIMATE,
                    value=lang.value,
                    style="primary",
                )
            ]
        )
    )
    return View(type="home", blocks=blocks).to_dict()


def estimate_modal(lang: Lang) -> dict:
    def text(msgid: str) -> str:
        return labels.label(lang, msgid)

    options = [Option(value=value, text=text(msgid)) for value, msgid in UNITS]
    return View(
        type="modal",
        callback_id=MODAL_CALLBACK,
        private_metadata=lang.value,
        title=text(labels.NEW_ESTIMATE),
        submit=text(labels.MODAL_SUBMIT),
        close=text(labels.MODAL_CLOSE),
        blocks=[
            InputBlock(
                block_id=FP32_BLOCK,
                label=text(labels.FP32_TIME),
                hint=text(labels.FP32_TIME_HINT),
                element=PlainTextInputElement(action_id=INPUT_ACTION, max_length=40),
            ),
            InputBlock(
                block_id=UNIT_BLOCK,
                label=text(labels.UNIT),
                element=StaticSelectElement(
                    action_id=INPUT_ACTION, options=options, initial_option=options[1]
                ),
            ),
            InputBlock(
                block_id=RATIO_BLOCK,
                label=text(labels.RATIO),
                hint=text(labels.RATIO_HINT),
                optional=True,
                element=PlainTextInputElement(action_id=INPUT_ACTION, max_length=20),
            ),
            InputBlock(
                block_id=SETUP_BLOCK,
                label=text(labels.SETUP),
                optional=True,
                element=PlainTextInputElement(
                    action_id=INPUT_ACTION,
                    max_length=200,
                    placeholder=text(labels.SETUP_PLACEHOLDER),
                ),
            ),
        ],
    ).to_dict()


@dataclass(frozen=True)
class ModalInput:
    lang: Lang
    fp32: str
    unit: str
    ratio: str
    setup: str

    def as_message(self) -> str:
        """The fields as one English question; the reply is then forced into ``lang``."""
        parts = [f"{self.fp32} {self.unit}"]
        if self.ratio:
            parts.append(f"ratio {self.ratio}")
        if self.setup:
            parts.append(self.setup)
        return ", ".join(parts)


def read_modal(view: dict) -> ModalInput:
    values = view.get("state", {}).get("values", {})

    def typed(block: str) -> str:
        return ((values.get(block, {}).get(INPUT_ACTION) or {}).get("value") or "").strip()

    unit = (values.get(UNIT_BLOCK, {}).get(INPUT_ACTION) or {}).get("selected_option") or {}
    metadata = view.get("private_metadata")
    return ModalInput(
        lang=Lang(metadata) if metadata in ("ar", "en") else Lang.EN,
        fp32=typed(FP32_BLOCK),
        unit=unit.get("value") if unit.get("value") in dict(UNITS) else "hours",
        ratio=typed(RATIO_BLOCK),
        setup=typed(SETUP_BLOCK),
    )


def field_errors(reason: Reason | None, message: str) -> dict[str, str]:
    """Which input an error belongs under (ratio problems under the ratio)."""
    block = RATIO_BLOCK if reason in _RATIO_REASONS else FP32_BLOCK
    first_line = message.strip().splitlines()[0] if message.strip() else message
    if len(first_line) > FIELD_ERROR_CHARS:
        first_line = first_line[: FIELD_ERROR_CHARS - 1] + "…"
    return {block: first_line}
