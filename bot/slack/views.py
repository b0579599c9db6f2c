"""App Home and the "New estimate" modal.

The modal collects the FP32 time, its unit, an optional ratio and an optional
GPU or model, and hands the core a structured query (each number field taken
as typed; only the setup text is read), checked by the same rules as a typed
question and worded alike.
"""

from __future__ import annotations

import math
from collections.abc import Callable
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

from bot.conversation import query_from_fields
from bot.models import Lang, Query, Reason, TimeUnit
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
# What only the setup field can cause once both numbers are plain numbers.
_SETUP_REASONS = {Reason.AMBIGUOUS, Reason.TOO_LONG, Reason.NO_PARAMS, Reason.UNKNOWN_OPTIMIZER}
# The Arabic decimal separator reads as a point; its thousands separator as a comma.
_ARABIC_SEPARATORS = str.maketrans({"٫": ".", "٬": ","})
_TIMES = ("x", "×")
FSI, PDI = "\u2068", "\u2069"


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

    def number_errors(self) -> dict[str, str]:
        """A message under each number field that does not hold exactly one number.

        The core would read "2.5 on A100" as a ratio and a GPU, and skip "abc"
        altogether; in a form each field means one thing, so junk is refused
        where it was typed instead of being quietly dropped.
        """
        errors = {}
        checks = ((FP32_BLOCK, self.fp32, labels.NUMBER_FP32), (RATIO_BLOCK, self.ratio, None))
        for block, typed, expected in checks:
            if block == RATIO_BLOCK and not typed:
                continue  # optional: the core suggests one
            if field_number(typed) is not None:
                continue
            comma = decimal_comma(typed)
            if comma is not None:
                errors[block] = _short(self.say(labels.DECIMAL_POINT, number=comma))
            else:
                errors[block] = _short(self.say(expected or labels.NUMBER_RATIO))
        return errors

    def as_query(self, *, with_ratio: bool = True) -> Query:
        """The fields as a structured query, answered in ``lang``.

        Call it on fields without :meth:`number_errors`. ``with_ratio=False``:
        only the FP32 time, to tell whether it or the ratio is out of range.
        """
        ratio = field_number(self.ratio) if with_ratio and self.ratio else None
        fp32 = field_number(self.fp32)
        setup = self.setup if with_ratio else ""
        return query_from_fields(self.lang, fp32 or 0.0, TimeUnit(self.unit), ratio, setup)

    def say(self, msgid: str, **values: object) -> str:
        """A label in the form's language, Latin runs isolated in Arabic."""
        if self.lang is Lang.AR:
            values = {name: f"{FSI}{value}{PDI}" for name, value in values.items()}
        return labels.label(self.lang, msgid, **values)


def field_number(typed: str) -> float | None:
    """The one finite number a field holds, or None.

    Western, Arabic-Indic or Persian digits (``float`` reads any Unicode
    decimal digits), the Arabic decimal separator, and an optional "x" or
    "×" on either side ("2.5x", "×2").
    """
    text = typed.strip().translate(_ARABIC_SEPARATORS).lower()
    for sign in _TIMES:
        text = text.removeprefix(sign).removesuffix(sign)
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def decimal_comma(typed: str) -> str | None:
    """ "1,5" written for 1.5: the number as it should be typed, else None."""
    if typed.count(",") != 1:
        return None
    value = field_number(typed.replace(",", "."))
    return _plain_number(value) if value is not None else None


def _plain_number(value: float) -> str:
    """Digits as they should be typed ("2.5", "100", "1e+22")."""
    return f"{int(value)}" if value.is_integer() and abs(value) < 1e15 else repr(value)


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


def field_errors(
    reason: Reason | None,
    message: str,
    fields: ModalInput,
    time_out_of_range: Callable[[], bool],
) -> dict[str, str]:
    """The core's refusal under the field that caused it.

    Ratio problems go under the ratio, time problems under the time, and what
    only the free-text setup can cause (several numbers, a memory question)
    under the setup. "Too large" or "not finite" can be either number:
    ``time_out_of_range`` asks the core about the time alone.
    """
    if reason in (Reason.TOO_LARGE, Reason.NOT_FINITE) and not time_out_of_range():
        if fields.ratio:
            return {RATIO_BLOCK: _short(fields.say(labels.RATIO_TOO_LARGE))}
        if fields.setup:  # an absurd price, GPU or parameter count
            return {SETUP_BLOCK: _short(message)}
    if reason in _RATIO_REASONS:
        return {RATIO_BLOCK: _short(message)}
    if reason in _SETUP_REASONS and fields.setup:
        return {SETUP_BLOCK: _short(message)}
    return {FP32_BLOCK: _short(message)}


def _short(message: str) -> str:
    """The first line, clipped: Slack shows a field error under its input."""
    first_line = message.strip().splitlines()[0] if message.strip() else message
    if len(first_line) > FIELD_ERROR_CHARS:
        first_line = first_line[: FIELD_ERROR_CHARS - 1] + "…"
    return first_line
