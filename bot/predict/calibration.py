"""The roofline's efficiency factors, fitted to published runs, and the range they allow.

``data/calibration.json`` holds fractions of peak per operator class and math
group (``simt`` FP32 CUDA cores, ``tf32``, ``tensor16`` FP16/BF16/FP8 Tensor
Cores), memory efficiency per class, the launch overhead, and the quantiles of
leave-one-GPU-out log errors of the ratio. ``bench/predict_eval.py --refit``
writes it; nothing here is a hand-set constant except ``unaligned``, the
efficiency kept by a Tensor Core op whose dims are not multiples of 8, which
no published row measures.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib.resources import files

from bot.predict.ops import OpClass

GROUPS = ("simt", "tf32", "tensor16")
SIZE_REFERENCE_TFLOPS = 100.0


@dataclass
class Factors:
    compute_eff: dict[str, dict[str, float]]  # class -> group -> fraction of peak
    memory_eff: dict[str, float]  # class -> fraction of bandwidth
    launch_us: float
    # Bigger GPUs reach a smaller fraction of peak (more SMs to fill, kernels tuned
    # later): compute efficiency x (GPU's 16-bit peak / 100 TFLOPS) ** -size_exponent.
    size_exponent: float = 0.0
    unaligned: float = 0.5
    log_error_low: float = 0.0  # quantiles of log(measured / predicted ratio), held-out GPUs
    log_error_high: float = 0.0
    fitted_on: list[str] = field(default_factory=list)
    note: str = ""

    def compute(self, kind: OpClass, group: str, size_tflops: float) -> float:
        scale = (size_tflops / SIZE_REFERENCE_TFLOPS) ** -self.size_exponent
        return min(1.0, self.compute_eff[kind.value][group] * scale)

    def memory(self, kind: OpClass) -> float:
        return self.memory_eff[kind.value]

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True) + "\n"


def from_dict(raw: dict) -> Factors:
    return Factors(**raw)


@cache
def shipped() -> Factors:
    text = files("bot.predict").joinpath("data", "calibration.json").read_text("utf-8")
    return from_dict(json.loads(text))


def initial() -> Factors:
    """Where a refit starts: typical fractions of peak, before any data."""
    compute = {"simt": 0.7, "tf32": 0.5, "tensor16": 0.5}
    return Factors(
        compute_eff={OpClass.MATMUL.value: dict(compute), OpClass.CONV.value: dict(compute)},
        memory_eff={k.value: 0.7 for k in OpClass},
        launch_us=5.0,
        size_exponent=0.1,
    )
