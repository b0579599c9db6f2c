"""Time each traced kernel on a GPU's published peaks, with calibrated efficiencies.

Per kernel: ``max(FLOPs / (peak x compute efficiency), bytes / (bandwidth x
memory efficiency)) + launches x launch overhead``. The peak is the math mode
the kernel runs in: Tensor Core ops in FP32 run at the baseline's rate (FP32
CUDA cores, or TF32 Tensor Cores), in 16-bit at the FP16/BF16 Tensor rate
(the FP8 rate for Linear-layer GEMMs with ``--precision fp8``); everything
else is bandwidth-bound on CUDA cores. The efficiencies (fractions of peak
real kernels reach) are fitted, per operator class, in :mod:`calibration`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from bot.predict.calibration import Factors
from bot.predict.gpus import Gpu
from bot.predict.ops import TENSOR_CORE_CLASSES, Op, OpClass

SIXTEEN_BIT = frozenset({"fp16", "bf16"})
FP8_GEMMS = frozenset({"mm.default", "addmm.default"})  # Linear layers, as Transformer Engine


class NoSuchMath(ValueError):
    """The GPU has no units for the asked precision (BF16 on Volta, FP8 before Ada)."""


@dataclass(frozen=True)
class OpTime:
    op: Op
    seconds: float  # all ``op.count`` launches together
    memory_bound: bool
    tensor_cores: bool


def math_mode(op: Op, baseline: str, precision: str | None) -> str:
    """The math mode a Tensor Core class op runs in: fp32, tf32, fp16, bf16 or fp8. The
    "pytorch" baseline is stock PyTorch's: matmuls in strict FP32
    (``torch.backends.cuda.matmul.allow_tf32`` is False since 1.12), cuDNN convolutions in
    TF32 (``torch.backends.cudnn.allow_tf32`` is True)."""
    if op.dtype in SIXTEEN_BIT:
        return "fp8" if precision == "fp8" and op.name in FP8_GEMMS else op.dtype
    if baseline == "pytorch":
        return "tf32" if op.kind == OpClass.CONV else "fp32"
    return baseline


def _group(mode: str) -> str:
    return {"fp32": "simt", "tf32": "tf32"}.get(mode, "tensor16")


def check_precision(gpu: Gpu, baseline: str, precision: str) -> None:
    if precision in ("bf16", "fp8") and gpu.peak(precision) is None:
        since = "Ampere" if precision == "bf16" else "Ada and Hopper"
        raise NoSuchMath(
            f"{gpu.name} has no {precision.upper()} Tensor Cores ({since} and newer do); "
            "use --precision fp16"
        )
    del baseline  # a GPU without TF32 runs the TF32 baseline as FP32 (see op_time)


def op_time(op: Op, gpu: Gpu, factors: Factors, baseline: str, precision: str | None) -> OpTime:
    tensor_op = op.kind in TENSOR_CORE_CLASSES
    bytes_moved = op.bytes
    if tensor_op:
        mode = math_mode(op, baseline, precision)
        peak = gpu.peak(mode)
        if peak is None:  # no such Tensor Cores: CUDA cores do the math
            mode, peak = "fp32", gpu.fp32
        efficiency = factors.compute(op.kind, _group(mode), gpu.size_tflops)
        if mode != "fp32" and not op.aligned:
            efficiency *= factors.unaligned
        if mode == "tf32":
            # TF32 only allows Tensor Cores: where they are no faster than the CUDA cores
            # (GeForce Ampere/Ada: TF32 Tensor rate = FP32 rate) the libraries' heuristics
            # keep the faster kernel, so a TF32 baseline is never slower than strict FP32.
            simt = factors.compute(op.kind, "simt", gpu.size_tflops)
            if gpu.fp32 * simt > peak * efficiency:
                peak, efficiency = gpu.fp32, simt
        if mode == "fp8":
            bytes_moved /= 2
    else:
        peak, efficiency = gpu.fp32, 1.0
    compute_s = op.flops / (peak * 1e12 * efficiency)
    memory_s = bytes_moved / (gpu.bandwidth_gbs * 1e9 * factors.memory(op.kind))
    tensor_cores = tensor_op and peak != gpu.fp32
    launch_s = op.kernels * factors.launch_us * 1e-6
    seconds = (max(compute_s, memory_s) + launch_s) * op.count
    return OpTime(op, seconds, memory_s > compute_s, tensor_cores)


def step_times(
    ops: Iterable[Op], gpu: Gpu, factors: Factors, baseline: str, precision: str | None
) -> list[OpTime]:
    return [op_time(op, gpu, factors, baseline, precision) for op in ops]


def by_class(times: Iterable[OpTime]) -> dict[OpClass, float]:
    totals: dict[OpClass, float] = defaultdict(float)
    for t in times:
        totals[t.op.kind] += t.seconds
    return dict(totals)
