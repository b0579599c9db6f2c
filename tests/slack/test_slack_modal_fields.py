"""The forms refuse what a field cannot hold, under that field, in the user's language.

Each number field of the "New estimate" form holds one number (Western or
Arabic-Indic digits, an optional "x" or "×"); anything else is refused where it
was typed instead of being dropped or read as something else. The core's own
refusals go under the field that caused them, in both forms.
"""

from __future__ import annotations

import json
import time

import pytest

from bot.models import Lang
from bot.slack import labels

ISOLATE, POP = "\u2068", "\u2069"


def _typed(value: str | None) -> dict:
    return {"value": {"type": "plain_text_input", "value": value or None}}


def estimate_submission(fp32: str, ratio: str = "", *, lang: str = "en", setup: str = "") -> dict:
    unit = {"value": {"type": "static_select", "selected_option": {"value": "hours"}}}
    values = {"fp32": _typed(fp32), "unit": unit, "ratio": _typed(ratio), "setup": _typed(setup)}
    return {
        "type": "view_submission",
        "user": {"id": "U0ALICE", "team_id": "T0TEAM"},
        "trigger_id": "1.3.trigger",
        "view": {
            "id": "V1",
            "type": "modal",
            "callback_id": "mp_estimate_modal",
            "private_metadata": lang,
            "state": {"values": values},
        },
    }


def record_submission(*, gpu: str = "", fp32: str = "", mixed: str = "", ratio: str = "") -> dict:
    values = {
        "rec_gpu": _typed(gpu),
        "rec_model": _typed(""),
        "rec_count": {"value": {"type": "number_input", "value": None}},
        "rec_precision": {"value": {"type": "static_select", "selected_option": None}},
        "rec_fp32": _typed(fp32),
        "rec_mixed": _typed(mixed),
        "rec_ratio": _typed(ratio),
    }
    return {
        "type": "view_submission",
        "user": {"id": "U0ALICE", "team_id": "T0TEAM"},
        "trigger_id": "1.3.trigger",
        "view": {
            "id": "V2",
            "type": "modal",
            "callback_id": "mp_record_modal",
            "private_metadata": "en",
            "state": {"values": values},
        },
    }


def errors_for(bot, payload: dict) -> dict | None:
    """The ``errors`` the app acked with, or None after a clean ack; and no DM on errors."""
    sent = bot.client.interact(payload)
    assert sent.status == 200, sent
    if not sent.body:
        return None
    ack = json.loads(sent.body)
    assert ack["response_action"] == "errors"
    time.sleep(0.3)  # the work after the ack would have posted by now
    assert not bot.slack.api("chat.postMessage")
    return ack["errors"]


@pytest.mark.parametrize("ratio", ["abc", "2.5 on A100", "two", "2 3"])
def test_junk_in_the_ratio_field_is_refused_under_it(bot, ratio):
    errors = errors_for(bot, estimate_submission("100", ratio))
    assert errors == {"ratio": labels.label(Lang.EN, labels.NUMBER_RATIO)}


def test_junk_in_the_ratio_field_is_refused_in_arabic_for_an_arabic_form(bot):
    errors = errors_for(bot, estimate_submission("100", "abc", lang="ar"))
    assert errors == {"ratio": labels.label(Lang.AR, labels.NUMBER_RATIO)}
    assert "رقمًا" in errors["ratio"]


@pytest.mark.parametrize("fp32", ["100 hours ratio 3", "abc", "2 days"])
def test_the_time_field_holds_one_number(bot, fp32):
    errors = errors_for(bot, estimate_submission(fp32, "2"))
    assert errors == {"fp32": labels.label(Lang.EN, labels.NUMBER_FP32)}


def test_a_decimal_comma_in_the_ratio_asks_for_a_point(bot):
    errors = errors_for(bot, estimate_submission("100", "1,5"))
    assert errors == {"ratio": "Write decimals with a point: 1.5"}
    arabic = errors_for(bot, estimate_submission("100", "١,٥", lang="ar"))
    assert arabic == {"ratio": f"اكتب الكسر العشري بنقطة: {ISOLATE}1.5{POP}"}


def test_a_ratio_too_large_is_refused_under_the_ratio(bot):
    errors = errors_for(bot, estimate_submission("100", "1e9"))
    assert errors == {"ratio": labels.label(Lang.EN, labels.RATIO_TOO_LARGE)}


def test_a_time_too_large_stays_under_the_time(bot):
    errors = errors_for(bot, estimate_submission("1e12", "2"))
    assert list(errors) == ["fp32"]
    assert "too large" in errors["fp32"]


@pytest.mark.parametrize("ratio", ["0", "-2", "0.5"])
def test_the_cores_ratio_refusals_go_under_the_ratio(bot, ratio):
    errors = errors_for(bot, estimate_submission("100", ratio))
    assert list(errors) == ["ratio"]


@pytest.mark.parametrize(
    ("fp32", "ratio", "expected"),
    [
        ("٣٦", "٢٫٥", "*36 hours* in FP32 → about *14 hours* with mixed precision (ratio 2.5,"),
        ("100", "1.5x", "(ratio 1.5,"),
        ("100", "×2", "(ratio 2,"),
    ],
)
def test_numbers_in_any_digits_with_a_times_sign_are_accepted(bot, fp32, ratio, expected):
    assert errors_for(bot, estimate_submission(fp32, ratio)) is None
    posted = bot.slack.wait(lambda: bot.slack.api("chat.postMessage"))[-1].body
    assert posted["channel"] == "U0ALICE"
    assert expected in posted["blocks"][0]["text"]["text"]


def test_a_zero_ratio_in_the_record_form_is_refused_under_the_ratio(bot):
    errors = errors_for(bot, record_submission(gpu="A100", ratio="0"))
    assert list(errors) == ["rec_ratio"]
    assert "greater than zero" in errors["rec_ratio"]


def test_an_unreadable_ratio_in_the_record_form_is_refused_under_the_ratio(bot):
    errors = errors_for(bot, record_submission(gpu="A100", ratio="abc"))
    assert list(errors) == ["rec_ratio"]


def test_zero_step_times_in_the_record_form_stay_under_the_times(bot):
    errors = errors_for(bot, record_submission(gpu="A100", fp32="0ms", mixed="200ms", ratio="2"))
    assert "rec_ratio" not in errors
