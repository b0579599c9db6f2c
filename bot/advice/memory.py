"""Training memory under FP32, mixed precision and pure BF16: numbers and codes, no words.

The honest headline (facts sheet section 2): with Adam, mixed precision does
not shrink the model states. ZeRO (Rajbhandari et al., SC'20, section 3.1,
https://arxiv.org/abs/1910.02054): mixed-precision Adam holds FP16 weights (2)
and gradients (2) plus an FP32 master copy, momentum and variance (4+4+4), "in
total ... 16 bytes"; plain FP32 Adam is 4+4+4+4 = 16 as well. What shrinks are
activations and temporaries of autocast ops, stored at 2 bytes instead of 4
(PyTorch blog, "What every user should know about mixed precision training"),
so they roughly halve. Only pure BF16 without a master copy halves the model
states, at the risk that small updates round away (BF16 has 7 mantissa bits).

Sizes are decimal gigabytes (1e9 bytes), as in ZeRO's "1.5 Billion parameters
... at least 24 GB" (1.5e9 x 16 bytes).
"""

from __future__ import annotations

import math
from enum import StrEnum

from pydantic import BaseModel, computed_field

from bot.advice.catalog import gpu_memory_gb

BYTES_PER_GB = 1e9
# Share of a GPU's memory kept free for activations, buffers, the CUDA context
# and allocator fragmentation (a rule of thumb, not a measured figure): model
# states "fit" only in the rest, so 24 GB of states on a 24 GB card do not fit,
# and the same margin counts how many GPUs a full shard needs.
ACTIVATION_RESERVE = 0.2
# Below this share of memory left after the model states, activations get tight.
TIGHT_HEADROOM = 0.4


class Optimizer(StrEnum):
    ADAM = "adam"  # Adam and AdamW: momentum and variance per parameter
    SGD_MOMENTUM = "sgd_momentum"  # one momentum buffer
    SGD = "sgd"  # no state


_OPTIMIZER_ALIASES = {
    "adam": Optimizer.ADAM,
    "adamw": Optimizer.ADAM,
    "sgd_momentum": Optimizer.SGD_MOMENTUM,
    "momentum": Optimizer.SGD_MOMENTUM,
    "sgd": Optimizer.SGD,
}


class Regime(StrEnum):
    FP32 = "fp32"
    MIXED = "mixed"  # 16-bit weights/grads with FP32 master weights and FP32 states
    BF16 = "bf16"  # pure BF16: no master copy, BF16 optimizer states


class MemoryNote(StrEnum):
    """What rendering should say about the numbers (stable codes)."""

    MODEL_STATES_UNCHANGED = "model_states_unchanged"  # mixed == fp32 bytes/param
    ACTIVATIONS_HALVE = "activations_halve"
    ACTIVATIONS_NOT_INCLUDED = "activations_not_included"  # totals are model states only
    BF16_ROUNDING_RISK = "bf16_rounding_risk"  # pure BF16 drops the FP32 master copy


class Suggestion(StrEnum):
    """What to try when the model states or the activations do not fit."""

    ZERO_FSDP = "zero_fsdp"  # shard states across GPUs (ZeRO-3 / FSDP full shard)
    ACTIVATION_CHECKPOINTING = "activation_checkpointing"
    SMALLER_BATCH = "smaller_batch"


class BytesPerParam(BaseModel):
    """Bytes each parameter costs, by what holds it."""

    weights: int
    gradients: int
    master_weights: int
    optimizer_states: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total(self) -> int:
        return self.weights + self.gradients + self.master_weights + self.optimizer_states


# Optimizer state per parameter in FP32 (4 bytes each) and in BF16 (2 bytes each).
_STATE_SLOTS = {Optimizer.ADAM: 2, Optimizer.SGD_MOMENTUM: 1, Optimizer.SGD: 0}


def bytes_per_param(regime: Regime, optimizer: Optimizer) -> BytesPerParam:
    """Bytes per parameter for model states (weights, gradients, master copy, optimizer).

    FP32: 4 + 4 + slots x 4 (Adam 16, SGD+momentum 12, SGD 8).
    Mixed: 2 + 2 + 4 master + slots x 4 (Adam 16, SGD+momentum 12, SGD 8): ZeRO section 3.1.
    (PyTorch autocast keeps FP32 parameters and gradients: 4 + 4 + 8, still 16 for Adam.)
    Pure BF16: 2 + 2 + slots x 2 (Adam 8, SGD+momentum 6, SGD 4): facts sheet section 2.
    """
    slots = _STATE_SLOTS[optimizer]
    if regime is Regime.FP32:
        return BytesPerParam(weights=4, gradients=4, master_weights=0, optimizer_states=4 * slots)
    if regime is Regime.MIXED:
        return BytesPerParam(weights=2, gradients=2, master_weights=4, optimizer_states=4 * slots)
    return BytesPerParam(weights=2, gradients=2, master_weights=0, optimizer_states=2 * slots)


class RegimeMemory(BaseModel):
    """Model-state memory of one regime and whether it fits the GPU(s)."""

    regime: Regime
    bytes_per_param: BytesPerParam
    model_states_gb: float
    # Per GPU when the states are sharded across ``num_gpus`` (ZeRO-3/FSDP); equal
    # to ``model_states_gb`` on one GPU or with plain data parallelism.
    sharded_per_gpu_gb: float
    # Fits with ACTIVATION_RESERVE of the memory left free; None when no GPU memory is known.
    fits: bool | None
    fits_sharded: bool | None  # the same per GPU; None when no memory is known or num_gpus is 1
    # Memory left on one GPU for activations after unsharded model states
    # (plain data parallelism replicates them); 0 when they do not fit.
    activation_headroom_gb: float | None
    gpus_needed: int | None  # GPUs a full shard needs to fit, keeping a reserve for activations


class MemoryEstimate(BaseModel):
    params: float
    optimizer: Optimizer
    gpu: str | None
    gpu_memory_gb: float | None
    num_gpus: int
    regimes: list[RegimeMemory]
    notes: list[MemoryNote]
    suggestions: list[Suggestion]

    def regime(self, regime: Regime) -> RegimeMemory:
        return next(r for r in self.regimes if r.regime is regime)


def parse_optimizer(name: str | Optimizer | None) -> Optimizer:
    """Adam when unsaid (the common case); AdamW counts as Adam (same states)."""
    if name is None:
        return Optimizer.ADAM
    try:
        return _OPTIMIZER_ALIASES[str(name).strip().lower()]
    except KeyError:
        raise ValueError(f"unknown optimizer: {name!r}") from None


def _regime_memory(
    regime: Regime, optimizer: Optimizer, params: float, memory: float | None, num_gpus: int
) -> RegimeMemory:
    per_param = bytes_per_param(regime, optimizer)
    states = params * per_param.total / BYTES_PER_GB
    sharded = states / num_gpus
    usable = memory * (1 - ACTIVATION_RESERVE) if memory else None
    return RegimeMemory(
        regime=regime,
        bytes_per_param=per_param,
        model_states_gb=states,
        sharded_per_gpu_gb=sharded,
        fits=states <= usable if usable else None,
        fits_sharded=sharded <= usable if usable and num_gpus > 1 else None,
        activation_headroom_gb=max(0.0, memory - states) if memory else None,
        gpus_needed=max(1, math.ceil(states / usable)) if usable else None,
    )


def estimate_memory(
    params: float,
    optimizer: str | Optimizer | None = None,
    gpu: str | None = None,
    num_gpus: int | None = None,
    memory_gb: float | None = None,
) -> MemoryEstimate:
    """Model-state memory for ``params`` parameters under each regime, and what to try.

    ``memory_gb`` overrides the GPU's memory (e.g. "A100 40GB"); otherwise the
    largest published variant of the named GPU is assumed (A100 -> 80 GB).
    Raises ValueError for a parameter count that is not a positive finite number.
    """
    if not math.isfinite(params) or params <= 0:
        raise ValueError("params must be a positive finite number")
    opt = parse_optimizer(optimizer)
    count = num_gpus if num_gpus and num_gpus > 0 else 1
    memory = memory_gb if memory_gb else (gpu_memory_gb(gpu) if gpu else None)
    regimes = [_regime_memory(r, opt, params, memory, count) for r in Regime]
    by_regime = {r.regime: r for r in regimes}
    notes = [MemoryNote.ACTIVATIONS_HALVE, MemoryNote.ACTIVATIONS_NOT_INCLUDED]
    if by_regime[Regime.MIXED].model_states_gb == by_regime[Regime.FP32].model_states_gb:
        notes.insert(0, MemoryNote.MODEL_STATES_UNCHANGED)
    notes.append(MemoryNote.BF16_ROUNDING_RISK)
    return MemoryEstimate(
        params=params,
        optimizer=opt,
        gpu=gpu,
        gpu_memory_gb=memory,
        num_gpus=count,
        regimes=regimes,
        notes=notes,
        suggestions=_suggestions(by_regime[Regime.MIXED], memory),
    )


def _suggestions(mixed: RegimeMemory, memory: float | None) -> list[Suggestion]:
    """Sharding when the states alone overflow one GPU; activation savers when space is tight.

    Activation checkpointing and a smaller batch only shrink activations, so they
    follow sharding rather than replace it.
    """
    if memory is None or mixed.activation_headroom_gb is None:
        return []
    suggestions = [] if mixed.fits else [Suggestion.ZERO_FSDP]
    if suggestions or mixed.activation_headroom_gb < TIGHT_HEADROOM * memory:
        suggestions += [Suggestion.ACTIVATION_CHECKPOINTING, Suggestion.SMALLER_BATCH]
    return suggestions
