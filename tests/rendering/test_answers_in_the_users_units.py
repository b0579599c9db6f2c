"""Answers come back in the unit the user wrote (issue 12): hours in hours, days
in days to the half, short jobs in minutes, in both languages, with CLDR plurals."""

from __future__ import annotations

import pytest

from bot.conversation import answer
from bot.models import Channel
from bot.rendering.numbers import FSI, PDI


def summary(text: str) -> str:
    line = answer(text, Channel.COMMAND).reply.text.splitlines()[0]
    return line.replace(FSI, "").replace(PDI, "")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the guide's own example: hours stay hours, the days follow where they help
        ("100 2", "100 hours in FP32 → about 50 hours (about 2 days) with mixed precision"),
        ("100h 2", "(ratio 2, saves 50 hours, 50%)"),
        ("30h 1.2", "30 hours in FP32 → about 25 hours with mixed precision"),
        # days in days, to a sensible precision
        ("21 days 2", "21 days in FP32 → about 10.5 days with mixed precision"),
        ("21 days 2", "saves 10.5 days, 50%"),
        ("3d 1.5", "3 days in FP32 → about 2 days with mixed precision"),
        ("5 days 2", "about 2.5 days"),
        ("3 days 4", "about 18 hours"),  # below a day, hours
        # half a day off a 1.67-day estimate is 10%: hours instead, and the cost agrees
        ("3 days 1.8", "3 days in FP32 → about 40 hours with mixed precision"),
        ("3 days 1.8", "saves 32 hours, 44%"),
        ("100 2.5", "about 40 hours with mixed precision (ratio 2.5, saves 60 hours, 60%)"),
        ("2 weeks 1.5", "about 9.5 days"),
        # weeks in weeks
        ("3 weeks 2", "3 weeks in FP32 → about 1.5 weeks"),
        # short jobs in minutes
        ("90 min 2", "90 minutes in FP32 → about 45 minutes"),
        ("1 hour 2", "1 hour in FP32 → about 30 minutes"),
    ],
)
def test_english_answers_in_the_users_unit(text, expected):
    assert expected in summary(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("١٠٠ ساعة ٢", "بدقة FP32: 100 ساعة ← بالدقة المختلطة: 50 ساعةً (أي يومان) تقريبًا"),
        ("٢١ يوم ٢", "21 يومًا ← بالدقة المختلطة: 10 أيام ونصف تقريبًا"),
        ("٥ أيام ٢", "يومان ونصف تقريبًا"),
        ("٣ أيام ٢", "يوم ونصف تقريبًا"),
        ("٣ أسابيع ٢", "أسبوع ونصف تقريبًا"),
        ("٩٠ دقيقة ٢", "45 دقيقةً تقريبًا"),
    ],
)
def test_arabic_answers_in_the_users_unit_with_its_plural_forms(text, expected):
    assert expected in summary(text)


def test_the_unit_survives_json_and_the_numbers_stay_in_hours():
    from bot.conversation import to_json

    got = to_json(answer("21 days 2", Channel.COMMAND))
    assert got["fp32_hours"] == 504 and got["mp_hours"] == 252
    assert "10.5 days" in got["text"]


def test_a_follow_up_in_a_thread_keeps_the_unit_of_the_first_question():
    """ "3 days, ratio 1.5" then "and with ratio 2?": still days, as a thread remembers."""
    from bot.conversation import carried_over

    first = answer("3d 1.5", Channel.DM)
    hours, setup = carried_over(first, None)
    follow_up = answer("and with ratio 2?", Channel.DM, thread_fp32_hours=hours, thread_setup=setup)
    assert follow_up.reply.text.startswith("3 days in FP32 → about 1.5 days")
    # A thread stored before units were kept answers in hours, as before.
    older = answer("and with ratio 2?", Channel.DM, thread_fp32_hours=72.0, thread_setup={})
    assert older.reply.text.startswith("72 hours in FP32 → about 36 hours")


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("resnet50 on 8 V100, 20 hours, with amp?", "ResNet-50 on 8 × V100:"),
        ("BERT on 4x A100, 30 hours", "BERT on 4 × A100:"),
        ("what speedup for BERT on 2 H100s?", "BERT on 2 × H100:"),
        ("resnet50 على ٨ بطاقات V100، ٢٠ ساعة", "ResNet-50 على 8 × V100"),
        ("BERT على بطاقتين A100 والتدريب ٣٠ ساعة", "BERT على 2 × A100"),
        ("resnet50 on V100, 20 hours", "ResNet-50 on V100:"),  # one GPU: no count
    ],
)
def test_the_subject_says_how_many_gpus_the_estimate_is_for(text, subject):
    """The headline repeats the GPU count read, so a misread count shows at once."""
    assert summary(text).startswith(subject)


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("resnet50 on A100 20 hours, how long with bf16?", "ResNet-50 on A100 in BF16:"),
        ("GPT-2 on H100, 20 hours, with FP8?", "GPT-2 on H100 in FP8:"),
        ("what speedup for BERT on 4 A100 with bf16?", "BERT on 4 × A100 in BF16:"),
        ("GPT-2 على H100 ياخذ ٢٠ ساعة، كم مع bf16؟", "GPT-2 على H100 بدقة BF16"),
        ("resnet50 on A100 20 hours with fp16", "ResNet-50 on A100:"),  # FP16 is unsaid
    ],
)
def test_the_subject_names_bf16_or_fp8_when_asked(text, subject):
    """ "and with bf16?" must show it was heard: the headline says the precision."""
    assert summary(text).startswith(subject)
