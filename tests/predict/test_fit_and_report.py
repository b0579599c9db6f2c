"""The roofline, the fit and the limiter sentence on hand-made kernels (no torch)."""

from __future__ import annotations

import copy
import math

import pytest

from bot.predict import calibration
from bot.predict.fit import Row, calibrate, fit, predicted
from bot.predict.gpus import find_gpu
from bot.predict.ops import Op, OpClass, classify
from bot.predict.report import LIMITS, limit
from bot.predict.roofline import op_time, step_times


def _step(gemm_flops: float, activation_bytes: float, dtype: str) -> tuple[Op, ...]:
    half = 2 if dtype != "fp32" else 1
    return (
        Op("mm.default", OpClass.MATMUL, gemm_flops, activation_bytes / half / 10, dtype, True),
        Op("gelu.default", OpClass.ELEMENTWISE, 1e6, activation_bytes / half, dtype, True),
        Op("_foreach_add_.Scalar", OpClass.OPTIMIZER, 1e6, 4e8, "fp32", True),
    )


def _row(gpu: str, true: calibration.Factors) -> Row:
    g = find_gpu(gpu)
    base, mixed = _step(4e12, 8e9, "fp32"), _step(4e12, 8e9, "fp16")
    template = Row(
        "x", "synthetic", g, "tf32" if g.tf32 else "fp32", "fp16", base, mixed, 64, 64, 1.0
    )
    ratio, base_s, mixed_s = predicted(template, true)
    return Row(
        "x", "synthetic", g, template.baseline, "fp16", base, mixed, 64, 64, ratio, base_s, mixed_s
    )


def test_classification_table():
    assert classify("aten.mm.default") is OpClass.MATMUL
    assert classify("aten.convolution_backward.default") is OpClass.CONV
    assert classify("aten.native_layer_norm.default") is OpClass.NORMALIZATION
    assert classify("aten.relu_.default") is OpClass.ELEMENTWISE
    assert classify("aten.sum.dim_IntList") is OpClass.REDUCTION
    assert classify("aten.detach.default") == "free"


def test_roofline_takes_the_slower_of_math_and_memory():
    factors = calibration.shipped()
    gpu = find_gpu("A100 80GB SXM4")
    thin = op_time(Op("mm", OpClass.MATMUL, 1e9, 1e9, "fp16", True), gpu, factors, "tf32", "fp16")
    fat = op_time(Op("mm", OpClass.MATMUL, 1e13, 1e6, "fp16", True), gpu, factors, "tf32", "fp16")
    assert thin.memory_bound and not fat.memory_bound and fat.tensor_cores
    odd = op_time(Op("mm", OpClass.MATMUL, 1e13, 1e6, "fp16", False), gpu, factors, "tf32", "fp16")
    assert odd.seconds > fat.seconds  # dims not multiples of 8 lose Tensor Core efficiency


def test_shipped_calibration_covers_every_class_and_has_a_range():
    factors = calibration.shipped()
    assert set(factors.memory_eff) == {k.value for k in OpClass}
    assert factors.log_error_low < 0 < factors.log_error_high
    assert all(0 < v <= 1 for g in factors.compute_eff.values() for v in g.values())


def test_fit_recovers_ratios_generated_by_known_factors():
    true = copy.deepcopy(calibration.initial())
    true.compute_eff["matmul"]["tensor16"] = 0.8
    true.compute_eff["matmul"]["tf32"] = 0.45
    true.memory_eff["elementwise"] = 0.9
    rows = [_row(name, true) for name in ("V100", "A100 80GB SXM4", "RTX 3090", "H100 SXM")]
    fitted = fit(rows, calibration.initial())
    for row in rows:
        assert predicted(row, fitted)[0] == pytest.approx(row.ratio, rel=0.05)


def test_calibrate_ranges_from_held_out_gpus():
    true = copy.deepcopy(calibration.initial())
    rows = [_row(name, true) for name in ("V100", "A100 80GB SXM4", "RTX 3090")]
    factors, held_out = calibrate(rows, calibration.initial())
    assert len(held_out) == 3 and factors.log_error_low <= factors.log_error_high
    assert math.isclose(held_out[0][1], held_out[0][0].ratio, rel_tol=0.2)


def test_limiter_names_the_biggest_share_and_what_would_help():
    factors = calibration.shipped()
    gpu = find_gpu("T4")
    memory_heavy = step_times(_step(1e9, 8e9, "fp16"), gpu, factors, "fp32", "fp16")
    sentence = limit(memory_heavy, 0.0, tensor_cores=True, peak_ratio=8.0)
    assert "memory-bound elementwise" in sentence and "channels-last" not in sentence
    math_heavy = step_times(_step(4e14, 1e6, "fp16"), gpu, factors, "fp32", "fp16")
    assert "Tensor Core math" in limit(math_heavy, 0.0, tensor_cores=True, peak_ratio=8.0)
    assert limit(math_heavy, 0.0, tensor_cores=False, peak_ratio=None) == LIMITS["no_tensor_cores"]
