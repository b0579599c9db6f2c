"""Published data the advice layer stands on, loaded once from the package.

Two CSVs ship in ``bot/advice/data`` (copies of ``shared/data``):

* ``amp_speedups.csv``: FP32/TF32 vs mixed-precision throughput pairs, mostly
  NVIDIA DeepLearningExamples (DLE) READMEs, each with the URL of its table line.
* ``gpu_specs.csv``: dense peak rates and memory per GPU, with sources.

Rows are mapped to the canonical names of :mod:`bot.models` (``GPU_NAMES``,
``MODEL_NAMES``) so that whatever spelling the user wrote, once understood,
finds its measurements. Only rows whose ``row_type`` is ``measured_table`` are
offered as measurements: issue reports and vendor quotes are kept apart
(:func:`other_rows`) because they are not controlled pairs.
"""

from __future__ import annotations

import csv
import re
from enum import StrEnum
from functools import cache
from importlib.resources import files

from pydantic import BaseModel, ConfigDict

from bot.models import GPU_NAMES, MODEL_NAMES

MEASURED_TABLE = "measured_table"


class Family(StrEnum):
    """Task-family codes shared with the understanding layer (stable strings)."""

    IMAGE_CLASSIFICATION = "image_classification"
    DETECTION = "detection"
    SEGMENTATION = "segmentation"
    LANGUAGE_MODEL = "language_model"
    TRANSLATION = "translation"
    SPEECH_RECOGNITION = "speech_recognition"
    TTS = "tts"
    RECOMMENDER = "recommender"
    TIME_SERIES = "time_series"
    GRAPH = "graph"


FAMILIES: tuple[str, ...] = tuple(Family)

# Coarser groups, so a family with no measurement of its own can borrow from
# its neighbours (vision nets are conv-heavy, language/translation are
# attention/GEMM-heavy, speech and recommender models are memory-bound mixes).
FAMILY_GROUP: dict[str, str] = {
    Family.IMAGE_CLASSIFICATION: "vision",
    Family.DETECTION: "vision",
    Family.SEGMENTATION: "vision",
    Family.LANGUAGE_MODEL: "text",
    Family.TRANSLATION: "text",
    Family.SPEECH_RECOGNITION: "audio",
    Family.TTS: "audio",
    Family.RECOMMENDER: "sparse",
    Family.TIME_SERIES: "sparse",
    Family.GRAPH: "sparse",
}

# What each canonical model is, so a model the data lacks still has a family.
MODEL_FAMILY: dict[str, str] = {
    "ResNet-50": Family.IMAGE_CLASSIFICATION,
    "EfficientNet": Family.IMAGE_CLASSIFICATION,
    "BERT": Family.LANGUAGE_MODEL,
    "GPT-2": Family.LANGUAGE_MODEL,
    "Transformer-XL": Family.LANGUAGE_MODEL,
    "Transformer": Family.TRANSLATION,
    "GNMT": Family.TRANSLATION,
    "Mask R-CNN": Family.DETECTION,
    "SSD": Family.DETECTION,
    "UNet": Family.SEGMENTATION,
    "V-Net": Family.SEGMENTATION,
    "Tacotron2": Family.TTS,
    "FastSpeech": Family.TTS,
    "WaveGlow": Family.TTS,
    "Jasper": Family.SPEECH_RECOGNITION,
    "NCF": Family.RECOMMENDER,
    "Wide&Deep": Family.RECOMMENDER,
    "DLRM": Family.RECOMMENDER,
    "SE3-Transformer": Family.GRAPH,
}

# Published model names -> canonical; first match wins, so specific before general.
_MODEL_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"resnet-?50\b", "ResNet-50"),
    (r"\bbert\b|biobert", "BERT"),
    (r"\bssd\d*", "SSD"),
    (r"mask\s*r-?cnn", "Mask R-CNN"),
    (r"\bv-?net\b", "V-Net"),
    (r"\bu-?net\b", "UNet"),
    (r"tacotron\s*2", "Tacotron2"),
    (r"fastspeech", "FastSpeech"),
    (r"efficientnet", "EfficientNet"),
    (r"transformer-xl", "Transformer-XL"),
    (r"^transformer\b", "Transformer"),
)

# Task wording in the CSV -> family (used only when the model has no canonical name).
_TASK_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"image classification", Family.IMAGE_CLASSIFICATION),
    (r"detection|instance segmentation", Family.DETECTION),
    (r"segmentation", Family.SEGMENTATION),
    (r"translation", Family.TRANSLATION),
    (r"language model|question answering|pre-training|ner ", Family.LANGUAGE_MODEL),
    (r"text-to-speech", Family.TTS),
)

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


def canonical_model(published: str) -> str | None:
    """Canonical model for a published model name ("SSD300 v1.1" -> "SSD").

    The parenthesised part names a backbone or a base ("SSD300 (ResNet-50
    backbone)"), never the model itself, so it is ignored.
    """
    text = re.sub(r"\(.*?\)", "", published).lower().strip()
    for pattern, name in _MODEL_PATTERNS:
        if re.search(pattern, text):
            return name if name in MODEL_NAMES else None
    return None


def family_of_model(model: str | None) -> str | None:
    """Task family of a canonical model, or None when unknown."""
    return MODEL_FAMILY.get(model) if model else None


# Canonical models built on LSTM layers: memory-bound, so Tensor Cores help them less.
RECURRENT_MODELS = frozenset({"Tacotron2", "GNMT"})


def is_recurrent(model: str | None, architecture: str | None = None) -> bool:
    """Recurrent layers named by the user ("LSTM") or known from the model's name."""
    return architecture == "recurrent" or model in RECURRENT_MODELS


def _family_of_task(task: str) -> str | None:
    text = task.lower()
    for pattern, family in _TASK_PATTERNS:
        if re.search(pattern, text):
            return family
    return None


class GpuSpec(BaseModel):
    """One published device row (dense peak TFLOPS; None = not published)."""

    model_config = ConfigDict(frozen=True)

    name: str  # canonical
    published_name: str
    architecture: str
    year: int | None
    memory_gb: float | None
    fp32_tflops: float | None
    tf32_tflops: float | None
    fp16_tensor_tflops: float | None
    bf16_tensor_tflops: float | None
    fp8_tensor_tflops: float | None
    source_url: str

    @property
    def tensor_cores(self) -> bool:
        """Whether 16-bit matrix units exist (P100 has none: FP16 runs on CUDA cores)."""
        return self.fp16_tensor_tflops is not None

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


class Measurement(BaseModel):
    """One published baseline vs mixed-precision pair."""

    model_config = ConfigDict(frozen=True)

    published_model: str
    model: str | None  # canonical, None when not one of MODEL_NAMES
    task: str
    family: str | None
    framework: str
    published_gpu: str
    gpu: str | None  # canonical
    num_gpus: int | None
    batch_fp32: int | None
    batch_amp: int | None
    baseline: str  # fp32 | tf32
    precision: str  # fp16 (bf16 where stated)
    speedup: float | None
    source_url: str
    notes: str
    row_type: str

    @property
    def larger_amp_batch(self) -> bool:
        """The mixed-precision run used a bigger batch than the baseline (DLE often did)."""
        return (
            self.batch_fp32 is not None
            and self.batch_amp is not None
            and self.batch_amp > self.batch_fp32
        )


def _number(cell: str) -> float | None:
    cell = cell.strip()
    return float(cell) if cell else None


def _integer(cell: str) -> int | None:
    cell = cell.strip()
    return int(cell) if cell.isdigit() else None


def _rows(filename: str) -> list[dict[str, str]]:
    text = files("bot.advice").joinpath("data", filename).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


@cache
def _all_measurements() -> tuple[Measurement, ...]:
    rows = []
    for row in _rows("amp_speedups.csv"):
        model = canonical_model(row["model"])
        rows.append(
            Measurement(
                published_model=row["model"],
                model=model,
                task=row["task"],
                family=family_of_model(model) or _family_of_task(row["task"]),
                framework=row["framework"],
                published_gpu=row["gpu"],
                gpu=canonical_gpu(row["gpu"]),
                num_gpus=_integer(row["num_gpus"]),
                batch_fp32=_integer(row["batch_size_fp32"]),
                batch_amp=_integer(row["batch_size_amp"]),
                baseline=row["baseline_precision"].strip().lower(),
                precision=row["amp_precision"].strip().lower(),
                speedup=_number(row["speedup"]),
                source_url=row["source_url"],
                notes=row["notes"],
                row_type=row["row_type"].split(" ")[0],
            )
        )
    return tuple(rows)


def measurements() -> tuple[Measurement, ...]:
    """Measured-table rows with a speedup, a known GPU and a GPU count (the fitting set)."""
    return tuple(
        m
        for m in _all_measurements()
        if m.row_type == MEASURED_TABLE
        and m.speedup is not None
        and m.gpu is not None
        and m.num_gpus is not None
    )


def other_rows() -> tuple[Measurement, ...]:
    """Issue reports and vendor/paper claims: context only, never fitted or matched."""
    return tuple(m for m in _all_measurements() if m.row_type != MEASURED_TABLE)


@cache
def _specs() -> tuple[GpuSpec, ...]:
    specs = []
    for row in _rows("gpu_specs.csv"):
        name = canonical_gpu(row["name"])
        if name is None:  # TPUs are not GPUs the bot names
            continue
        specs.append(
            GpuSpec(
                name=name,
                published_name=row["name"],
                architecture=row["architecture"],
                year=_integer(row["year"]),
                memory_gb=_number(row["memory_gb"]),
                fp32_tflops=_number(row["fp32_tflops"]),
                tf32_tflops=_number(row["tf32_tflops"]),
                fp16_tensor_tflops=_number(row["fp16_tensor_tflops"]),
                bf16_tensor_tflops=_number(row["bf16_tensor_tflops"]),
                fp8_tensor_tflops=_number(row["fp8_tensor_tflops"]),
                source_url=row["source_url"],
            )
        )
    return tuple(specs)


def gpu_variants(gpu: str) -> tuple[GpuSpec, ...]:
    """Every published row for a canonical GPU (e.g. A100 40GB/80GB, SXM/PCIe)."""
    return tuple(spec for spec in _specs() if spec.name == gpu)


def gpu_spec(gpu: str | None) -> GpuSpec | None:
    """The representative row for a canonical GPU: the first listed (the SXM part).

    Variants of one GPU share their compute ratios (V100 PCIe 112/14 = SXM2 125/15.7
    = 8x), which is all the ratio model uses; memory differs, see :func:`gpu_memory_gb`.
    """
    variants = gpu_variants(gpu) if gpu else ()
    return variants[0] if variants else None


def gpu_memory_gb(gpu: str) -> float | None:
    """Largest published memory for a canonical GPU (A100 -> 80, V100 -> 32).

    Users who name "A100" without a size most often mean the 80GB part today;
    callers that know the size pass it explicitly instead.
    """
    sizes = [spec.memory_gb for spec in gpu_variants(gpu) if spec.memory_gb is not None]
    return max(sizes) if sizes else None
