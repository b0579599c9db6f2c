"""The wording fixes of issue 12, kept by the catalogs and by what the bot says,
so a later edit of a .po file cannot quietly bring the old wording back."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.models import Lang
from bot.rendering.i18n import translations
from bot.rendering.numbers import FSI, PDI, NumberFormat, duration

LOCALES = Path(__file__).resolve().parents[2] / "locales"


def strings(lang: str, domain: str) -> list[str]:
    with (LOCALES / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    out = []
    for m in catalog:
        if m.id:
            out += list(m.string) if isinstance(m.string, tuple) else [m.string]
    return out


def bare(text: str) -> str:
    return text.replace(FSI, "").replace(PDI, "")


def test_activations_take_half_as_much_memory_not_half_of_all_memory():
    english = " ".join(strings("en", "messages"))
    assert "half the memory" not in english
    assert "Activations need about half as much memory as in FP32" in english
    arabic = " ".join(strings("ar", "messages"))
    assert "نحو نصف الذاكرة" not in arabic and "نصف ما تحتاجه من الذاكرة" in arabic


def test_arabic_says_the_saving_as_al_tawfir():
    arabic = " ".join(strings("ar", "messages"))
    assert "الوفر" not in arabic and "لا وفر" not in arabic
    assert "والتوفير %(saved)s" in arabic and "بلا توفير" in arabic


def test_arabic_peak_ratio_is_said_as_adaaf():
    arabic = " ".join(strings("ar", "messages"))
    assert "× من معدلها" not in arabic and "%(peak)s أضعاف معدلها الأساسي" in arabic


def test_a_ratio_recorded_for_a_gpu_is_on_it_in_arabic():
    from bot.records.models import Record
    from bot.rendering.records import RecordWords

    record = Record.model_validate(
        {
            "id": 1,
            "team_id": "T",
            "user_id": "U",
            "created_at": "2026-12-01T00:00:00Z",
            "gpu": "T4",
            "ratio": 1.9,
            "measure": "ratio",
        }
    )
    text = bare(RecordWords(Lang.AR).recorded(record))
    assert "المعامل *1.9×* على T4" in text and "في T4" not in text


@pytest.mark.parametrize(
    ("hours", "unit", "expected"),
    [
        (60, None, "يومان ونصف"),  # not "يومان و12 ساعةً"
        (36, "days", "يوم ونصف"),
        (60, "hours", "60 ساعةً (أي يومان ونصف)"),
    ],
)
def test_a_half_day_is_said_as_nisf(hours, unit, expected):
    from bot.models import TimeUnit

    said = duration(
        hours,
        NumberFormat(Lang.AR),
        translations(Lang.AR),
        unit=TimeUnit(unit) if unit else None,
        calendar=True,
    )
    assert bare(said) == expected
    assert "12 ساعة" not in said


@pytest.mark.parametrize(
    ("lang", "amount", "expected"),
    [
        (Lang.EN, 1600, "$1,600"),
        (Lang.AR, 1600, "1,600 دولار أمريكي"),
        (Lang.EN, 1234.5, "$1,234.50"),  # a fraction keeps the currency's two decimals
        (Lang.AR, 500, "500 ريال سعودي"),
    ],
)
def test_whole_amounts_have_no_decimals_and_arabic_names_the_currency(lang, amount, expected):
    currency = "SAR" if expected.endswith("سعودي") else "USD"
    said = NumberFormat(lang).money(amount, currency)
    assert said == expected and ".00" not in said and "US$" not in said
