"""The baseline `mpbot predict` times: stock PyTorch's by default, and TF32 never slower
than strict FP32 (issue 19, items 3 and 6)."""

from __future__ import annotations

import pytest

from bot.predict import calibration
from bot.predict.gpus import find_gpu
from bot.predict.ops import Op, OpClass
from bot.predict.options import BASELINE_CHOICES
from bot.predict.roofline import math_mode, op_time

CONV = Op("convolution.default", OpClass.CONV, 1e13, 1e8, "fp32", True)
GEMM = Op("mm.default", OpClass.MATMUL, 1e13, 1e8, "fp32", True)


def test_stock_pytorch_runs_convolutions_in_tf32_and_matmuls_in_strict_fp32():
    assert BASELINE_CHOICES[0] == "pytorch"  # the default
    assert math_mode(CONV, "pytorch", None) == "tf32"
    assert math_mode(GEMM, "pytorch", None) == "fp32"
    assert math_mode(GEMM, "tf32", None) == "tf32"


@pytest.mark.parametrize("op", [CONV, GEMM])
@pytest.mark.parametrize("gpu", ["3090", "RTX A6000", "A100 80GB SXM4", "H100 SXM5", "4090"])
def test_a_tf32_baseline_is_never_slower_than_strict_fp32(op, gpu):
    found, factors = find_gpu(gpu), calibration.shipped()
    tf32 = op_time(op, found, factors, "tf32", None).seconds
    fp32 = op_time(op, found, factors, "fp32", None).seconds
    assert tf32 <= fp32


def test_on_a_datacenter_ampere_gpu_tf32_is_much_faster_than_strict_fp32():
    a100, factors = find_gpu("A100 80GB SXM4"), calibration.shipped()
    tf32 = op_time(GEMM, a100, factors, "tf32", None).seconds
    fp32 = op_time(GEMM, a100, factors, "fp32", None).seconds
    assert fp32 > 2 * tf32
