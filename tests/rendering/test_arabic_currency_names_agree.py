"""Arabic amounts name their currency in the form the number takes (MSA agreement).

Babel chooses the CLDR plural category (0 zero, 1 one, 2 two, 3–10 few, 11–99
many, 100–102 other, a fraction other); CLDR's own names are used where it has
them (EGP, MAD, TND, DZD), ``bot/rendering/currency_names_ar.toml`` elsewhere.
"""

from __future__ import annotations

import pytest
from babel.core import Locale
from babel.numbers import get_currency_name

from bot.conversation import answer
from bot.models import Channel, Lang
from bot.rendering.numbers import FSI, PDI, NumberFormat

AR = NumberFormat(Lang.AR)

# (amount, what each category's form is for a masculine head noun)
FORMS = {
    "USD": ("دولار أمريكي", "دولاران أمريكيان", "دولارات أمريكية", "دولارًا أمريكيًا"),
    "SAR": ("ريال سعودي", "ريالان سعوديان", "ريالات سعودية", "ريالًا سعوديًا"),
    "AED": ("درهم إماراتي", "درهمان إماراتيان", "دراهم إماراتية", "درهمًا إماراتيًا"),
    "GBP": ("جنيه إسترليني", "جنيهان إسترلينيان", "جنيهات إسترلينية", "جنيهًا إسترلينيًا"),
    "QAR": ("ريال قطري", "ريالان قطريان", "ريالات قطرية", "ريالًا قطريًا"),
    "KWD": ("دينار كويتي", "ديناران كويتيان", "دينارات كويتية", "دينارًا كويتيًا"),
    "BHD": ("دينار بحريني", "ديناران بحرينيان", "دينارات بحرينية", "دينارًا بحرينيًا"),
    "OMR": ("ريال عماني", "ريالان عمانيان", "ريالات عمانية", "ريالًا عمانيًا"),
    "JOD": ("دينار أردني", "ديناران أردنيان", "دينارات أردنية", "دينارًا أردنيًا"),
    "IQD": ("دينار عراقي", "ديناران عراقيان", "دينارات عراقية", "دينارًا عراقيًا"),
    "EGP": ("جنيه مصري", "جنيهان مصريان", "جنيهات مصرية", "جنيهًا مصريًا"),
    "MAD": ("درهم مغربي", "درهمان مغربيان", "دراهم مغربية", "درهمًا مغربيًا"),
    "TND": ("دينار تونسي", "ديناران تونسيان", "دينارات تونسية", "دينارًا تونسيًا"),
    "DZD": ("دينار جزائري", "ديناران جزائريان", "دينارات جزائرية", "دينارًا جزائريًا"),
    "LBP": ("ليرة لبنانية", "ليرتان لبنانيتان", "ليرات لبنانية", "ليرةً لبنانيةً"),
    "SYP": ("ليرة سورية", "ليرتان سوريتان", "ليرات سورية", "ليرةً سوريةً"),
}
# amount, number as shown, which form: 0 singular, 1 dual, 2 plural, 3 tamyiz
AMOUNTS = [
    (0, "0", 0),
    (1, "1", 0),
    (2, "2", 1),
    (3, "3", 2),
    (10, "10", 2),
    (11, "11", 3),
    (45, "45", 3),
    (99, "99", 3),
    (100, "100", 0),
    (102, "102", 0),
    (103, "103", 2),
    (120, "120", 3),
    (2016, "2,016", 3),
    (1600, "1,600", 0),
]


@pytest.mark.parametrize("currency", sorted(FORMS))
@pytest.mark.parametrize(("amount", "number", "form"), AMOUNTS)
def test_each_plural_category_has_its_form(currency, amount, number, form):
    assert AR.money(amount, currency) == f"{number} {FORMS[currency][form]}"


@pytest.mark.parametrize(
    ("amount", "currency", "expected"),
    [
        (1.5, "USD", "1.50 دولار أمريكي"),  # a fraction is CLDR's "other": the singular
        (912.22, "SAR", "912.22 ريال سعودي"),
        (2.5, "AED", "2.50 درهم إماراتي"),
        (1.2345, "KWD", "1.234 دينار كويتي"),  # three decimals, still "other"
        (2.999, "USD", "3 دولارات أمريكية"),  # shown as a whole 3: the plural
        (11, "EUR", "11 يورو"),  # not inflected
        (3, "EUR", "3 يورو"),
    ],
)
def test_fractions_and_uninflected_names(amount, currency, expected):
    assert AR.money(amount, currency) == expected


def test_babel_chooses_the_category_and_a_fraction_is_other():
    plural = Locale.parse("ar").plural_form
    assert [plural(n) for n in (0, 1, 2, 3, 11, 100, 1.5)] == [
        "zero", "one", "two", "few", "many", "other", "other",
    ]  # fmt: skip


@pytest.mark.parametrize("currency", ["EGP", "MAD", "TND", "DZD", "LYD"])
@pytest.mark.parametrize("amount", [0, 1, 2, 3, 11, 100])
def test_cldr_names_are_used_where_cldr_has_them(currency, amount):
    expected = get_currency_name(currency, amount, locale="ar")
    assert AR.money(amount, currency).endswith(f" {expected}")


def test_arabic_indic_digits_keep_the_agreeing_name():
    assert NumberFormat(Lang.AR, "arab").money(15, "SAR") == "١٥ ريالًا سعوديًا"


def test_english_is_unchanged():
    assert NumberFormat(Lang.EN).money(3, "USD") == "$3"
    assert NumberFormat(Lang.EN).money(45, "AED") == "AED\xa045"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "التدريب بياخد اسبوعين على ٢ كروت A100 وسعر الكرت ٣ دولار في الساعة",
            ["3 دولارات أمريكية", "6 دولارات أمريكية", "2,016 دولارًا أمريكيًا"],
        ),
        ("٢٠ ساعة بنسبة ٢ والسعر ١٢ ريال للساعة", ["240 ريالًا سعوديًا", "120 ريالًا سعوديًا"]),
        ("التدريب ١٠ ساعات بنسبة ٢ والسعر ٤٫٥ درهم في الساعة", ["45 درهمًا إماراتيًا"]),
        (
            "التدريب ٤ ساعات بنسبة ٢ بسعر ١ دينار كويتي للساعة",
            ["4 دينارات كويتية", "2 ديناران كويتيان"],
        ),
    ],
)
def test_whole_replies_inflect_the_currency(text, expected):
    reply = answer(text, Channel.DM).reply
    shown = (
        "\n".join([reply.summary, *reply.notes, *reply.details]).replace(FSI, "").replace(PDI, "")
    )
    for amount in expected:
        assert amount in shown
