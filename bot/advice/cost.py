"""What the FP32 run and the mixed-precision run cost, in the currency the user wrote.

No exchange rates: "10 SAR per hour" gives an answer in SAR. Numbers only;
rendering formats them with Babel in the reader's locale.
"""

from __future__ import annotations

import math

from babel.numbers import is_currency
from pydantic import BaseModel

from bot.models import Price


class CostEstimate(BaseModel):
    currency: str  # ISO 4217, as the user wrote it
    num_gpus: int  # GPUs billed (1 when the price is for the whole job)
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
    when unsaid); a price for the whole job is not. A price per day, week or month
    is spread over its hours first. Raises ValueError on inputs that make no cost:
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
    billed = (num_gpus if num_gpus and num_gpus > 0 else 1) if price.per_gpu is not False else 1
    rate = price.hourly * billed
    fp32_cost, mp_cost = fp32_hours * rate, mixed_hours * rate
    saving = fp32_cost - mp_cost
    return CostEstimate(
        currency=currency,
        num_gpus=billed,
        price=price,
        fp32_hours=fp32_hours,
        mp_hours=mixed_hours,
        fp32_cost=fp32_cost,
        mp_cost=mp_cost,
        saving=saving,
        saving_percent=100 * saving / fp32_cost if fp32_cost else 0.0,
    )
