"""The operator classes a traced step is summed by, and the table that names them.

Torch-free: :mod:`trace` records aten names, this module says what each one
is, so the roofline and the report never see aten spellings. The name lists
live in ``data/op_classes.json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib.resources import files


class OpClass(StrEnum):
    MATMUL = "matmul"  # GEMMs and fused attention: Tensor Core eligible
    CONV = "conv"  # convolutions, forward and backward: Tensor Core eligible
    ELEMENTWISE = "elementwise"  # activations, adds, casts, copies, dropout, gathers
    NORMALIZATION = "normalization"  # batch/layer/group norm, softmax
    REDUCTION = "reduction"  # sums, means, losses
    OPTIMIZER = "optimizer"  # everything optimizer.step() and gradient unscaling run
    LAYOUT = "layout"  # NCHW<->NHWC transposes around 16-bit convolutions


TENSOR_CORE_CLASSES = frozenset({OpClass.MATMUL, OpClass.CONV})

LABELS = {
    OpClass.MATMUL: "matmul / attention",
    OpClass.CONV: "convolution",
    OpClass.ELEMENTWISE: "elementwise",
    OpClass.NORMALIZATION: "normalisation / softmax",
    OpClass.REDUCTION: "reduction / loss",
    OpClass.OPTIMIZER: "optimizer (AdamW)",
    OpClass.LAYOUT: "layout transposes",
}

FREE = "free"


@cache
def _table() -> dict[str, str]:
    raw = json.loads(files("bot.predict").joinpath("data", "op_classes.json").read_text("utf-8"))
    return {name: group for group, names in raw.items() if group != "_about" for name in names}


def classify(aten_name: str) -> OpClass | str:
    """The class of an aten op (``aten.mm.default`` or ``mm``); ``FREE`` if it runs no kernel."""
    base = aten_name.split(".")[1] if aten_name.startswith("aten.") else aten_name.split(".")[0]
    group = _table().get(base) or _table().get(base.rstrip("_"))
    if group is None:
        return OpClass.ELEMENTWISE
    return FREE if group == FREE else OpClass(group)


@dataclass(frozen=True)
class Op:
    """One traced kernel (identical ones merged: ``count``), as the roofline needs it."""

    name: str
    kind: OpClass
    flops: float
    bytes: float
    dtype: str  # compute dtype of a Tensor Core op: fp32, fp16, bf16, fp8; else of its data
    aligned: bool  # matrix dims are multiples of 8 (Tensor Core ops only; True otherwise)
    kernels: int = 1
    count: int = 1
