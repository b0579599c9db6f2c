"""Predict the mixed-precision reduction ratio for a setup, with an honest range.

The answer stands on all the evidence shipped in ``bot/advice/data``: NVIDIA's
and Lambda's tuned benchmark tables and what users measured in their own
projects, fitted by :mod:`bot.advice.ratio_model` over what the GPU is and what
the job is. It gives two figures, each with its own 80% range: what a run that
keeps the GPU busy gets (the tables' level, the lead) and what real projects
report (``projects``, said beside it). Public threads over-represent runs where
mixed precision did not help, so their level leads only where the user's own
words say the run is like theirs ("data loading is the bottleneck", "CPU-bound",
"tiny model", "pure fp16").

In order of evidence:

1. ``team``: the team's own records for a matching setup (:mod:`bot.advice.team`),
   with the published or modelled figure kept beside them;
2. ``measured``: a benchmark table measured this model on this GPU (at this
   baseline, or at the other one and moved by the fit's baseline effect): its rows
   are the figure (:mod:`bot.advice.measured`); ``measured_realistic`` when the
   user's words moved the lead to the projects' level;
3. ``modelled``: the fit at the user's GPU (or over every measured GPU when
   none is named);
4. ``typical``: the guide's 1.2-2.5 when nothing narrows it (a GPU count or a
   precision alone does not).

Each range is sized by what the fit got wrong on setups held out of it, in the
same stratum of evidence (:mod:`bot.advice.calibration`). A GPU without Tensor
Cores is answered from runs on GPUs of its kind (FP16 at double rate on the
ordinary cores, as on P100, or almost none, as on GeForce Pascal); a job on a CPU
by :mod:`bot.advice.cpu`; a GPU the spec file does not know is said to be
unknown, never guessed from its name.
"""

from __future__ import annotations

import math
from statistics import median

from pydantic import BaseModel

from bot.advice import calibration
from bot.advice.calibration import Band, Fitted
from bot.advice.catalog import PRACTICE, TUNED, GpuSpec, family_of_model, gpu_spec, is_recurrent
from bot.advice.cpu import cpu_prediction
from bot.advice.features import (
    Job,
    amp_peak,
    batch_change,
    framework_key,
    implied_baseline,
)
from bot.advice.features import peak_ratio as _peak_ratio
from bot.advice.measured import Match, match, sources
from bot.advice.ratio_model import TYPICAL_HIGH, TYPICAL_LOW
from bot.advice.ratio_types import (
    NAMES_SEPARATOR,
    Basis,
    Factor,
    FactorNote,
    Prediction,
    ProjectsRange,
    Setup,
    TeamRecord,
    joined_names,
)
from bot.advice.team import team_prediction
from bot.models import CPU_DEVICE

__all__ = [
    "NAMES_SEPARATOR",
    "TYPICAL_HIGH",
    "TYPICAL_LOW",
    "Basis",
    "Factor",
    "FactorNote",
    "Prediction",
    "ProjectsRange",
    "Setup",
    "TeamRecord",
    "predict",
]

# Without Tensor Cores FP16 runs on the ordinary cores: at double rate on P100 and GTX
# 16xx, at 1/64 rate or not at all on GeForce Pascal, P40/P4 and K80, where frameworks
# compute in FP32 and only the halved memory traffic is left to pay for the casts.
# Maintainers report small gains at best and slowdowns at worst on the slow kind (apex#76,
# apex#101 K80 ~1.3x slower, apex#806 GTX 1650 slower; facts sheet section 5.1), up to
# ~1.2-1.5x on P100 (FP16 math and half the bytes). Each kind's prior (point, low, high),
# moved towards its own measured runs as they come (_no_tensor_cores).
NO_TENSOR_CORE_PRIOR = {True: (1.3, 0.9, 1.8), False: (0.85, 0.55, 1.15)}  # by fast_fp16
# How many runs a kind's prior counts as (empirical Bayes, as ratio_model.PRIOR_SOURCES).
NO_TC_PRIOR_RUNS = 5
# The other baseline's ratio is said only when it differs from the answer by more than this.
SAME_RATIO = math.log(1.05)
# What the user said about the run that makes it like the projects threads report:
# the lead is then their figure and range (Factor.RUN_EVIDENCE).
PROJECT_LIKE_RUNS = frozenset({"input_bound", "small_model", "pure_fp16"})
# How many setups' published figures a process keeps (see _published_for).
KNOWN_SETUPS = 4096


def _round(value: float) -> float:
    return round(value, 2)


def _typical(setup: Setup, **fields: object) -> Prediction:
    values: dict = {
        "ratio": _round(math.sqrt(TYPICAL_LOW * TYPICAL_HIGH)),
        "low": TYPICAL_LOW,
        "high": TYPICAL_HIGH,
        "basis": Basis.TYPICAL,
        "factors": [FactorNote(code=Factor.TYPICAL)],
        "precision": setup.precision,
        "baseline": setup.baseline,
    }
    return Prediction(**(values | fields))


def _named(setup: Setup) -> bool:
    return bool(setup.gpu or setup.model or setup.family or framework_key(setup.framework))


def _informative(setup: Setup) -> bool:
    """A GPU the spec table does not know tells nothing on its own: with no model, task
    or framework beside it the answer is the rule's, and says the GPU is unknown.

    A framework does tell something: whoever names one trains a real project, so the
    answer is an unnamed setup's on any GPU, with its framework's projects beside it
    (TensorFlow's broken runs reach their range through its tail,
    calibration.broken_tails)."""
    return bool(
        setup.model or setup.family or gpu_spec(setup.gpu) or framework_key(setup.framework)
    )


class _Context(BaseModel):
    """The setup with its gaps filled, and the notes on how they were filled."""

    spec: GpuSpec | None
    family: str | None
    precision: str
    baseline: str  # what the fit uses
    shown_baseline: str | None  # what the answer reports: None when no GPU says which
    num_gpus: int
    factors: list[FactorNote]


def _baseline_notes(spec: GpuSpec, baseline: str, why: str) -> list[FactorNote]:
    if not spec.has_tf32:
        return []  # Pascal, Volta, Turing: no TF32, so nothing to say about it
    code = Factor.TF32_BASELINE if baseline == "tf32" else Factor.STRICT_FP32_BASELINE
    return [FactorNote(code=code, params={"gpu": spec.name, "why": why})]


def _context(setup: Setup) -> _Context:
    spec = gpu_spec(setup.gpu)
    family = setup.family or family_of_model(setup.model)
    precision = (setup.precision or "fp16").lower()
    implied, why = implied_baseline(spec, framework_key(setup.framework), family)
    baseline = (setup.baseline or implied).lower()
    if setup.baseline:
        why = "stated"
    factors: list[FactorNote] = []
    if setup.gpu and spec is None:
        factors.append(FactorNote(code=Factor.UNKNOWN_GPU, params={"gpu": setup.gpu}))
    if spec is not None:
        if not spec.has_tf32:
            baseline = "fp32"  # TF32 does not exist before Ampere: the baseline is FP32
        factors += _baseline_notes(spec, baseline, why)
        if precision == "fp8" and spec.fp8_tensor_tflops is None:
            # No FP8 units (before Ada/Hopper): the job would run in 16-bit instead.
            precision = "bf16" if spec.bf16_rate else "fp16"
            params = {"precision": "fp8", "supported": 0, "instead": precision}
            factors.append(FactorNote(code=Factor.PRECISION, params=params))
    num_gpus = setup.num_gpus if setup.num_gpus and setup.num_gpus > 0 else 1
    if num_gpus > 1:
        factors.append(FactorNote(code=Factor.MULTI_GPU, params={"num_gpus": num_gpus}))
    if setup.batch_fp32 and setup.batch_amp and setup.batch_amp > setup.batch_fp32:
        params = {"batch_fp32": setup.batch_fp32, "batch_amp": setup.batch_amp, "published": 0}
        factors.append(FactorNote(code=Factor.LARGER_AMP_BATCH, params=params))
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


def _job(setup: Setup, ctx: _Context) -> Job:
    return Job(
        spec=ctx.spec,
        family=ctx.family,
        model=setup.model,
        framework=framework_key(setup.framework),
        num_gpus=ctx.num_gpus,
        precision=ctx.precision,
        baseline=ctx.baseline if ctx.spec is not None else setup.baseline,
        batch=batch_change(setup.batch_fp32, setup.batch_amp),
        recurrent=is_recurrent(setup.model, setup.architecture),
        roof=setup.roof,
    )


def _finish(ctx: _Context, **fields: object) -> Prediction:
    return Prediction(
        named=True,
        family=ctx.family,
        precision=ctx.precision,
        baseline=ctx.shown_baseline,
        **fields,  # type: ignore[arg-type]
    )


def _no_tensor_cores(
    ctx: _Context, fitted: Fitted, code: Factor, params: dict[str, str | int | float]
) -> Prediction:
    """About 1x or slower where FP16 math is slow (GeForce Pascal, K80), some gain where
    it runs at double rate (P100, GTX 16xx): the kind's prior, moved towards the runs
    measured on GPUs of that kind as if the prior were NO_TC_PRIOR_RUNS more runs. The
    range holds the prior's and widens to the runs' 10% and 90% points: with a handful
    of runs those are their extremes, which the next GPU's run lands beyond as often as
    not. Every such run is a real project's, so the projects' range is the same."""
    fast = ctx.spec is not None and ctx.spec.fast_fp16
    kind = _no_tc_kind(ctx.spec)
    logs = sorted(r.log_ratio for r in fitted.no_tensor_cores if _no_tc_kind(r.job.spec) == kind)
    point, low, high = NO_TENSOR_CORE_PRIOR[fast]
    if logs:
        n = len(logs)
        point = math.exp(
            (n * median(logs) + NO_TC_PRIOR_RUNS * math.log(point)) / (n + NO_TC_PRIOR_RUNS)
        )
        low = min(low, math.exp(logs[int(0.1 * (n - 1))]))
        high = max(high, math.exp(logs[math.ceil(0.9 * (n - 1))]))
    low, high = min(low, point), max(high, point)
    return _finish(
        ctx,
        ratio=_round(point),
        low=_round(low),
        high=_round(high),
        basis=Basis.MODELLED,
        factors=[FactorNote(code=code, params=params | {"fast_fp16": int(fast)}), *ctx.factors],
        projects=ProjectsRange(ratio=_round(point), low=_round(low), high=_round(high)),
    )


def _no_tc_kind(spec: GpuSpec | None) -> tuple[bool, str]:
    """Which runs speak for a GPU without Tensor Cores: those on GPUs with the same FP16
    rate class and segment. A datacenter P100 and a desktop GTX 1660 both run FP16 at
    twice FP32, but desktop cuDNN builds and input pipelines slow the latter's projects
    down (GTX 16xx threads report 0.2-0.5x)."""
    if spec is None:
        return (False, "")
    return (spec.fast_fp16, spec.segment)


def _measured_notes(setup: Setup, found: Match) -> list[FactorNote]:
    rows = found.rows
    notes = [
        FactorNote(
            code=Factor.MEASURED_MATCH,
            params={
                "n": len(rows),
                "models": joined_names(m.published_model for m in rows),
                "gpus": joined_names(m.published_gpu for m in rows),
            },
        )
    ]
    if found.framework_matched is not None:
        params = {"framework": setup.framework or "", "matched": int(found.framework_matched)}
        notes.append(FactorNote(code=Factor.FRAMEWORK, params=params))
    bigger = [m for m in rows if m.larger_amp_batch]
    if bigger and not (setup.batch_fp32 and setup.batch_amp):
        # The published runs' batches, said as theirs: never as if the user had given them.
        params = {
            "batch_fp32": bigger[0].batch_fp32 or 0,
            "batch_amp": bigger[0].batch_amp or 0,
            "published": 1,
        }
        notes.append(FactorNote(code=Factor.LARGER_AMP_BATCH, params=params))
    return notes


def _narrow_by(setup: Setup, ctx: _Context, job: Job, fitted: Fitted) -> str:
    """The one unknown whose answer would move or narrow the lead's range most (log
    units); "utilisation" (is the run GPU-bound?) is said by the projects' line."""
    model = fitted.model
    stratum = model.stratum(job)
    width = _width(fitted.busy_band(stratum))
    candidates: dict[str, float] = {}
    if job.batch is None:
        change = model.batch_default[TUNED] - model.batch_default[PRACTICE]
        candidates["batch"] = abs(model.term("batch")) * max(1.0, abs(change))
    spec = ctx.spec
    if spec is not None and spec.has_tf32 and setup.baseline is None:
        strict, tf32 = (
            _peak_ratio(spec, ctx.precision, "fp32"),
            _peak_ratio(spec, ctx.precision, "tf32"),
        )
        if strict and tf32:
            candidates["baseline"] = model.term("peak") * math.log(strict / tf32)
    if spec is None:
        # How far apart the measured GPUs put this job, or how much narrower their ranges are.
        each = [model.log_ratio(Job(**{**job.__dict__, "spec": s})) for s in model.reference]
        known = [v for v in each if v is not None]
        spread = max(known) - min(known) if known else 0.0
        seen_gpu = _width(fitted.busy_band(("seen", stratum[1])))
        candidates["gpu"] = max(spread, width - seen_gpu)
    if not setup.model:
        candidates["model"] = width - _width(fitted.busy_band((stratum[0], "seen")))
    if not candidates:
        return ""
    return max(candidates, key=lambda k: candidates[k])


def _width(band: Band | None) -> float:
    return band.hi - band.lo if band else math.log(TYPICAL_HIGH / TYPICAL_LOW)


def _around(band: Band | None, figure: float, scale: float = 1.0) -> tuple[float, float]:
    """The band around ``figure`` stretched by the model's spread; none at all (no
    held-out misses): the rule's width."""
    if band is None:
        half = math.log(TYPICAL_HIGH / TYPICAL_LOW) / 2
        return figure - half, figure + half
    return band.interval(figure, scale)


def _measured(setup: Setup, ctx: _Context, job: Job, fitted: Fitted) -> tuple[Match, float] | None:
    """The published rows of this model on this GPU, and the shift that takes them to the
    user's baseline: none at that baseline, the other baseline's rows are moved by the
    fit's own baseline effect (BERT on A100 against stock PyTorch's strict FP32 from
    NVIDIA's TF32 rows), never a table's figure taken as if measured at a baseline it
    was not."""
    if not (setup.model and ctx.spec is not None):
        return None
    model = fitted.model
    for baseline in (ctx.baseline, "fp32" if ctx.baseline == "tf32" else "tf32"):
        if baseline != ctx.baseline and not ctx.spec.has_tf32:
            break
        found = match(
            setup.model,
            ctx.spec.name,
            baseline,
            rows=fitted.rows,
            model=model,
            num_gpus=setup.num_gpus and ctx.num_gpus,
            framework=setup.framework,
            batch=job.batch,
            dimensions=setup.dimensions,
        )
        if found is None:
            continue
        shift = 0.0
        if baseline != ctx.baseline:
            theirs = model.log_ratio(Job(**{**job.__dict__, "baseline": baseline}))
            mine = model.log_ratio(job)
            shift = (mine or 0.0) - (theirs or 0.0)
        return found, shift
    return None


def _modelled(setup: Setup, ctx: _Context, fitted: Fitted) -> Prediction:
    job = _job(setup, ctx)
    model = fitted.model
    tuned = model.log_ratio(job.at_level(TUNED))
    practice = model.log_ratio(job.at_level(PRACTICE))
    if tuned is None or practice is None:
        return _typical(setup, named=True, family=ctx.family)
    factors, basis, cited = list(ctx.factors), Basis.MODELLED, []
    found = _measured(setup, ctx, job, fitted)
    if found is not None:
        # The measured rows are the tuned figure; real projects' share applies to it.
        rows, shift = found
        measured = rows.log_ratio + shift
        moved = model.log_ratio(job.at_level(PRACTICE), measured - tuned)
        practice = practice if moved is None else moved
        tuned, basis, cited = measured, Basis.MEASURED, sources(rows.rows)
        factors = [*_measured_notes(setup, rows), *factors]
    else:
        factors = _model_notes(ctx, job, fitted) + factors
    stratum = calibration.MEASURED if found is not None else model.stratum(job)
    busy_low, busy_high = _around(fitted.busy_band(stratum), tuned, model.scale(job, stratum))
    low, high = _around(fitted.projects_band(stratum), practice)
    tail = fitted.broken_tails.get(job.framework or "")
    if tail is not None and tail < low:
        # What projects report includes its framework's broken runs (calibration.broken_tails),
        # and the reply says why that range reaches so low.
        low = tail
        params = {"framework": setup.framework or job.framework or ""}
        factors.append(FactorNote(code=Factor.BROKEN_SETUPS, params=params))
    projects = ProjectsRange(
        ratio=_round(math.exp(practice)),
        low=_round(math.exp(min(low, practice))),
        high=_round(math.exp(max(high, practice))),
    )
    if setup.run in PROJECT_LIKE_RUNS:
        # The user's own words say the run is like those threads report: their figure leads.
        point, lead_low, lead_high = practice, min(low, practice), max(high, practice)
        factors.append(FactorNote(code=Factor.RUN_EVIDENCE, params={"run": setup.run}))
        if basis == Basis.MEASURED:
            basis = Basis.MEASURED_REALISTIC
    else:
        point, lead_low, lead_high = tuned, busy_low, busy_high
        if setup.run == "busy":
            factors.append(FactorNote(code=Factor.RUN_EVIDENCE, params={"run": setup.run}))
        else:
            params = {"ratio": projects.ratio, "low": projects.low, "high": projects.high}
            factors.append(FactorNote(code=Factor.PROJECTS, params=params))
    fact = _narrow_by(setup, ctx, job, fitted)
    if fact:
        factors.append(FactorNote(code=Factor.NARROW_BY, params={"fact": fact}))
    return _finish(
        ctx,
        ratio=_round(math.exp(point)),
        low=_round(math.exp(min(lead_low, point))),
        high=_round(math.exp(max(lead_high, point))),
        basis=basis,
        sources=cited,
        factors=factors,
        tuned=_round(math.exp(tuned)),
        projects=projects,
    )


def _model_notes(ctx: _Context, job: Job, fitted: Fitted) -> list[FactorNote]:
    notes = []
    spec = ctx.spec
    if spec is not None:
        peak = _peak_ratio(spec, ctx.precision, ctx.baseline) or 0
        params = {
            "gpu": spec.name,
            "architecture": spec.architecture,
            "peak_ratio": _round(peak),
            "bits": 8 if ctx.precision == "fp8" else 16,
        }
        notes.append(FactorNote(code=Factor.GPU_GENERATION, params=params))
    if ctx.precision != "fp16" and not any(f.code == Factor.PRECISION for f in ctx.factors):
        notes.append(
            FactorNote(code=Factor.PRECISION, params={"precision": ctx.precision, "supported": 1})
        )
    shift = math.exp(fitted.model.term("rnn"))
    if job.recurrent and shift < 1 / 1.1:
        # Said only where the evidence puts recurrent layers lower.
        notes.append(FactorNote(code=Factor.MEMORY_BOUND, params={"shift": _round(shift)}))
    return notes


def _published(setup: Setup, fitted: Fitted) -> Prediction:
    """Everything but the team's records: measured rows or the fit, or no Tensor Cores."""
    ctx = _context(setup)
    spec = ctx.spec
    if spec is not None and not spec.tensor_cores:
        return _no_tensor_cores(ctx, fitted, Factor.NO_TENSOR_CORES, {"gpu": spec.name})
    if spec is not None and amp_peak(spec, ctx.precision) is None:
        params = {"precision": ctx.precision, "supported": 0}
        return _no_tensor_cores(ctx, fitted, Factor.PRECISION, params)
    return _modelled(setup, ctx, fitted)


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
    if abs(math.log(ratio / prediction.ratio)) < SAME_RATIO:
        # GeForce RTX 30/40: TF32 Tensor rate = FP32 rate, so no second figure to give.
        return prediction
    for note in prediction.factors:
        if note.code in (Factor.TF32_BASELINE, Factor.STRICT_FP32_BASELINE):
            note.params[f"{other}_ratio"] = ratio
    return prediction


def predict(setup: Setup, team_records=(), *, fitted: Fitted | None = None) -> Prediction:
    """The ratio to divide FP32 time by (a run that keeps the GPU busy, unless the
    setup's words say otherwise), its 80% range, basis and driving factors;
    ``projects`` is what real projects report, with its own range.

    ``team_records`` are the workspace's own measurements (objects with ``gpu``,
    ``model``, ``family``, ``num_gpus``, ``precision``, ``ratio``); when any match
    they come first and the published or modelled figure rides along as ``reference``.
    ``fitted`` replaces the fit on all shipped rows (evaluation fits on subsets).
    """
    if not _named(setup):
        return _typical(setup)
    if setup.gpu == CPU_DEVICE:  # none of the fit's GPU evidence speaks for a CPU
        cpu = cpu_prediction(setup)
        return team_prediction(setup, team_records, cpu) or cpu
    if not _informative(setup):
        unknown = FactorNote(code=Factor.UNKNOWN_GPU, params={"gpu": setup.gpu or ""})
        return _typical(setup, named=True, factors=[unknown, FactorNote(code=Factor.TYPICAL)])
    if fitted is None:
        published = _published_for(setup, calibration.fitted())
    else:  # the evaluation's fits on subsets: each asked once per row, nothing to keep
        published = _with_other_baseline(setup, _published(setup, fitted), fitted)
    return team_prediction(setup, team_records, published) or published


# Per setup: the fit it was worked out with, and the published figure (shared, read-only).
_published_by_setup: dict[tuple, tuple[Fitted, Prediction]] = {}


def _published_for(setup: Setup, fitted: Fitted) -> Prediction:
    """The published figure for ``setup`` with the process's fit, worked out once per setup.

    It depends on nothing else, and a team asks about its GPU and model again
    and again, while the work (matching rows, the fit's terms, both baselines)
    was a fifth of the core's time per answer. A bounded dict, not
    ``functools.lru_cache``: an entry holds the fit it came from, so a refit
    (tests clear ``calibration._fit_once``) replaces it instead of serving it.
    """
    key = tuple(setup.__dict__.values())
    known = _published_by_setup.get(key)
    if known is not None and known[0] is fitted:
        return known[1]
    published = _with_other_baseline(setup, _published(setup, fitted), fitted)
    if len(_published_by_setup) >= KNOWN_SETUPS:
        _published_by_setup.clear()
    _published_by_setup[key] = (fitted, published)
    return published
