"""The reduction ratio of one measurement, and why a measurement is refused.

ratio = FP32 step time / mixed step time = mixed throughput / FP32 throughput,
the same number ``estimate = FP32 time / ratio`` divides by. Reasons are stable
codes (used by rendering and JSON), several at once so the user can fix
everything in one go.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

from bot.models import MAX_PLAUSIBLE_RATIO
from bot.records.models import Measure, RecordDraft

# Outside this band a "measurement" is almost surely a typo or swapped units:
# published pairs span 0.84x-5.84x (shared/docs/mixed-precision-facts.md), and
# FP8 on the newest parts stays well under 20x (bot.models.MAX_PLAUSIBLE_RATIO).
PLAUSIBLE_LOW = 0.2
PLAUSIBLE_HIGH = MAX_PLAUSIBLE_RATIO
# A stated ratio next to its own numbers may differ by rounding, not more.
CONSISTENCY_TOLERANCE = 0.05


class RecordReason(StrEnum):
    MISSING_SETUP = "missing_setup"  # no GPU, model or task family named
    MISSING_PAIR = "missing_pair"  # no FP32 + mixed pair of the same kind, no ratio
    NOT_POSITIVE = "not_positive"
    NOT_FINITE = "not_finite"
    UNIT_MISMATCH = "unit_mismatch"  # img/s against tokens/s
    IMPLAUSIBLE = "implausible"  # ratio < 0.2 or > 20
    INCONSISTENT = "inconsistent"  # stated ratio disagrees with the numbers given
    MISSING_UNIT = "missing_unit"  # "fp32 420 amp 190": milliseconds or images per second?


@dataclass(frozen=True)
class Validation:
    """Either a ratio (with the kind of numbers it came from) or the reasons it has none."""

    ratio: float | None = None
    measure: Measure | None = None
    reasons: tuple[RecordReason, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return not self.reasons


def validate(draft: RecordDraft) -> Validation:
    """Compute and check the ratio of a draft."""
    reasons: list[RecordReason] = []
    if not (draft.gpu or draft.model or draft.family):
        reasons.append(RecordReason.MISSING_SETUP)

    numbers, measure = _pair(draft)
    if measure is None:
        return Validation(reasons=(*reasons, RecordReason.MISSING_PAIR))

    number_reasons = _check_numbers(numbers)
    if measure is Measure.THROUGHPUT and not _same_unit(draft):
        number_reasons.append(RecordReason.UNIT_MISMATCH)
    if number_reasons:
        return Validation(reasons=(*reasons, *number_reasons))

    ratio = _ratio(draft, measure)
    if not math.isfinite(ratio):  # e.g. 1e-300 ms against 1e300 ms
        return Validation(reasons=(*reasons, RecordReason.NOT_FINITE))
    if not PLAUSIBLE_LOW <= ratio <= PLAUSIBLE_HIGH:
        reasons.append(RecordReason.IMPLAUSIBLE)
    elif (
        measure is not Measure.RATIO and draft.ratio is not None and not _agrees(draft.ratio, ratio)
    ):
        reasons.append(RecordReason.INCONSISTENT)
    if reasons:
        return Validation(reasons=tuple(reasons))
    return Validation(ratio=ratio, measure=measure)


def _pair(draft: RecordDraft) -> tuple[list[float], Measure | None]:
    """The numbers that make the ratio; step times beat throughputs beat a stated ratio."""
    if draft.fp32_step is not None and draft.mixed_step is not None:
        return [draft.fp32_step.value, draft.mixed_step.value], Measure.STEP_TIME
    if draft.fp32_throughput is not None and draft.mixed_throughput is not None:
        return [draft.fp32_throughput.value, draft.mixed_throughput.value], Measure.THROUGHPUT
    if draft.ratio is not None:
        return [draft.ratio], Measure.RATIO
    return [], None


def _check_numbers(numbers: list[float]) -> list[RecordReason]:
    if any(not math.isfinite(n) for n in numbers):
        return [RecordReason.NOT_FINITE]
    if any(n <= 0 for n in numbers):
        return [RecordReason.NOT_POSITIVE]
    return []


def _same_unit(draft: RecordDraft) -> bool:
    a = draft.fp32_throughput.unit if draft.fp32_throughput else ""
    b = draft.mixed_throughput.unit if draft.mixed_throughput else ""
    return not a or not b or a == b


def _ratio(draft: RecordDraft, measure: Measure) -> float:
    if measure is Measure.STEP_TIME:
        return draft.fp32_step.seconds / draft.mixed_step.seconds
    if measure is Measure.THROUGHPUT:
        return draft.mixed_throughput.value / draft.fp32_throughput.value
    return draft.ratio


def _agrees(stated: float, computed: float) -> bool:
    return math.isfinite(stated) and abs(stated - computed) <= CONSISTENCY_TOLERANCE * computed
