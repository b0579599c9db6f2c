"""Predict the mixed-precision reduction ratio for a setup (interface stub).

The real model (published measurements first, then a model over task family,
GPU generation, GPU count, batch change, precision and baseline) replaces the
body; the signature and the ``Prediction`` shape are the contract the
estimator relies on.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, Field

TYPICAL_LOW = 1.2
TYPICAL_HIGH = 2.5


class Basis(StrEnum):
    MEASURED = "measured"  # matching published measurements
    TEAM = "team"  # the team's own records
    MODELLED = "modelled"  # model over family, GPU, count, batch, precision, baseline
    TYPICAL = "typical"  # the guide's 1.2-2.5 when nothing is known


class Factor(StrEnum):
    """Why the prediction is what it is; rendering words each code."""

    MEASURED_MATCH = "measured_match"  # params: n (rows), models, gpus
    TEAM_RECORDS = "team_records"  # params: n, ratio
    GPU_GENERATION = "gpu_generation"  # params: gpu, architecture
    NO_TENSOR_CORES = "no_tensor_cores"  # params: gpu
    TF32_BASELINE = "tf32_baseline"  # params: gpu
    MULTI_GPU = "multi_gpu"  # params: num_gpus
    LARGER_AMP_BATCH = "larger_amp_batch"  # params: batch_fp32, batch_amp
    PRECISION = "precision"  # params: precision
    FAMILY_PRIOR = "family_prior"  # params: family
    TYPICAL = "typical"


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
    batch_fp32: int | None = None
    batch_amp: int | None = None


class Prediction(BaseModel):
    ratio: float
    low: float
    high: float
    basis: Basis
    sources: list[str] = Field(default_factory=list)
    factors: list[FactorNote] = Field(default_factory=list)
    # True when something named (GPU, model or family) narrowed the guess.
    named: bool = False


def predict(setup: Setup) -> Prediction:
    """Stub: the guide's typical range until the model lands."""
    return Prediction(
        ratio=round((TYPICAL_LOW * TYPICAL_HIGH) ** 0.5, 2),
        low=TYPICAL_LOW,
        high=TYPICAL_HIGH,
        basis=Basis.TYPICAL,
        factors=[FactorNote(code=Factor.TYPICAL)],
    )
