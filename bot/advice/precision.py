"""BF16 or FP16, and whether loss scaling is needed: the facts, for the GPU named.

Facts (shared/docs/mixed-precision-facts.md, sections 1-3 and 9; gpu_specs.csv):
* BF16 keeps FP32's 8 exponent bits (range up to about 3.4e38) with 7 mantissa
  bits; FP16 has 5 exponent bits (max 65504, smallest normal 6.1e-5) and 10
  mantissa bits. So FP16 gradients underflow without loss scaling (GradScaler),
  BF16's do not, and BF16 rounds more coarsely.
* On Ampere and newer, BF16 and FP16 run at the same Tensor Core rate (A100 312,
  H100 989.4, L4 121, RTX 4090 165.2 dense TFLOPS for both); Volta and Turing
  (V100, T4, RTX 20xx) have no BF16 Tensor Cores, nor do GPUs without Tensor Cores.
* GradScaler: initial scale 2**16, x2 after 2000 steps without inf/NaN, x0.5 and
  the step skipped when one appears. FP8 needs its own per-tensor scaling
  (Transformer Engine).

Pure: numbers and note codes in an :class:`Advice`; rendering words them.
"""

from __future__ import annotations

from enum import StrEnum

from bot.advice.gpus import gpu_spec
from bot.models import Advice, Kind, Query

PRECISION_SOURCES = (
    "https://pytorch.org/docs/stable/amp.html",  # gradient scaling, autocast dtypes
    "https://github.com/tensorflow/community/pull/247",  # BF16/TF32 exponent and mantissa bits
    "https://images.nvidia.com/aem-dam/en-zz/Solutions/data-center/nvidia-ampere-architecture-whitepaper.pdf",
)


class PrecisionTopic(StrEnum):
    COMPARE = "compare"  # "is bf16 better than fp16?"
    LOSS_SCALING = "loss_scaling"  # "do I need loss scaling with bf16?"


class PrecisionPoint(StrEnum):
    """What the answer says, in order (stable codes, worded by rendering)."""

    PREFER_BF16 = "prefer_bf16"  # the GPU has BF16 at FP16's rate: use BF16
    USE_FP16 = "use_fp16"  # the GPU has no BF16 Tensor Cores: FP16 with GradScaler
    NO_TENSOR_CORES = "no_tensor_cores"  # neither runs on Tensor Cores here
    BY_GENERATION = "by_generation"  # no GPU named: Ampere+ BF16, Volta/Turing FP16
    BF16_NO_SCALING = "bf16_no_scaling"
    FP16_NEEDS_SCALING = "fp16_needs_scaling"
    FP8_NEEDS_SCALING = "fp8_needs_scaling"
    RANGE = "range"  # exponent bits and limits
    MANTISSA = "mantissa"  # BF16 rounds more coarsely; keep FP32 master weights
    SAME_SPEED = "same_speed"  # same Tensor Core rate, with the GPU's figures
    GRADSCALER = "gradscaler"  # how dynamic loss scaling works


def precision_advice(query: Query) -> Advice:
    """The answer to a BF16-or-FP16 or a loss-scaling question, for the GPU named."""
    topic = PrecisionTopic(query.precision_topic or PrecisionTopic.COMPARE)
    spec = gpu_spec(query.gpu)
    fp16 = spec.fp16_tensor_tflops if spec else None
    bf16 = spec.bf16_rate if spec else None
    if spec is None:
        verdict = PrecisionPoint.BY_GENERATION
    elif not spec.tensor_cores:
        verdict = PrecisionPoint.NO_TENSOR_CORES
    elif bf16 is None:
        verdict = PrecisionPoint.USE_FP16
    else:
        verdict = PrecisionPoint.PREFER_BF16
    points = [verdict]
    if topic is PrecisionTopic.LOSS_SCALING:
        # The format asked about first: "with fp16?" is answered "yes" before BF16's "no".
        scaling = [PrecisionPoint.BF16_NO_SCALING, PrecisionPoint.FP16_NEEDS_SCALING]
        points += scaling[::-1] if query.precision == "fp16" else scaling
        if query.precision == "fp8":
            points.append(PrecisionPoint.FP8_NEEDS_SCALING)
        points += [PrecisionPoint.RANGE, PrecisionPoint.GRADSCALER]
    else:
        points += [PrecisionPoint.RANGE, PrecisionPoint.MANTISSA]
        if bf16 is not None and fp16 is not None and bf16 == fp16:
            points.append(PrecisionPoint.SAME_SPEED)
        points.append(PrecisionPoint.GRADSCALER)
    return Advice(
        kind=Kind.PRECISION,
        gpu=query.gpu,
        notes=[p.value for p in points],
        sources=list(PRECISION_SOURCES),
        facts={
            "topic": topic.value,
            "architecture": spec.architecture.split(" (")[0] if spec else None,
            "fp16_tflops": fp16,
            "bf16_tflops": bf16,
        },
    )
