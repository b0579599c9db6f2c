"""A price is billed in the currency the user wrote, never in another country's.

A country adjective names the country's own currency ("دينار عراقي" is IQD, not
the Kuwaiti dinar a bare "دينار" means); a currency that cannot be told without
its country ("ليرة": Turkish, Lebanese or Syrian) or with a country whose
currency it is not ("دينار فلبيني") is kept unreadable, and the reply asks for a currency.
"""

import pytest
from babel.numbers import is_currency

from bot.conversation import answer, to_json
from bot.models import Channel, Lang
from bot.understanding import understand

AR = "التدريب ١٠٠ ساعة والنسبة ٢، الساعة ب {}"


@pytest.mark.parametrize(
    ("currency", "code"),
    [
        ("٥٠٠٠ دينار عراقي", "IQD"),
        ("١٠ جنيه استرليني", "GBP"),
        ("٣٠ درهم مغربي", "MAD"),
        ("٥ دينار أردني", "JOD"),
        ("٥ دنانير تونسية", "TND"),
        ("٥ دينار جزائري", "DZD"),
        ("٥ دينار ليبي", "LYD"),
        ("٥ دينار بحريني", "BHD"),
        ("٥ دينار كويتي", "KWD"),
        ("٥٠٠ ريال يمني", "YER"),
        ("٥ ريال عماني", "OMR"),
        ("٥ ريال قطري", "QAR"),
        ("٥٠ جنيه سوداني", "SDG"),
        ("٥٠ جنيه مصري", "EGP"),
        ("٥٠ ليرة لبنانية", "LBP"),
        ("٥٠ ليرة سورية", "SYP"),
        ("٥٠ ليرة تركية", "TRY"),
        ("٥ الدينار العراقي", "IQD"),
        ("٥ دينار", "KWD"),  # alone: the dinar most writers mean, as before
        ("٥ ريال", "SAR"),
        ("٥ درهم", "AED"),
        ("٥ جنيه", "EGP"),
    ],
)
def test_country_adjectives(currency: str, code: str) -> None:
    q = understand(AR.format(currency), Channel.MENTION)
    assert q.price is not None and q.price.currency == code
    assert q.fp32.hours == 100 and q.ratio == 2 and q.reason is None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("100h ratio 2 at 5000 Iraqi dinars an hour", "IQD"),
        ("100h ratio 2 at 20 Saudi riyals an hour", "SAR"),
        ("100h ratio 2 at 20 Moroccan dirhams per hour", "MAD"),
    ],
)
def test_english_country_adjectives(text: str, code: str) -> None:
    q = understand(text, Channel.MENTION)
    assert q.price is not None and q.price.currency == code and q.fp32.hours == 100


@pytest.mark.parametrize(
    "text",
    [
        AR.format("٥٠ ليرة"),  # which lira?
        AR.format("٥٠ دينار فلبيني"),  # a country whose currency is no dinar
    ],
)
def test_a_currency_without_its_country_is_never_billed_in_the_default(text: str) -> None:
    q = understand(text, Channel.MENTION)
    assert q.fp32.hours == 100 and q.ratio == 2 and q.reason is None  # 50 is no time
    assert q.price is not None and not is_currency(q.price.currency)
    got = to_json(answer(text, Channel.MENTION))
    assert got["kind"] == "estimate" and got["mp_hours"] == 50
    assert "تعذّر حساب التكلفة" in got["text"]  # the reply asks for a currency


@pytest.mark.parametrize(
    ("text", "amount", "code"),
    [
        ("التدريب ١٠٠ ساعة والنسبة ٢ والسعر ٣ دولارات للساعة", 3, "USD"),
        ("التدريب ١٠٠ ساعة والنسبة ٢ والسعر ٣ ريالات للساعة", 3, "SAR"),
        ("التدريب ١٠٠ ساعة والنسبة ٢ والسعر ٣ دراهم للساعة", 3, "AED"),
        ("التدريب ١٠٠ ساعة والنسبة ٢ والسعر ٣ جنيهات للساعة", 3, "EGP"),
        ("التدريب ١٠٠ ساعة والنسبة ٢ والسعر ٣ دنانير للساعة", 3, "KWD"),
        ("100h ratio 2 at ₹200/h", 200, "INR"),
        ("100h ratio 2 at ₺50/h", 50, "TRY"),
        ("100h ratio 2 at 300 MAD per hour", 300, "MAD"),
        ("100h ratio 2, 5 TND/h", 5, "TND"),
        ("100h ratio 2, price 40 PLN a day", 40, "PLN"),
        ("100h ratio 2, 3 bucks an hour", 3, "USD"),
        ("100h ratio 2, £3 per hour", 3, "GBP"),
    ],
)
def test_prices_once_ignored(text: str, amount: float, code: str) -> None:
    q = understand(text, Channel.MENTION)
    assert q.price is not None and (q.price.amount, q.price.currency) == (amount, code)
    assert q.fp32.hours == 100 and q.ratio == 2 and q.reason is None


@pytest.mark.parametrize(
    "text",
    [
        "try 100h ratio 2",
        "100h ratio 2 for all 8 GPUs",
        "100h ratio 2, top 5 models",
        "100h ratio 2 and 8 GPUs",
    ],
)
def test_words_that_are_also_currency_codes_stay_words(text: str) -> None:
    q = understand(text, Channel.MENTION)
    assert q.price is None and q.fp32.hours == 100 and q.ratio == 2


def test_a_code_needs_a_price_cue() -> None:
    q = understand("100h ratio 2, 8 all", Channel.MENTION)
    assert q.price is None


@pytest.mark.parametrize(
    ("text", "amount", "period"),
    [
        ("100h fp32 ratio 2 at 2,50 EUR/h", 2.5, 1),
        ("100h fp32 ratio 2 at €2,50/h", 2.5, 1),
        ("100h fp32 ratio 2 at 1.234,50 EUR per day", 1234.5, 24),
        ("100h fp32 ratio 2 at €1.234,50 per day", 1234.5, 24),
        ("التدريب ١٠٠ ساعة والنسبة ٢ بسعر ٢,٥٠ يورو للساعة", 2.5, 1),
        ("التدريب ١٠٠ ساعة والنسبة ٢ بسعر ١.٢٣٤,٥٠ يورو لليوم", 1234.5, 24),
    ],
)
def test_decimal_comma_prices(text: str, amount: float, period: float) -> None:
    q = understand(text, Channel.MENTION)
    assert q.price is not None and q.price.currency == "EUR"
    assert q.price.amount == pytest.approx(amount) and q.price.period_hours == period
    assert q.fp32.hours == 100 and q.ratio == 2


def test_decimal_comma_cost_end_to_end() -> None:
    got = to_json(answer("100h fp32 ratio 2 at 2,50 EUR/h", Channel.MENTION))
    assert "€250 " in got["text"] and "€5,000" not in got["text"]


def test_three_decimals_stay_decimals_without_cents() -> None:
    q = understand("100h ratio 2 at 1.250 KWD an hour", Channel.MENTION, preferred_lang=Lang.EN)
    assert q.price is not None and q.price.amount == pytest.approx(1.25)


@pytest.mark.parametrize(
    ("currency", "code"),
    [
        ("١٠ ريال يعني رخيص", "SAR"),
        ("١٠ دولار حوالي", "USD"),
        ("١٠ دولار يومي", "USD"),
        ("١٠ ريال علي كل بطاقة", "SAR"),
    ],
)
def test_words_after_a_currency_that_name_no_country(currency: str, code: str) -> None:
    q = understand(AR.format(currency), Channel.MENTION)
    assert q.price is not None and q.price.currency == code
