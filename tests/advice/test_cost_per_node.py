"""A node's price is billed once per node, never once per GPU inside it."""

import math

import pytest

from bot.advice.cost import estimate_cost
from bot.models import Price


def test_a_nodes_price_ignores_the_gpus_in_it():
    c = estimate_cost(
        60, Price(amount=25, currency="USD", per_gpu=False, per_node=True), 8, ratio=2
    )
    assert (c.fp32_cost, c.mp_cost, c.num_gpus, c.num_nodes) == (1500, 750, 1, 1)


def test_a_per_node_price_times_the_nodes():
    price = Price(amount=25, currency="USD", per_gpu=False, per_node=True, nodes=2)
    c = estimate_cost(60, price, 16, ratio=2)
    assert (c.fp32_cost, c.mp_cost, c.num_gpus, c.num_nodes) == (3000, 1500, 1, 2)


def test_a_per_node_price_per_day():
    price = Price(amount=48, currency="SAR", per_gpu=False, per_node=True, nodes=3, period_hours=24)
    assert estimate_cost(10, price, ratio=2).fp32_cost == pytest.approx(60)


def test_an_overflowing_cost_is_refused():
    price = Price(amount=1e9, currency="USD", per_gpu=False, per_node=True, nodes=10**300)
    with pytest.raises(ValueError):
        estimate_cost(1e5, price, ratio=2)
    assert math.isfinite(
        estimate_cost(1e5, price.model_copy(update={"nodes": 10}), ratio=2).fp32_cost
    )
