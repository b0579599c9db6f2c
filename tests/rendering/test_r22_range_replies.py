"""An FP32 time said as a range is answered at both ends (rule ``time_range``).

The headline stays one estimate, a range of times ("30–40 hours in FP32 → about
15–20 hours"), in the user's unit and both languages, with Babel's digits; the
cost, the JSON (``fp32_hours_high``, ``high_end``) and a follow-up in the thread
("and on H100?", "what about 2.5x?", «و٢٫٥؟») keep both ends.
"""

from __future__ import annotations

import pytest

from bot.conversation import answer, carried_over, to_json
from bot.models import Channel, Lang, TimeUnit
from bot.rendering.i18n import translations
from bot.rendering.numbers import FSI, PDI, NumberFormat, duration_span


def headline(text: str, channel: Channel = Channel.DM) -> str:
    line = answer(text, channel).reply.text.splitlines()[0]
    return line.replace(FSI, "").replace(PDI, "")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("fp32 takes 30-40 hours, amp 2x", "30–40 hours in FP32 → about 15–20 hours"),
        ("fp32 takes 30-40 hours, amp 2x", "saves 15–20 hours, 50%"),
        ("between 2 and 3 days, ratio 1.5", "2–3 days in FP32 → about 1.5–2 days"),
        ("30 to 40h 2x", "30–40 hours in FP32"),
        ("1-2 weeks of training, 2x", "1–2 weeks in FP32"),
        ("30-40h", "30–40 hours in FP32 → from 12 hours to 33 hours"),
        ("ResNet-50 on V100, 20 to 30 hours", "20–30 hours in FP32 → about"),
    ],
)
def test_english_ranges_are_answered_at_both_ends(text, expected):
    assert expected in headline(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("بين ٣٠ و٤٠ ساعة، التسريع ١٫٥", "30–40 ساعةً ← بالدقة المختلطة: 20–27 ساعةً"),
        ("٣٠-٤٠ ساعة ٢x", "والتوفير 15–20 ساعةً"),
        ("من يومين لـ ٣ أيام والنسبة ٢", "2–3 أيام"),
        # a dual says no number: the range is said in words
        ("من يومين لـ ٣ أيام والنسبة ٢", "من يوم واحد إلى يوم ونصف"),
        ("التدريب بياخد من ٣٠ ل ٤٠ ساعة، النسبة ٢", "15–20 ساعةً"),
    ],
)
def test_arabic_ranges_are_answered_at_both_ends(text, expected):
    assert expected in headline(text)


def test_the_cost_is_given_at_both_ends():
    text = answer("30-40 hours 2x at $2/h on 8 GPUs").reply.text
    assert "Cost: $480–$640 in FP32 → $240–$320 with mixed precision (saves $240–$320)." in text
    arabic = answer("٣٠-٤٠ ساعة ٢x بسعر ٢ دولار للساعة").reply.text
    assert "التكلفة:" in arabic and "بالدقة المختلطة (توفير" in arabic


def test_json_carries_the_high_end():
    data = to_json(answer("fp32 takes 30-40 hours, amp 2x"))
    assert (data["fp32_hours"], data["fp32_hours_high"]) == (30, 40)
    assert (data["mp_hours"], data["high_end"]["mp_hours"]) == (15, 20)
    single = to_json(answer("fp32 takes 30 hours, amp 2x"))
    assert single["fp32_hours_high"] is None and single["high_end"] is None


@pytest.mark.parametrize(
    ("first", "follow", "expected"),
    [
        ("fp32 takes 30-40 hours, amp 2x", "what about 2.5x?", "about 12–16 hours"),
        ("fp32 takes 30-40 hours, amp 2x", "and at 2.5?", "about 12–16 hours"),
        ("fp32 takes 30-40 hours, amp 2x", "and on H100?", "H100: 30–40 hours in FP32"),
        ("between 2 and 3 days, ratio 1.5", "what if the ratio is 2?", "about 1–1.5 days"),
        ("بين ٣٠ و٤٠ ساعة، التسريع ١٫٥", "و٢٫٥؟", "12–16 ساعةً"),
        ("بين ٣٠ و٤٠ ساعة، التسريع ١٫٥", "وعلى H100؟", "30–40 ساعةً"),
        ("من يومين لـ ٣ أيام والنسبة ٢", "طيب لو النسبة ٣؟", "من 16 ساعةً إلى يوم واحد"),
    ],
)
def test_a_follow_up_keeps_both_ends(first, follow, expected):
    hours, setup = carried_over(answer(first), None)
    turn = answer(follow, thread_fp32_hours=hours, thread_setup=setup)
    assert turn.query.fp32_high is not None
    line = turn.reply.text.splitlines()[0].replace(FSI, "").replace(PDI, "")
    assert expected in line


def test_a_ratio_range_after_a_time_range_is_still_asked_about():
    hours, setup = carried_over(answer("fp32 takes 30-40 hours, amp 2x"), None)
    turn = answer("and at 1.5-2x?", thread_fp32_hours=hours, thread_setup=setup)
    assert turn.advice.candidates == ["1.5", "2"]


def test_a_new_single_time_in_the_thread_drops_the_range():
    first = answer("fp32 takes 30-40 hours, amp 2x")
    hours, setup = carried_over(first, None)
    turn = answer("and 50 hours?", thread_fp32_hours=hours, thread_setup=setup)
    assert turn.query.fp32_high is None and turn.advice.fp32_hours == 50


@pytest.mark.parametrize(
    ("lang", "low", "high", "unit", "expected"),
    [
        (Lang.EN, 15, 20, TimeUnit.HOURS, "15–20 hours"),
        (Lang.EN, 36, 48, TimeUnit.DAYS, "1.5–2 days"),
        (Lang.EN, 20, 30, TimeUnit.DAYS, "20 hours to 1.5 days"),
        (Lang.AR, 15, 20, TimeUnit.HOURS, "15–20 ساعةً"),
        (Lang.AR, 24, 48, TimeUnit.DAYS, "من يوم واحد إلى يومين"),
    ],
)
def test_duration_span(lang, low, high, unit, expected):
    fmt = NumberFormat(lang)
    said = duration_span(low, high, fmt, translations(lang), unit=unit)
    assert said.replace(FSI, "").replace(PDI, "") == expected
