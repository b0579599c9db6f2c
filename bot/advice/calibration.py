"""Ranges sized by what the fit got wrong on setups held out of it (split conformal,
by groups).

The rows are held out a group at a time, by source, by model and by GPU, and each
held-out row is predicted as a user who named less would be answered (model
unsaid, GPU unsaid). What the fit still knew about that row (its GPU measured, near
a measured one, far from them or unknown; its model measured, only its family or
nothing) is its *stratum*. Each stratum gets the band whose interval score on its
misses is best relative to the guide's rule, with tuned benchmarks and real
projects weighing the same: the low end sits below the realistic figure, the high
end above the tuned one, so a range is narrow only where the evidence was dense. A
stratum where no band beats the rule on both keeps the rule, its high end stretched
to where held-out tables landed above the tuned figure and held-out projects below the
realistic one (:func:`stretches`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from bot.advice.catalog import PRACTICE, TUNED, Measurement
from bot.advice.features import Job
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
MIN_CLUSTERS = 4  # a stratum's range needs misses from this many setups
# A framework's broken-run tail needs broken runs from this many sources: one thread's
# bug is that thread's, not the framework's.
MIN_BROKEN_SOURCES = 2


@dataclass(frozen=True)
class Miss:
    """One held-out row as predicted: its stratum, level, truth and both figures."""

    stratum: tuple[str, str]
    level: str
    actual: float
    tuned: float
    practice: float
    cluster: tuple

    def figure(self, level: str) -> float:
        """The predicted figure of ``level``: the tuned one or the realistic one."""
        return self.tuned if level == TUNED else self.practice


def for_projects(stratum: tuple[str, str]) -> bool:
    """Strata whose range is what a project would see, with the tuned figure named
    beside it as the best case, not covered by it: a measured model on a GPU with tables
    (nearly always a table measured that setup: the tuned figure is a measurement there,
    not an uncertainty) and a question naming no GPU (no benchmark runs without one;
    its tuned figure is an average over GPUs). Everywhere else the range holds
    held-out tables and projects alike."""
    gpu, model = stratum
    return gpu == "none" or (gpu, model) == ("seen", "seen")


@dataclass(frozen=True)
class Band:
    """An 80% range in log space: ``lo`` below the realistic figure, ``hi`` above the
    tuned one (``top``: of the realistic one, in a range for projects alone)."""

    lo: float
    hi: float
    beats_rule: bool
    clusters: int
    top: str = TUNED

    def interval(self, tuned: float, practice: float) -> tuple[float, float]:
        low, high = practice + self.lo, (tuned if self.top == TUNED else practice) + self.hi
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
    stratum = model.stratum(job)
    return [Miss(stratum, row.job.level, row.log_ratio, tuned, practice, row.cluster)]


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
RULE_MARGIN = 0.85


@dataclass(frozen=True)
class _Level:
    """One level's misses in a stratum, as the two one-sided terms of the interval score."""

    lo_cost: tuple[float, ...]  # per LO_GRID: -lo + penalty x mean shortfall below
    hi_cost: tuple[float, ...]  # per HI_GRID: hi + penalty x mean excess above
    lo_miss: tuple[float, ...]  # share below, per LO_GRID
    hi_miss: tuple[float, ...]  # share above, per HI_GRID
    gap: float  # mean tuned - realistic figure
    rule: float  # the rule's mean score on the same misses


def _level(misses: Sequence[Miss], top: str = TUNED) -> _Level:
    weights = _cluster_weights(misses)
    total = sum(weights)
    below = [(m.actual - m.practice, w / total) for m, w in zip(misses, weights, strict=True)]
    above = [(m.actual - m.figure(top), w / total) for m, w in zip(misses, weights, strict=True)]
    return _Level(
        lo_cost=tuple(
            -lo + PENALTY * sum(w * max(0.0, lo - a) for a, w in below) for lo in LO_GRID
        ),
        hi_cost=tuple(hi + PENALTY * sum(w * max(0.0, b - hi) for b, w in above) for hi in HI_GRID),
        lo_miss=tuple(sum(w for a, w in below if a < lo) for lo in LO_GRID),
        hi_miss=tuple(sum(w for b, w in above if b > hi) for hi in HI_GRID),
        gap=sum(
            w * (m.figure(top) - m.practice)
            for m, w in zip(misses, (w / total for w in weights), strict=True)
        ),
        rule=sum(
            w / total * interval_score(*RULE, m.actual)
            for m, w in zip(misses, weights, strict=True)
        ),
    )


def band_of(
    misses: Sequence[Miss], levels_present: Sequence[str] = (TUNED,), top: str = TUNED
) -> Band | None:
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
    levels = [_level(own, top) for own in groups]
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
    return Band(best[1], best[2], beats_rule=True, clusters=clusters, top=top)


def bands(misses: Sequence[Miss]) -> dict[tuple[str, str], Band]:
    """A band for every stratum, each level's misses its own where they come from enough
    setups, else borrowed from the coarser strata of :func:`fallbacks`, then from every
    stratum with the same GPU state (dense tuned evidence on a model is not thrown away
    because few real projects ran that very model). A stratum :func:`for_projects` gets
    a band chosen on projects alone."""
    by_level: dict[tuple[tuple[str, str], str], list[Miss]] = {}
    for m in misses:
        by_level.setdefault((m.stratum, m.level), []).append(m)
        by_level.setdefault(((m.stratum[0], "*"), m.level), []).append(m)
    present = sorted({m.level for m in misses})
    out = {}
    for stratum in sorted({m.stratum for m in misses}):
        if for_projects(stratum):
            band = band_of(_enough(by_level, stratum, PRACTICE), (PRACTICE,), top=PRACTICE)
        else:
            own = [m for level in present for m in _enough(by_level, stratum, level)]
            band = band_of(own, present)
        if band is not None:
            out[stratum] = band
    return out


def _enough(
    by_level: dict[tuple[tuple[str, str], str], list[Miss]], stratum: tuple[str, str], level: str
) -> list[Miss]:
    """The level's misses in the stratum or the first coarser one with MIN_CLUSTERS setups."""
    for s in (*fallbacks(stratum), (stratum[0], "*")):
        found = by_level.get((s, level), [])
        if len({m.cluster for m in found}) >= MIN_CLUSTERS:
            return found
    return []


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
    # Per stratum (log units): how far above the tuned figure held-out tables landed, and
    # how far below the realistic figure held-out projects did (:func:`stretches`).
    tuned_above: dict[tuple[str, str], float] = field(default_factory=dict)
    practice_below: dict[tuple[str, str], float] = field(default_factory=dict)
    # Per stratum :func:`for_projects`: how far above the realistic figure held-out
    # projects landed (the rule's stretched high end there).
    practice_above: dict[tuple[str, str], float] = field(default_factory=dict)
    # Per framework whose projects report broken runs too often for an 80% range to leave
    # them out: the low end (log ratio) that reaches into them (:func:`broken_tails`).
    broken_tails: dict[str, float] = field(default_factory=dict)

    def band(self, stratum: tuple[str, str]) -> Band | None:
        """The stratum's band, else a coarser one's of the same kind (for projects alone
        or not)."""
        kind = for_projects(stratum)
        found = (s for s in fallbacks(stratum) if s in self.bands and for_projects(s) == kind)
        return next((self.bands[s] for s in found), None)

    def above_tuned(self, stratum: tuple[str, str]) -> float:
        """How far the rule's stretched high end reaches above the tuned figure."""
        return _borrowed(self.tuned_above, stratum)

    def below_practice(self, stratum: tuple[str, str]) -> float:
        """How far the rule's stretched low end reaches below the realistic figure (<= 0)."""
        return _borrowed(self.practice_below, stratum)

    def above_practice(self, stratum: tuple[str, str]) -> float:
        """How far the rule's stretched high end reaches above the realistic figure, in a
        range for projects alone."""
        return _borrowed(self.practice_above, stratum)


def _borrowed(table: dict[tuple[str, str], float], stratum: tuple[str, str]) -> float:
    """The stratum's own stretch, else a coarser one's (:func:`fallbacks`), else that of a
    GPU state that knows more: a GPU farther from the tables than any held out is at
    least as uncertain as a near one (with V100 held out, no GPU is far)."""
    gpu, model = stratum
    known = GPU_STATES[: GPU_STATES.index(gpu)] if gpu in ("near", "far") else ()
    for state in (gpu, *reversed(known)):
        for s in fallbacks((state, model)):
            if s in table:
                return table[s]
    return 0.0


def stretches(
    misses: Sequence[Miss], level: str, above_practice: bool = False
) -> dict[tuple[str, str], float]:
    """Per stratum with misses from MIN_CLUSTERS setups of ``level``, each setup weighing
    the same: for tables, the excess over the tuned figure that 1 - ALPHA of them stayed
    under (>= 0); for projects, the shortfall below the realistic figure that 1 - ALPHA
    of them stayed above (<= 0), or with ``above_practice``, in the strata
    :func:`for_projects`, the excess over it that 1 - ALPHA stayed under (>= 0).

    Where no band beats the rule, the rule's range is said, stretched to these: a setup
    known only by its family on V100 or against strict FP32 sits above 2.5, and real
    projects often land below 1.2 (input pipelines, small batches); each end is sized
    by the level it belongs to, as a band's are."""
    out = {}
    for stratum in sorted({m.stratum for m in misses}):
        if above_practice and not for_projects(stratum):
            continue
        own = [m for m in misses if m.stratum == stratum and m.level == level]
        setups = len({m.cluster for m in own})
        if setups < MIN_CLUSTERS:
            continue
        level_of = _conformal_level(setups) if level == PRACTICE else 1 - ALPHA
        if level == TUNED:
            gaps = [m.actual - m.tuned for m in own]
        elif above_practice:
            gaps = [m.actual - m.practice for m in own]
        else:  # measured from below: the same walk finds the low end
            gaps = [m.practice - m.actual for m in own]
        weighed = sorted(zip(gaps, _cluster_weights(own), strict=True))
        total, seen = sum(w for _, w in weighed), 0.0
        for gap, w in weighed:
            seen += w
            if seen >= level_of * total - 1e-9:
                below = level == PRACTICE and not above_practice
                out[stratum] = -max(0.0, gap) if below else max(0.0, gap)
                break
    return out


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


def _conformal_level(setups: int) -> float:
    """Split conformal's finite-sample level: the next setup lands inside the
    ceil((n + 1)(1 - ALPHA))-th of n held-out ones with probability 1 - ALPHA. Used
    for the projects' side of every range, sized on a dozen to a few dozen sources,
    where the plain 80% point left the next source's projects outside more often
    than 20% (practice coverage 73% -> 76%); the tables' side keeps the plain point
    (tables are inside 90% of the time already, and at this level every range
    widened for them: leave-one-GPU-out 0.74 -> 0.84)."""
    return min(1.0, math.ceil((setups + 1) * (1 - ALPHA)) / setups)


def fit_all(found: Evidence) -> Fitted:
    """The fit on every placed row, with ranges from held-out misses. Rows whose GPU is
    unknown were never fitted, so they are held out already and size "no GPU" ranges.
    Runs their threads showed broken size no stratum's range: they reach a range
    through their framework's tail alone (:func:`broken_tails`), where that framework's
    projects hit them often enough to matter."""
    model = fit(found.rows)
    misses = held_out_misses(found.rows)
    for r in found.unplaced:
        misses += _miss(model, r, r.job.hiding(gpu=True))
    return Fitted(
        model=model,
        bands=bands(misses),
        tuned_above=stretches(misses, TUNED),
        practice_below=stretches(misses, PRACTICE),
        practice_above=stretches(misses, PRACTICE, above_practice=True),
        no_tensor_cores=tuple(r.log_ratio for r in found.no_tensor_cores),
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
