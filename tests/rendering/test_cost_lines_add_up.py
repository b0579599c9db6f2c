"""A cost line adds up to the cent: the saving is the FP32 amount less the mixed one, as shown.

Rounding the unrounded saving on its own said "$99.21 → $84.41 (saves $14.81)".
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.advice import advise
from bot.models import Duration, Intent, Lang, Price, Query, TimeUnit
from bot.rendering import render
from bot.rendering.numbers import FSI, PDI, NumberFormat, shown_amount

AMOUNT = r"(?:[A-Z]{3}\xa0|[$€¥£])([\d,.]+)"


def cost_line(hours: float, ratio: float, price: float, currency: str, lang: Lang) -> str:
    fp32 = Duration(value=hours, unit=TimeUnit.HOURS, hours=hours)
    query = Query(
        intent=Intent.ESTIMATE,
        lang=lang,
        fp32=fp32,
        ratio=ratio,
        price=Price(amount=price, currency=currency),
    )
    return render(advise(query), lang).notes[0].replace(FSI, "").replace(PDI, "").replace("*", "")


def amounts(line: str) -> list[Decimal]:
    return [Decimal(a.replace(",", "")) for a in re.findall(AMOUNT, line)]


@settings(max_examples=300, deadline=None)
@given(
    hours=st.floats(min_value=0.5, max_value=2000),
    ratio=st.floats(min_value=1.05, max_value=4.0),
    price=st.floats(min_value=0.01, max_value=500),
    currency=st.sampled_from(["USD", "KWD", "JPY", "EUR"]),
)
def test_the_saving_is_the_difference_of_the_shown_amounts(hours, ratio, price, currency):
    fp32, mp, saved = amounts(cost_line(hours, ratio, price, currency, Lang.EN))[:3]
    assert fp32 - mp == saved


@pytest.mark.parametrize(
    ("hours", "ratio", "price", "expected"),
    [
        (33.070952380952, 1.1754, 3.0, "Cost: $99.21 in FP32 → $84.41"),
        (10, 3, 1, "→ $3.33 with mixed precision (saves $6.67)"),
        (10, 1.5, 1, "→ $6.67 with mixed precision (saves $3.33)"),
    ],
)
def test_examples_add_up(hours, ratio, price, expected):
    line = cost_line(hours, ratio, price, "USD", Lang.EN)
    assert expected in line
    fp32, mp, saved = amounts(line)[:3]
    assert fp32 - mp == saved


def test_arabic_cost_line_adds_up_too():
    line = cost_line(10, 3, 1, "SAR", Lang.AR)
    assert "3.33 ريال سعودي بالدقة المختلطة (توفير 6.67 ريال سعودي)" in line


@pytest.mark.parametrize(
    ("amount", "currency", "shown"),
    [(84.405, "USD", 84.4), (1.2345, "KWD", 1.234), (12.5, "JPY", 12.0)],
)
def test_shown_amount_is_what_money_shows(amount, currency, shown):
    assert shown_amount(amount, currency) == shown
    fmt = NumberFormat(Lang.EN)
    assert fmt.money(shown_amount(amount, currency), currency) == fmt.money(amount, currency)
