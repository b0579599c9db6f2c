"""Ranges sized by what the fit got wrong on setups held out of it (split conformal,
by groups).

The rows are held out a group at a time, by source, by model and by GPU, and each
held-out row is predicted as a user who named less would be answered (model
unsaid, GPU unsaid). What the fit still knew about that row (its GPU measured, near
a measured one, far from them or unknown; its model measured, only its family or
nothing) is its *stratum*. Each stratum gets two bands, each sized on one level's
misses alone:

* the **busy** band around the tuned figure, from held-out benchmark tables: what a
  run that keeps the GPU busy gets (the figure a reply leads with);
* the **projects** band around the realistic figure, from held-out practice rows:
  what real projects report (said beside it), reaching down to a framework's broken
  runs where its projects hit them often (:func:`broken_tails`).

Sizing each band on its own level is what keeps the lead narrow: one range that held
tables and projects alike was as wide as both together (about 3.3x wide against the
rule's 2.1x), and every answer reached below 1x.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from bot.advice.catalog import PRACTICE, TUNED, Measurement
from bot.advice.features import Job
from bot.advice.measured import is_3d, match
from bot.advice.ratio_model import (
    GPU_STATES,
    MODEL_STATES,
    PRIOR_SOURCES,
    TYPICAL_HIGH,
    TYPICAL_LOW,
    Evidence,
    Model,
    Row,
    evidence,
    fit,
)

ALPHA = 0.2  # an 80% range
# Interval score (Gneiting & Raftery 2007): width + (2 / alpha) x distance outside.
PENALTY = 2 / ALPHA
FOLDS = 8
MIN_CLUSTERS = 4  # a stratum's band needs misses from this many setups
# A framework's broken-run tail needs broken runs from this many sources: one thread's
# bug is that thread's, not the framework's.
MIN_BROKEN_SOURCES = 2
# Where every stratum's misses are pooled: the band of last resort.
POOLED = ("*", "*")
# A table measured the model on the GPU: the answer is its rows, not the fit's terms.
MEASURED = ("measured", "measured")


@dataclass(frozen=True)
class Miss:
    """One held-out row as predicted: its stratum, level, truth and both figures."""

    stratum: tuple[str, str]
    level: str
    actual: float
    tuned: float
    practice: float
    cluster: tuple
    # Its model's spread (Model.scale): the busy band's gaps are measured in it. Spreads
    # are the tuned tables' own; projects' misses are the project's, not the model's.
    scale: float = 1.0

    def gap(self, level: str) -> float:
        """How far the truth is from ``level``'s figure, in the units its band is sized in."""
        gap = self.actual - self.figure(level)
        return gap / self.scale if level == TUNED else gap

    def figure(self, level: str) -> float:
        """The predicted figure of ``level``: the tuned one or the realistic one."""
        return self.tuned if level == TUNED else self.practice


@dataclass(frozen=True)
class Band:
    """An 80% range in log space: ``lo`` and ``hi`` offsets from the figure it is
    around (the tuned one for the busy band, the realistic one for projects)."""

    lo: float
    hi: float
    clusters: int

    def interval(self, figure: float, scale: float = 1.0) -> tuple[float, float]:
        """The range around ``figure``, its offsets stretched by the model's ``scale``."""
        return figure + scale * min(self.lo, self.hi), figure + scale * max(self.lo, self.hi)


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
    """Every row predicted by fits that never saw its source, its model or its GPU; with
    its source held out, also as the other sources' tables of its model on its GPU
    answer it (the MEASURED stratum)."""
    misses = []
    for kind, hidings in HIDINGS.items():
        groups = sorted({_group(r, kind) for r in rows})
        for k in range(min(folds, len(groups))):
            held = set(groups[k::folds])
            kept = [r for r in rows if _group(r, kind) not in held]
            model = fit(kept, rounds=2)
            for r in (r for r in rows if _group(r, kind) in held):
                for gpu, name, family in hidings:
                    misses += _miss(model, r, r.job.hiding(gpu=gpu, model=name, family=family))
                if kind == "source":
                    misses += _measured_miss(model, r, [k.measurement for k in kept])
    return misses


def _measured_miss(model: Model, row: Row, tables: Sequence[Measurement]) -> list[Miss]:
    """The row as the other sources' rows of its model on its GPU (and baseline) answer
    it, as a user naming both gets: how far apart two tables of one setup land."""
    m = row.measurement
    if not (m.model and m.gpu):
        return []
    found = match(
        m.model,
        m.gpu,
        m.baseline,
        rows=tables,
        model=model,
        num_gpus=m.num_gpus,
        framework=m.framework,
        batch=row.job.batch if row.job.level == PRACTICE else None,
        dimensions=3 if is_3d(m.published_model) else None,
    )
    if found is None:
        return []
    tuned = model.log_ratio(row.job.at_level(TUNED))
    practice = model.log_ratio(row.job.at_level(PRACTICE), found.log_ratio - (tuned or 0.0))
    if tuned is None or practice is None:
        return []
    scale = model.scale(row.job, MEASURED)
    return [
        Miss(MEASURED, row.job.level, row.log_ratio, found.log_ratio, practice, row.cluster, scale)
    ]


def _miss(model: Model, row: Row, job: Job) -> list[Miss]:
    tuned, practice = model.log_ratio(job.at_level(TUNED)), model.log_ratio(job.at_level(PRACTICE))
    if tuned is None or practice is None:
        return []
    stratum = model.stratum(job)
    scale = model.scale(job, stratum)
    return [Miss(stratum, row.job.level, row.log_ratio, tuned, practice, row.cluster, scale)]


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

# Offsets searched for a band's ends (log units, from the band's figure).
LO_GRID = tuple(-2.5 + 0.025 * k for k in range(111))  # -2.5 .. +0.25
HI_GRID = tuple(-0.25 + 0.025 * k for k in range(91))  # -0.25 .. +2.0
# Below split conformal's finite-sample level a band's score counts worse, by this much
# per point of held-out coverage missing: sized on a dozen to a few dozen setups, the
# interval score's own best ends (the 10% and 90% points) leave the next setup outside
# more often than 20%.
COVERAGE_WEIGHT = 2.0


def _conformal_level(setups: int) -> float:
    """Split conformal's finite-sample level: the next setup lands inside the
    ceil((n + 1)(1 - ALPHA))-th of n held-out ones with probability 1 - ALPHA."""
    return min(1.0, math.ceil((setups + 1) * (1 - ALPHA)) / setups)


def band_of(misses: Sequence[Miss], level: str) -> Band | None:
    """The band around ``level``'s figure whose mean interval score on the misses is
    smallest, each setup weighing the same, a band under the finite-sample coverage
    paying for each point it misses; None with misses from fewer than MIN_CLUSTERS
    setups. The interval score separates into a low-end and a high-end term, so
    every pair of ends on the grid is scored from two short tables."""
    clusters = len({m.cluster for m in misses})
    if not misses or clusters < MIN_CLUSTERS:
        return None
    weights = _cluster_weights(misses)
    total = sum(weights)
    gaps = [(m.gap(level), w / total) for m, w in zip(misses, weights, strict=True)]
    lo_cost = [-lo + PENALTY * sum(w * max(0.0, lo - a) for a, w in gaps) for lo in LO_GRID]
    hi_cost = [hi + PENALTY * sum(w * max(0.0, a - hi) for a, w in gaps) for hi in HI_GRID]
    lo_miss = [sum(w for a, w in gaps if a < lo) for lo in LO_GRID]
    hi_miss = [sum(w for a, w in gaps if a > hi) for hi in HI_GRID]
    floor = _conformal_level(clusters)
    best: tuple[float, float, float] | None = None
    for i, lo in enumerate(LO_GRID):
        for j, hi in enumerate(HI_GRID):
            if hi < lo:
                continue
            short = max(0.0, floor - (1 - lo_miss[i] - hi_miss[j]))
            cost = lo_cost[i] + hi_cost[j] + COVERAGE_WEIGHT * short
            if best is None or cost < best[0]:
                best = (cost, lo, hi)
    assert best is not None
    return Band(best[1], best[2], clusters=clusters)


def bands(misses: Sequence[Miss], level: str) -> dict[tuple[str, str], Band]:
    """A band for every stratum from ``level``'s misses, each stratum's own where they
    come from MIN_CLUSTERS setups, else borrowed from the coarser strata of
    :func:`fallbacks`, then from every stratum with the same GPU state; POOLED holds
    the band of every miss of the level."""
    by_stratum: dict[tuple[str, str], list[Miss]] = {}
    for m in misses:
        if m.level != level:
            continue
        by_stratum.setdefault(m.stratum, []).append(m)
        if m.stratum != MEASURED:  # the fit's misses only: a table's rows are no fit
            by_stratum.setdefault((m.stratum[0], "*"), []).append(m)
            by_stratum.setdefault(POOLED, []).append(m)
    out = {}
    for stratum in sorted(by_stratum):
        band = band_of(_enough(by_stratum, stratum), level)
        if band is not None:
            out[stratum] = band
    return out


def _enough(by_stratum: dict[tuple[str, str], list[Miss]], stratum: tuple[str, str]) -> list[Miss]:
    """The stratum's misses, or the first coarser one's with MIN_CLUSTERS setups."""
    if stratum in (POOLED, MEASURED) or stratum[1] == "*":
        return by_stratum.get(stratum, [])
    for s in (*fallbacks(stratum), (stratum[0], "*")):
        found = by_stratum.get(s, [])
        if len({m.cluster for m in found}) >= MIN_CLUSTERS:
            return found
    return []


def fallbacks(stratum: tuple[str, str]) -> list[tuple[str, str]]:
    """The stratum, then ones that know less of the model: a sparse stratum borrows a
    coarser range. Never one that knows the GPU better or worse: how far a GPU is from
    the measured ones is what its range is about."""
    gpu, model = stratum
    return [(gpu, m) for m in MODEL_STATES[MODEL_STATES.index(model) :]]


def _borrowed(table: dict[tuple[str, str], Band], stratum: tuple[str, str]) -> Band | None:
    """The stratum's band, else a coarser one's (:func:`fallbacks`), else that of a GPU
    state that knows more: a GPU farther from the tables than any held out is at least
    as uncertain as a near one (with V100 held out, no GPU is far); else the pooled one."""
    if stratum == MEASURED:
        return table.get(MEASURED) or _borrowed(table, ("seen", "seen"))
    gpu, model = stratum
    known = GPU_STATES[: GPU_STATES.index(gpu)] if gpu in ("near", "far") else ()
    for state in (gpu, *reversed(known)):
        for s in (*fallbacks((state, model)), (state, "*")):
            if s in table:
                return table[s]
    return table.get(POOLED)


@dataclass(frozen=True)
class Fitted:
    """The model fitted on every row, its two bands per stratum, and the no-Tensor-Core
    rows."""

    model: Model
    busy: dict[tuple[str, str], Band] = field(default_factory=dict)
    projects: dict[tuple[str, str], Band] = field(default_factory=dict)
    no_tensor_cores: tuple[Row, ...] = field(default=())
    rows: tuple[Measurement, ...] = ()  # what it was fitted on (measured matches come from here)
    # Per framework whose projects report broken runs too often for an 80% range to leave
    # them out: the low end (log ratio) that reaches into them (:func:`broken_tails`).
    broken_tails: dict[str, float] = field(default_factory=dict)

    def busy_band(self, stratum: tuple[str, str]) -> Band | None:
        """The range around the tuned figure: what a run that keeps the GPU busy gets."""
        return _borrowed(self.busy, stratum)

    def projects_band(self, stratum: tuple[str, str]) -> Band | None:
        """The range around the realistic figure: what real projects report."""
        return _borrowed(self.projects, stratum)


def broken_tails(found: Evidence) -> dict[str, float]:
    """Per framework, the low end an 80% range for its projects must reach.

    Runs their threads showed broken (a Keras policy bug, a TensorFlow build without
    FP16 kernels) are never fitted, but they are what some users hit, and how often
    depends on the framework. Each (source, framework) counts once, as the share of its
    rows that were broken; a framework's rate is shrunk towards the pooled one as if
    PRIOR_SOURCES more sources had the pooled rate. Where it exceeds ALPHA / 2, a range
    leaving them all below would miss more than its share: the low end goes to the
    broken runs' quantile that leaves exactly ALPHA / 2 of the framework's projects
    below it (an interval score's best low end is that quantile)."""
    runs: dict[tuple[str, str], list[tuple[float, bool]]] = {}  # (log ratio, broken)
    parts = ((found.rows, False), (found.no_tensor_cores, False), (found.unplaced, False))
    for part, broken in (*parts, (found.broken, True)):
        for r in part:
            if r.job.level == PRACTICE and r.job.framework:
                runs.setdefault((r.source, r.job.framework), []).append((r.log_ratio, broken))
    rate = {key: sum(b for _, b in rows) / len(rows) for key, rows in runs.items()}
    pooled = sum(rate.values()) / len(rate) if rate else 0.0
    out = {}
    for framework in sorted({fw for _, fw in runs}):
        mine = [key for key in runs if key[1] == framework]
        shrunk = (sum(rate[k] for k in mine) + PRIOR_SOURCES * pooled) / (len(mine) + PRIOR_SOURCES)
        if shrunk <= ALPHA / 2 or sum(1 for k in mine if rate[k]) < MIN_BROKEN_SOURCES:
            continue
        # Each source's broken runs weigh what its share of them does.
        tail = sorted((y, 1 / len(runs[k])) for k in mine for y, b in runs[k] if b)
        total, seen = sum(w for _, w in tail), 0.0
        for value, w in tail:
            seen += w
            if seen >= (ALPHA / 2) / shrunk * total:
                out[framework] = value
                break
    return out


def fit_all(found: Evidence) -> Fitted:
    """The fit on every placed row, with bands from held-out misses. Rows whose GPU is
    unknown were never fitted, so they are held out already and size "no GPU" bands.
    Runs their threads showed broken size no band: they reach the projects' range
    through their framework's tail alone (:func:`broken_tails`), where that framework's
    projects hit them often enough to matter."""
    model = fit(found.rows)
    misses = held_out_misses(found.rows)
    for r in found.unplaced:
        misses += _miss(model, r, r.job.hiding(gpu=True))
    return Fitted(
        model=model,
        busy=bands(misses, TUNED),
        projects=bands(misses, PRACTICE),
        no_tensor_cores=found.no_tensor_cores,
        broken_tails=broken_tails(found),
        rows=tuple(r.measurement for r in found.rows),
    )


_fitting = threading.Lock()


def fitted() -> Fitted:
    """Fitted once per process on every shipped row. Threads asking at once wait
    for that one fit (it takes most of a second: each job thread of a cold worker
    fitting its own copy cost seconds of CPU)."""
    with _fitting:
        return _fit_once()


@cache
def _fit_once() -> Fitted:
    return fit_all(evidence())
