"""The user's own FP32 time is repeated as they wrote it, and the estimate and
the saving are each rounded from their unrounded values yet add up to it.

«يوم وربع» was echoed as "1.2 يوم" and the saving taken from that rounded
figure; "3 h 15 at ratio 2" said 1 h 40 and saved 1 h 35 (the same 1 h 37.5
rounded up once and down once).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.conversation import answer
from bot.models import HOURS_PER_UNIT, Channel, Lang, TimeUnit
from bot.rendering.grammar import Case
from bot.rendering.i18n import translations
from bot.rendering.numbers import FSI, PDI, NumberFormat, duration, shown_seconds, split_shown


def given_time(count: float, unit: TimeUnit, lang: Lang, case: Case = Case.NOMINATIVE) -> str:
    hours = count * HOURS_PER_UNIT[unit]
    fmt, catalog = NumberFormat(lang), translations(lang)
    return duration(hours, fmt, catalog, as_given=True, unit=unit, case=case)


@pytest.mark.parametrize(
    ("count", "unit", "ar", "en"),
    [
        (1.25, TimeUnit.DAYS, "يوم وربع", "1.25 days"),
        (2.25, TimeUnit.DAYS, "يومان وربع", "2.25 days"),
        (3.25, TimeUnit.DAYS, "3 أيام وربع", "3.25 days"),
        (10.25, TimeUnit.DAYS, "10 أيام وربع", "10.25 days"),
        (11.25, TimeUnit.DAYS, "11 يومًا وربع", "11.25 days"),
        (100.25, TimeUnit.DAYS, "100 يوم وربع", "100.25 days"),
        (1.75, TimeUnit.DAYS, "يوم وثلاثة أرباع", "1.75 days"),
        (3.75, TimeUnit.DAYS, "3 أيام وثلاثة أرباع", "3.75 days"),
        (2.5, TimeUnit.DAYS, "يومان ونصف", "2.5 days"),
        (1.3, TimeUnit.DAYS, "1.3 يوم", "1.3 days"),  # a decimal is CLDR's "other"
        (2.4, TimeUnit.DAYS, "2.4 يوم", "2.4 days"),
        (2.25, TimeUnit.WEEKS, "أسبوعان وربع", "2.25 weeks"),
        (1.75, TimeUnit.YEARS, "سنة وثلاثة أرباع", "1.75 years"),
        (250.5, TimeUnit.HOURS, "250.5 ساعة", "250.5 hours"),
        (3.25, TimeUnit.HOURS, "3 ساعات و15 دقيقةً", "3 hours and 15 minutes"),
    ],
)
def test_a_given_time_is_said_as_written(count, unit, ar, en):
    assert given_time(count, unit, Lang.AR) == ar
    assert given_time(count, unit, Lang.EN) == en


def test_quarters_have_their_genitive_too():
    assert given_time(2.25, TimeUnit.DAYS, Lang.AR, Case.GENITIVE) == "يومين وربع"
    assert given_time(2.75, TimeUnit.WEEKS, Lang.AR, Case.GENITIVE) == "أسبوعين وثلاثة أرباع"


def plain(text: str) -> str:
    summary = answer(text, Channel.DM).reply.summary
    return summary.replace(FSI, "").replace(PDI, "").replace("*", "")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "التدريب ياخذ يوم وربع، والمعامل 1.8",
            (
                "بدقة FP32: يوم وربع ← بالدقة المختلطة: 17 ساعةً تقريبًا "
                "(المعامل 1.8، والتوفير 13 ساعةً، أي 44%)"
            ),
        ),
        (
            "2.25 days ratio 2",
            (
                "2.25 days in FP32 → about 27 hours with mixed precision "
                "(ratio 2, saves 27 hours, 50%)"
            ),
        ),
        (
            "3.75 days ratio 2",
            (
                "3.75 days in FP32 → about 45 hours with mixed precision "
                "(ratio 2, saves 45 hours, 50%)"
            ),
        ),
        (
            "٣ ساعات وربع بنسبة ٢",
            (
                "بدقة FP32: 3 ساعات و15 دقيقةً ← بالدقة المختلطة: ساعة و38 دقيقةً تقريبًا "
                "(المعامل 2، والتوفير ساعة و37 دقيقةً، أي 50%)"
            ),
        ),
        (
            "التدريب يومين وربع والمعامل ١٫٥",
            (
                "بدقة FP32: يومان وربع ← بالدقة المختلطة: يوم ونصف تقريبًا "
                "(المعامل 1.5، والتوفير 18 ساعةً، أي 33%)"
            ),
        ),
        (
            "1.25 days ratio 1.8",
            (
                "1.25 days in FP32 → about 17 hours with mixed precision "
                "(ratio 1.8, saves 13 hours, 44%)"
            ),
        ),
    ],
)
def test_replies_echo_the_time_and_add_up(text, expected):
    assert plain(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "21 days, ratio 2",
            "about 10.5 days with mixed precision (ratio 2, saves 10.5 days, 50%)",
        ),
        ("100 2", "about 50 hours (about 2 days) with mixed precision (ratio 2, saves 50 hours,"),
        ("90 min 2", "about 45 minutes with mixed precision (ratio 2, saves 45 minutes, 50%)"),
        ("التدريب يستغرق ٣ أيام ونسبة التسريع ٢", "يوم ونصف تقريبًا (المعامل 2، والتوفير يوم ونصف،"),
        ("3 hours ratio 1.5", "about 2 hours with mixed precision (ratio 1.5, saves 1 hour, 33%)"),
    ],
)
def test_estimates_that_add_up_keep_their_rounding(text, expected):
    assert expected in plain(text)


UNITS = [None, TimeUnit.MINUTES, TimeUnit.HOURS, TimeUnit.DAYS, TimeUnit.WEEKS]


@settings(max_examples=400, deadline=None)
@given(
    count=st.integers(min_value=1, max_value=400).map(lambda n: n / 4),
    ratio=st.floats(min_value=1.01, max_value=8.0),
    unit=st.sampled_from(UNITS),
)
def test_the_estimate_and_the_saving_add_up_and_each_is_near_its_own_value(count, ratio, unit):
    total = count * HOURS_PER_UNIT[unit or TimeUnit.HOURS]
    part = total / ratio
    split = split_shown(total, part, unit)
    assert split.part + split.rest == shown_seconds(total, as_given=True, unit=unit)
    for said, exact in ((split.part, part * 3600), (split.rest, (total - part) * 3600)):
        assert abs(said - exact) <= max(60, 0.26 * exact)
