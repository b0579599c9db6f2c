"""Per-variant GPU rows from ``bot/advice/data/gpu_specs.csv``, with bandwidth, and
finding one by a name the user typed.

The advice catalog folds variants into canonical names (A100 40GB and 80GB are
one "A100" there); a roofline needs each part's own bandwidth, so this reads
every row. ``--gpu`` matches by words: "a100 80gb" finds "A100 80GB SXM4",
"H100 PCIe" finds "H100 PCIe 80GB"; several matches take the first listed,
as the catalog does.
"""

from __future__ import annotations

import csv
import difflib
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

# From Ampere on, every row with both figures has TF32 = FP16 Tensor / 2 and
# BF16 = FP16 (see bot.advice.catalog.GpuSpec); the same stands in for empty cells.
_TF32_ARCHITECTURES = frozenset({"Ampere", "Ada", "Hopper", "Blackwell"})
# Columns data-gpu may add for the FP32-accumulate dense rate; first present wins.
_FP16_COLUMNS = ("fp16_tensor_fp32acc_tflops", "fp16_tensor_tflops")
_BF16_COLUMNS = ("bf16_tensor_fp32acc_tflops", "bf16_tensor_tflops")


class UnknownGpu(ValueError):
    """No GPU row matches; the message lists the close names."""


@dataclass(frozen=True)
class Gpu:
    name: str
    architecture: str
    bandwidth_gbs: float
    fp32: float  # dense TFLOPS on CUDA cores
    tf32: float | None
    fp16: float | None  # Tensor Core, FP32 accumulate; None = no Tensor Cores
    bf16: float | None
    fp8: float | None

    @property
    def size_tflops(self) -> float:
        """How big the GPU is, for the efficiency it reaches: its largest dense 16-bit rate."""
        return max(r for r in (self.fp16, self.bf16, self.fp32) if r is not None)

    def peak(self, mode: str) -> float | None:
        """Dense peak TFLOPS of a math mode (fp32, tf32, fp16, bf16, fp8); None if absent."""
        return {
            "fp32": self.fp32,
            "tf32": self.tf32,
            "fp16": self.fp16,
            "bf16": self.bf16,
            "fp8": self.fp8,
        }[mode]


def _number(row: dict[str, str], *columns: str) -> float | None:
    for column in columns:
        cell = (row.get(column) or "").strip()
        if cell:
            return float(cell)
    return None


def _gpu(row: dict[str, str]) -> Gpu | None:
    fp32, bandwidth = _number(row, "fp32_tflops"), _number(row, "memory_bandwidth_gbs")
    if fp32 is None or bandwidth is None or row.get("device_type", "gpu").strip() != "gpu":
        return None
    family = row["architecture"].split()[0]
    fp16 = _number(row, *_FP16_COLUMNS)
    ampere_on = family in _TF32_ARCHITECTURES
    tf32 = _number(row, "tf32_tflops") or (fp16 / 2 if ampere_on and fp16 else None)
    bf16 = _number(row, *_BF16_COLUMNS) or (fp16 if ampere_on else None)
    return Gpu(
        name=row["name"].strip(),
        architecture=row["architecture"].strip(),
        bandwidth_gbs=bandwidth,
        fp32=fp32,
        tf32=tf32,
        fp16=fp16,
        bf16=bf16,
        fp8=_number(row, "fp8_tensor_tflops"),
    )


@cache
def gpus() -> tuple[Gpu, ...]:
    text = files("bot.advice").joinpath("data", "gpu_specs.csv").read_text(encoding="utf-8")
    rows = (_gpu(row) for row in csv.DictReader(text.splitlines()))
    return tuple(g for g in rows if g is not None)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+\d*[a-z]*|\d+[a-z]*", text.lower().replace("geforce", ""))


def _matches(query: list[str], name: str, *, exact: bool) -> bool:
    words = _words(name)
    return all(
        any(w == q or (not exact and len(q) >= 3 and w.startswith(q)) for w in words) for q in query
    )


def find_gpu(text: str) -> Gpu:
    """The row ``text`` names, or :class:`UnknownGpu` listing the closest names."""
    query = _words(text)
    for exact in (True, False):  # "L40" is the L40 if listed, else the L40S
        found = [g for g in gpus() if query and _matches(query, g.name, exact=exact)]
        if found:
            return found[0]
    names = [g.name for g in gpus()]
    close = difflib.get_close_matches(text, names, n=5, cutoff=0.3)
    close += [n for n in names if n not in close and any(q in n.lower() for q in query)][:3]
    hint = f" Close names: {', '.join(close)}." if close else ""
    raise UnknownGpu(
        f"no GPU called {text!r} in gpu_specs.csv.{hint} "
        f"Known: {len(names)} GPUs (see docs/predict.md)."
    )
