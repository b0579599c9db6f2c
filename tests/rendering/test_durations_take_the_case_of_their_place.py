"""A duration is worded in the case its place in the sentence gives it.

Arabic «نحو» (and other prepositions and governing nouns: خلال، بعد، من، إلى)
puts the next noun in the genitive, which changes the dual: «يومان» as a
subject, «نحو يومين» after «نحو». The case comes from the word before the
placeholder in the translation (``bot/rendering/grammar.py``), so every
reply and every duration form follows one rule.
"""

from __future__ import annotations

import pytest

from bot.conversation import answer
from bot.models import Channel, Lang, TimeUnit
from bot.rendering.grammar import Case, case_at, fill
from bot.rendering.i18n import translations
from bot.rendering.numbers import FSI, PDI, NumberFormat, duration

AR, EN = translations(Lang.AR), translations(Lang.EN)


def said(hours: float, case: Case, unit: TimeUnit | None = None, lang: Lang = Lang.AR) -> str:
    catalog = AR if lang is Lang.AR else EN
    return duration(hours, NumberFormat(lang), catalog, unit=unit, case=case)


@pytest.mark.parametrize(
    ("hours", "unit", "nominative", "genitive"),
    [
        (0, None, "0 ساعة", "0 ساعة"),
        (1, TimeUnit.HOURS, "ساعة واحدة", "ساعة واحدة"),
        (2, TimeUnit.HOURS, "ساعتان", "ساعتين"),
        (48, TimeUnit.DAYS, "يومان", "يومين"),
        (60, TimeUnit.DAYS, "يومان ونصف", "يومين ونصف"),
        (2 * 168, TimeUnit.WEEKS, "أسبوعان", "أسبوعين"),
        (2 * 8766, TimeUnit.YEARS, "سنتان", "سنتين"),
        (2 * 8766 + 4383, TimeUnit.YEARS, "سنتان ونصف", "سنتين ونصف"),
        (2 / 60, TimeUnit.MINUTES, "دقيقتان", "دقيقتين"),
        (2 / 3600, None, "ثانيتان", "ثانيتين"),
        (2.5, None, "ساعتان و30 دقيقةً", "ساعتين و30 دقيقةً"),
        (50, None, "يومان وساعتان", "يومين وساعتين"),
        (72, TimeUnit.DAYS, "3 أيام", "3 أيام"),  # few: the same in both cases
        (11 * 24, TimeUnit.DAYS, "11 يومًا", "11 يومًا"),  # many: always the tamyiz
        (100, TimeUnit.HOURS, "100 ساعة", "100 ساعة"),
        (36, TimeUnit.DAYS, "يوم ونصف", "يوم ونصف"),
    ],
)
def test_every_form_has_its_genitive(hours, unit, nominative, genitive):
    assert said(hours, Case.NOMINATIVE, unit) == nominative
    assert said(hours, Case.GENITIVE, unit) == genitive


def test_the_days_after_many_hours_take_the_case_of_the_hours():
    text = duration(50, NumberFormat(Lang.AR), AR, unit=TimeUnit.HOURS, calendar=True,
                    case=Case.GENITIVE)  # fmt: skip
    assert text == "50 ساعةً (أي يومين)"


@pytest.mark.parametrize("hours", [2, 48, 60, 2.5])
def test_english_has_no_case(hours):
    assert said(hours, Case.GENITIVE, lang=Lang.EN) == said(hours, Case.NOMINATIVE, lang=Lang.EN)


@pytest.mark.parametrize(
    ("template", "case"),
    [
        ("← نحو %(d)s بالدقة المختلطة", Case.GENITIVE),
        ("خلال %(d)s", Case.GENITIVE),
        ("بعد %(d)s من البدء", Case.GENITIVE),
        ("من %(d)s إلى ساعة", Case.GENITIVE),
        ("سيستغرق نحو *%(d)s*.", Case.GENITIVE),  # markup between them does not matter
        ("والتوفير %(d)s، أي النصف", Case.NOMINATIVE),
        ("بدقة FP32: %(d)s ←", Case.NOMINATIVE),
        ("%(d)s تقريبًا", Case.NOMINATIVE),
        ("ما مدته %(d)s", Case.NOMINATIVE),
    ],
)
def test_the_word_before_the_placeholder_gives_the_case(template, case):
    assert case_at(template, "d", Lang.AR) is case
    assert case_at(template, "d", Lang.EN) is Case.NOMINATIVE


def test_fill_words_each_duration_in_its_own_case():
    values = {"a": lambda case: said(48, case, TimeUnit.DAYS), "b": "2"}
    assert fill("من %(a)s إلى يومان؟ والتوفير %(b)s", values, Lang.AR).startswith("من يومين")
    values = {"a": lambda case: said(48, case, TimeUnit.DAYS)}
    assert fill("المدة %(a)s", values, Lang.AR) == "المدة يومان"


def plain(text: str) -> str:
    reply = answer(text, Channel.DM).reply
    return reply.summary.replace(FSI, "").replace(PDI, "").replace("*", "")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("السيرفر فيه ٨ كروت H100 ويأخذ التدريب ٢٫٧ أيام", "نحو يومين بالدقة المختلطة"),
        ("التدريب ٣٫٧ أيام على A100 لنموذج BERT", "نحو يومين بالدقة المختلطة"),
        ("BERT على A100 والتدريب ٥ ساعات", "← نحو ساعتين و"),
        ("يوم بنسبة ٠٫٤", "سيستغرق نحو يومين ونصف."),
        ("ساعة بنسبة ٠٫٥", "سيستغرق نحو ساعتين."),
    ],
)
def test_replies_say_the_genitive_dual_after_nahw(text, expected):
    line = plain(text)
    assert expected in line
    assert "نحو يومان" not in line and "نحو ساعتان" not in line


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("٢ يوم بنسبة ٢", "بدقة FP32: يومان ← بالدقة المختلطة: يوم واحد تقريبًا"),
        ("التدريب ٤ ساعات والمعامل ٢", "بالدقة المختلطة: ساعتان تقريبًا"),
    ],
)
def test_the_subject_stays_nominative(text, expected):
    assert expected in plain(text)
