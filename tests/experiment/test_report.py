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


H100 = Environment(
    device="cuda",
    device_name="NVIDIA H100 80GB HBM3",
    capability="9.0",
    torch_version="2.13.0",
    tf32_matmul=False,
    tf32_cudnn=False,
    memory_measure="cuda_max_memory_allocated",
)
CPU = Environment(
    device="cpu", device_name="Xeon", torch_version="2.13.0", memory_measure="peak_rss"
)


def gpu_report(base_s: list[float], mixed_s: list[float], env: Environment = H100):
    """A whole report as the runner builds it, from plain numbers (no torch)."""
    from bot.experiment.report import Report, record_problem

    base, mixed = _run("fp32", base_s), _run("bf16", mixed_s)
    ratio = ratio_stats(base.time, mixed.time)
    loss = loss_agreement(base.losses, mixed.losses)
    line = record_line("ResNet-50", env, mixed, base, 8)
    refused = record_problem(line, env.device, ratio.ratio)
    return Report(
        model="ResNet-50",
        size="full",
        parameters=25_557_032,
        environment=env,
        baseline=base,
        mixed=mixed,
        ratio=ratio,
        loss=loss,
        warnings=ratio_warnings(ratio, loss, mixed, base),
        record_line=None if refused else line,
        record_refused=refused,
    )


def pasted_line(text: str) -> str | None:
    """The line the text report offers for pasting, as a user copies it."""
    lines = text.splitlines()
    marker = "paste into Slack to record it for your team:"
    return lines[lines.index(marker) + 1] if marker in lines else None


def test_the_report_offers_a_line_the_record_command_accepts():
    from bot.experiment.report import render_text

    report = gpu_report([0.1234, 0.1240], [0.0602, 0.0610])
    assert pasted_line(render_text(report)) == report.record_line
    assert report.record_line.startswith("/mpestimate record H100 ResNet-50 8 GPUs fp32 ")


@pytest.mark.parametrize(
    ("env", "base_s", "mixed_s", "why"),
    [
        (CPU, [0.010, 0.010], [0.011, 0.011], "measured on CPU"),
        # A ratio of 0.08 (a broken run): the record command refuses it as implausible.
        (H100, [0.008, 0.008], [0.100, 0.100], "the ratio 0.08x is outside 0.2-20"),
    ],
)
def test_a_run_record_would_refuse_gets_no_paste_line_and_says_why(env, base_s, mixed_s, why):
    from bot.experiment.report import render_text

    report = gpu_report(base_s, mixed_s, env)
    assert report.record_line is None and why in report.record_refused
    text = render_text(report)
    assert pasted_line(text) is None and "/mpestimate record" not in text
    assert f"not a valid measurement to record: {report.record_refused}" in text


def test_a_noisy_run_is_warned_about():
    """39.5% between the fastest and slowest repeat: the ratio is uncertain."""
    noisy = gpu_report([0.100, 0.1395, 0.105], [0.050, 0.051, 0.0505])
    (note,) = [n for n in noisy.warnings if n.code is WarningCode.NOISY]
    assert "fp32" in note.message and "37.6%" in note.message
    steady = gpu_report([0.100, 0.102, 0.101], [0.050, 0.051, 0.0505])
    assert WarningCode.NOISY not in {n.code for n in steady.warnings}
