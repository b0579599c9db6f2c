"""Per-operator profiles of the catalog's models, traced once and shipped as data.

Torch-free: ``data/profiles.json`` holds, for each catalog model with a built-in
shape (ResNet-50, BERT, GPT-2), the kernels of one FP32 step and one 16-bit step
(FP16, BF16) at the shape's default batch, as :mod:`trace` recorded them. The chat
prices them with the same roofline as ``mpbot predict`` (:func:`log_ratio`), so a
GPU no table measured is answered from the model's own operator mix, without
importing torch. ``python -m bot.predict.make_profiles`` regenerates the file
(it needs torch); a test checks the shipped file matches a fresh trace.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from bot.predict import calibration
from bot.predict.calibration import Factors
from bot.predict.gpus import Gpu
from bot.predict.ops import Op, OpClass
from bot.predict.roofline import step_times

FIELDS = ("name", "kind", "flops", "bytes", "dtype", "aligned", "kernels", "count")
# FP8 runs the BF16-traced step with Linear GEMMs at the FP8 rate (roofline.math_mode).
TRACED_AS = {"fp16": "fp16", "bf16": "bf16", "fp8": "bf16"}


@dataclass(frozen=True)
class Profile:
    """One catalog model's traced steps: ``steps`` maps fp32/fp16/bf16 to its kernels."""

    name: str  # the catalog's canonical name
    model: str  # the built-in shape (bot.experiment.models)
    batch: int
    steps: dict[str, tuple[Op, ...]]

    def mixed(self, precision: str) -> tuple[Op, ...]:
        return self.steps[TRACED_AS[precision]]


def encode(ops: Sequence[Op]) -> list[list]:
    return [[getattr(op, f) if f != "kind" else op.kind.value for f in FIELDS] for op in ops]


def decode(rows: Sequence[Sequence]) -> tuple[Op, ...]:
    out = []
    for row in rows:
        values = dict(zip(FIELDS, row, strict=True))
        values["kind"] = OpClass(values["kind"])
        out.append(Op(**values))
    return tuple(out)


@cache
def shipped() -> dict[str, Profile]:
    """Every shipped profile by catalog name."""
    text = files("bot.predict").joinpath("data", "profiles.json").read_text("utf-8")
    raw = json.loads(text)["profiles"]
    return {
        name: Profile(
            name=name,
            model=p["model"],
            batch=p["batch"],
            steps={k: decode(v) for k, v in p["steps"].items()},
        )
        for name, p in raw.items()
    }


def profile_of(model: str | None) -> Profile | None:
    """The shipped profile of a catalog model name, None for models without one."""
    return shipped().get(model or "")


def step_seconds(
    ops: Sequence[Op], gpu: Gpu, factors: Factors, baseline: str, precision: str | None
) -> float:
    return sum(t.seconds for t in step_times(ops, gpu, factors, baseline, precision))


def ratio_of(
    base_ops: Sequence[Op],
    mixed_ops: Sequence[Op],
    gpu: Gpu,
    baseline: str,
    precision: str,
    *,
    batch: int = 1,
    batch_amp: int | None = None,
    factors: Factors | None = None,
) -> float:
    """The roofline's per-sample ratio of two traced steps (baseline over mixed)."""
    factors = factors or calibration.shipped()
    base = step_seconds(base_ops, gpu, factors, baseline, None) / batch
    mixed = step_seconds(mixed_ops, gpu, factors, baseline, precision) / (batch_amp or batch)
    return base / mixed


@cache
def log_ratio(model: str, gpu: Gpu, baseline: str, precision: str) -> float | None:
    """log of the roofline ratio of a catalog model's shipped profile on ``gpu``; None
    without a profile or without units for ``precision``."""
    found = profile_of(model)
    if found is None or gpu.peak(precision) is None:
        return None
    return math.log(ratio_of(found.steps["fp32"], found.mixed(precision), gpu, baseline, precision))
