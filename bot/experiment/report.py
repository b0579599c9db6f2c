"""The experiment's report: its schema, its arithmetic and its renderings.

Pure (no torch): the measuring modules fill these models with plain numbers,
so the arithmetic and the output formats are tested without running a model.
The pydantic models *are* the documented ``--json`` schema
(``mpbot experiment --schema`` prints it).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, Field

from bot.models import GPU_NAMES, MODEL_NAMES

SCHEMA_VERSION = 1
MAX_MODEL_CHARS = 60  # what the bot's record reader keeps of a free model name
# Above this median relative difference the two runs are not training alike.
LOSS_DISAGREEMENT = 0.05
# Above this spread ((max - min) / median of the repeats' step times) a run is
# noisy: its ratio's range is wide, and a single figure from it misleads.
NOISY_SPREAD = 0.10
# What the record line starts with, as the bot's record command reads it.
RECORD_PREFIX = "/mpestimate record"


class TimeStats(BaseModel):
    """Step times (seconds) of the repeats of one run, summarised."""

    median_s: float
    min_s: float
    max_s: float
    spread: float = Field(description="(max - min) / median: how noisy the repeats were")
    per_repeat_s: list[float]


def time_stats(per_repeat_s: Sequence[float]) -> TimeStats:
    if not per_repeat_s or min(per_repeat_s) <= 0:
        raise ValueError("step times must be positive and at least one")
    median = statistics.median(per_repeat_s)
    low, high = min(per_repeat_s), max(per_repeat_s)
    return TimeStats(
        median_s=median,
        min_s=low,
        max_s=high,
        spread=(high - low) / median,
        per_repeat_s=list(per_repeat_s),
    )


class RatioStats(BaseModel):
    """Reduction ratio = baseline time per sample / mixed-precision time per sample."""

    ratio: float
    low: float = Field(
        description="slowest baseline repeat vs fastest mixed repeat, inverted: "
        "the ratio's worst case over the repeats"
    )
    high: float = Field(description="the ratio's best case over the repeats")


def ratio_stats(
    base: TimeStats, mixed: TimeStats, base_batch: int = 1, mixed_batch: int = 1
) -> RatioStats:
    """Compare per-sample times, so runs at different batch sizes compare fairly.

    The repeats of the two runs are not paired (they run one after the other),
    so the spread is the conservative one: worst against best.
    """

    def per_sample(seconds: float, batch: int) -> float:
        return seconds / batch

    return RatioStats(
        ratio=per_sample(base.median_s, base_batch) / per_sample(mixed.median_s, mixed_batch),
        low=per_sample(base.min_s, base_batch) / per_sample(mixed.max_s, mixed_batch),
        high=per_sample(base.max_s, base_batch) / per_sample(mixed.min_s, mixed_batch),
    )


class Projection(BaseModel):
    """The user's FP32 time divided by the measured ratio (hours)."""

    fp32_hours: float
    mixed_hours: float
    mixed_hours_low: float
    mixed_hours_high: float


def project(fp32_hours: float, ratio: RatioStats) -> Projection:
    return Projection(
        fp32_hours=fp32_hours,
        mixed_hours=fp32_hours / ratio.ratio,
        mixed_hours_low=fp32_hours / ratio.high,
        mixed_hours_high=fp32_hours / ratio.low,
    )


class LossAgreement(BaseModel):
    """How closely the mixed run's losses follow the baseline's, step by step."""

    steps: int
    median_rel_diff: float
    max_rel_diff: float
    final_loss_baseline: float
    final_loss_mixed: float


def loss_agreement(base: Sequence[float], mixed: Sequence[float]) -> LossAgreement:
    """Both runs start from the same weights and see the same batches, so their
    losses should track each other; a large gap means the precision changes
    training, not just its speed."""
    steps = min(len(base), len(mixed))
    if steps == 0:
        raise ValueError("no losses to compare")
    diffs = [abs(m - b) / max(abs(b), 1e-12) for b, m in zip(base[:steps], mixed[:steps])]
    return LossAgreement(
        steps=steps,
        median_rel_diff=statistics.median(diffs),
        max_rel_diff=max(diffs),
        final_loss_baseline=base[steps - 1],
        final_loss_mixed=mixed[steps - 1],
    )


class StepCounts(BaseModel):
    warmup: int
    timed: int
    repeats: int


class Run(BaseModel):
    """One precision's measurement at one batch size."""

    precision: str = Field(description="fp32, tf32, fp16 or bf16")
    batch: int
    steps: StepCounts
    time: TimeStats
    samples_per_s: float
    peak_memory_bytes: int | None
    losses: list[float] = Field(description="loss of every step, warm-up first")
    scaler_skipped_steps: int | None = Field(
        None, description="fp16 only: steps GradScaler skipped"
    )
    scaler_final_scale: float | None = None
    data_fraction: float | None = Field(None, description="share of a step spent making the batch")
    launch_fraction: float | None = Field(
        None, description="CUDA only: host time to launch a step / step time (near 1: CPU-bound)"
    )


class MaxBatch(BaseModel):
    """Largest batch that fits in each precision, and the ratio there."""

    baseline_batch: int
    mixed_batch: int
    capped: bool = Field(description="the search stopped at its cap, not at out-of-memory")
    baseline: Run
    mixed: Run
    ratio: RatioStats


class WarningCode(StrEnum):
    DIMS_NOT_MULTIPLE_OF_8 = "dims_not_multiple_of_8"
    NO_TENSOR_CORES = "no_tensor_cores"
    NO_TF32 = "no_tf32"
    INPUT_BOUND = "input_bound"
    CPU_BOUND = "cpu_bound"
    RATIO_BELOW_ONE = "ratio_below_one"
    CPU_NOT_GPU = "cpu_not_gpu"
    NOISY = "noisy"
    LOSS_DISAGREES = "loss_disagrees"
    SCALER_SKIPS = "scaler_skips"
    MEMORY_PROCESS_WIDE = "memory_process_wide"


class Note(BaseModel):
    code: WarningCode
    message: str


class Environment(BaseModel):
    device: str = Field(description="cuda or cpu")
    device_name: str
    capability: str | None = Field(None, description="CUDA compute capability, e.g. 9.0")
    torch_version: str
    tf32_matmul: bool | None = Field(None, description="torch.backends.cuda.matmul.allow_tf32")
    tf32_cudnn: bool | None = Field(None, description="torch.backends.cudnn.allow_tf32")
    memory_measure: str = Field(description="cuda_max_memory_allocated or peak_rss")


class Report(BaseModel):
    schema_version: int = SCHEMA_VERSION
    model: str = Field(description="built-in name or the factory path")
    size: str | None
    parameters: int
    environment: Environment
    baseline: Run
    mixed: Run
    ratio: RatioStats
    loss: LossAgreement
    projection: Projection | None = None
    max_batch: MaxBatch | None = None
    warnings: list[Note] = Field(default_factory=list)
    record_line: str | None = Field(
        description="ready to paste into Slack or the console; null when the bot's record "
        "command would refuse it (see record_refused)"
    )
    record_refused: str | None = Field(
        None, description="why the run gives no record line: why it is not a valid measurement"
    )


def ratio_warnings(
    ratio: RatioStats, loss: LossAgreement, mixed: Run, baseline: Run | None = None
) -> list[Note]:
    """The guide's warnings that follow from the numbers alone."""
    notes: list[Note] = [note for run in (baseline, mixed) if (note := noise_warning(run))]
    if ratio.ratio < 1:
        notes.append(
            Note(
                code=WarningCode.RATIO_BELOW_ONE,
                message=(
                    f"mixed precision was slower here ({ratio.ratio:.2f}x): check for missing Tensor "
                    "Cores, a CPU-bound step, or dimensions that are not multiples of 8"
                ),
            )
        )
    if loss.median_rel_diff > LOSS_DISAGREEMENT:
        notes.append(
            Note(
                code=WarningCode.LOSS_DISAGREES,
                message=(
                    f"losses differ by {loss.median_rel_diff:.1%} (median) between the runs: "
                    "check the mixed-precision run's convergence, not just its speed"
                ),
            )
        )
    if mixed.scaler_skipped_steps:
        notes.append(
            Note(
                code=WarningCode.SCALER_SKIPS,
                message=(
                    f"GradScaler skipped {mixed.scaler_skipped_steps} step(s) for inf/NaN gradients; "
                    "a few at the start are normal, many mean FP16 overflows"
                ),
            )
        )
    return notes


def noise_warning(run: Run | None) -> Note | None:
    """A run whose repeats disagree by more than :data:`NOISY_SPREAD`."""
    if run is None or run.time.spread <= NOISY_SPREAD:
        return None
    return Note(
        code=WarningCode.NOISY,
        message=(
            f"the {run.precision} step times varied by {run.time.spread:.1%} between repeats "
            f"(more than {NOISY_SPREAD:.0%}): the ratio is uncertain; stop other work on the "
            "machine, or measure longer with more --steps and --repeats"
        ),
    )


def record_problem(line: str, device: str, ratio: float) -> str | None:
    """Why the bot's ``record`` command would not store ``line``; None when it would.

    The line is read and validated by the bot's own record reader and rules, so
    the report never offers a paste line that ``record`` refuses (a CPU ratio of
    0.08, say), and ``--post`` stores exactly what pasting would. ``ratio`` is the
    measured one, for saying so.
    """
    if device != "cuda":
        return (
            "measured on CPU, and CPU ratios do not predict GPU ratios; "
            "run it on the GPU you train on"
        )
    from bot.records.ratio import PLAUSIBLE_HIGH, PLAUSIBLE_LOW, RecordReason, validate
    from bot.understanding import read_record

    draft = read_record(line.removeprefix(RECORD_PREFIX))
    reasons = draft if isinstance(draft, tuple) else validate(draft).reasons
    if RecordReason.IMPLAUSIBLE in reasons:
        return (
            f"the ratio {ratio:.2f}x is outside {PLAUSIBLE_LOW:g}-{PLAUSIBLE_HIGH:g}, what the "
            "bot's record command accepts; check the run before recording it"
        )
    if reasons:
        return f"the bot's record command refuses it ({', '.join(reasons)})"
    return None


def canonical_gpu(device_name: str) -> str:
    """The bot's name for a GPU ("NVIDIA H200" -> "H200"; A100 is never read as A10)."""
    upper = device_name.upper()
    found = [
        name
        for name in GPU_NAMES
        if re.search(rf"(?<![A-Z0-9]){re.escape(name.upper())}(?![A-Z0-9])", upper)
    ]
    return max(found, key=len) if found else device_name


def record_line(model: str, env: Environment, mixed: Run, baseline: Run, gpus: int) -> str:
    """The ``/mpestimate record`` line the team pastes into Slack.

    Written the way the bot's record reader reads it: names, GPU count, then
    each side's label with its step time; the bot computes the ratio itself.
    A name it does not know goes in as ``model=...`` so it is never matched
    to a published model it only resembles.
    """
    gpu = canonical_gpu(env.device_name) if env.device == "cuda" else "CPU"
    name = (
        model
        if model in MODEL_NAMES
        else "model=" + re.sub(r"[^\w.:-]+", "-", model)[:MAX_MODEL_CHARS]
    )
    return (
        f"{RECORD_PREFIX} {gpu} {name} {gpus} GPU{'s' if gpus > 1 else ''} "
        f"{baseline.precision} {baseline.time.median_s * 1e3:.2f}ms "
        f"{mixed.precision} {mixed.time.median_s * 1e3:.2f}ms"
    )


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def _mem(num_bytes: int | None) -> str:
    return "n/a" if num_bytes is None else f"{num_bytes / 2**30:.2f} GiB"


def _run_rows(base: Run, mixed: Run) -> list[tuple[str, str, str]]:
    def scale(run: Run) -> str:
        if run.scaler_final_scale is None:
            return "-"
        return f"{run.scaler_skipped_steps} skipped, scale {run.scaler_final_scale:g}"

    return [
        ("batch", str(base.batch), str(mixed.batch)),
        ("step time (median)", _ms(base.time.median_s), _ms(mixed.time.median_s)),
        (
            "step time (min-max)",
            f"{_ms(base.time.min_s)} - {_ms(base.time.max_s)}",
            f"{_ms(mixed.time.min_s)} - {_ms(mixed.time.max_s)}",
        ),
        ("spread", f"{base.time.spread:.1%}", f"{mixed.time.spread:.1%}"),
        ("samples/s", f"{base.samples_per_s:,.1f}", f"{mixed.samples_per_s:,.1f}"),
        ("peak memory", _mem(base.peak_memory_bytes), _mem(mixed.peak_memory_bytes)),
        ("final loss", f"{base.losses[-1]:.4f}", f"{mixed.losses[-1]:.4f}"),
        ("GradScaler", scale(base), scale(mixed)),
    ]


def _table(rows: list[tuple[str, str, str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]


def render_text(report: Report) -> str:
    """The human-readable report printed by default."""
    env = report.environment
    base, mixed = report.baseline, report.mixed
    lines = [
        f"mpbot experiment: {report.model}"
        + (f" ({report.size})" if report.size else "")
        + f", {report.parameters:,} parameters",
        f"device: {env.device_name} ({env.device}"
        + (f", capability {env.capability}" if env.capability else "")
        + f"), torch {env.torch_version}",
    ]
    if env.tf32_matmul is not None:
        lines.append(
            f"TF32 switches for both runs: matmul={env.tf32_matmul}, cudnn={env.tf32_cudnn}"
        )
    lines.append(
        f"steps: {base.steps.warmup} warm-up, then {base.steps.repeats} x {base.steps.timed} timed"
    )
    lines.append("")
    header = ("", f"{base.precision} (baseline)", f"{mixed.precision} (mixed)")
    lines += _table([header, *_run_rows(base, mixed)])
    lines.append("")
    r = report.ratio
    lines.append(f"ratio: {r.ratio:.2f}x (range {r.low:.2f}-{r.high:.2f} over the repeats)")
    if report.projection:
        p = report.projection
        lines.append(
            f"projected: {p.fp32_hours:g} h in {base.precision} -> {p.mixed_hours:.1f} h "
            f"with {mixed.precision} ({p.mixed_hours_low:.1f}-{p.mixed_hours_high:.1f} h)"
        )
    loss = report.loss
    lines.append(
        f"loss agreement: median difference {loss.median_rel_diff:.2%}, "
        f"max {loss.max_rel_diff:.2%} over {loss.steps} steps"
    )
    if report.max_batch:
        m = report.max_batch
        lines.append(
            f"largest batch: {m.baseline_batch} in {base.precision}, {m.mixed_batch} in "
            f"{mixed.precision}"
            + (" (search capped)" if m.capped else "")
            + f"; ratio there {m.ratio.ratio:.2f}x ({m.ratio.low:.2f}-{m.ratio.high:.2f})"
        )
    if report.warnings:
        lines.append("")
        lines.append("warnings:")
        lines += [f"  - {note.message}" for note in report.warnings]
    if report.record_line is not None:
        lines += ["", "paste into Slack to record it for your team:", report.record_line]
    else:
        lines += ["", f"not a valid measurement to record: {report.record_refused}"]
    return "\n".join(lines)
