"""Normalisation: Slack markup, Arabic variants and digits become one spelling."""

import pytest

from bot.understanding.text.normalise import normalise


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("<@U012ABCDEF> hi", "hi"),
        ("<@U012ABCDEF|sara> hi", "hi"),
        ("see <#C0123|general> now", "see now"),
        ("<!channel> 100 2", "100 2"),
        ("<https://wandb.ai/x/runs/42|my run> 10h", "my run 10h"),
        ("<https://wandb.ai/x/runs/42> 10h", "10h"),
        ("AMP &amp; tensor cores -&gt; 2x", "amp tensor cores → 2x"),  # a typed arrow
        ("10 hrs on fp32 -> 6 hrs on amp", "10 hrs on fp32 → 6 hrs on amp"),
        ("fp32 10h => amp 6h", "fp32 10h → amp 6h"),
        ("amp is 50 per cent faster", "amp is 50% faster"),  # rule percent_phrase
        ("أسرع ب ٥٠ في المية", "اسرع ب 50%"),
        ("أسرع ٤٠ في المائة", "اسرع 40%"),
        ("&gt; FP32: 20h", "fp32: 20h"),
        ("*120* `1.8`", "120 1.8"),
        ("٣٦ ٢", "36 2"),
        ("۱۲ ساعة", "12 ساعه"),
        ("١٫٥", "1.5"),
        ("١٬٢٠٠", "1,200"),
        ("ساعتين، النسبة ٢؟", "ساعتين, النسبه 2?"),
        ("الوقــت", "الوقت"),
        ("أُدرّب", "ادرب"),
        ("إلى مستوى", "الي مستوي"),
        ("\u200f٢٤ ساعة\u200f", "24 ساعه"),
        ("10\u00a0h", "10 h"),
        ("\u22125h", "-5h"),
        ("٤٠٪", "40%"),
        ("done :rocket: :100:", "done"),
        ("at 10:30:00", "at 10:30:00"),
        ("I &lt;3 AMP", "i amp"),
        ("1½ days", "1.5 days"),
        ("  a \n\n  b  ", "a\nb"),
    ],
)
def test_normalise(raw: str, expected: str) -> None:
    assert normalise(raw) == expected


def test_lone_surrogates_and_controls_are_dropped() -> None:
    assert normalise("\ud800 10h\x00\x07 2x") == "10h 2x"


def test_nested_markup_is_removed_without_backtracking() -> None:
    assert normalise("<<<@U1>>> 5h") == "5h"


@pytest.mark.parametrize(
    ("raw", "currency"),
    [
        ("بسعر ١٠ ر.س للساعة", "SAR"),
        ("بسعر ٣ د.ك", "KWD"),
        ("بسعر ٥ د.إ للساعة", "AED"),  # CURRENCY_ABBREVIATION_DEFAULTS: not the JOD's د.أ
        ("السعر ٥٠٠ د.م. للساعة", "MAD"),  # from CLDR's ar_MA, never in a hand table
        ("السعر ٢٠٠٠ د.ع للساعة", "IQD"),
        ("السعر ٥٠ ج.م للساعة", "EGP"),
        ("السعر ١٠٠٠ ر.ي للساعة", "YER"),
    ],
)
def test_arabic_currency_abbreviations_come_from_cldr(raw: str, currency: str) -> None:
    from bot.models import Channel
    from bot.understanding.parse import understand

    query = understand(f"التدريب ٢٠ ساعة، {raw}", Channel.DM)
    assert query.price is not None and query.price.currency == currency


def test_every_cldr_abbreviation_is_a_currency_the_price_reader_names() -> None:
    from babel import Locale

    from bot.understanding.text.normalise import _currency_abbreviations

    _, _, words = _currency_abbreviations()
    names = {normalise(n) for n in Locale.parse("ar").currencies.values()}
    assert {"رس", "دك", "دا", "جم", "دم", "دع"} <= set(words)
    assert set(words.values()) <= names


def test_a_dotted_title_is_no_currency() -> None:
    assert normalise("أ.م.د. أحمد") == "ا.م.د. احمد"
