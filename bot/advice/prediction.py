"""Predict the mixed-precision reduction ratio for a setup, with an honest range.

The guide's hardest step is choosing the ratio. This module answers it from
the best evidence at hand, in this order:

1. ``team``: the team's own records for a matching setup, with the published
   or modelled figure kept beside them (``Prediction.reference``);
2. ``measured``: published rows for the named model (and GPU, baseline, GPU
   count) from ``amp_speedups.csv``, with their URLs;
3. ``modelled``: a log-linear model fitted to those rows, over the task family,
   the GPU's Tensor-Core-to-baseline peak ratio (``gpu_specs.csv``), the GPU
   count and the batch change; its 80% range comes from leave-one-model-out
   residuals, i.e. from how wrong it was on models it had not seen, with
   every model weighing the same (so BERT's many rows do not narrow it);
4. ``typical``: the guide's 1.2-2.5 when nothing narrows it (a GPU count or a
   precision alone does not).

Honesty notes carried as factors: DLE mixed-precision runs often used a larger
batch (and channels-last) than their FP32 runs, so their ratios are upper-end;
on Ampere and newer the published baseline is TF32, and a ratio against strict
FP32 is much larger; more GPUs shrink the ratio; some setups get slower.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from enum import StrEnum
from functools import cache
from statistics import median
from typing import Protocol

from pydantic import BaseModel, Field

from bot.advice.catalog import (
    FAMILY_GROUP,
    Family,
    GpuSpec,
    Measurement,
    family_of_model,
    gpu_spec,
    is_recurrent,
    measurements,
)

TYPICAL_LOW = 1.2
TYPICAL_HIGH = 2.5

# The two setups every published row comes from; an unknown GPU spans both.
REFERENCE_SETUPS: tuple[tuple[str, str], ...] = (("V100", "fp32"), ("A100", "tf32"))

# No Tensor Cores (P100 and older), or a 16-bit format the GPU has no matrix
# units for (BF16 on Volta/Turing): maintainers report small gains at best and
# slowdowns at worst (apex#76 P100 "numerical stability is much less reliable",
# apex#101 K80 ~1.3x slower, apex#806 GTX 1650 slower; facts sheet section 5.1).
NO_TENSOR_CORE_RATIO = (1.1, 0.8, 1.5)  # point, low, high

# Smallest half-width (multiplicative) of a range built from rows or records:
# a user's own framework, data loader and batch rarely reproduce a published run.
MIN_SPREAD = 1.2
# Extra width when the GPU has no published rows (the peak-ratio term extrapolates).
EXTRAPOLATION_SPREAD = 1.15
MAX_SOURCES = 5

# Models and families with no measured row borrow the global fit, moved by what
# the facts sheet (sections 1 and 5.6) says of memory-bound, RNN- or embedding-
# heavy models: GNMT TF1 0.96x and Transformer-XL TF1 1.04-1.07x on A100, NCF
# 0.90x and Wide&Deep 0.95x on A100, Wide&Deep 1.03-1.49x on V100, all about 0.7
# of the global fit or less (Tacotron 2, measured, sits there too). Unused once
# rows exist for them.
MEMORY_BOUND_SHIFT = math.log(0.7)
MEMORY_BOUND_MODELS = frozenset({"GNMT", "Transformer-XL", "NCF", "Wide&Deep", "DLRM"})
MEMORY_BOUND_FAMILIES = frozenset({Family.RECOMMENDER.value})


class Basis(StrEnum):
    MEASURED = "measured"  # matching published measurements
    TEAM = "team"  # the team's own records
    MODELLED = "modelled"  # model over family, GPU, count, batch, precision, baseline
    TYPICAL = "typical"  # the guide's 1.2-2.5 when nothing is known


class Factor(StrEnum):
    """Why the prediction is what it is; rendering words each code."""

    MEASURED_MATCH = "measured_match"  # params: n (rows), models, gpus
    TEAM_RECORDS = "team_records"  # params: n, ratio, models, gpus
    GPU_GENERATION = "gpu_generation"  # params: gpu, architecture, peak_ratio
    NO_TENSOR_CORES = "no_tensor_cores"  # params: gpu
    TF32_BASELINE = "tf32_baseline"  # params: gpu, assumed (0/1), fp32_ratio
    # The user asked for a strict-FP32 baseline on a TF32-capable GPU.
    STRICT_FP32_BASELINE = "strict_fp32_baseline"  # params: gpu, tf32_ratio
    MULTI_GPU = "multi_gpu"  # params: num_gpus
    LARGER_AMP_BATCH = "larger_amp_batch"  # params: batch_fp32, batch_amp
    PRECISION = "precision"  # params: precision, supported (0/1), instead (what is assumed)
    FAMILY_PRIOR = "family_prior"  # params: family
    # A memory-bound model with no rows (RNN- or embedding-heavy) got the shift below.
    MEMORY_BOUND = "memory_bound"
    # The named framework picked the model's published runs (matched 1), or had none (0).
    FRAMEWORK = "framework"  # params: framework, matched (0/1)
    TYPICAL = "typical"


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


# ---------------------------------------------------------------- features


def _log2(value: float) -> float:
    return math.log2(value)


def _amp_peak(spec: GpuSpec, precision: str) -> float | None:
    if precision == "fp8":
        return spec.fp8_tensor_tflops
    if precision == "bf16":
        return spec.bf16_rate
    return spec.fp16_tensor_tflops


def _baseline_peak(spec: GpuSpec, baseline: str) -> float | None:
    return spec.tf32_rate if baseline == "tf32" else spec.fp32_tflops


def peak_ratio(spec: GpuSpec, precision: str, baseline: str) -> float | None:
    """Tensor Core peak over the baseline's peak: the math-bound ceiling on the ratio.

    V100 FP16/FP32 = 125/15.7 = 8x; A100 FP16/TF32 = 312/156 = 2x but FP16/FP32 = 16x
    (facts sheet section 1, "Peak-rate ceilings").
    """
    amp, base = _amp_peak(spec, precision), _baseline_peak(spec, baseline)
    return amp / base if amp and base else None


class TrainingRow(BaseModel):
    """One fitting example: features and the observed log ratio."""

    model_key: str  # the model, for leave-one-model-out
    gpu: str
    family: str | None
    log_peak: float
    log2_gpus: float
    log2_batch: float
    log_ratio: float


# The published batch changes span 1x to 2.5x; beyond that the fitted slope
# would extrapolate without evidence (a bigger batch stops helping once the GPU
# is busy), so the term is held at the edge of what was seen.
MAX_LOG2_BATCH = math.log2(2.5)


def _batch_term(batch_fp32: int | None, batch_amp: int | None) -> float:
    """log2 of the mixed-precision batch over the FP32 batch (0 when unknown)."""
    if batch_fp32 and batch_amp:
        change = _log2(batch_amp / batch_fp32)
        return max(-MAX_LOG2_BATCH, min(MAX_LOG2_BATCH, change))
    return 0.0


def model_key(row: Measurement) -> str:
    """What leave-one-model-out holds out together: the canonical model, else the row's name
    without its variant suffix (GPUNet-0, -1, -2 and -D1 are one architecture search: holding
    out one while its siblings stay would let the model see it)."""
    return row.model or re.sub(r"-[A-Z]?\d+$", "", row.published_model)


@cache
def training_rows() -> tuple[TrainingRow, ...]:
    """The measured rows as features; every row counts once (fits are robust, see :func:`fit`).

    A recurrent model's rows enter without the known memory-bound shift (facts
    sheet 5.6), which :func:`predict` puts back for recurrent setups, so one
    LSTM model does not drag its whole task family down.
    """
    rows = []
    for m in measurements():
        spec = gpu_spec(m.gpu)
        ratio = peak_ratio(spec, "fp16", m.baseline) if spec else None
        if ratio is None or m.speedup is None or m.num_gpus is None:
            continue
        rows.append(
            TrainingRow(
                model_key=model_key(m),
                gpu=spec.name,
                family=m.family,
                log_peak=math.log(ratio),
                log2_gpus=_log2(m.num_gpus),
                log2_batch=_batch_term(m.batch_fp32, m.batch_amp),
                log_ratio=math.log(m.speedup)
                - (MEMORY_BOUND_SHIFT if is_recurrent(m.model) else 0.0),
            )
        )
    return tuple(rows)


# ---------------------------------------------------------------- the model

# Peak ratios are centred on 4x (between V100's 8x vs FP32 and A100's 2x vs TF32),
# so a group's level and its sensitivity to the peak ratio are separate terms.
PEAK_CENTRE = math.log(4.0)
# Ridge penalties (in units of row weight): small families and groups are pulled
# towards their group / the global fit instead of memorising one model.
RIDGE = {"g:": 0.5, "f:": 2.0, "gp:": 0.25}


def _features(
    family: str | None, log_peak: float, log2_gpus: float, log2_batch: float
) -> list[tuple[str, float]]:
    """Named regressors of one setup: global terms, then its group and family terms."""
    peak = log_peak - PEAK_CENTRE
    feats = [("1", 1.0), ("peak", peak), ("gpus", log2_gpus), ("batch", log2_batch)]
    group = FAMILY_GROUP.get(family) if family else None
    if group:
        # GEMM-heavy text models gain more from Tensor Cores over FP32 than conv nets do.
        feats += [("g:" + group, 1.0), ("gp:" + group, peak)]
    if family:
        feats.append(("f:" + family, 1.0))
    return feats


class RatioModel(BaseModel):
    """log ratio = sum of coefficient x feature over :func:`_features` (unknown terms 0)."""

    coefficients: dict[str, float]

    def log_ratio(
        self, family: str | None, log_peak: float, log2_gpus: float, log2_batch: float
    ) -> float:
        return sum(
            self.coefficients.get(name, 0.0) * value
            for name, value in _features(family, log_peak, log2_gpus, log2_batch)
        )

    def residual(self, row: TrainingRow) -> float:
        """Observed minus predicted log ratio of a fitting row."""
        return row.log_ratio - self.log_ratio(
            row.family, row.log_peak, row.log2_gpus, row.log2_batch
        )

    @property
    def gpus(self) -> float:
        """Change in log ratio per doubling of the GPU count."""
        return self.coefficients["gpus"]

    @property
    def batch(self) -> float:
        """Change in log ratio per doubling of the mixed-precision batch over FP32's."""
        return self.coefficients["batch"]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems here are ~20x20)."""
    size = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, size):
            f = a[r][col] / a[col][col]
            if f:
                for c in range(col, size + 1):
                    a[r][c] -= f * a[col][c]
    x = [0.0] * size
    for r in range(size - 1, -1, -1):
        x[r] = (a[r][size] - sum(a[r][c] * x[c] for c in range(r + 1, size))) / a[r][r]
    return x


def _least_squares(
    per_row: Sequence[tuple[TrainingRow, list[tuple[str, float]], float]],
) -> dict[str, float]:
    """Weighted ridge least squares over sparse named features."""
    names = sorted({name for _, feats, _ in per_row for name, _ in feats})
    index = {name: i for i, name in enumerate(names)}
    xtx = [[0.0] * len(names) for _ in names]
    xty = [0.0] * len(names)
    for r, feats, weight in per_row:
        for a, xa in feats:
            xty[index[a]] += weight * xa * r.log_ratio
            for b, xb in feats:
                xtx[index[a]][index[b]] += weight * xa * xb
    for name, i in index.items():
        xtx[i][i] += next((v for prefix, v in RIDGE.items() if name.startswith(prefix)), 0.0)
    return dict(zip(names, _solve(xtx, xty), strict=True))


ROBUST_ROUNDS = 6  # reweighting rounds towards a least-absolute-deviation fit
ROBUST_FLOOR = 0.05  # residuals below this (5% in ratio) count as this, for stability


def fit(rows: Sequence[TrainingRow]) -> RatioModel:
    """Robust ridge regression on the log ratio (pure Python).

    Least absolute deviations by iteratively reweighted least squares: a few
    extreme rows (3D U-Net 5.2x, Tacotron 2 0.84x) should not drag the typical
    answer, since the bot's point is judged by its typical error.
    """
    per_row = [(r, _features(r.family, r.log_peak, r.log2_gpus, r.log2_batch), 1.0) for r in rows]
    coefficients = _least_squares(per_row)
    for _ in range(ROBUST_ROUNDS):
        model = RatioModel(coefficients=coefficients)
        per_row = [
            (r, feats, 1 / max(ROBUST_FLOOR, abs(model.residual(r)))) for r, feats, _ in per_row
        ]
        coefficients = _least_squares(per_row)
    return RatioModel(coefficients=coefficients)


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def lomo_residuals(rows: Sequence[TrainingRow]) -> list[tuple[TrainingRow, float]]:
    """Each row with its residual under a model fitted without its model's rows."""
    residuals = []
    for key in sorted({r.model_key for r in rows}):
        model = fit([r for r in rows if r.model_key != key])
        residuals += [(r, model.residual(r)) for r in rows if r.model_key == key]
    return residuals


# A family group gets its own band once this many held-out rows of it exist;
# below that the pooled band of all groups is used.
MIN_BAND_ROWS = 5
BAND_BLEND = 0.5


class Fitted(BaseModel):
    """A fitted model, its 80% residual bands and each known model's own offset."""

    model: RatioModel
    # 10th and 90th percentile of out-of-model log residuals, per family group ("" = all).
    bands: dict[str, tuple[float, float]]
    offsets: dict[str, float]  # model key -> shrunk mean residual
    # 10th/90th percentile of a known model's miss on a GPU its offset was not learned on.
    offset_band: tuple[float, float] | None

    def band(self, family: str | None, model: str | None = None) -> tuple[float, float]:
        """Where models of the same kind disagree more, the range is wider.

        A model with published rows carries its own offset, so its range is how
        well that offset travels to another GPU, not how much models differ.
        """
        if model in self.offsets and self.offset_band is not None:
            return self.offset_band
        group = FAMILY_GROUP.get(family or "", "")
        return self.bands.get(group, self.bands[""])


OFFSET_SHRINK = 3.0  # rows' worth of prior weight pulling a model's offset to 0


def _band(residuals: Sequence[float]) -> tuple[float, float]:
    return _quantile(residuals, 0.1), _quantile(residuals, 0.9)


def _weighted_quantile(pairs: Sequence[tuple[float, float]], q: float) -> float:
    """Quantile of (value, weight) pairs, interpolated between weight midpoints."""
    ordered = sorted(pairs)
    total = sum(w for _, w in ordered)
    positions, seen = [], 0.0
    for _, w in ordered:
        positions.append((seen + w / 2) / total)
        seen += w
    target = min(max(q, positions[0]), positions[-1])
    for i in range(1, len(ordered)):
        if positions[i] >= target:
            span = positions[i] - positions[i - 1]
            t = (target - positions[i - 1]) / span if span else 0.0
            return ordered[i - 1][0] + t * (ordered[i][0] - ordered[i - 1][0])
    return ordered[-1][0]


def _model_band(residuals: Sequence[tuple[TrainingRow, float]]) -> tuple[float, float]:
    """10th/90th percentile of held-out residuals with every model weighing the same.

    The range is a promise about the *next* model a user names, and models, not
    rows, are the unit that varies: weighted by rows, BERT's 161 well-fitted rows
    set the band, and unseen models fell inside it only about 64% of the time.
    """
    counts: dict[str, int] = {}
    for r, _ in residuals:
        counts[r.model_key] = counts.get(r.model_key, 0) + 1
    pairs = [(e, 1 / counts[r.model_key]) for r, e in residuals]
    return _weighted_quantile(pairs, 0.1), _weighted_quantile(pairs, 0.9)


def fit_with_band(rows: Sequence[TrainingRow]) -> Fitted:
    """Fit, then size the range from how wrong the fit is on models it has not seen."""
    model = fit(rows)
    residuals = lomo_residuals(rows)
    bands = {"": _model_band(residuals)}
    for group in {FAMILY_GROUP[r.family] for r in rows if r.family}:
        own = [(r, e) for r, e in residuals if r.family and FAMILY_GROUP[r.family] == group]
        if len(own) >= MIN_BAND_ROWS:
            # Half way to the pooled band: a group's few models understate its spread.
            low, high = _model_band(own)
            bands[group] = (
                BAND_BLEND * low + (1 - BAND_BLEND) * bands[""][0],
                BAND_BLEND * high + (1 - BAND_BLEND) * bands[""][1],
            )
    offsets = {
        key: _offset(model, [r for r in rows if r.model_key == key])
        for key in {r.model_key for r in rows}
    }
    return Fitted(model=model, bands=bands, offsets=offsets, offset_band=_offset_band(model, rows))


def _offset(model: RatioModel, rows: Sequence[TrainingRow]) -> float:
    """A model's mean residual, shrunk towards 0 when it has few rows."""
    return sum(model.residual(r) for r in rows) / (len(rows) + OFFSET_SHRINK)


def _offset_band(model: RatioModel, rows: Sequence[TrainingRow]) -> tuple[float, float] | None:
    """How far a model's offset learned on one GPU misses on another (V100 <-> A100)."""
    misses = []
    for key in {r.model_key for r in rows}:
        own = [r for r in rows if r.model_key == key]
        for gpu in {r.gpu for r in own}:
            elsewhere = [r for r in own if r.gpu != gpu]
            if elsewhere:
                offset = _offset(model, elsewhere)
                misses += [model.residual(r) - offset for r in own if r.gpu == gpu]
    return _band(misses) if misses else None


@cache
def _fitted() -> Fitted:
    return fit_with_band(training_rows())


# ---------------------------------------------------------------- predict


def _round(value: float) -> float:
    return round(value, 2)


def _typical(setup: Setup) -> Prediction:
    return Prediction(
        ratio=_round(math.sqrt(TYPICAL_LOW * TYPICAL_HIGH)),
        low=TYPICAL_LOW,
        high=TYPICAL_HIGH,
        basis=Basis.TYPICAL,
        factors=[FactorNote(code=Factor.TYPICAL)],
        precision=setup.precision,
        baseline=setup.baseline,
    )


def _named(setup: Setup) -> bool:
    return bool(setup.gpu or setup.model or setup.family)


def _default_baseline(spec: GpuSpec | None) -> str:
    """DLE's Ampere+ tables use TF32 baselines; PyTorch convolutions default to TF32."""
    return "tf32" if spec is not None and spec.has_tf32 else "fp32"


class _Context(BaseModel):
    """The setup with its gaps filled, and the notes on how they were filled."""

    spec: GpuSpec | None
    family: str | None
    precision: str
    baseline: str  # what the fitted model uses
    shown_baseline: str | None  # what the answer reports: None when no GPU says which
    num_gpus: int
    factors: list[FactorNote]


def _context(setup: Setup) -> _Context:
    spec = gpu_spec(setup.gpu)
    family = setup.family or family_of_model(setup.model)
    precision = (setup.precision or "fp16").lower()
    baseline = (setup.baseline or _default_baseline(spec)).lower()
    if spec is not None and not spec.has_tf32:
        baseline = "fp32"  # TF32 does not exist before Ampere: the baseline is FP32
    factors: list[FactorNote] = []
    if spec is not None:
        if baseline == "tf32" and spec.has_tf32:
            factors.append(
                FactorNote(
                    code=Factor.TF32_BASELINE,
                    params={"gpu": spec.name, "assumed": int(setup.baseline is None)},
                )
            )
        elif baseline == "fp32" and spec.has_tf32:
            factors.append(FactorNote(code=Factor.STRICT_FP32_BASELINE, params={"gpu": spec.name}))
    if spec is not None and precision == "fp8" and spec.fp8_tensor_tflops is None:
        # No FP8 units (before Ada/Hopper): the job would run in 16-bit instead.
        precision = "bf16" if spec.bf16_rate else "fp16"
        factors.append(
            FactorNote(
                code=Factor.PRECISION,
                params={"precision": "fp8", "supported": 0, "instead": precision},
            )
        )
    num_gpus = setup.num_gpus if setup.num_gpus and setup.num_gpus > 0 else 1
    if num_gpus > 1:
        factors.append(FactorNote(code=Factor.MULTI_GPU, params={"num_gpus": num_gpus}))
    if setup.batch_fp32 and setup.batch_amp and setup.batch_amp > setup.batch_fp32:
        factors.append(
            FactorNote(
                code=Factor.LARGER_AMP_BATCH,
                params={"batch_fp32": setup.batch_fp32, "batch_amp": setup.batch_amp},
            )
        )
    if family and not setup.model:
        factors.append(FactorNote(code=Factor.FAMILY_PRIOR, params={"family": family}))
    return _Context(
        spec=spec,
        family=family,
        precision=precision,
        baseline=baseline,
        shown_baseline=baseline if spec is not None else setup.baseline,
        num_gpus=num_gpus,
        factors=factors,
    )


def _finish(ctx: _Context, **fields: object) -> Prediction:
    return Prediction(
        named=True,
        family=ctx.family,
        precision=ctx.precision,
        baseline=ctx.shown_baseline,
        **fields,  # type: ignore[arg-type]
    )


def _spread(point: float, low: float, high: float, floor: float) -> tuple[float, float]:
    return min(low, point / floor), max(high, point * floor)


def _measured(setup: Setup, ctx: _Context, fitted: Fitted) -> Prediction | None:
    """Published rows for the named model, adjusted to the user's GPU count and batch.

    Rows measured against the other baseline on the same GPU (A100 TF32 rows
    for a strict-FP32 question) are shifted by the fitted peak slope; the
    answer then counts as ``modelled``, still citing the rows it came from.
    """
    if not setup.model or (ctx.spec is not None and ctx.precision == "fp8"):
        return None
    if (
        ctx.spec is not None
        and ctx.precision == "bf16"
        and (ctx.spec.bf16_rate != ctx.spec.fp16_tensor_tflops)
    ):
        return None
    rows = [
        m
        for m in measurements()
        if m.model == setup.model and (setup.gpu is None or m.gpu == setup.gpu)
    ]
    if ctx.spec is not None:
        same_baseline = [m for m in rows if m.baseline == ctx.baseline]
        rows = same_baseline or rows
    if setup.dimensions in (2, 3):
        # A 3D U-Net (volumes) runs 3.2-4.0x on V100 where the 2D U-Nets run 0.9-3.1x:
        # the named dimension picks its own rows when there are any.
        same_dimension = [m for m in rows if _is_3d(m.published_model) == (setup.dimensions == 3)]
        rows = same_dimension or rows
    if not rows:
        return None
    shifted = ctx.spec is not None and rows[0].baseline != ctx.baseline
    framework_note = []
    if setup.framework:
        # Frameworks differ for the same model (BERT on A100: TF1 1.67x, PyTorch 1.84x,
        # PaddlePaddle 2.29x), so the user's own framework speaks first when it was measured.
        same = [m for m in rows if m.framework.startswith(setup.framework)]
        rows = same or rows
        framework_note.append(
            FactorNote(
                code=Factor.FRAMEWORK,
                params={"framework": setup.framework, "matched": int(bool(same))},
            )
        )
    if setup.num_gpus:
        # The rows at the nearest GPU count speak for it; the slope covers the rest.
        nearest = min(abs(_log2(m.num_gpus or 1) - _log2(ctx.num_gpus)) for m in rows)
        rows = [m for m in rows if abs(_log2(m.num_gpus or 1) - _log2(ctx.num_gpus)) == nearest]
    model = fitted.model
    user_batch = _batch_term(setup.batch_fp32, setup.batch_amp)
    adjusted = []
    for m in rows:
        shift = 0.0
        if setup.num_gpus and m.num_gpus:
            shift += model.gpus * (_log2(ctx.num_gpus) - _log2(m.num_gpus))
        if setup.batch_fp32 and setup.batch_amp:
            shift += model.batch * (user_batch - _batch_term(m.batch_fp32, m.batch_amp))
        if shifted and ctx.spec is not None:
            mine = peak_ratio(ctx.spec, ctx.precision, ctx.baseline)
            theirs = peak_ratio(ctx.spec, "fp16", m.baseline)
            if mine and theirs:
                shift += model.coefficients["peak"] * math.log(mine / theirs)
        adjusted.append(math.log(m.speedup or 1.0) + shift)
    point = math.exp(median(adjusted))
    spread = MIN_SPREAD * (EXTRAPOLATION_SPREAD if shifted else 1.0)
    low, high = _spread(
        point,
        math.exp(_quantile(adjusted, 0.1)),
        math.exp(_quantile(adjusted, 0.9)),
        spread,
    )
    factors = [
        FactorNote(
            code=Factor.MEASURED_MATCH,
            params={
                "n": len(rows),
                "models": joined_names(m.published_model for m in rows),
                "gpus": joined_names(m.published_gpu for m in rows),
            },
        ),
        *framework_note,
        *ctx.factors,
    ]
    bigger = [m for m in rows if m.larger_amp_batch]
    if bigger and not (setup.batch_fp32 and setup.batch_amp):
        factors.append(
            FactorNote(
                code=Factor.LARGER_AMP_BATCH,
                params={
                    "batch_fp32": bigger[0].batch_fp32 or 0,
                    "batch_amp": bigger[0].batch_amp or 0,
                },
            )
        )
    return _finish(
        ctx,
        ratio=_round(point),
        low=_round(low),
        high=_round(high),
        basis=Basis.MODELLED if shifted else Basis.MEASURED,
        sources=_sources(rows),
        factors=factors,
    )


def _sources(rows: Iterable[Measurement]) -> list[str]:
    counts: dict[str, int] = {}
    for m in rows:
        counts[m.source_url] = counts.get(m.source_url, 0) + 1
    return sorted(counts, key=lambda url: -counts[url])[:MAX_SOURCES]


def _log_interval(
    setup: Setup, ctx: _Context, fitted: Fitted, spec: GpuSpec, baseline: str
) -> tuple[float, float, float] | None:
    """Centre and 80% bounds of the log ratio from the fitted model.

    The fitted rows are all FP16 against each GPU's usual baseline (V100 FP32,
    A100 TF32), so the family-specific peak slope describes GPU generations only.
    A different baseline or precision on the same GPU moves the ratio by the
    global peak slope times the change in peak ratio (A100 FP32 instead of TF32:
    the baseline is 8x slower at peak; FP8 instead of FP16 on H100: 2x faster).
    """
    usual = peak_ratio(spec, "fp16", _default_baseline(spec))
    ratio = peak_ratio(spec, ctx.precision, baseline)
    if usual is None or ratio is None:
        return None
    model = fitted.model
    centre = (
        model.log_ratio(
            ctx.family,
            math.log(usual),
            _log2(ctx.num_gpus),
            _batch_term(setup.batch_fp32, setup.batch_amp),
        )
        + model.coefficients["peak"] * math.log(ratio / usual)
        + fitted.offsets.get(setup.model or "", 0.0)
    )
    low, high = fitted.band(ctx.family, setup.model)
    if _memory_bound(setup, ctx, fitted):
        centre += MEMORY_BOUND_SHIFT
    # A family none of whose neighbours were measured (recommender, graph) is a guess;
    # no family at all is not: the pooled band already spans every measured group.
    group = FAMILY_GROUP.get(ctx.family or "")
    unmeasured_group = group is not None and f"g:{group}" not in model.coefficients
    for extrapolating in (spec.name not in {gpu for gpu, _ in REFERENCE_SETUPS}, unmeasured_group):
        if extrapolating:
            low -= math.log(EXTRAPOLATION_SPREAD)
            high += math.log(EXTRAPOLATION_SPREAD)
    return centre, centre + low, centre + high


def _memory_bound(setup: Setup, ctx: _Context, fitted: Fitted) -> bool:
    """Whether the fit's figure needs the memory-bound shift.

    Recurrent setups always do (their training rows were taken without it);
    other memory-bound models and families only until rows of their own exist.
    """
    if is_recurrent(setup.model, setup.architecture):
        return True
    if setup.model:
        return setup.model in MEMORY_BOUND_MODELS and setup.model not in fitted.offsets
    return (
        ctx.family in MEMORY_BOUND_FAMILIES and f"f:{ctx.family}" not in fitted.model.coefficients
    )


def _no_tensor_cores(
    ctx: _Context, code: Factor, params: dict[str, str | int | float]
) -> Prediction:
    point, low, high = NO_TENSOR_CORE_RATIO
    return _finish(
        ctx,
        ratio=point,
        low=low,
        high=high,
        basis=Basis.MODELLED,
        factors=[FactorNote(code=code, params=params), *ctx.factors],
    )


def _reference_intervals(
    setup: Setup, ctx: _Context, fitted: Fitted
) -> list[tuple[float, float, float]]:
    """Intervals on the published reference GPUs, for a setup that names no GPU.

    A precision a reference GPU cannot run is skipped there (BF16 on V100); when
    none can (FP8), the 16-bit figures stand in, as the job would fall back to them.
    """
    specs = [(gpu_spec(gpu), baseline) for gpu, baseline in REFERENCE_SETUPS]
    known = [(spec, baseline) for spec, baseline in specs if spec is not None]
    runnable = [(spec, b) for spec, b in known if _amp_peak(spec, ctx.precision) is not None]
    if not runnable:
        ctx = ctx.model_copy(update={"precision": "fp16"})
        runnable = known
    intervals = [_log_interval(setup, ctx, fitted, spec, b) for spec, b in runnable]
    return [i for i in intervals if i is not None]


def _modelled(setup: Setup, ctx: _Context, fitted: Fitted) -> Prediction:
    """The fitted model at the user's GPU (or across both reference GPUs when none is named)."""
    spec = ctx.spec
    factors = list(ctx.factors)
    if spec is None:
        intervals = _reference_intervals(setup, ctx, fitted)
        centre = sum(i[0] for i in intervals) / len(intervals)
        low, high = min(i[1] for i in intervals), max(i[2] for i in intervals)
    else:
        if not spec.tensor_cores:
            return _no_tensor_cores(ctx, Factor.NO_TENSOR_CORES, {"gpu": spec.name})
        if _amp_peak(spec, ctx.precision) is None:
            return _no_tensor_cores(
                ctx, Factor.PRECISION, {"precision": ctx.precision, "supported": 0}
            )
        interval = _log_interval(setup, ctx, fitted, spec, ctx.baseline)
        if interval is None:
            return _typical(setup).model_copy(update={"named": True})
        centre, low, high = interval
        factors.insert(
            0,
            FactorNote(
                code=Factor.GPU_GENERATION,
                params={
                    "gpu": spec.name,
                    "architecture": spec.architecture,
                    "peak_ratio": _round(peak_ratio(spec, ctx.precision, ctx.baseline) or 0),
                },
            ),
        )
    if ctx.precision != "fp16" and not any(f.code == Factor.PRECISION for f in factors):
        factors.append(
            FactorNote(code=Factor.PRECISION, params={"precision": ctx.precision, "supported": 1})
        )
    if _memory_bound(setup, ctx, fitted):
        factors.append(
            FactorNote(
                code=Factor.MEMORY_BOUND, params={"shift": _round(math.exp(MEMORY_BOUND_SHIFT))}
            )
        )
    return _finish(
        ctx,
        ratio=_round(math.exp(centre)),
        low=_round(math.exp(low)),
        high=_round(math.exp(high)),
        basis=Basis.MODELLED,
        factors=factors,
    )


def _published(setup: Setup, fitted: Fitted) -> Prediction:
    """Measured rows when the named model has them, else the fitted model."""
    ctx = _context(setup)
    return _measured(setup, ctx, fitted) or _modelled(setup, ctx, fitted)


def _with_other_baseline(setup: Setup, prediction: Prediction, fitted: Fitted) -> Prediction:
    """Put the other baseline's ratio on the baseline note, so both can be said.

    On a TF32-capable GPU "FP32" is ambiguous (facts sheet section 4): the reply
    names the assumed baseline and what the ratio would be against the other.
    """
    spec = gpu_spec(setup.gpu)
    if spec is None or not spec.has_tf32 or prediction.baseline not in ("fp32", "tf32"):
        return prediction
    other = "fp32" if prediction.baseline == "tf32" else "tf32"
    ratio = _published(setup.model_copy(update={"baseline": other}), fitted).ratio
    for note in prediction.factors:
        if note.code in (Factor.TF32_BASELINE, Factor.STRICT_FP32_BASELINE):
            note.params[f"{other}_ratio"] = ratio
    return prediction


def _matches(record: TeamRecord, setup: Setup) -> bool:
    """A record applies when it names what the setup names: the same GPU, and the
    same model (or, with no model named, the same task family); a stated GPU
    count, precision or baseline must not disagree (a 1-GPU run says little
    about 8 GPUs). Names on both sides are canonical ("resnet50" is read as
    "ResNet-50" when the record is taken)."""
    if setup.gpu and record.gpu != setup.gpu:
        return False
    if setup.model:
        if record.model != setup.model:
            return False
    elif setup.family:
        if (record.family or family_of_model(record.model)) != setup.family:
            return False
    elif not setup.gpu:
        return False  # a count or a precision alone says nothing about which runs apply
    stated = [
        (setup.num_gpus, record.num_gpus),
        (setup.precision, record.precision),
        (setup.baseline, getattr(record, "baseline", None)),
    ]
    return not any(mine and theirs and mine != theirs for mine, theirs in stated)


def _is_3d(published_model: str) -> bool:
    """ "3D U-Net", "nnU-Net 3D": a published model on volumes."""
    return re.search(r"\b3d\b", published_model, re.IGNORECASE) is not None


# Factors that describe the user's setup rather than the published evidence.
_SETUP_FACTORS = frozenset({Factor.MULTI_GPU, Factor.PRECISION, Factor.FAMILY_PRIOR})


def _team(setup: Setup, records: Sequence[TeamRecord], reference: Prediction) -> Prediction | None:
    """The team's own ratios for this setup; runs on the same GPU count come
    before runs that did not say theirs."""
    matching = [r for r in records if r.ratio > 0 and _matches(r, setup)]
    if setup.num_gpus:
        same_count = [r for r in matching if r.num_gpus == setup.num_gpus]
        matching = same_count or matching
    if not matching:
        return None
    logs = [math.log(r.ratio) for r in matching]
    point = math.exp(sum(logs) / len(logs))
    low, high = _spread(point, math.exp(min(logs)), math.exp(max(logs)), MIN_SPREAD)
    return reference.model_copy(
        update={
            "ratio": _round(point),
            "low": _round(low),
            "high": _round(high),
            "basis": Basis.TEAM,
            "sources": [],
            # Notes about published rows (their match, their batches) stay on the reference.
            "factors": [
                FactorNote(
                    code=Factor.TEAM_RECORDS,
                    params={
                        "n": len(matching),
                        "ratio": _round(point),
                        # What was measured, so a V100-only question answered from
                        # ResNet-50 runs says so.
                        "models": joined_names(r.model for r in matching),
                        "gpus": joined_names(r.gpu for r in matching),
                    },
                ),
                *[f for f in reference.factors if f.code in _SETUP_FACTORS],
            ],
            "named": True,
            "reference": reference,
        }
    )


def predict(
    setup: Setup, team_records: Sequence[TeamRecord] = (), *, fitted: Fitted | None = None
) -> Prediction:
    """The ratio to divide FP32 time by, its 80% range, basis and driving factors.

    ``team_records`` are the workspace's own measurements (objects with ``gpu``,
    ``model``, ``family``, ``num_gpus``, ``precision``, ``ratio``); when any match
    they come first and the published or modelled figure rides along as ``reference``.
    ``fitted`` replaces the model fitted on all shipped rows (evaluation fits on subsets).
    """
    if not _named(setup):
        return _typical(setup)
    fitted = fitted or _fitted()
    published = _with_other_baseline(setup, _published(setup, fitted), fitted)
    return _team(setup, team_records, published) or published
