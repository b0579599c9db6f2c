"""Currency names and symbols come from Babel's CLDR data (rule ``currency``).

These are currencies the old hand table did not have: CLDR names them in both
languages, with their plurals, country adjectives and signs. A word CLDR gives
to several currencies is read in the default the words modules choose, or not
at all (the reply asks which).
"""

import pytest
from babel.numbers import is_currency

from bot.models import Channel
from bot.understanding import understand
from bot.understanding.rules.setup.currencies import CURRENCIES, CURRENCY_QUALIFIERS, UNSAID

EN = "100h ratio 2, at {} per hour"
AR = "التدريب ١٠٠ ساعة والنسبة ٢، الساعة ب {}"


EN_PRICES = [
    ("20 Swiss francs", 20, "CHF"),
    ("3000 yen", 3000, "JPY"),
    ("¥500", 500, "JPY"),
    ("₩20000", 20000, "KRW"),
    ("₪12", 12, "ILS"),
    ("HK$30", 30, "HKD"),
    ("A$4", 4, "AUD"),
    ("R$15", 15, "BRL"),
    ("40 zlotys", 40, "PLN"),
    ("200 Russian rubles", 200, "RUB"),
    ("500 Indian rupees", 500, "INR"),
    ("50 Serbian dinars", 50, "RSD"),
    ("10 Egyptian pounds", 10, "EGP"),
]
AR_PRICES = [
    ("٢٠ فرنك سويسري", 20, "CHF"),
    ("٣٠٠٠ يوان صيني", 3000, "CNY"),
    ("٢٠٠ روبل روسي", 200, "RUB"),
    ("٥٠ دينار صربي", 50, "RSD"),
    ("١٠٠ يوان", 100, "CNY"),
    ("٥٠ دولارا", 50, "USD"),  # the accusative of MSA ("خمسون دولارا")
    ("٥٠ ليرة سورية", 50, "SYP"),
    ("٥٠٠ روبية باكستانية", 500, "PKR"),
]
# Whole messages, for bench/reader_diff.py (message, channel, amount, code).
CLDR_CASES = [(EN.format(p), "mention", a, c) for p, a, c in EN_PRICES] + [
    (AR.format(p), "mention", a, c) for p, a, c in AR_PRICES
]


@pytest.mark.parametrize(("text", "channel", "amount", "code"), CLDR_CASES)
def test_names_and_signs_from_cldr(text: str, channel: str, amount: float, code: str) -> None:
    q = understand(text, Channel(channel))
    assert q.price is not None and (q.price.amount, q.price.currency) == (amount, code)
    assert q.fp32.hours == 100 and q.ratio == 2


@pytest.mark.parametrize("price", ["500 rupees", "20 francs", "٢٠ فرنك", "٥٠٠ روبية"])
def test_a_name_of_several_currencies_is_not_billed_as_one(price: str) -> None:
    text = (EN if price.isascii() else AR).format(price)
    q = understand(text, Channel.MENTION)
    assert q.fp32.hours == 100 and q.ratio == 2
    assert q.price is not None and not is_currency(q.price.currency)


@pytest.mark.parametrize(
    "text",
    [
        "100h, we won 2x",
        "a real 100h run at 2x",
        "100h 2x ذهب",
        "التدريب ١٠٠ ساعة، النسبة ٢ بين",  # "بين" is no yen ("ين" after a clitic)
        "التدريب ١٠٠ ساعة، النسبة ٢ كبير",  # nor "كبير" a birr
    ],
)
def test_currency_names_that_are_everyday_words_stay_words(text: str) -> None:
    q = understand(text, Channel.MENTION)
    assert q.fp32.hours == 100 and q.ratio == 2 and q.price is None


def test_the_defaults_are_data_and_cover_both_languages() -> None:
    assert CURRENCIES["dollar"] == CURRENCIES["دولار"] == "USD"
    assert CURRENCIES["dinar"] == CURRENCIES["دينار"] == "KWD"
    assert CURRENCIES["lira"] == CURRENCIES["ليره"] == UNSAID
    assert CURRENCY_QUALIFIERS["sudanese"] == "SDG"  # not South Sudan's pound
    assert CURRENCY_QUALIFIERS["سوريه"] == CURRENCY_QUALIFIERS["سوري"] == "SYP"
