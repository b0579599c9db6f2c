"""Typed team measurements: what a user wrote (a draft) and what is stored (a record).

A draft keeps the user's own numbers (step times with their unit, or
throughputs, or a ratio) so the reply can echo them and validation can say
exactly which half is missing; a record adds who, when and the computed ratio.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

MAX_MODEL_CHARS = 60  # free-text model names are cut to this length (the column's)
MAX_GPU_CHARS = 32  # free-text GPU names (modal), likewise


class StepUnit(StrEnum):
    """Units a training step time can be written in."""

    MICROSECONDS = "us"
    MILLISECONDS = "ms"
    SECONDS = "s"


SECONDS_PER_STEP_UNIT: dict[StepUnit, float] = {
    StepUnit.MICROSECONDS: 1e-6,
    StepUnit.MILLISECONDS: 1e-3,
    StepUnit.SECONDS: 1.0,
}


class StepTime(BaseModel):
    """Time of one training step, as written."""

    model_config = ConfigDict(frozen=True)

    value: float
    unit: StepUnit = StepUnit.MILLISECONDS

    @property
    def seconds(self) -> float:
        return self.value * SECONDS_PER_STEP_UNIT[self.unit]


class Throughput(BaseModel):
    """Work done per second (images, tokens, sequences...), as written.

    ``unit`` is a normalised label such as ``img/s``; two throughputs only
    compare when their labels agree (an empty label agrees with any).
    """

    model_config = ConfigDict(frozen=True)

    value: float
    unit: str = ""


class Measure(StrEnum):
    """Which kind of numbers a measurement was given in."""

    STEP_TIME = "step_time"
    THROUGHPUT = "throughput"
    RATIO = "ratio"


class RecordSetup(BaseModel):
    """The setup a measurement was taken on; names are canonical when known."""

    gpu: str | None = Field(default=None, max_length=MAX_GPU_CHARS)
    model: str | None = Field(default=None, max_length=MAX_MODEL_CHARS)
    family: str | None = None
    num_gpus: int | None = Field(default=None, ge=1)
    precision: str | None = None  # fp16 | bf16 | fp8
    baseline: str | None = None  # fp32 | tf32


class RecordDraft(RecordSetup):
    """A measurement as the user gave it, before validation."""

    fp32_step: StepTime | None = None
    mixed_step: StepTime | None = None
    fp32_throughput: Throughput | None = None
    mixed_throughput: Throughput | None = None
    ratio: float | None = None  # stated directly ("ratio 1.9")


class Record(RecordSetup):
    """A validated measurement stored for one workspace."""

    model_config = ConfigDict(frozen=True)

    id: int
    team_id: str
    user_id: str
    created_at: datetime
    ratio: float
    measure: Measure
    # The user's own numbers, kept so history can show them (None for a ratio).
    fp32_value: float | None = None
    mixed_value: float | None = None
    unit: str | None = None


class RecordPage(BaseModel):
    """One page of a workspace's records, newest first."""

    records: list[Record]
    page: int  # 1-based
    pages: int  # at least 1
    total: int
