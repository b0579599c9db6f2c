"""Published data the advice layer stands on, loaded once from the package.

CSVs ship in ``bot/advice/data`` (copies of ``shared/data`` or collected here):

* ``amp_speedups.csv``: FP32/TF32 vs mixed-precision throughput pairs, mostly
  NVIDIA DeepLearningExamples (DLE) READMEs, each with the URL of its table line.
* ``lambda_benchmark.csv``: Lambda's PyTorch benchmark (DLE scripts in NGC
  containers, FP32 = TF32 on Ampere+, each precision at its own largest batch).
* ``practice_measurements.csv``: what users measured in their own projects
  (issues, PRs, forums), with the URL; level ``practice``, the others ``tuned``.
* ``gpu_specs.csv``: dense peak rates, memory and bandwidth per GPU, with sources.

Rows are mapped to the canonical names of :mod:`bot.models` (``GPU_NAMES``,
``MODEL_NAMES``) so that whatever spelling the user wrote, once understood,
finds its measurements. Only rows whose ``row_type`` is ``measured_table`` are
offered as measurements: issue reports and vendor quotes are kept apart
(:func:`other_rows`) because they are not controlled pairs.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import cache

from pydantic import BaseModel, ConfigDict

from bot.advice.gpus import (  # noqa: F401  (re-exported: the catalog's GPU half)
    GpuSpec,
    canonical_gpu,
    data_rows,
    gpu_key,
    gpu_memory_gb,
    gpu_spec,
    gpu_variants,
    integer,
    known_gpus,
    number,
    spec_for,
    yes_no,
)
from bot.models import MODEL_NAMES

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
    (r"\bgnmt", "GNMT"),
    (r"\bncf\b", "NCF"),
    (r"\bjasper\b", "Jasper"),
    (r"wide\s*(&|and|n)\s*deep", "Wide&Deep"),
    (r"\bdlrm\b", "DLRM"),
    (r"\bgpt-?2\b", "GPT-2"),
    (r"waveglow", "WaveGlow"),
)

# Task wording (and, for practice rows, well-known model words) -> family, used only
# when the model has no canonical name; first match wins.
_TASK_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"detection|instance segmentation|yolo|detr|r-?cnn|retinanet", Family.DETECTION),
    (r"segmentation|u-?net|segformer|deeplab", Family.SEGMENTATION),
    (r"translation|\bnmt\b|marian", Family.TRANSLATION),
    (r"text-to-speech|\btts\b|vocoder|hifi-?gan|vits\b", Family.TTS),
    (r"speech recognition|\basr\b|whisper|wav2vec|conformer", Family.SPEECH_RECOGNITION),
    (r"recommend|\bctr\b", Family.RECOMMENDER),
    (r"graph|\bgnn\b|molecul", Family.GRAPH),
    (
        (
            r"image classification|imagenet|cifar|resnet|resnext|\bvit\b|swin|convnext|vgg|"
            r"mobilenet|densenet|inception|regnet|efficientnet"
        ),
        Family.IMAGE_CLASSIFICATION,
    ),
    (
        (
            r"language model|question answering|pre-training|\bner\b|\bllm\b|gpt|llama|bert|"
            r"\bt5\b|\bopt\b|bloom|mistral|qwen|nanogpt|\bphi\b"
        ),
        Family.LANGUAGE_MODEL,
    ),
)


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


TUNED = "tuned"  # vendor and benchmark tables: tuned scripts, each precision at its best batch
PRACTICE = "practice"  # what users measured in their own projects


class Measurement(BaseModel):
    """One baseline vs mixed-precision pair, tuned (a benchmark table) or from practice."""

    model_config = ConfigDict(frozen=True)

    published_model: str
    model: str | None  # canonical, None when not one of MODEL_NAMES
    task: str
    family: str | None
    framework: str
    published_gpu: str
    gpu: str | None  # canonical (GPU_NAMES) or the spec's name
    num_gpus: int | None
    batch_fp32: int | None
    batch_amp: int | None
    baseline: str  # fp32 | tf32
    precision: str  # fp16 (bf16 where stated)
    speedup: float | None
    source_url: str
    notes: str
    row_type: str
    level: str = TUNED
    architecture: str | None = None  # "recurrent" (LSTM/GRU/SRU layers)
    baseline_stated: bool = True  # False: "fp32?" (an Ampere+ default the source did not say)
    setup_issue: bool = False  # the thread showed a misconfigured run or a framework bug

    @property
    def larger_amp_batch(self) -> bool:
        """The mixed-precision run used a bigger batch than the baseline (DLE often did)."""
        return (
            self.batch_fp32 is not None
            and self.batch_amp is not None
            and self.batch_amp > self.batch_fp32
        )


# Evidence files and the level each stands for.
EVIDENCE = (
    ("amp_speedups.csv", TUNED),
    ("lambda_benchmark.csv", TUNED),
    ("practice_measurements.csv", PRACTICE),
)


def _cell(row: dict[str, str], *names: str) -> str:
    """The first non-empty of several column spellings (the practice file's are its own)."""
    return next((row[n].strip() for n in names if (row.get(n) or "").strip()), "")


# The practice file's model_family codes -> families (gan, diffusion, mlp, other: none).
_PRACTICE_FAMILIES = {
    "cnn": Family.IMAGE_CLASSIFICATION,
    "transformer/nlp": Family.LANGUAGE_MODEL,
    "detection": Family.DETECTION,
    "segmentation": Family.SEGMENTATION,
    "speech": Family.SPEECH_RECOGNITION,
    "rnn": Family.LANGUAGE_MODEL,
}


def _family(model: str | None, task: str, published_model: str, code: str) -> str | None:
    return (
        family_of_model(model)
        or _family_of_task(f"{task} {published_model}")
        or _PRACTICE_FAMILIES.get(code)
    )


def _measurement(row: dict[str, str], level: str) -> Measurement:
    published_model = _cell(row, "model")
    task = _cell(row, "task")
    model = canonical_model(published_model)
    spec = spec_for(_cell(row, "gpu"))
    row_type = _cell(row, "row_type").split(" ")[0] or MEASURED_TABLE
    code = _cell(row, "model_family").lower()
    baseline = _cell(row, "baseline_precision", "baseline").lower()
    return Measurement(
        published_model=published_model,
        model=model,
        task=task,
        family=_family(model, task, published_model, code),
        framework=_cell(row, "framework"),
        published_gpu=_cell(row, "gpu"),
        gpu=spec.name if spec else None,
        num_gpus=integer(_cell(row, "num_gpus", "gpu_count")) or (1 if level == PRACTICE else None),
        batch_fp32=integer(_cell(row, "batch_size_fp32", "batch_fp32", "batch")),
        batch_amp=integer(_cell(row, "batch_size_amp", "batch_amp", "batch")),
        baseline=baseline.rstrip("?") or "fp32",
        baseline_stated=not baseline.endswith("?"),
        precision=(_cell(row, "amp_precision", "precision") or "fp16").lower(),
        speedup=number(_cell(row, "speedup", "ratio")),
        source_url=_cell(row, "source_url", "url"),
        notes=_cell(row, "notes"),
        row_type=row_type if level == TUNED else MEASURED_TABLE,
        level=level,
        architecture="recurrent" if code == "rnn" else None,
        setup_issue=yes_no(row.get("setup_issue")) is True,
    )


@cache
def _all_measurements() -> tuple[Measurement, ...]:
    return tuple(_measurement(row, level) for name, level in EVIDENCE for row in data_rows(name))


def measurements(*, any_gpu: bool = False) -> tuple[Measurement, ...]:
    """Measured rows with a ratio, a GPU count and (unless ``any_gpu``) a GPU with a
    spec row; practice rows the thread showed broken are kept and flagged."""
    return tuple(
        m
        for m in _all_measurements()
        if m.row_type == MEASURED_TABLE
        and m.speedup is not None
        and m.speedup > 0
        and (any_gpu or m.gpu is not None)
        and m.num_gpus is not None
        and m.baseline in ("fp32", "tf32")
    )


def other_rows() -> tuple[Measurement, ...]:
    """Issue reports and vendor/paper claims: context only, never fitted or matched."""
    return tuple(m for m in _all_measurements() if m.row_type != MEASURED_TABLE)
