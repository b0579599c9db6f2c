"""The experiment's arithmetic and wording: pure functions, no torch needed."""

from __future__ import annotations

import argparse

import pytest

from bot.experiment.options import parse_duration
from bot.experiment.report import (
    Environment,
    LossAgreement,
    RatioStats,
    Run,
    StepCounts,
    WarningCode,
    canonical_gpu,
    loss_agreement,
    project,
    ratio_stats,
    ratio_warnings,
    record_line,
    time_stats,
)


def _run(precision: str, seconds: list[float], batch: int = 32, **extra: object) -> Run:
    stats = time_stats(seconds)
    return Run(
        precision=precision,
        batch=batch,
        steps=StepCounts(warmup=1, timed=2, repeats=2),
        time=stats,
        samples_per_s=batch / stats.median_s,
        peak_memory_bytes=None,
        losses=[1.0, 0.9],
        **extra,
    )


def test_time_stats_median_and_spread():
    stats = time_stats([0.10, 0.12, 0.11])
    assert stats.median_s == pytest.approx(0.11)
    assert (stats.min_s, stats.max_s) == (0.10, 0.12)
    assert stats.spread == pytest.approx(0.02 / 0.11)


def test_time_stats_rejects_nothing_measured():
    with pytest.raises(ValueError):
        time_stats([])


def test_ratio_is_baseline_over_mixed_with_worst_and_best_case():
    ratio = ratio_stats(time_stats([0.20, 0.22]), time_stats([0.10, 0.11]))
    assert ratio.ratio == pytest.approx(0.21 / 0.105)
    assert ratio.low == pytest.approx(0.20 / 0.11)
    assert ratio.high == pytest.approx(0.22 / 0.10)


def test_ratio_compares_time_per_sample_at_different_batches():
    # Mixed precision fits twice the batch in 1.5x the step time: 1.333x per sample.
    ratio = ratio_stats(time_stats([0.3]), time_stats([0.45]), base_batch=64, mixed_batch=128)
    assert ratio.ratio == pytest.approx((0.3 / 64) / (0.45 / 128))


def test_projection_divides_the_fp32_time():
    p = project(100.0, RatioStats(ratio=2.0, low=1.6, high=2.5))
    assert (p.mixed_hours, p.mixed_hours_low, p.mixed_hours_high) == (50.0, 40.0, 62.5)


def test_loss_agreement_is_relative_and_uses_the_common_steps():
    agreement = loss_agreement([2.0, 1.0, 0.5], [2.0, 1.1])
    assert agreement.steps == 2
    assert agreement.max_rel_diff == pytest.approx(0.1)
    assert agreement.median_rel_diff == pytest.approx(0.05)
    assert agreement.final_loss_mixed == 1.1


def test_warnings_for_slowdown_loss_gap_and_scaler_skips():
    mixed = _run("fp16", [0.3], scaler_skipped_steps=4, scaler_final_scale=4096.0)
    loss = LossAgreement(
        steps=5,
        median_rel_diff=0.2,
        max_rel_diff=0.3,
        final_loss_baseline=1.0,
        final_loss_mixed=1.2,
    )
    codes = {n.code for n in ratio_warnings(RatioStats(ratio=0.8, low=0.7, high=0.9), loss, mixed)}
    assert codes == {
        WarningCode.RATIO_BELOW_ONE,
        WarningCode.LOSS_DISAGREES,
        WarningCode.SCALER_SKIPS,
    }


def test_no_warnings_for_a_clean_speedup():
    loss = LossAgreement(
        steps=5,
        median_rel_diff=0.001,
        max_rel_diff=0.01,
        final_loss_baseline=1.0,
        final_loss_mixed=1.0,
    )
    assert ratio_warnings(RatioStats(ratio=2.0, low=1.9, high=2.1), loss, _run("bf16", [0.1])) == []


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("NVIDIA H200", "H200"),
        ("NVIDIA A100-SXM4-80GB", "A100"),
        ("NVIDIA A10", "A10"),
        ("Tesla V100-SXM2-16GB", "V100"),
        ("NVIDIA GeForce RTX 4090", "RTX 4090"),
        ("Some Future GPU", "Some Future GPU"),
    ],
)
def test_canonical_gpu_names(name, canonical):
    assert canonical_gpu(name) == canonical


def test_record_line_is_read_back_by_the_bots_record_reader():
    reader = pytest.importorskip("bot.understanding")
    env = Environment(
        device="cuda",
        device_name="NVIDIA H100 80GB HBM3",
        capability="9.0",
        torch_version="2.13.0",
        tf32_matmul=False,
        tf32_cudnn=False,
        memory_measure="cuda_max_memory_allocated",
    )
    line = record_line("ResNet-50", env, _run("bf16", [0.0602]), _run("fp32", [0.1234]), 8)
    assert line == ("/mpestimate record H100 ResNet-50 8 GPUs fp32 123.40ms bf16 60.20ms")
    draft = reader.read_record(line.removeprefix("/mpestimate record"))
    assert (draft.gpu, draft.model, draft.num_gpus) == ("H100", "ResNet-50", 8)
    assert (draft.precision, draft.baseline) == ("bf16", "fp32")
    assert draft.fp32_step.seconds == pytest.approx(0.1234)
    assert draft.mixed_step.seconds == pytest.approx(0.0602)


def test_record_line_keeps_unknown_models_apart():
    env = Environment(
        device="cpu", device_name="Xeon", torch_version="2.13.0", memory_measure="peak_rss"
    )
    line = record_line("my pkg:build", env, _run("bf16", [0.01]), _run("fp32", [0.02]), 1)
    assert line.startswith("/mpestimate record CPU model=my-pkg:build 1 GPU ")


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("100h", 100),
        ("90min", 1.5),
        ("3d", 72),
        ("1h30m", 1.5),
        ("2 w", 336),
        ("48", 48),
    ],
)
def test_parse_duration(text, hours):
    assert parse_duration(text).hours == pytest.approx(hours)


@pytest.mark.parametrize("text", ["", "soon", "10 parsecs", "0h", "-5h"])
def test_parse_duration_rejects_with_a_usage_error(text):
    with pytest.raises(argparse.ArgumentTypeError):
        parse_duration(text)
