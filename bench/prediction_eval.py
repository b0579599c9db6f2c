"""How good is the suggested ratio on GPUs, models and projects it has never seen?

Three held-out splits, each row asked the way a user would (a message built
from the row, read by the real reader ``bot.understanding`` and answered by the
real advice, so a message the reader gets wrong counts as the answer it got):

* leave-one-GPU-out over the tuned tables (NVIDIA DeepLearningExamples, Lambda):
  every row of a GPU is asked of a fit (and ranges) made without that GPU's rows;
* leave-one-model-out over the same tables;
* the practice data (what users measured in their projects), by groups of
  sources: each group's rows are asked of a fit made without them
  (``PRACTICE_FOLDS`` groups, so a project's rows never help predict it);
* the same rows whose framework the reader knows, asked naming only that
  framework (is a framework alone worth more than the rule's range?).

Printed per split, with the guide's fixed rule (point 1.85, range 1.2-2.5) side by
side on the same rows: the interval score of the 80% range in log space
(Gneiting & Raftery 2007: width + (2/alpha) x distance outside, alpha = 0.2) as a
ratio to the rule's, the median error of the point, the coverage, and how many
messages got a ratio at all. Targets: score <= 0.8x the rule's, coverage >= 75%,
every message answered.

    .venv/bin/python bench/prediction_eval.py
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from statistics import median

from bot.advice import calibration
from bot.advice.calibration import ALPHA, Fitted, fit_all, interval_score
from bot.advice.catalog import PRACTICE, Measurement, measurements, spec_for
from bot.advice.features import framework_key, model_key
from bot.conversation import answer, to_json
from bot.models import Channel

RULE_POINT, RULE_LOW, RULE_HIGH = 1.85, 1.2, 2.5
TARGET_SCORE = 0.8  # times the rule's
TARGET_COVERAGE = 0.75
PRACTICE_FOLDS = 10
FP32_HOURS = 100
UNSEEN = Path(__file__).parent / "data" / "unseen_models.csv"


def message(m: Measurement) -> str:
    """The row as a user would ask it: model, GPUs, framework, precision, FP32 time."""
    # What the model and GPU are, without the source's notes in parentheses; a GPU the
    # source did not name is not named ("on 2 GPUs").
    name = _plain(m.published_model)
    gpu = "" if m.published_gpu.lower().startswith("unknown") else _plain(m.published_gpu)
    count = m.num_gpus if m.num_gpus and m.num_gpus > 1 else None
    if gpu:
        parts = [f"{name} on {f'{count}x ' if count else ''}{gpu}"]
    else:
        parts = [f"{name} on {count} GPUs" if count else name]
    if m.framework:
        parts.append(f"with {m.framework}")
    parts.append(f"{FP32_HOURS} hours in FP32")
    if m.baseline == "fp32" and (spec_for(m.published_gpu) or _NO_SPEC).has_tf32:
        parts.append("strict FP32, TF32 off")
    if m.precision in ("bf16", "fp8"):
        parts.append(f"how long with {m.precision.upper()}?")
    else:
        parts.append("how long with AMP?")
    if m.level == PRACTICE and m.batch_fp32 and m.batch_amp:
        parts.append(f"batch {m.batch_fp32} in FP32 and {m.batch_amp} with AMP")
    return ", ".join(parts)


# How a user names each framework the reader knows.
FRAMEWORK_NAMES = {
    "pytorch": "PyTorch",
    "tensorflow": "TensorFlow",
    "jax": "JAX",
    "mxnet": "MXNet",
    "paddle": "PaddlePaddle",
}


def framework_alone(m: Measurement) -> str:
    """The row asked by a user who names only the framework: is a framework alone
    worth more than the rule's 1.2-2.5?"""
    name = FRAMEWORK_NAMES[framework_key(m.framework) or ""]
    return f"my model in {name}, {FP32_HOURS} hours in FP32, how long with AMP?"


def _plain(name: str) -> str:
    return re.sub(r"\s*\(.*?\)", "", name).strip() or name


class _NoSpec:
    has_tf32 = False


_NO_SPEC = _NoSpec()


@dataclass(frozen=True)
class Asked:
    actual: float
    ratio: float | None
    low: float | None
    high: float | None
    message: str = ""
    best_case: float | None = None  # the tuned figure the reply names beside the lead one


def _best_case(got: dict, ratio: float | None) -> float | None:
    """The tuned figure the reply names as the best case; the lead figure when none is
    named (the two are within 10%)."""
    named = [
        f["params"]["tuned"] for f in got.get("factors") or [] if f["code"] == "tuned_best_case"
    ]
    return named[0] if named else ratio


def ask(text: str, actual: float) -> Asked:
    """The reply's ratio and range; a range answer (nothing named) has the range only,
    and its geometric middle stands for its point."""
    got = to_json(answer(text, Channel.DM))
    low, high, ratio = got.get("ratio_low"), got.get("ratio_high"), got.get("ratio")
    if ratio is None and low and high:
        ratio = math.sqrt(low * high)
    return Asked(actual, ratio, low, high, text, _best_case(got, ratio))


@contextmanager
def fitted_on(fitted: Fitted) -> Iterator[None]:
    """Answer with ``fitted`` instead of the fit on every shipped row (bench only)."""
    original = calibration.fitted
    calibration.fitted = lambda: fitted  # type: ignore[assignment]
    try:
        yield
    finally:
        calibration.fitted = original  # type: ignore[assignment]


@dataclass(frozen=True)
class Figures:
    rows: int
    answered: int
    score_ratio: float  # ours / rule, mean interval score in log space
    median_error: float
    coverage: float
    rule_median_error: float
    rule_coverage: float
    best_case_error: float  # the median error of the best case (tuned) figure

    def meets_targets(self) -> bool:
        return (
            self.score_ratio <= TARGET_SCORE
            and self.coverage >= TARGET_COVERAGE
            and self.answered == self.rows
        )


def figures(asked: Sequence[Asked]) -> Figures:
    """A message that got no ratio (a reading error) scores twice the rule's score."""
    ours, rule, errors, rule_errors, inside, rule_inside = [], [], [], [], 0, 0
    best = [abs(a.best_case - a.actual) / a.actual if a.best_case else 1.0 for a in asked]
    for a in asked:
        y = math.log(a.actual)
        rule.append(interval_score(math.log(RULE_LOW), math.log(RULE_HIGH), y))
        rule_errors.append(abs(RULE_POINT - a.actual) / a.actual)
        rule_inside += RULE_LOW <= a.actual <= RULE_HIGH
        if a.ratio is None or a.low is None or a.high is None:
            ours.append(2 * rule[-1])
            errors.append(1.0)
            continue
        ours.append(interval_score(math.log(a.low), math.log(a.high), y))
        errors.append(abs(a.ratio - a.actual) / a.actual)
        inside += a.low <= a.actual <= a.high
    n = len(asked)
    return Figures(
        rows=n,
        answered=sum(a.low is not None and a.high is not None for a in asked),
        score_ratio=sum(ours) / sum(rule),
        median_error=median(errors),
        coverage=inside / n,
        rule_median_error=median(rule_errors),
        rule_coverage=rule_inside / n,
        best_case_error=median(best),
    )


def held_out(
    pick: Callable[[Measurement], bool],
    group_of_row: Callable[[calibration.Row], str],
    group_of_measurement: Callable[[Measurement], str],
    folds: int | None = None,
    asked_as: Callable[[Measurement], str] = message,
) -> list[Asked]:
    """Ask every picked row (as ``asked_as`` words it) of a fit that left its group out."""
    found = calibration.evidence()
    rows = measurements(any_gpu=True)
    groups = sorted({group_of_measurement(m) for m in rows if pick(m)})
    chunks = [groups[k::folds] for k in range(folds)] if folds else [[g] for g in groups]
    asked = []
    for chunk in (set(c) for c in chunks if c):
        fitted = fit_all(found.without(lambda r, chunk=chunk: group_of_row(r) in chunk))
        with fitted_on(fitted):
            for m in rows:
                if pick(m) and group_of_measurement(m) in chunk:
                    asked.append(ask(asked_as(m), m.speedup or 1.0))
    return asked


def _gpu(m: Measurement) -> str:
    spec = spec_for(m.published_gpu)
    return spec.key if spec else m.published_gpu


def _tuned(m: Measurement) -> bool:
    return m.level != PRACTICE


def _practice(m: Measurement) -> bool:
    return m.level == PRACTICE


def _source(url: str) -> str:
    return url.split("#", 1)[0]


def splits() -> dict[str, list[Asked]]:
    out = {
        "leave-one-GPU-out (tuned tables)": held_out(_tuned, lambda r: r.job.gpu or "", _gpu),
        "leave-one-model-out (tuned tables)": held_out(
            _tuned,
            lambda r: r.job.model or "",
            lambda m: model_key(m.published_model, m.model),
        ),
    }
    if any(_practice(m) for m in measurements(any_gpu=True)):
        out["practice, sources held out"] = held_out(
            _practice, lambda r: r.source, lambda m: _source(m.source_url), PRACTICE_FOLDS
        )
        out["practice, framework named alone"] = held_out(
            lambda m: _practice(m) and framework_key(m.framework) in FRAMEWORK_NAMES,
            lambda r: r.source,
            lambda m: _source(m.source_url),
            PRACTICE_FOLDS,
            framework_alone,
        )
    out["models with no row (unseen_models.csv)"] = unseen()
    return out


def unseen() -> list[Asked]:
    """Published ratios of models the shipped data has no rows of, fitted on every row."""
    with UNSEEN.open(encoding="utf-8") as f:
        return [ask(row["message"], float(row["speedup"])) for row in csv.DictReader(f)]


def main() -> None:
    print(f"80% ranges (alpha = {ALPHA}); interval score in log space, ours / the rule's")
    header = (
        f"{'split':44}{'rows':>5}{'answered':>9}{'score':>7}{'med err':>16}{'coverage':>16}"
        f"{'best case':>11}"
    )
    print(header)
    print(f"{'':65}{'bot vs rule':>16}{'bot vs rule':>16}{'med err':>11}")
    results = splits()
    for name, asked in results.items():
        f = figures(asked)
        print(
            f"{name:44}{f.rows:>5}{f.answered:>9}{f.score_ratio:>7.2f}"
            f"{f.median_error:>8.0%} /{f.rule_median_error:>4.0%}"
            f"{f.coverage:>9.0%} /{f.rule_coverage:>4.0%}"
            f"{f.best_case_error:>11.0%}"
            f"  {'met' if f.meets_targets() else 'NOT met'}"
        )
    print(
        f"targets: score <= {TARGET_SCORE}x the rule's, coverage >= {TARGET_COVERAGE:.0%}, "
        "every message answered"
    )
    print(
        "med err: of the figure the reply leads with (what real projects see); best case: of "
        "the tuned figure it names beside it"
    )
    misread = [a for asked in results.values() for a in asked if a.low is None or a.high is None]
    print(
        f"\nmessages answered without a range (misread: a count or a name taken for a number): {len(misread)}"
    )
    for a in misread:
        print(f"  {a.message}")


if __name__ == "__main__":
    main()
