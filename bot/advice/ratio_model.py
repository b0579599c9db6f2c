"""The ratio model: a robust ridge fit of the log ratio, and ranges sized by what it got
wrong on setups held out of its fit.

Fit (pure Python, at load, from the shipped CSVs): least absolute deviations by
reweighted ridge least squares over the named terms of :mod:`bot.advice.features`;
rows are weighed so every setup (model, GPU, source) counts about the same,
whether its table had 3 rows or 130.

Ranges (split conformal, by groups): the rows are held out a group at a time,
by source, by model and by GPU, and each held-out row is predicted as a user
who named less would be answered (model unsaid, GPU unsaid). What the fit
still knew about that row (its GPU measured or only specified or unknown, its
model measured or only its family or nothing) is its *stratum*; the 10th and
90th percentiles of the misses in a stratum are the 80% range of every answer
in it, so a range is narrow only where the evidence was dense.
The low end comes from real projects' misses around the realistic figure, the
high end from tuned benchmarks' misses around the tuned figure: the range
holds for both, and says how far apart they are.
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
    practice_terms,
    terms,
)

TYPICAL_LOW = 1.2
TYPICAL_HIGH = 2.5
ALPHA = 0.2  # an 80% range
# Interval score (Gneiting & Raftery 2007): width + (2 / alpha) x distance outside.
PENALTY = 2 / ALPHA

RIDGE = {
    "d:": 2.0,  # one GPU's own offset
    "m:": 1.0,  # one model's
    "f:": 2.0,
    "g:": 0.5,
    "gp:": 0.25,
    "fw:": 3.0,
    "rnn": 1.0,
    "bf16": 2.0,
    "intensity": 2.0,
    "speed": 2.0,
}
# The practice offset over the tuned fit: its intercept is free, every other term is
# pulled to 0 harder (real projects are few and noisy).
PRACTICE_RIDGE = 3.0
ROBUST_ROUNDS = 4
ROBUST_FLOOR = 0.05
FOLDS = 8
MIN_CLUSTERS = 4  # a stratum's range needs misses from this many setups

# Rows on it / a measured GPU with a peak ratio within NEAR of its own / only its spec
# row / not known.
GPU_STATES = ("seen", "near", "far", "none")
NEAR = math.log(1.6)
MODEL_STATES = ("seen", "family", "none")  # rows of it / only its task family / nothing


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
    """Every measured ratio but the runs their threads showed broken, by where it can go."""

    rows: tuple[Row, ...]  # on Tensor Core GPUs with a spec row: the fitting set
    no_tensor_cores: tuple[Row, ...]  # K80, P100, GTX 10xx...: about 1x, their own answer
    unplaced: tuple[Row, ...]  # GPU unknown or without a spec row: ranges for "no GPU"

    def without(self, held: Callable[[Row], bool]) -> Evidence:
        """The same evidence with the rows ``held`` picks left out."""
        return Evidence(
            *(tuple(r for r in part if not held(r)) for part in (self.rows, self.no_tensor_cores, self.unplaced))
        )


@cache
def evidence() -> Evidence:
    parts: dict[str, list[Row]] = {"rows": [], "no_tc": [], "unplaced": []}
    for m in measurements(any_gpu=True):
        if m.setup_issue or not m.speedup:
            continue
        spec = spec_for(m.published_gpu)
        row = Row(job_of(m, spec), math.log(m.speedup), _source(m.source_url), m)
        part = "unplaced" if spec is None else "rows" if spec.tensor_cores else "no_tc"
        parts[part].append(row)
    return Evidence(*(tuple(_weighed(parts[k])) for k in ("rows", "no_tc", "unplaced")))


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


def _practice_ridge(name: str) -> float:
    """The intercept is free; the GPU's numbers move it a little; one GPU, framework or
    task group only with many rows behind it."""
    if name == "1":
        return 1e-3
    return PRACTICE_RIDGE / 6 if name in _GPU_NUMBERS else PRACTICE_RIDGE


_GPU_NUMBERS = frozenset({"peak", "speed", "intensity", "gpus"})


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
    practice: dict[str, float]  # real projects' offset from them (over practice_terms)
    batch_default: dict[str, float]
    reference: tuple[GpuSpec, ...]  # every GPU with rows: a job with no GPU averages them
    gpus: frozenset[str]
    models: frozenset[str]

    def log_ratio(self, job: Job) -> float | None:
        """Predicted log ratio; a job with no GPU gets the mean over the measured GPUs."""
        if job.spec is None:
            values = [self.log_ratio(Job(**{**job.__dict__, "spec": s})) for s in self.reference]
            known = [v for v in values if v is not None]
            return sum(known) / len(known) if known else None
        t = terms(job, self.batch_default[job.level])
        if t is None:
            return None
        offset = _dot(self.practice, practice_terms(t)) if job.level == PRACTICE else 0.0
        return _dot(self.coefficients, t) + offset

    def term(self, name: str) -> float:
        return self.coefficients.get(name, 0.0)

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


def fit(rows: Sequence[Row], rounds: int = ROBUST_ROUNDS) -> Model:
    """Two robust ridge fits on the log ratio: the tuned tables over every term, then
    real projects' offset from that over a few (:func:`practice_terms`). A few extreme
    rows (3D U-Net 5x, Tacotron 2 0.84x) do not drag the typical answer."""
    defaults = batch_defaults(rows)
    featured = [(r, terms(r.job, defaults[r.job.level]) or {}) for r in rows]
    tuned = _robust(
        [(t, r.log_ratio, r.weight) for r, t in featured if r.job.level == TUNED], rounds
    )
    practice_data = [
        (practice_terms(t), r.log_ratio - _dot(tuned, t), r.weight)
        for r, t in featured
        if r.job.level == PRACTICE
    ]
    practice = _robust(practice_data, rounds, _practice_ridge) if practice_data else {}
    specs = {r.job.gpu: r.job.spec for r in rows if r.job.spec is not None and r.job.level == TUNED}
    return Model(
        coefficients=tuned,
        practice=practice,
        batch_default=defaults,
        reference=tuple(specs[k] for k in sorted(specs)),  # type: ignore[misc]
        gpus=frozenset(r.job.gpu for r in rows if r.job.gpu),
        models=frozenset(r.job.model for r in rows if r.job.model),
    )


# ---------------------------------------------------------------- calibration


@dataclass(frozen=True)
class Miss:
    """One held-out row as predicted: its stratum, level, truth and both figures."""

    stratum: tuple[str, str]
    level: str
    actual: float
    tuned: float
    practice: float
    cluster: tuple


@dataclass(frozen=True)
class Band:
    """An 80% range in log space: ``lo`` below the realistic figure, ``hi`` above the
    tuned one."""

    lo: float
    hi: float
    beats_rule: bool
    clusters: int

    def interval(self, tuned: float, practice: float) -> tuple[float, float]:
        low, high = practice + self.lo, tuned + self.hi
        return min(low, high), max(low, high)


# How each kind of fold asks its held-out rows: (hide GPU, hide model, hide family).
HIDINGS = {
    "source": ((False, False, False),),
    "model": ((False, True, False), (False, True, True)),
    "gpu": ((False, False, False), (True, False, False), (False, True, False), (True, True, True)),
}


def _group(row: Row, kind: str) -> str:
    if kind == "source":
        return row.source
    if kind == "model":
        return row.job.model or ""
    return row.job.gpu or ""


def held_out_misses(rows: Sequence[Row], folds: int = FOLDS) -> list[Miss]:
    """Every row predicted by fits that never saw its source, its model or its GPU."""
    misses = []
    for kind, hidings in HIDINGS.items():
        groups = sorted({_group(r, kind) for r in rows})
        for k in range(min(folds, len(groups))):
            held = set(groups[k::folds])
            model = fit([r for r in rows if _group(r, kind) not in held], rounds=2)
            for r in (r for r in rows if _group(r, kind) in held):
                for gpu, name, family in hidings:
                    misses += _miss(model, r, r.job.hiding(gpu=gpu, model=name, family=family))
    return misses


def _miss(model: Model, row: Row, job: Job) -> list[Miss]:
    tuned, practice = model.log_ratio(job.at_level(TUNED)), model.log_ratio(job.at_level(PRACTICE))
    if tuned is None or practice is None:
        return []
    return [Miss(model.stratum(job), row.job.level, row.log_ratio, tuned, practice, row.cluster)]


def _weighted_quantile(pairs: Sequence[tuple[float, float]], q: float) -> float:
    ordered = sorted(pairs)
    total = sum(w for _, w in ordered)
    seen = 0.0
    for value, w in ordered:
        seen += w
        if seen >= q * total:
            return value
    return ordered[-1][0]


def _cluster_weights(misses: Sequence[Miss]) -> list[float]:
    sizes: dict[tuple, int] = {}
    for m in misses:
        sizes[m.cluster] = sizes.get(m.cluster, 0) + 1
    return [1 / sizes[m.cluster] for m in misses]


def interval_score(low: float, high: float, actual: float) -> float:
    """In log space; lower is better."""
    outside = max(0.0, low - actual) + max(0.0, actual - high)
    return (high - low) + PENALTY * outside


RULE = (math.log(TYPICAL_LOW), math.log(TYPICAL_HIGH))


# Offsets searched for a band's ends (log units).
LO_GRID = tuple(-2.0 + 0.05 * k for k in range(47))
HI_GRID = tuple(-0.3 + 0.05 * k for k in range(37))
# Below this held-out coverage a level's score counts worse, by this much per point.
COVERAGE_FLOOR = 1 - ALPHA
COVERAGE_WEIGHT = 2.0
# A band must beat the rule by this margin on the misses it was chosen on: chosen on
# them, it does a little worse on the next setup (held-out splits of the bench).
RULE_MARGIN = 0.9


@dataclass(frozen=True)
class _Level:
    """One level's misses in a stratum, as the two one-sided terms of the interval score."""

    lo_cost: tuple[float, ...]  # per LO_GRID: -lo + penalty x mean shortfall below
    hi_cost: tuple[float, ...]  # per HI_GRID: hi + penalty x mean excess above
    lo_miss: tuple[float, ...]  # share below, per LO_GRID
    hi_miss: tuple[float, ...]  # share above, per HI_GRID
    gap: float  # mean tuned - realistic figure
    rule: float  # the rule's mean score on the same misses


def _level(misses: Sequence[Miss]) -> _Level:
    weights = _cluster_weights(misses)
    total = sum(weights)
    below = [(m.actual - m.practice, w / total) for m, w in zip(misses, weights, strict=True)]
    above = [(m.actual - m.tuned, w / total) for m, w in zip(misses, weights, strict=True)]
    return _Level(
        lo_cost=tuple(-lo + PENALTY * sum(w * max(0.0, lo - a) for a, w in below) for lo in LO_GRID),
        hi_cost=tuple(hi + PENALTY * sum(w * max(0.0, b - hi) for b, w in above) for hi in HI_GRID),
        lo_miss=tuple(sum(w for a, w in below if a < lo) for lo in LO_GRID),
        hi_miss=tuple(sum(w for b, w in above if b > hi) for hi in HI_GRID),
        gap=sum(w * (m.tuned - m.practice) for m, w in zip(misses, (w / total for w in weights), strict=True)),
        rule=sum(w / total * interval_score(*RULE, m.actual) for m, w in zip(misses, weights, strict=True)),
    )


def band_of(misses: Sequence[Miss], levels_present: Sequence[str] = (TUNED,)) -> Band | None:
    """The stratum's band: the ends that make the interval score smallest relative to the
    rule's on the same misses, each level (tuned, practice) weighing the same however many
    rows it has, among the ends that beat the rule on every level (none: None, and the
    rule's range is said instead); a level under 80% coverage pays for it.

    The interval score separates into a low-end and a high-end term, so every pair of
    ends on the grid is scored from two short tables per level.
    """
    clusters = len({m.cluster for m in misses})
    groups = [[m for m in misses if m.level == level] for level in levels_present]
    if any(len({m.cluster for m in own}) < MIN_CLUSTERS for own in groups):
        return None  # a range only one level was checked on could miss the other entirely
    levels = [_level(own) for own in groups]
    best: tuple[float, float, float] | None = None
    for i, lo in enumerate(LO_GRID):
        for j, hi in enumerate(HI_GRID):
            ratios = [(lv.gap + lv.lo_cost[i] + lv.hi_cost[j]) / lv.rule for lv in levels]
            if max(ratios) >= RULE_MARGIN:
                continue  # worse than the rule for one level: never chosen
            short = [
                max(0.0, COVERAGE_FLOOR - (1 - lv.lo_miss[i] - lv.hi_miss[j])) for lv in levels
            ]
            cost = sum(ratios) / len(ratios) + COVERAGE_WEIGHT * max(short)
            if best is None or cost < best[0]:
                best = (cost, lo, hi)
    if best is None:
        return None
    return Band(best[1], best[2], beats_rule=True, clusters=clusters)


def bands(misses: Sequence[Miss]) -> dict[tuple[str, str], Band]:
    """A band for every stratum whose misses cover each level the evidence has."""
    by_stratum: dict[tuple[str, str], list[Miss]] = {}
    for m in misses:
        by_stratum.setdefault(m.stratum, []).append(m)
    present = sorted({m.level for m in misses})
    out = {}
    for stratum, own in by_stratum.items():
        band = band_of(own, present)
        if band is not None:
            out[stratum] = band
    return out


def fallbacks(stratum: tuple[str, str]) -> list[tuple[str, str]]:
    """The stratum, then ones that know less of the model: a sparse stratum borrows a
    coarser range. Never one that knows the GPU better or worse: how far a GPU is from
    the measured ones is what its range is about (none left: the rule's range)."""
    gpu, model = stratum
    return [(gpu, m) for m in MODEL_STATES[MODEL_STATES.index(model) :]]


@dataclass(frozen=True)
class Fitted:
    """The model fitted on every row, its ranges per stratum, and the no-Tensor-Core rows."""

    model: Model
    bands: dict[tuple[str, str], Band]
    no_tensor_cores: tuple[float, ...] = field(default=())  # their log ratios
    rows: tuple[Measurement, ...] = ()  # what it was fitted on (measured matches come from here)

    def band(self, stratum: tuple[str, str]) -> Band | None:
        return next((self.bands[s] for s in fallbacks(stratum) if s in self.bands), None)


def fit_all(found: Evidence) -> Fitted:
    """The fit on every placed row, with ranges from held-out misses; rows whose GPU is
    unknown were never fitted, so they are held out already: they size "no GPU" ranges."""
    model = fit(found.rows)
    misses = held_out_misses(found.rows)
    for r in found.unplaced:
        misses += _miss(model, r, r.job.hiding(gpu=True))
    return Fitted(
        model=model,
        bands=bands(misses),
        no_tensor_cores=tuple(r.log_ratio for r in found.no_tensor_cores),
        rows=tuple(r.measurement for r in found.rows),
    )


@cache
def fitted() -> Fitted:
    """Fitted once per process on every shipped row."""
    return fit_all(evidence())


