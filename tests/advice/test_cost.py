"""Cost of the FP32 and mixed-precision runs, in the user's own currency."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.advice.cost import estimate_cost
from bot.models import Price


def test_per_gpu_price_times_gpus_and_hours():
    c = estimate_cost(100, Price(amount=2.5, currency="USD"), 8, ratio=2)
    assert (c.fp32_cost, c.mp_cost, c.saving, c.saving_percent) == (2000, 1000, 1000, 50)
    assert c.currency == "USD" and c.num_gpus == 8 and c.mp_hours == 50


def test_price_for_the_whole_job_ignores_the_gpu_count():
    c = estimate_cost(100, Price(amount=10, currency="sar", per_gpu=False), 8, mp_hours=40)
    assert c.currency == "SAR" and c.num_gpus == 1
    assert (c.fp32_cost, c.mp_cost, c.saving) == (1000, 400, 600)


@pytest.mark.parametrize("currency", ["USD", "EUR", "SAR", "AED", "EGP", "QAR", "KWD"])
def test_no_exchange_rates(currency):
    c = estimate_cost(10, Price(amount=3, currency=currency), ratio=1.5)
    assert c.currency == currency and c.fp32_cost == 30 and c.mp_cost == pytest.approx(20)


def test_a_slowdown_is_a_negative_saving():
    c = estimate_cost(10, Price(amount=1, currency="EUR"), ratio=0.8)
    assert c.saving < 0 and c.saving_percent == pytest.approx(-25)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"ratio": 2, "mp_hours": 5},
        {},
        {"ratio": 0},
        {"ratio": math.inf},
        {"mp_hours": -1},
    ],
)
def test_inconsistent_inputs_are_refused(kwargs):
    with pytest.raises(ValueError):
        estimate_cost(10, Price(amount=1, currency="USD"), **kwargs)


def test_bad_price_or_currency_is_refused():
    with pytest.raises(ValueError):
        estimate_cost(10, Price(amount=-1, currency="USD"), ratio=2)
    with pytest.raises(ValueError):
        estimate_cost(10, Price(amount=1, currency="XYZ"), ratio=2)


@given(
    st.floats(0.01, 1e5),
    st.floats(0.01, 10),
    st.floats(0, 1e3),
    st.integers(1, 1024),
)
def test_saving_is_the_difference(hours, ratio, amount, gpus):
    c = estimate_cost(hours, Price(amount=amount, currency="USD"), gpus, ratio=ratio)
    assert c.saving == pytest.approx(c.fp32_cost - c.mp_cost)
    assert c.mp_cost == pytest.approx(c.fp32_cost / ratio)
