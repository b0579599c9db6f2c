"""Values the reader refuses (the conventions 9-12): not finite, not positive,
too large for any real job, or a ratio below one (a slowdown, answered as one).
The reader keeps the value and gives the reason; the reply explains it."""

from __future__ import annotations

import math

from bot.models import Duration, Query, Reason

MAX_HOURS = 876_000.0  # 100 years


MAX_RATIO = 1_000.0  # anything above is not a mixed-precision speed-up


# Setup numbers beyond any real job (the largest models have ~1e13 parameters,
# the largest clusters ~1e6 GPUs): refused as too_large rather than computed with.
MAX_PARAMS = 1e15


MAX_GPUS = 10_000_000


MAX_PRICE = 1e9  # per hour


def refuse_absurd_setup(query: Query) -> Query:
    """A parameter count, GPU count or price no real job has is too_large (convention 10)."""
    absurd = (
        (query.params is not None and query.params > MAX_PARAMS)
        or (query.num_gpus is not None and query.num_gpus > MAX_GPUS)
        or (query.price is not None and query.price.amount > MAX_PRICE)
    )
    if not absurd or query.reason is not None:
        return query
    return query.model_copy(update={"reason": Reason.TOO_LARGE})


def reason_for(fp32: Duration | None, ratio: float | None) -> Reason | None:
    """Convention 9-12, in order of precedence."""
    if (fp32 is not None and not math.isfinite(fp32.hours)) or (
        ratio is not None and not math.isfinite(ratio)
    ):
        return Reason.NOT_FINITE
    if ratio is not None and ratio <= 0:
        return Reason.RATIO_NOT_POSITIVE
    if fp32 is not None and fp32.hours <= 0:
        return Reason.TIME_NOT_POSITIVE
    if (fp32 is not None and fp32.hours > MAX_HOURS) or (ratio is not None and ratio > MAX_RATIO):
        return Reason.TOO_LARGE
    if ratio is not None and ratio < 1:
        return Reason.RATIO_BELOW_ONE
    if fp32 is None:
        return Reason.NO_NUMBERS
    return None
