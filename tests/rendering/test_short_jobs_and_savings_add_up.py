"""Jobs under a minute are said in seconds, and the saving is never more than the job."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.advice import advise
from bot.conversation import answer
from bot.models import HOURS_PER_UNIT, Channel, Duration, Intent, Lang, Query, TimeUnit
from bot.rendering import render
from bot.rendering.numbers import FSI, PDI, NumberFormat


def estimate(seconds: float, ratio: float, lang: Lang, unit: TimeUnit = TimeUnit.MINUTES) -> str:
    hours = seconds / 3600
    fp32 = Duration(value=hours / HOURS_PER_UNIT[unit], unit=unit, hours=hours)
    query = Query(intent=Intent.ESTIMATE, lang=lang, fp32=fp32, ratio=ratio)
    return render(advise(query), lang).summary.replace(FSI, "").replace(PDI, "")


@pytest.mark.parametrize(
    ("seconds", "ratio", "en", "ar"),
    [
        (
            30,
            2,
            (
                "*30 seconds* in FP32 → about *15 seconds* with mixed precision "
                "(ratio 2, saves 15 seconds, 50%)"
            ),
            (
                "بدقة FP32: *30 ثانيةً* ← بالدقة المختلطة: *15 ثانيةً* تقريبًا "
                "(المعامل 2، والتوفير 15 ثانيةً، أي 50%)"
            ),
        ),
        (
            60,
            2,
            (
                "*1 minute* in FP32 → about *30 seconds* with mixed precision "
                "(ratio 2, saves 30 seconds, 50%)"
            ),
            (
                "بدقة FP32: *دقيقة واحدة* ← بالدقة المختلطة: *30 ثانيةً* تقريبًا "
                "(المعامل 2، والتوفير 30 ثانيةً، أي 50%)"
            ),
        ),
        (
            90,
            1.5,
            (
                "*1 minute and 30 seconds* in FP32 → about *1 minute* with mixed precision "
                "(ratio 1.5, saves 30 seconds, 33%)"
            ),
            (
                "بدقة FP32: *دقيقة و30 ثانيةً* ← بالدقة المختلطة: *دقيقة واحدة* تقريبًا "
                "(المعامل 1.5، والتوفير 30 ثانيةً، أي 33%)"
            ),
        ),
    ],
)
def test_short_jobs_are_said_in_seconds_in_both_languages(seconds, ratio, en, ar):
    assert estimate(seconds, ratio, Lang.EN) == en
    assert estimate(seconds, ratio, Lang.AR) == ar


def test_one_hour_in_an_arabic_compound_drops_the_word_for_one():
    line = estimate(90 * 60, 1.001, Lang.AR, TimeUnit.HOURS)  # "1.5 hours": said in hours
    assert "ساعة و30 دقيقةً" in line and "واحدة" not in line
    assert "90 دقيقةً" in estimate(90 * 60, 1.001, Lang.AR)  # "90 minutes": said in minutes


def test_a_saving_just_under_everything_is_not_rounded_to_all_of_it():
    fmt = NumberFormat(Lang.EN)
    assert fmt.percent(99.96) == "99.9%"
    assert fmt.percent(100) == "100%"
    assert NumberFormat(Lang.AR, "arab").percent(99.96) == "٩٩٫٩٪"


_UNIT_SECONDS = {"day": 86400, "hour": 3600, "minute": 60, "second": 1}


def seconds_of(text: str) -> int:
    """ "2 days, 3 hours, and 5 minutes" or "2.5 days" back to the seconds it was counted as
    ("under 1 second" counts as the 1 second it is shown against)."""
    parts = re.findall(r"([\d,]+(?:\.\d+)?) (day|hour|minute|second)s?", text)
    return round(sum(float(n.replace(",", "")) * _UNIT_SECONDS[unit] for n, unit in parts))


@settings(max_examples=300, deadline=None)
@given(
    seconds=st.floats(min_value=0.5, max_value=3 * 24 * 3600),
    ratio=st.floats(min_value=1.0, max_value=20.0),
)
def test_the_saving_is_the_difference_of_the_shown_times_and_never_more_than_the_job(
    seconds, ratio
):
    line = estimate(seconds, ratio, Lang.EN)
    fp32_text, mp_text = re.findall(r"\*([^*]+)\*", line)
    fp32, mp = seconds_of(fp32_text), seconds_of(mp_text)
    assert 0 < mp <= fp32
    saved = re.search(r"saves (.+), [\d.]+%\)$", line)
    if saved is None:  # nothing to show as time: "no saving", or only the share saved
        assert mp == fp32
        assert "no saving" in line or re.search(r"\(ratio [\d.,]+, saves [\d.]+%\)$", line)
    else:
        assert seconds_of(saved.group(1)) == fp32 - mp


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("fp32 takes 2 minutes ratio 1.3", "(ratio 1.3, saves 23%)"),
        ("fp32 100 days ratio 1.004", "saves 0.4%"),
        ("التدريب دقيقتان والنسبة ١٫٣", "والتوفير \u206823%\u2069"),
    ],
)
def test_a_saving_too_small_to_show_as_time_is_given_as_a_share(text, expected):
    assert expected in answer(text, Channel.DM).reply.summary.replace("*", "")


def test_a_job_under_a_second_is_not_called_one_second():
    assert answer("fp32 0.5 seconds ratio 2", Channel.DM).reply.summary.startswith(
        "*under 1 second*"
    )
