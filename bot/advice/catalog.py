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
    # The spec file's own yes/no; None where it has no such column or cell.
    has_tensor_cores: bool | None = None

    @property
    def tensor_cores(self) -> bool:
        """Whether 16-bit matrix units exist (P100 has none: FP16 runs on CUDA cores)."""
        if self.has_tensor_cores is not None:
            return self.has_tensor_cores
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


def _number(cell: str | None) -> float | None:
    cell = (cell or "").strip()
    try:
        return float(cell) if cell else None
    except ValueError:
        return None


def _integer(cell: str | None) -> int | None:
    value = _number(cell)
    return int(value) if value is not None and value == int(value) and value > 0 else None


def _rows(filename: str) -> list[dict[str, str]]:
    path = files("bot.advice").joinpath("data", filename)
    if not path.is_file():  # the practice file is collected separately
        return []
    return list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))


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
        num_gpus=_integer(_cell(row, "num_gpus", "gpu_count"))
        or (1 if level == PRACTICE else None),
        batch_fp32=_integer(_cell(row, "batch_size_fp32", "batch_fp32", "batch")),
        batch_amp=_integer(_cell(row, "batch_size_amp", "batch_amp", "batch")),
        baseline=baseline.rstrip("?") or "fp32",
        baseline_stated=not baseline.endswith("?"),
        precision=(_cell(row, "amp_precision", "precision") or "fp16").lower(),
        speedup=_number(_cell(row, "speedup", "ratio")),
        source_url=_cell(row, "source_url", "url"),
        notes=_cell(row, "notes"),
        row_type=row_type if level == TUNED else MEASURED_TABLE,
        level=level,
        architecture="recurrent" if code == "rnn" else None,
        setup_issue=_yes_no(row.get("setup_issue")) is True,
    )


@cache
def _all_measurements() -> tuple[Measurement, ...]:
    return tuple(_measurement(row, level) for name, level in EVIDENCE for row in _rows(name))


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


# Words that say nothing about which chip it is.
_GPU_NOISE = re.compile(
    r"\(.*?\)|\b(nvidia|geforce|tesla|quadro|amd|instinct|hgx|dgx|gpus?|\d+\s*gb|"
    r"sxm\d*|pcie|nvl|mig|x\d+|\d+x|max-?q|mobile|laptop)\b",
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


def _yes_no(cell: str | None) -> bool | None:
    text = (cell or "").strip().lower()
    if text in ("yes", "true", "1", "y"):
        return True
    if text in ("no", "false", "0", "n"):
        return False
    return None


@cache
def _specs() -> tuple[GpuSpec, ...]:
    specs = []
    for row in _rows("gpu_specs.csv"):
        if (row.get("device_type") or "gpu").strip().lower() != "gpu":
            continue  # TPUs are not GPUs the bot names
        key = gpu_key(row["name"])
        specs.append(
            GpuSpec(
                name=canonical_gpu(row["name"]) or re.sub(r"\s*\(.*?\)", "", row["name"]).strip(),
                key=key,
                published_name=row["name"],
                architecture=row.get("architecture") or "",
                year=_integer(row.get("year")),
                memory_gb=_number(row.get("memory_gb")),
                bandwidth_gbs=_number(row.get("memory_bandwidth_gbs")),
                fp32_tflops=_number(row.get("fp32_tflops")),
                tf32_tflops=_number(row.get("tf32_tflops")),
                fp16_tensor_tflops=_number(row.get("fp16_tensor_tflops")),
                bf16_tensor_tflops=_number(row.get("bf16_tensor_tflops")),
                fp8_tensor_tflops=_number(row.get("fp8_tensor_tflops")),
                source_url=row.get("source_url") or "",
                has_tensor_cores=_yes_no(row.get("tensor_cores")),
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
