"""GPUs as the advice sees them: one spec row per published device (``gpu_specs.csv``).

Any spelling of a chip ("GeForce RTX 3090", "rtx3090", "RTX A6000") finds its row
through one squashed key, and a variant (PCIe, SXM, memory size) through the words
it shares; a GPU the reader knows by a canonical name (``bot.models.GPU_NAMES``)
keeps that name.
"""

from __future__ import annotations

import csv
import re
from functools import cache
from importlib.resources import files

from pydantic import BaseModel, ConfigDict

from bot.models import GPU_NAMES


def number(cell: str | None) -> float | None:
    cell = (cell or "").strip()
    try:
        return float(cell) if cell else None
    except ValueError:
        return None


def integer(cell: str | None) -> int | None:
    value = number(cell)
    return int(value) if value is not None and value == int(value) and value > 0 else None


def data_rows(filename: str) -> list[dict[str, str]]:
    path = files("bot.advice").joinpath("data", filename)
    if not path.is_file():  # the practice file is collected separately
        return []
    return list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))


_GPU_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", re.IGNORECASE), name)
    for name in sorted(GPU_NAMES, key=len, reverse=True)
)


def canonical_gpu(published: str) -> str | None:
    """Canonical GPU for a published device name ("A100 80GB SXM4" -> "A100").

    Whole-token match, so "A10" never matches "A100" and "L4" never "L40S".
    """
    for pattern, name in _GPU_PATTERNS:
        if pattern.search(published):
            return name
    return None


class GpuSpec(BaseModel):
    """One published device row (dense peak TFLOPS; None = not published)."""

    model_config = ConfigDict(frozen=True)

    name: str  # canonical (GPU_NAMES) when the bot's reader knows it, else the spec key
    key: str  # what every spelling of this GPU squashes to (see :func:`gpu_key`)
    published_name: str
    architecture: str
    year: int | None
    memory_gb: float | None
    bandwidth_gbs: float | None
    fp32_tflops: float | None
    tf32_tflops: float | None
    fp16_tensor_tflops: float | None
    bf16_tensor_tflops: float | None
    fp8_tensor_tflops: float | None
    source_url: str
    # FP16 on the ordinary cores of a GPU without Tensor Cores (P100 2x its FP32 rate,
    # GeForce Pascal 1/64, Kepler none); None where not listed.
    fp16_cuda_core_tflops: float | None = None
    # The spec file's own yes/no; None where it has no such column or cell.
    has_tensor_cores: bool | None = None
    segment: str = "datacenter"  # consumer / workstation / datacenter (gpu_specs.md)

    @property
    def tensor_cores(self) -> bool:
        """Whether 16-bit matrix units exist (P100 has none: FP16 runs on CUDA cores)."""
        if self.has_tensor_cores is not None:
            return self.has_tensor_cores
        return self.fp16_tensor_tflops is not None

    @property
    def fast_fp16(self) -> bool:
        """FP16 at least at the FP32 rate on the ordinary cores (P100, GTX 16xx): without
        Tensor Cores, 16-bit then saves time on math as well as on memory traffic; at
        1/64 rate (GeForce Pascal) or with no FP16 math (Kepler), frameworks compute in
        FP32 and only the casts and halved memory traffic are left."""
        rate, fp32 = self.fp16_cuda_core_tflops, self.fp32_tflops
        return bool(rate and fp32 and rate >= fp32)

    @property
    def has_tf32(self) -> bool:
        """TF32 Tensor Cores exist from Ampere on; the CSV leaves some rates empty."""
        return self.tf32_tflops is not None or self.architecture.split()[0] in _TF32_ARCHITECTURES

    @property
    def tf32_rate(self) -> float | None:
        """Dense TF32 peak; where unpublished on an Ampere+ part, half the FP16 Tensor rate.

        Every Ampere/Ada/Hopper/Blackwell row in gpu_specs.csv with both figures has
        TF32 = FP16 Tensor / 2 (A100 156/312, H100 494.7/989.4, L4 60/121, L40S 183/362),
        so the same ratio stands in for the RTX 3090 and A10, whose TF32 cells are empty.
        """
        if self.tf32_tflops is not None:
            return self.tf32_tflops
        if self.has_tf32 and self.fp16_tensor_tflops is not None:
            return self.fp16_tensor_tflops / 2
        return None

    @property
    def bf16_rate(self) -> float | None:
        """Dense BF16 Tensor peak; where unpublished on an Ampere+ part, the FP16 rate.

        Every Ampere-or-newer row with both figures lists BF16 = FP16 (A100 312,
        H100 989.4, L4 121, L40S 362.05, RTX 4090 165.2), so the A10 and RTX 3090,
        whose BF16 cells are empty, get their FP16 rate. Volta/Turing have no BF16 units.
        """
        if self.bf16_tensor_tflops is not None:
            return self.bf16_tensor_tflops
        return self.fp16_tensor_tflops if self.has_tf32 else None


_TF32_ARCHITECTURES = frozenset({"Ampere", "Ada", "Hopper", "Blackwell"})

# Words that say nothing about which chip it is.
_GPU_NOISE = re.compile(
    r"\(.*?\)|\b(nvidia|geforce|tesla|quadro|amd|instinct|hgx|dgx|gpus?|\d+\s*gb|"
    r"sxm\d*|pcie|nvl|mig|x\d+|\d+x|max-?q|mobile|laptop|generation|grace|hopper|superchip)\b",
    re.IGNORECASE,
)


def gpu_key(name: str) -> str:
    """What every spelling of one chip squashes to: "GeForce RTX 3090" and "rtx3090" ->
    "3090", "A100 80GB SXM4" -> "a100", "RTX A6000" -> "a6000", "Titan RTX" -> "titanrtx".

    A leading RTX/GTX is a series word ("RTX 3090" = "3090"), a trailing one part of
    the name (Titan RTX); memory sizes and form factors pick a variant, not the chip.
    """
    text = _GPU_NOISE.sub(" ", name.lower())
    text = re.sub(r"^\s*(rtx|gtx)(?=[\s\d-])", " ", text)
    return re.sub(r"[^a-z0-9]", "", text)


def _tokens(name: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", name.lower()))


def yes_no(cell: str | None) -> bool | None:
    text = (cell or "").strip().lower()
    if text in ("yes", "true", "1", "y"):
        return True
    if text in ("no", "false", "0", "n"):
        return False
    return None


@cache
def _specs() -> tuple[GpuSpec, ...]:
    specs = []
    for row in data_rows("gpu_specs.csv"):
        if (row.get("device_type") or "gpu").strip().lower() != "gpu":
            continue  # TPUs are not GPUs the bot names
        key = gpu_key(row["name"])
        specs.append(
            GpuSpec(
                name=canonical_gpu(row["name"]) or re.sub(r"\s*\(.*?\)", "", row["name"]).strip(),
                key=key,
                published_name=row["name"],
                architecture=row.get("architecture") or "",
                year=integer(row.get("year")),
                memory_gb=number(row.get("memory_gb")),
                bandwidth_gbs=number(row.get("memory_bandwidth_gbs")),
                fp32_tflops=number(row.get("fp32_tflops")),
                tf32_tflops=number(row.get("tf32_tflops")),
                fp16_tensor_tflops=number(row.get("fp16_tensor_tflops")),
                bf16_tensor_tflops=number(row.get("bf16_tensor_tflops")),
                fp8_tensor_tflops=number(row.get("fp8_tensor_tflops")),
                fp16_cuda_core_tflops=number(row.get("fp16_cuda_core_tflops")),
                source_url=row.get("source_url") or "",
                has_tensor_cores=yes_no(row.get("tensor_cores")),
                segment=(row.get("segment") or "datacenter").strip(),
            )
        )
    # A chip's first row names it: later variants of a canonical GPU keep the canonical name.
    names = {}
    for spec in specs:
        names.setdefault(spec.key, spec.name)
    return tuple(spec.model_copy(update={"name": names[spec.key]}) for spec in specs)


@cache
def spec_for(published: str) -> GpuSpec | None:
    """The spec row for a GPU as anyone wrote it: the same chip, then the variant whose
    name shares most words ("H100 80GB PCIe" -> the PCIe row)."""
    if not published:
        return None
    canonical = canonical_gpu(published)
    key = gpu_key(canonical) if canonical else gpu_key(published)
    variants = [spec for spec in _specs() if spec.key == key]
    if not variants:
        return None
    words = _tokens(published)
    return max(variants, key=lambda spec: len(words & _tokens(spec.published_name)))


def known_gpus() -> tuple[str, ...]:
    """Every GPU the spec file describes, by the name the advice uses."""
    return tuple(dict.fromkeys(spec.name for spec in _specs()))


def gpu_variants(gpu: str) -> tuple[GpuSpec, ...]:
    """Every published row for a GPU (e.g. A100 40GB/80GB, SXM/PCIe)."""
    key = gpu_key(canonical_gpu(gpu) or gpu)
    return tuple(spec for spec in _specs() if spec.key == key)


def gpu_spec(gpu: str | None) -> GpuSpec | None:
    """The representative row for a GPU: the first listed (the SXM part).

    Variants of one GPU share their compute ratios (V100 PCIe 112/14 = SXM2 125/15.7
    = 8x), which is what the ratio model mostly uses; memory differs, see
    :func:`gpu_memory_gb`.
    """
    variants = gpu_variants(gpu) if gpu else ()
    return variants[0] if variants else None


def gpu_memory_gb(gpu: str) -> float | None:
    """Largest published memory for a GPU (A100 -> 80, V100 -> 32).

    Users who name "A100" without a size most often mean the 80GB part today;
    callers that know the size pass it explicitly instead.
    """
    sizes = [spec.memory_gb for spec in gpu_variants(gpu) if spec.memory_gb is not None]
    return max(sizes) if sizes else None
