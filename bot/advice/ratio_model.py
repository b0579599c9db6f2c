"""The ratio model: a robust ridge fit of the log ratio on every shipped measurement.

Pure Python, at load, from the shipped CSVs: least absolute deviations by
reweighted ridge least squares over the named terms of :mod:`bot.advice.features`,
first on the tuned benchmark tables, then real projects' offset from them; rows
are weighed so every setup (model, GPU, source) counts about the same, whether
its table had 3 rows or 130. Ranges around it: :mod:`bot.advice.calibration`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from statistics import median

from bot.advice.catalog import PRACTICE, TUNED, GpuSpec, Measurement, measurements, spec_for
from bot.advice.features import (
    Job,
    default_baseline,
    job_of,
    peak_ratio,
    terms,
)

ROOF_PRIOR = 1.0
TYPICAL_LOW = 1.2
TYPICAL_HIGH = 2.5
RIDGE = {
    "d:": 2.0,  # one GPU's own offset
    "m:": 1.0,  # one model's
    "f:": 2.0,
    "g:": 0.5,
    # A task group's own peak slope, pulled as hard as the common one: where the rows'
    # peak ratios hardly vary (V100 held out: nearly all at 2) a weak pull lets it
    # absorb the group's offset, and its sign flips at a GPU with another peak ratio
    # (held-out V100 BERT came out 1.2x too low).
    "gp:": 3.0,
    "fw:": 3.0,
    "rnn": 1.0,
    "bf16": 2.0,
    "intensity": 2.0,
    "speed": 2.0,
    "peak": 3.0,
    # The roofline of the model's own kernels on the GPU (features.roofline): pulled
    # towards following it one for one.
    "roof": 0.3,
}
# Where a ridge pulls a term when the rows cannot place it (otherwise 0). The peak
# ratio's slope: a GPU with 4x the Tensor Core peak over its baseline reaches about
# 1.5x the ratio (V100 FP16/FP32 8x: ~3; Ampere FP16/TF32 2x: ~1.9, facts sheet);
# without that pull, leaving V100 out leaves nearly every row at a peak of 2 and the
# slope comes out of noise (negative).
# Memory-bound task groups (embedding lookups, gathers: recommender, graph, time
# series) do not follow the Tensor Core peak: their own slope is pulled towards
# cancelling the common one, so a GPU their rows never saw is not extrapolated from
# the math-bound peak ratio (strict FP32 on Ampere: 16x).
MEMORY_BOUND_GROUPS = ("sparse",)
RIDGE_PRIOR = {
    "peak": 0.3,
    "roof": ROOF_PRIOR,
    **{"gp:" + group: -0.3 for group in MEMORY_BOUND_GROUPS},
}
# Real projects' level, by Amdahl's law over the tuned figure S: a tuned table keeps
# the GPU on the work 16-bit speeds up; a real project spends part of each step where
# it does not help (input pipeline, optimizer, small kernels, host syncs), so only a
# share f of its FP32 time gets S: ratio = 1 / ((1 - f) + f / S). The gap then grows
# with S (V100 BERT tables ~4x, projects ~1.5x; A100 ResNet tables ~1.8x, projects
# ~1.3x), and a Tensor Core GPU is never predicted a slowdown (f >= 0): how low a
# project can land is the calibrated range's low end. The share is fitted by empirical
# Bayes, each independent source counting once (the median of its rows' shares): the
# pooled share is pulled towards 1 (no gap) as if PRIOR_SOURCES sources had seen none,
# a GPU segment's towards the pooled one and one GPU's towards its segment's the same
# way (:func:`practice_share`).
PRIOR_SOURCES = 5.0
# Rows whose tuned figure is within this of 1x say nothing about the share.
MIN_SHARE_SPEEDUP = math.log(1.05)
ROBUST_ROUNDS = 4
ROBUST_FLOOR = 0.05
# Tuned tables on it / a GPU with tables within NEAR of its peak ratio / only its spec
# row / not known. A GPU only real projects measured is not "seen": its tuned figure
# is extrapolated like any other unmeasured GPU's (RTX 2080 Ti, T4 in issue threads).
GPU_STATES = ("seen", "near", "far", "none")
NEAR = math.log(1.6)
MODEL_STATES = ("seen", "family", "none")  # rows of it / only its task family / nothing
# How far a model's tuned rows sit from the fit, as a share of how far every model's do
# (:func:`spreads`): a model the fit explains across GPUs and sources (Lambda's
# ResNet-50 on five GPUs) misses a held-out GPU by less than one it does not (NVIDIA's
# EfficientNet, 3D U-Net), so its range is narrower. Each model's spread is pulled
# towards the pooled one as if SPREAD_PRIOR more setups had the pooled spread, and the
# scale stays within SPREAD_LIMITS of 1.
SPREAD_PRIOR = 3.0
SPREAD_LIMITS = (0.5, 2.0)
SPREAD_GPU_STATES = ("seen", "near", "measured")  # measured: a table of it, so seen


@dataclass(frozen=True)
class Row:
    """One measured ratio as a fitting example."""

    job: Job
    log_ratio: float
    source: str
    measurement: Measurement
    weight: float = 1.0

    @property
    def cluster(self) -> tuple[str | None, str | None, str]:
        return (self.job.model, self.job.gpu, self.source)


def _source(url: str) -> str:
    return url.split("#", 1)[0]


@dataclass(frozen=True)
class Evidence:
    """Every measured ratio, by where it can go."""

    rows: tuple[Row, ...]  # on Tensor Core GPUs with a spec row: the fitting set
    no_tensor_cores: tuple[Row, ...]  # K80, P100, GTX 10xx...: about 1x, their own answer
    unplaced: tuple[Row, ...]  # GPU unknown or without a spec row: ranges for "no GPU"
    # Runs their threads showed broken (a Keras policy bug, a TF build without FP16
    # GEMMs): never fitted, since no project should be predicted to be broken, but
    # what users hit: how often a framework's projects hit them widens its projects'
    # low end (calibration.broken_tails).
    broken: tuple[Row, ...] = ()

    def without(self, held: Callable[[Row], bool]) -> Evidence:
        """The same evidence with the rows ``held`` picks left out."""
        return Evidence(
            *(
                tuple(r for r in part if not held(r))
                for part in (self.rows, self.no_tensor_cores, self.unplaced, self.broken)
            )
        )


@cache
def evidence() -> Evidence:
    parts: dict[str, list[Row]] = {"rows": [], "no_tc": [], "unplaced": [], "broken": []}
    for m in measurements(any_gpu=True):
        if not m.speedup:
            continue
        spec = spec_for(m.published_gpu)
        row = Row(job_of(m, spec), math.log(m.speedup), _source(m.source_url), m)
        if m.setup_issue:
            part = "broken"
        else:
            part = "unplaced" if spec is None else "rows" if spec.tensor_cores else "no_tc"
        parts[part].append(row)
    kinds = ("rows", "no_tc", "unplaced", "broken")
    return Evidence(*(tuple(_weighed(parts[k])) for k in kinds))


def _weighed(rows: Sequence[Row]) -> list[Row]:
    """Each setup weighs about the same: 1/sqrt(rows in its cluster)."""
    sizes: dict[tuple, int] = {}
    for r in rows:
        sizes[r.cluster] = sizes.get(r.cluster, 0) + 1
    return [
        Row(r.job, r.log_ratio, r.source, r.measurement, 1 / math.sqrt(sizes[r.cluster]))
        for r in rows
    ]


# ---------------------------------------------------------------- fitting


def _ridge(name: str) -> float:
    return next((v for prefix, v in RIDGE.items() if name.startswith(prefix)), 1e-3)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (ridge keeps the system regular)."""
    size = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        head = a[col]
        for r in range(col + 1, size):
            f = a[r][col] / head[col]
            if f:
                row = a[r]
                for c in range(col, size + 1):
                    row[c] -= f * head[c]
    x = [0.0] * size
    for r in range(size - 1, -1, -1):
        x[r] = (a[r][size] - sum(a[r][c] * x[c] for c in range(r + 1, size))) / a[r][r]
    return x


def _least_squares(
    data: Sequence[tuple[dict[str, float], float, float]],
    ridge: Callable[[str], float] = _ridge,
) -> dict[str, float]:
    """Weighted ridge least squares over sparse named terms: (terms, target, weight)."""
    names = sorted({name for t, _, _ in data for name in t})
    index = {name: i for i, name in enumerate(names)}
    xtx = [[0.0] * len(names) for _ in names]
    xty = [0.0] * len(names)
    for t, y, w in data:
        items = [(index[n], v) for n, v in t.items()]
        for a, xa in items:
            xty[a] += w * xa * y
            row = xtx[a]
            for b, xb in items:
                row[b] += w * xa * xb
    for name, i in index.items():
        xtx[i][i] += ridge(name)
        xty[i] += ridge(name) * RIDGE_PRIOR.get(name, 0.0)
    return dict(zip(names, _solve(xtx, xty), strict=True))


def _dot(coefficients: dict[str, float], t: dict[str, float]) -> float:
    return sum(coefficients.get(n, 0.0) * v for n, v in t.items())


def batch_defaults(rows: Iterable[Row]) -> dict[str, float]:
    """The usual batch change per level, for jobs that do not say theirs."""
    out = {}
    for level in (TUNED, PRACTICE):
        said = [r.job.batch for r in rows if r.job.level == level and r.job.batch is not None]
        out[level] = median(said) if said else 0.0
    return out


@dataclass(frozen=True)
class Model:
    """Fitted coefficients and what they were fitted on."""

    coefficients: dict[str, float]  # tuned benchmarks
    practice: PracticeShare  # real projects' share of the tuned speedup
    batch_default: dict[str, float]
    reference: tuple[GpuSpec, ...]  # every GPU with rows: a job with no GPU averages them
    gpus: frozenset[str]  # GPUs with tuned tables
    models: frozenset[str]
    # Per model, its rows' spread around the fit as a share of the pooled one (spreads).
    spread: dict[str, float] = field(default_factory=dict)

    def log_ratio(self, job: Job, shift: float = 0.0) -> float | None:
        """Predicted log ratio, the tuned figure moved by ``shift`` first (a measured
        table's rows); a job with no GPU gets the mean over the measured GPUs."""
        if job.spec is None:
            values = [
                self.log_ratio(Job(**{**job.__dict__, "spec": s}), shift) for s in self.reference
            ]
            known = [v for v in values if v is not None]
            return sum(known) / len(known) if known else None
        t = terms(job, self.batch_default[job.level])
        if t is None:
            return None
        tuned = _dot(self.coefficients, t) + shift
        return self.practice.log_ratio(job.spec, tuned) if job.level == PRACTICE else tuned

    def term(self, name: str) -> float:
        return self.coefficients.get(name, 0.0)

    def scale(self, job: Job, stratum: tuple[str, str] | None = None) -> float:
        """How wide this job's range is against the pooled one: its model's spread
        around the fit, on a GPU the fit measured or one near it (1 for a model unsaid
        or without tuned rows). A GPU far from the tables misses by how far it is, not
        by the model: there the range stays the pooled one. ``stratum``, when the caller
        has it, saves working out the GPU's state again."""
        state = stratum[0] if stratum else self._gpu_state(job)
        if state not in SPREAD_GPU_STATES:
            return 1.0
        return self.spread.get(job.model or "", 1.0)

    def stratum(self, job: Job) -> tuple[str, str]:
        """What the fit knows of this job's GPU and model (see GPU_STATES, MODEL_STATES)."""
        model = "seen" if job.model in self.models else "family" if job.family else "none"
        return self._gpu_state(job), model

    def _gpu_state(self, job: Job) -> str:
        if job.spec is None:
            return "none"
        if job.gpu in self.gpus:
            return "seen"
        mine = peak_ratio(job.spec, job.precision, job.baseline or default_baseline(job.spec))
        for ref in self.reference:
            theirs = peak_ratio(ref, "fp16", default_baseline(ref))
            if mine and theirs and abs(math.log(mine / theirs)) <= NEAR:
                return "near"
        return "far"


@dataclass(frozen=True)
class PracticeShare:
    """The share of a real project's FP32 time that gets the tuned speedup (Amdahl):
    pooled, per GPU segment (consumer / workstation / datacenter) and per GPU, each
    where projects measured it."""

    pooled: float = 1.0
    per_segment: dict[str, float] = field(default_factory=dict)
    per_gpu: dict[str, float] = field(default_factory=dict)

    def at(self, spec: GpuSpec | None) -> float:
        if spec is None:
            return self.pooled
        return self.per_gpu.get(spec.key, self.per_segment.get(spec.segment, self.pooled))

    def log_ratio(self, spec: GpuSpec | None, tuned: float) -> float:
        """Real projects' log ratio where the tuned one is ``tuned``."""
        return amdahl(tuned, self.at(spec))


def amdahl(tuned: float, share: float) -> float:
    """log of 1 / ((1 - share) + share / S) for S = exp(tuned)."""
    return -math.log((1 - share) + share * math.exp(-tuned))


def share_of(tuned: float, actual: float) -> float | None:
    """The share (0..1) that makes :func:`amdahl` of ``tuned`` hit ``actual``; None when
    the tuned figure is about 1x (any share fits)."""
    if tuned < MIN_SHARE_SPEEDUP:
        return None
    share = (1 - math.exp(-actual)) / (1 - math.exp(-tuned))
    return min(1.0, max(0.0, share))


def _shrunk(values: Sequence[float], towards: float) -> float:
    """The median of one value per source, pulled towards ``towards`` as if
    PRIOR_SOURCES more sources had measured exactly that."""
    n = len(values)
    return towards + (median(values) - towards) * n / (n + PRIOR_SOURCES) if n else towards


def practice_share(fitted: Sequence[tuple[Row, float]]) -> PracticeShare:
    """Empirical-Bayes share of real projects (:class:`PracticeShare`), by independent
    source, from (practice row, its tuned log ratio as fitted): the pooled share, a
    segment's shrunk towards it, a GPU's shrunk towards its segment's. Desktops
    (consumer cards) run smaller jobs and slower input pipelines than datacenter GPUs,
    so their projects keep less of the tuned gain; the shrinkage lets a segment or GPU
    only a source or two measured stay near the pooled share."""
    shares: dict[tuple[str, str], list[float]] = {}  # by (source, GPU key)
    segment_of: dict[str, str] = {}
    for row, tuned in fitted:
        share = share_of(tuned, row.log_ratio)
        if share is not None and row.job.spec is not None:
            shares.setdefault((row.source, row.job.spec.key), []).append(share)
            segment_of[row.job.spec.key] = row.job.spec.segment
    by_source: dict[str, list[float]] = {}
    by_segment: dict[str, dict[str, list[float]]] = {}
    by_gpu: dict[str, list[float]] = {}
    for (source, gpu), values in shares.items():
        by_source.setdefault(source, []).extend(values)
        by_segment.setdefault(segment_of[gpu], {}).setdefault(source, []).extend(values)
        by_gpu.setdefault(gpu, []).append(median(values))
    pooled = _shrunk([median(v) for v in by_source.values()], 1.0)
    per_segment = {
        segment: _shrunk([median(v) for v in sources.values()], pooled)
        for segment, sources in by_segment.items()
    }
    per_gpu = {gpu: _shrunk(v, per_segment[segment_of[gpu]]) for gpu, v in by_gpu.items()}
    return PracticeShare(pooled, per_segment, per_gpu)


def _robust(
    data: Sequence[tuple[dict[str, float], float, float]],
    rounds: int,
    ridge: Callable[[str], float] = _ridge,
) -> dict[str, float]:
    """Least absolute deviations by reweighted ridge least squares."""
    coefficients = _least_squares(data, ridge)
    total = sum(w for _, _, w in data)
    for _ in range(rounds):
        reweighed = [
            (t, y, w / max(ROBUST_FLOOR, abs(y - _dot(coefficients, t)))) for t, y, w in data
        ]
        # The same total weight every round, so the ridge keeps its strength.
        scale = total / sum(w for _, _, w in reweighed)
        coefficients = _least_squares([(t, y, w * scale) for t, y, w in reweighed], ridge)
    return coefficients


def spreads(
    featured: Sequence[tuple[Row, dict[str, float]]], tuned: dict[str, float]
) -> dict[str, float]:
    """Per model, the median distance of its tuned rows from the fit, pulled towards the
    pooled median as if SPREAD_PRIOR more setups had it, as a share of the pooled one.
    A model measured in one setup only (one GPU, one source) says nothing of how it
    moves across them: its offset absorbs its rows, so that setup counts for none."""
    misses: dict[str, list[float]] = {}
    setups: dict[str, set[tuple[str | None, str]]] = {}
    for r, t in featured:
        if r.job.level == TUNED and t and r.job.model:
            misses.setdefault(r.job.model, []).append(abs(r.log_ratio - _dot(tuned, t)))
            setups.setdefault(r.job.model, set()).add((r.job.gpu, r.source))
    if not misses:
        return {}
    pooled = median(d for values in misses.values() for d in values)
    if pooled <= 0:
        return {}
    low, high = SPREAD_LIMITS
    out = {}
    for model, values in misses.items():
        n = len(setups[model]) - 1
        shrunk = pooled + (median(values) - pooled) * n / (n + SPREAD_PRIOR)
        out[model] = min(high, max(low, shrunk / pooled))
    return out


def fit(rows: Sequence[Row], rounds: int = ROBUST_ROUNDS) -> Model:
    """A robust ridge fit of the log ratio on the tuned tables over every term, then real
    projects' shrunk share of it (:func:`practice_share`). A few extreme rows (3D
    U-Net 5x, Tacotron 2 0.84x) do not drag the typical answer."""
    defaults = batch_defaults(rows)
    featured = [(r, terms(r.job, defaults[r.job.level]) or {}) for r in rows]
    tuned = _robust(
        [(t, r.log_ratio, r.weight) for r, t in featured if r.job.level == TUNED], rounds
    )
    practice = practice_share(
        [(r, _dot(tuned, t)) for r, t in featured if r.job.level == PRACTICE and t]
    )
    specs = {r.job.gpu: r.job.spec for r in rows if r.job.spec is not None and r.job.level == TUNED}
    return Model(
        coefficients=tuned,
        practice=practice,
        batch_default=defaults,
        reference=tuple(specs[k] for k in sorted(specs)),  # type: ignore[misc]
        gpus=frozenset(r.job.gpu for r in rows if r.job.gpu and r.job.level == TUNED),
        models=frozenset(r.job.model for r in rows if r.job.model),
        spread=spreads(featured, tuned),
    )
