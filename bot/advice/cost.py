"""What the FP32 run and the mixed-precision run cost, in the currency the user wrote.

No exchange rates: "10 SAR per hour" gives an answer in SAR. Numbers only;
rendering formats them with Babel in the reader's locale.
"""

from __future__ import annotations

import math
import tomllib
from functools import cache
from importlib.resources import files

from babel.numbers import is_currency
from pydantic import BaseModel

from bot.models import Price

# Far above any real job (the largest price, GPU count and time the reader accepts
# give about 1e22) and below what Babel's decimal formatting can quantize (~1e26).
MAX_COST = 1e22


@cache
def default_gpus_per_node() -> int:
    """GPUs in one node when a per-node price names no node size (``data/cost.toml``)."""
    text = files("bot.advice").joinpath("data", "cost.toml").read_text(encoding="utf-8")
    return int(tomllib.loads(text)["gpus_per_node"])


def billed_nodes(price: Price, num_gpus: int | None) -> int:
    """Rule ``per_node_price``: the nodes a per-node price bills. The node count
    said ("2 nodes"); else enough nodes of the size said ("per node of 8 GPUs") or of
    the usual size (``default_gpus_per_node``) to hold the GPUs said: "16 GPUs at
    $30/h per node" bills 2 nodes, "$30/h per node of 8 GPUs" one."""
    if not price.per_node:
        return 1
    if price.nodes and price.nodes > 0:
        return price.nodes
    size = price.gpus_per_node if price.gpus_per_node else default_gpus_per_node()
    return max(1, math.ceil((num_gpus or 1) / size))


class CostEstimate(BaseModel):
    currency: str  # ISO 4217, as the user wrote it
    num_gpus: int  # GPUs billed (1 when the price is a node's or the whole job's)
    num_nodes: int = 1  # nodes billed: more than 1 only for a per-node price on several nodes
    price: Price  # as written: its period and whether "per GPU" was said
    fp32_hours: float  # wall-clock
    mp_hours: float
    fp32_cost: float
    mp_cost: float
    saving: float  # fp32_cost - mp_cost; negative when mixed precision is slower
    saving_percent: float


def estimate_cost(
    fp32_hours: float,
    price: Price,
    num_gpus: int | None = None,
    *,
    mp_hours: float | None = None,
    ratio: float | None = None,
) -> CostEstimate:
    """Cost of both runs and the saving; give ``mp_hours`` or the ``ratio`` (not both).

    A per-GPU price (or one that does not say) is multiplied by the GPU count (1
    when unsaid); a per-node price by the nodes it bills (:func:`billed_nodes`); a price for the whole job by nothing. A price per day, week or month
    is spread over its hours first; the price of the whole FP32 run is that run's
    cost, and the mixed-precision run costs its share of the hours. Raises ValueError on inputs that make no cost:
    non-positive or non-finite hours or ratio, a negative price, an unknown currency.
    """
    if (mp_hours is None) == (ratio is None):
        raise ValueError("give exactly one of mp_hours and ratio")
    if ratio is not None and (not math.isfinite(ratio) or ratio <= 0):
        raise ValueError("ratio must be a positive finite number")
    mixed_hours = mp_hours if mp_hours is not None else fp32_hours / (ratio or 1.0)
    for hours in (fp32_hours, mixed_hours):
        if not math.isfinite(hours) or hours <= 0:
            raise ValueError("hours must be positive finite numbers")
    if not math.isfinite(price.amount) or price.amount < 0:
        raise ValueError("price must be a non-negative finite amount")
    if not math.isfinite(price.period_hours) or price.period_hours <= 0:
        raise ValueError("a price's period must be a positive number of hours")
    currency = price.currency.strip().upper()
    if not is_currency(currency):
        raise ValueError(f"unknown currency code: {price.currency!r}")
    per_gpu = price.per_gpu is not False and not price.per_node and not price.per_run
    billed = (num_gpus if num_gpus and num_gpus > 0 else 1) if per_gpu else 1
    nodes = billed_nodes(price, num_gpus)
    if price.per_run:  # the FP32 job's own cost; the mixed run pays its share of the hours
        fp32_cost, mp_cost = price.amount, price.amount * mixed_hours / fp32_hours
    else:
        rate = price.hourly * billed * nodes
        fp32_cost, mp_cost = fp32_hours * rate, mixed_hours * rate
    if not fp32_cost <= MAX_COST:
        raise ValueError("no real job costs that much (an absurd node or GPU count)")
    saving = fp32_cost - mp_cost
    return CostEstimate(
        currency=currency,
        num_gpus=billed,
        num_nodes=nodes,
        price=price,
        fp32_hours=fp32_hours,
        mp_hours=mixed_hours,
        fp32_cost=fp32_cost,
        mp_cost=mp_cost,
        saving=saving,
        saving_percent=100 * saving / fp32_cost if fp32_cost else 0.0,
    )
