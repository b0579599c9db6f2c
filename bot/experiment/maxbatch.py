"""Find the largest batch that fits in one precision (the guide's step 5).

Mixed precision roughly halves activation memory, so a larger batch may fit,
and that headroom can raise the speedup beyond the same-batch ratio. The
search doubles until a step runs out of memory, then bisects between the last
batch that fitted and the first that did not, in multiples of 8 (the sizes
Tensor Cores like) once past 8.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from bot.experiment.models import ExperimentError, Workload
from bot.experiment.timing import Plan, free_memory, is_out_of_memory, measure

# No out-of-memory error protects host RAM: on CPU the search stops here.
CPU_GROWTH_CAP = 8
CUDA_BATCH_CAP = 1 << 16


@dataclass(frozen=True)
class Found:
    batch: int
    capped: bool


def fits(
    build: Callable[[int], Workload], batch: int, precision: str, device: torch.device
) -> bool:
    """One short training step at ``batch``; False when it runs out of memory."""
    try:
        measure(build, batch, precision, device, Plan(warmup=0, steps=1, repeats=1, seed=0))
    except Exception as exc:
        if not is_out_of_memory(exc):
            raise
        free_memory(device)
        return False
    return True


def find_max_batch(
    build: Callable[[int], Workload],
    start: int,
    precision: str,
    device: torch.device,
    tick: Callable[[], None] = lambda: None,
) -> Found:
    """Largest batch (from ``start`` upward) whose training step fits."""
    cap = start * CPU_GROWTH_CAP if device.type == "cpu" else CUDA_BATCH_CAP
    if not fits(build, start, precision, device):
        raise ExperimentError(
            f"batch {start} already runs out of memory in {precision}; "
            "start the search from a smaller --batch"
        )
    good, bad = start, None
    while bad is None:
        tick()
        trial = min(good * 2, cap)
        if trial == good:
            return Found(batch=good, capped=True)
        if fits(build, trial, precision, device):
            good = trial
        else:
            bad = trial
    step = 8 if good >= 8 else 1
    while bad - good > step:
        tick()
        middle = (good + bad) // 2 // step * step
        if middle <= good:
            break
        if fits(build, middle, precision, device):
            good = middle
        else:
            bad = middle
    return Found(batch=good, capped=False)
