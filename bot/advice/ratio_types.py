"""The types a ratio prediction is made of: the setup asked about, the answer, its reasons.

Kept apart from :mod:`bot.advice.prediction` so the team-records and measured
rooms can use them without importing the predictor.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Protocol

from pydantic import BaseModel, Field


class Basis(StrEnum):
    MEASURED = "measured"  # matching published measurements
    # Matching published (tuned) measurements, moved to what real projects see.
    MEASURED_REALISTIC = "measured_realistic"  # said when the user's run is input-bound etc.
    TEAM = "team"  # the team's own records
    MODELLED = "modelled"  # model over family, GPU, count, batch, precision, baseline
    TYPICAL = "typical"  # the guide's 1.2-2.5 when nothing is known
    REPORTED = "reported"  # published CPU runs and maintainers' reports (bot.advice.cpu)


class Factor(StrEnum):
    """Why the prediction is what it is; rendering words each code."""

    MEASURED_MATCH = "measured_match"  # params: n (rows), models, gpus
    TEAM_RECORDS = "team_records"  # params: n, ratio, models, gpus
    GPU_GENERATION = "gpu_generation"  # params: gpu, architecture, peak_ratio
    NO_TENSOR_CORES = "no_tensor_cores"  # params: gpu
    # The job runs on a CPU: BF16 autocast gains only with BF16 instructions
    # (params: precision, gain_low, gain_high: the gain reported with them).
    CPU_DEVICE = "cpu_device"
    # params: gpu, why (see features.implied_baseline), fp32_ratio
    TF32_BASELINE = "tf32_baseline"
    # A strict-FP32 baseline on a TF32-capable GPU: asked for, or stock PyTorch's matmuls.
    STRICT_FP32_BASELINE = "strict_fp32_baseline"  # params: gpu, why, tf32_ratio
    MULTI_GPU = "multi_gpu"  # params: num_gpus
    # params: batch_fp32, batch_amp, published (1: the published runs' batches, not the user's)
    LARGER_AMP_BATCH = "larger_amp_batch"
    PRECISION = "precision"  # params: precision, supported (0/1), instead (what is assumed)
    FAMILY_PRIOR = "family_prior"  # params: family
    # A memory-bound model with no rows (RNN- or embedding-heavy) got the shift below.
    MEMORY_BOUND = "memory_bound"
    # The named framework picked the model's published runs (matched 1), or had none (0).
    FRAMEWORK = "framework"  # params: framework, matched (0/1)
    TYPICAL = "typical"
    # A GPU the spec file has no row for: its ratio is not guessed from its name.
    UNKNOWN_GPU = "unknown_gpu"  # params: gpu
    # The framework's projects report broken runs often enough that the range reaches
    # down to them (params: framework).
    BROKEN_SETUPS = "broken_setups"
    # What real projects report, beside the lead (params: ratio, low, high).
    PROJECTS = "projects"
    # What the user said about the run moved the lead (params: run = busy | input_bound |
    # small_model | pure_fp16).
    RUN_EVIDENCE = "run_evidence"
    # The one fact that would narrow the range most (params: fact = utilisation |
    # batch | baseline | gpu | model).
    NARROW_BY = "narrow_by"


# Factor params stay flat strings (plain JSON); a list of names is joined with
# this and split again by rendering, which joins it the reader's way ("a و b").
NAMES_SEPARATOR = ", "


def joined_names(names: Iterable[str | None]) -> str:
    """Distinct names, sorted, or "" when any is missing: a list that names a GPU
    or model for some runs only would describe the others as if they had it."""
    names = list(names)
    if not names or not all(names):
        return ""
    return NAMES_SEPARATOR.join(sorted({n for n in names if n}))


class FactorNote(BaseModel):
    code: Factor
    params: dict[str, str | int | float] = Field(default_factory=dict)


class Setup(BaseModel):
    """What is known about the training job; every field optional."""

    gpu: str | None = None
    model: str | None = None
    family: str | None = None
    num_gpus: int | None = None
    precision: str | None = None
    baseline: str | None = None
    framework: str | None = None  # PyTorch | TensorFlow | JAX | MXNet | PaddlePaddle
    architecture: str | None = None  # "recurrent" (LSTM/GRU layers)
    batch_fp32: int | None = None
    batch_amp: int | None = None
    dimensions: int | None = None  # 3 for "3D U-Net": its own rows, not the 2D ones
    # What the user said about the run (bot.models.RUN_EVIDENCE): "DALI", "100%
    # utilisation" (busy); "data loading is the bottleneck", "CPU-bound" (input_bound);
    # "tiny model" (small_model); "pure fp16", ".half()" (pure_fp16).
    run: str | None = None
    # log of the roofline ratio of the user's own traced step on the GPU (mpbot predict's
    # --factory): the model's term for a step no catalog profile describes.
    roof: float | None = None


class ProjectsRange(BaseModel):
    """What real projects report for the setup (``projects`` in ``--json``)."""

    ratio: float
    low: float
    high: float


class Prediction(BaseModel):
    ratio: float
    low: float
    high: float
    basis: Basis
    sources: list[str] = Field(default_factory=list)
    factors: list[FactorNote] = Field(default_factory=list)
    # True when something named (GPU, model or family) narrowed the guess.
    named: bool = False
    # What the estimate assumed where the setup was silent.
    family: str | None = None
    precision: str | None = None
    baseline: str | None = None
    # With basis ``team``: the published or modelled figure to show beside it.
    reference: Prediction | None = None
    # What a run that keeps the GPU busy gets (the lead, unless the user's words moved it
    # to what projects see); None where only one figure exists (no Tensor Cores, the rule).
    tuned: float | None = None
    # What real projects report, beside the lead: its own figure and 80% range.
    projects: ProjectsRange | None = None


class TeamRecord(Protocol):
    """What a stored team measurement must offer (fields may be None).

    A ``baseline`` attribute (fp32 | tf32), when present, must agree too.
    """

    gpu: str | None
    model: str | None
    family: str | None
    num_gpus: int | None
    precision: str | None
    ratio: float
