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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from statistics import median

from bot.advice.catalog import PRACTICE, TUNED, GpuSpec, Measurement, measurements, spec_for
from bot.advice.features import Job, job_of, model_key, terms

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
    "practice:": 2.0,
    "rnn": 1.0,
    "bf16": 2.0,
    "intensity": 2.0,
    "speed": 2.0,
}
ROBUST_ROUNDS = 4
ROBUST_FLOOR = 0.05
FOLDS = 8
MIN_CLUSTERS = 4  # a stratum's range needs misses from this many setups

GPU_STATES = ("seen", "spec", "none")  # rows on it / only its spec row / not known
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


@cache
def evidence() -> tuple[tuple[Row, ...], tuple[Row, ...]]:
    """(rows on Tensor Core GPUs, rows on GPUs without them), every measured ratio."""
    rows, no_tc = [], []
    for m in measurements():
        spec = spec_for(m.published_gpu)
        assert spec is not None and m.speedup
        row = Row(job_of(m, spec), math.log(m.speedup), _source(m.source_url), m)
        (rows if spec.tensor_cores else no_tc).append(row)
    return tuple(_weighed(rows)), tuple(_weighed(no_tc))


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
        xtx[i][i] += _ridge(name)
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

    coefficients: dict[str, float]
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
        return None if t is None else _dot(self.coefficients, t)

    def term(self, name: str) -> float:
        return self.coefficients.get(name, 0.0)

    def stratum(self, job: Job) -> tuple[str, str]:
        gpu = "none" if job.spec is None else "seen" if job.gpu in self.gpus else "spec"
        model = (
            "seen" if job.model in self.models else "family" if job.family else "none"
        )
        return gpu, model


def fit(rows: Sequence[Row], rounds: int = ROBUST_ROUNDS) -> Model:
    """Robust ridge regression on the log ratio: a few extreme rows (3D U-Net 5x,
    Tacotron 2 0.84x) do not drag the typical answer."""
    defaults = batch_defaults(rows)
    data = [(terms(r.job, defaults[r.job.level]) or {}, r.log_ratio, r.weight) for r in rows]
    coefficients = _least_squares(data)
    for _ in range(rounds):
        data = [
            (t, y, w / max(ROBUST_FLOOR, abs(y - _dot(coefficients, t))))
            for (t, y, _), w in zip(data, (r.weight for r in rows), strict=True)
        ]
        coefficients = _least_squares(data)
    specs = {r.job.gpu: r.job.spec for r in rows if r.job.spec is not None}
    return Model(
        coefficients=coefficients,
        batch_default=defaults,
        reference=tuple(specs[k] for k in sorted(specs)),  # type: ignore[misc]
        gpus=frozenset(k for k in specs if k),
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
    """An 80% range in log space around the two figures (lo on ``lo_level``'s)."""

    lo: float
    hi: float
    lo_level: str
    hi_level: str
    beats_rule: bool
    clusters: int

    def interval(self, tuned: float, practice: float) -> tuple[float, float]:
        low = (practice if self.lo_level == PRACTICE else tuned) + self.lo
        high = (practice if self.hi_level == PRACTICE else tuned) + self.hi
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


def band_of(misses: Sequence[Miss]) -> Band | None:
    """The stratum's 80% band, or None with misses from too few setups."""
    by_level = {level: [m for m in misses if m.level == level] for level in (TUNED, PRACTICE)}
    clusters = len({m.cluster for m in misses})
    if clusters < MIN_CLUSTERS:
        return None
    sides = {}
    for side, q in (("lo", ALPHA / 2), ("hi", 1 - ALPHA / 2)):
        preferred = PRACTICE if side == "lo" else TUNED
        level = preferred if len({m.cluster for m in by_level[preferred]}) >= MIN_CLUSTERS else (
            TUNED if preferred == PRACTICE else PRACTICE
        )
        pool = by_level[level] or list(misses)
        weights = _cluster_weights(pool)
        errors = [
            (m.actual - (m.practice if level == PRACTICE else m.tuned), w)
            for m, w in zip(pool, weights, strict=True)
        ]
        sides[side] = (_weighted_quantile(errors, q), level)
    band = Band(sides["lo"][0], sides["hi"][0], sides["lo"][1], sides["hi"][1], True, clusters)
    weights = _cluster_weights(misses)
    ours = rule = 0.0
    for m, w in zip(misses, weights, strict=True):
        ours += w * interval_score(*band.interval(m.tuned, m.practice), m.actual)
        rule += w * interval_score(*RULE, m.actual)
    return Band(band.lo, band.hi, band.lo_level, band.hi_level, ours < rule, clusters)


def bands(misses: Sequence[Miss]) -> dict[tuple[str, str], Band]:
    by_stratum: dict[tuple[str, str], list[Miss]] = {}
    for m in misses:
        by_stratum.setdefault(m.stratum, []).append(m)
    out = {}
    for stratum, own in by_stratum.items():
        band = band_of(own)
        if band is not None:
            out[stratum] = band
    return out


def fallbacks(stratum: tuple[str, str]) -> list[tuple[str, str]]:
    """The stratum, then ones that know less: a sparse stratum borrows a coarser range."""
    gpu, model = stratum
    gpus = GPU_STATES[GPU_STATES.index(gpu) :]
    models = MODEL_STATES[MODEL_STATES.index(model) :]
    return [(g, m) for g in gpus for m in models]


@dataclass(frozen=True)
class Fitted:
    """The model fitted on every row, its ranges per stratum, and the no-Tensor-Core rows."""

    model: Model
    bands: dict[tuple[str, str], Band]
    no_tensor_cores: tuple[float, ...] = field(default=())  # their log ratios
    rows: tuple[Measurement, ...] = ()  # what it was fitted on (measured matches come from here)

    def band(self, stratum: tuple[str, str]) -> Band | None:
        return next((self.bands[s] for s in fallbacks(stratum) if s in self.bands), None)


def fit_all(rows: Sequence[Row], no_tc: Sequence[Row] = ()) -> Fitted:
    return Fitted(
        model=fit(rows),
        bands=bands(held_out_misses(rows)),
        no_tensor_cores=tuple(r.log_ratio for r in no_tc),
        rows=tuple(r.measurement for r in rows),
    )


@cache
def fitted() -> Fitted:
    """Fitted once per process on every shipped row."""
    rows, no_tc = evidence()
    return fit_all(rows, no_tc)


__all__ = ["TYPICAL_HIGH", "TYPICAL_LOW", "Fitted", "Row", "evidence", "fit_all", "fitted", "model_key"]
