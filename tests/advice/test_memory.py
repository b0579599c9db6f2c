"""Memory: model states do not shrink with Adam; what fits and what to try."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.advice.memory import (
    ACTIVATION_RESERVE,
    MemoryNote,
    Optimizer,
    Regime,
    Suggestion,
    bytes_per_param,
    estimate_memory,
    parse_optimizer,
)


@pytest.mark.parametrize(
    ("regime", "optimizer", "parts", "total"),
    [
        (Regime.FP32, Optimizer.ADAM, (4, 4, 0, 8), 16),
        (Regime.MIXED, Optimizer.ADAM, (2, 2, 4, 8), 16),  # ZeRO section 3.1
        (Regime.BF16, Optimizer.ADAM, (2, 2, 0, 4), 8),
        (Regime.FP32, Optimizer.SGD_MOMENTUM, (4, 4, 0, 4), 12),
        (Regime.MIXED, Optimizer.SGD_MOMENTUM, (2, 2, 4, 4), 12),
        (Regime.BF16, Optimizer.SGD_MOMENTUM, (2, 2, 0, 2), 6),
        (Regime.FP32, Optimizer.SGD, (4, 4, 0, 0), 8),
        (Regime.MIXED, Optimizer.SGD, (2, 2, 4, 0), 8),
        (Regime.BF16, Optimizer.SGD, (2, 2, 0, 0), 4),
    ],
)
def test_bytes_per_parameter(regime, optimizer, parts, total):
    b = bytes_per_param(regime, optimizer)
    assert (b.weights, b.gradients, b.master_weights, b.optimizer_states) == parts
    assert b.total == total


def test_gpt2_xl_needs_24_gb_as_in_zero():
    e = estimate_memory(1.5e9, "adam")
    assert e.regime(Regime.MIXED).model_states_gb == pytest.approx(24)
    assert e.regime(Regime.FP32).model_states_gb == pytest.approx(24)
    assert e.notes[0] is MemoryNote.MODEL_STATES_UNCHANGED
    assert MemoryNote.ACTIVATIONS_HALVE in e.notes
    assert MemoryNote.ACTIVATIONS_NOT_INCLUDED in e.notes
    assert e.gpu_memory_gb is None and e.suggestions == []
    assert e.regime(Regime.MIXED).fits is None


def test_7b_adam_on_a100_does_not_fit_and_says_what_to_try():
    e = estimate_memory(7e9, "AdamW", gpu="A100")
    mixed = e.regime(Regime.MIXED)
    assert e.optimizer is Optimizer.ADAM and e.gpu_memory_gb == 80
    assert mixed.model_states_gb == pytest.approx(112)
    assert mixed.fits is False and mixed.activation_headroom_gb == 0
    assert mixed.gpus_needed == 2  # 112 GB over 80 GB less a fifth for activations
    assert e.suggestions == [
        Suggestion.ZERO_FSDP,
        Suggestion.ACTIVATION_CHECKPOINTING,
        Suggestion.SMALLER_BATCH,
    ]
    # Only pure BF16 (no master copy) halves the states: 56 GB fits, with a warning.
    assert e.regime(Regime.BF16).fits is True
    assert MemoryNote.BF16_ROUNDING_RISK in e.notes


def test_sharding_across_the_named_gpus():
    e = estimate_memory(7e9, "adam", gpu="A100", num_gpus=8)
    mixed = e.regime(Regime.MIXED)
    assert mixed.sharded_per_gpu_gb == pytest.approx(14)
    assert mixed.fits is False and mixed.fits_sharded is True
    assert Suggestion.ZERO_FSDP in e.suggestions


def test_memory_override_for_the_smaller_variant():
    assert estimate_memory(7e9, gpu="A100", memory_gb=40).regime(Regime.MIXED).gpus_needed == 4


def test_small_model_fits_with_room_for_activations():
    e = estimate_memory(340e6, "sgd_momentum", gpu="V100")
    mixed = e.regime(Regime.MIXED)
    assert mixed.fits and mixed.activation_headroom_gb == pytest.approx(32 - 340e6 * 12 / 1e9)
    assert e.suggestions == []


def test_tight_headroom_suggests_activation_savers_only():
    e = estimate_memory(3.5e9, "adam", gpu="A100")  # 56 of 80 GB: fits, 30% left
    assert e.regime(Regime.MIXED).fits
    assert e.suggestions == [Suggestion.ACTIVATION_CHECKPOINTING, Suggestion.SMALLER_BATCH]


def test_optimizer_names():
    assert parse_optimizer(None) is Optimizer.ADAM
    assert parse_optimizer(" momentum ") is Optimizer.SGD_MOMENTUM
    with pytest.raises(ValueError):
        parse_optimizer("lion")


@pytest.mark.parametrize("params", [0, -1, math.nan, math.inf])
def test_bad_parameter_counts_are_refused(params):
    with pytest.raises(ValueError):
        estimate_memory(params)


@given(st.floats(1e3, 1e13), st.sampled_from(list(Optimizer)))
def test_mixed_never_uses_less_state_memory_than_fp32(params, optimizer):
    e = estimate_memory(params, optimizer, gpu="H100")
    fp32, mixed, bf16 = (e.regime(r) for r in (Regime.FP32, Regime.MIXED, Regime.BF16))
    assert mixed.model_states_gb == fp32.model_states_gb
    assert bf16.model_states_gb == pytest.approx(fp32.model_states_gb / 2)
    assert mixed.fits == (mixed.model_states_gb <= 80 * (1 - ACTIVATION_RESERVE))
