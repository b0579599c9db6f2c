"""Fit the roofline's efficiency factors to measured rows; hold GPUs out for the range.

Torch-free: rows arrive with their steps already traced. The fit minimises
the squared log error of the ratio, plus a smaller weight on the absolute
per-sample times of both precisions (they pin the levels the ratio alone
leaves free), plus a weak pull towards the starting factors so a group no row
exercises (FP32 CUDA cores with only V100 held out) stays sensible. It is a
coordinate search in log space: a dozen parameters, a few hundred kernels a
row, no numerical library needed.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.predict.calibration import GROUPS, Factors
from bot.predict.gpus import Gpu
from bot.predict.ops import TENSOR_CORE_CLASSES, Op, OpClass
from bot.predict.roofline import step_times

TIME_WEIGHT = 0.2
PRIOR_WEIGHT = 0.01
SWEEPS = 25
LOW_Q, HIGH_Q = 0.1, 0.9  # the range covers 80% of held-out errors


@dataclass(frozen=True)
class Row:
    """A measured single-GPU pair with both steps traced."""

    label: str  # e.g. "BERT-large on A100 80GB PCIe"
    model: str
    gpu: Gpu
    baseline: str
    precision: str
    base_ops: tuple[Op, ...]
    mixed_ops: tuple[Op, ...]
    batch_base: int
    batch_mixed: int
    ratio: float  # measured
    base_s: float | None = None  # measured seconds per sample, when throughput is known
    mixed_s: float | None = None
    source: str = ""


def predicted(row: Row, factors: Factors) -> tuple[float, float, float]:
    """(ratio, baseline s/sample, mixed s/sample)."""
    base = sum(t.seconds for t in step_times(row.base_ops, row.gpu, factors, row.baseline, None))
    mixed = sum(
        t.seconds for t in step_times(row.mixed_ops, row.gpu, factors, row.baseline, row.precision)
    )
    base_s, mixed_s = base / row.batch_base, mixed / row.batch_mixed
    return base_s / mixed_s, base_s, mixed_s


def _loss(rows: Sequence[Row], factors: Factors, start: Factors) -> float:
    total = 0.0
    for row in rows:
        ratio, base_s, mixed_s = predicted(row, factors)
        total += math.log(ratio / row.ratio) ** 2
        if row.base_s and row.mixed_s:
            times = math.log(base_s / row.base_s) ** 2 + math.log(mixed_s / row.mixed_s) ** 2
            total += TIME_WEIGHT * times / 2
    prior = sum(math.log(get(factors) / get(start)) ** 2 for get, _ in _parameters())
    return total / max(1, len(rows)) + PRIOR_WEIGHT * prior


Getter = Callable[[Factors], float]
Setter = Callable[[Factors, float], None]


def _parameters() -> list[tuple[Getter, Setter]]:
    params: list[tuple[Getter, Setter]] = []
    for kind in TENSOR_CORE_CLASSES:
        for group in GROUPS:
            params.append(
                (
                    lambda f, k=kind.value, g=group: f.compute_eff[k][g],
                    lambda f, v, k=kind.value, g=group: f.compute_eff[k].__setitem__(g, v),
                )
            )
    for kind in OpClass:
        params.append(
            (
                lambda f, k=kind.value: f.memory_eff[k],
                lambda f, v, k=kind.value: f.memory_eff.__setitem__(k, v),
            )
        )
    params.append((lambda f: f.launch_us, lambda f, v: setattr(f, "launch_us", v)))
    params.append((lambda f: f.size_exponent, lambda f, v: setattr(f, "size_exponent", v)))
    return params


def fit(rows: Sequence[Row], start: Factors) -> Factors:
    """Factors that fit ``rows`` best (fractions of peak stay at or below 1)."""
    factors = copy.deepcopy(start)
    params = _parameters()
    unbounded = {params[-2][0], params[-1][0]}  # launch overhead, size exponent
    best = _loss(rows, factors, start)
    step = math.log(2.0)
    for _ in range(SWEEPS):
        improved = False
        for getter, setter in params:
            for direction in (1, -1):
                old = getter(factors)
                new = old * math.exp(direction * step)
                if getter not in unbounded:
                    new = min(new, 1.0)
                if new == old:
                    continue
                setter(factors, new)
                loss = _loss(rows, factors, start)
                if loss < best - 1e-9:
                    best, improved = loss, True
                    break
                setter(factors, old)
        if not improved:
            step /= 2
            if step < 0.01:
                break
    return factors


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def leave_one_gpu_out(rows: Sequence[Row], start: Factors) -> list[tuple[Row, float]]:
    """Each row with its ratio predicted by factors fitted without its GPU."""
    out: list[tuple[Row, float]] = []
    for name in sorted({r.gpu.name for r in rows}):
        factors = fit([r for r in rows if r.gpu.name != name], start)
        out += [(r, predicted(r, factors)[0]) for r in rows if r.gpu.name == name]
    return out


def calibrate(rows: Sequence[Row], start: Factors) -> tuple[Factors, list[tuple[Row, float]]]:
    """Factors fitted on every row, with the held-out error quantiles as the range."""
    held_out = leave_one_gpu_out(rows, start)
    errors = [math.log(row.ratio / ratio) for row, ratio in held_out]
    factors = fit(rows, start)
    factors.log_error_low = round(quantile(errors, LOW_Q), 4)
    factors.log_error_high = round(quantile(errors, HIGH_Q), 4)
    factors.fitted_on = sorted({f"{r.model} on {r.gpu.name}" for r in rows})
    return factors, held_out
