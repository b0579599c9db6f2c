"""How good is the ratio prediction on models it has never seen?

Leave-one-model-out over the shipped measurements: for each model (canonical
name, e.g. every BERT and BioBERT row together), refit the ratio model and its
80% band without any of that model's rows, then predict each of its rows with
the model's name hidden, so only the family, whether it is recurrent (LSTM
layers, as a user would say), GPU, GPU count, baseline and batch sizes are
known. Prints, next to the guide's fixed 1.2-2.5 rule (point =
geometric mean 1.73):

* median absolute percentage error of the point ratio,
* share of measurements inside the 80% range,
* median range width (high / low).

Each figure is printed twice: with every row weighing the same (BERT's 161
rows then dominate) and with every held-out model weighing the same, which is
closer to what a user naming a model we have no rows for will see.

Targets: error <= 20%, coverage >= 80%, width <= 2.0x. Measured (11 models,
GPUNet variants held out together): rows 18.9% / 88.3% / 2.36x, models
29.8% / 80.8% / 3.06x. The width target is not met: an 80% range that holds
for unseen models has to be about 3x wide, because models differ that much
(per-model offsets span 0.5x-2x around the fit, e.g. V-Net 1.2x and 3D U-Net
3.5x on the same V100).

It then prints the coverage that ranges of one fixed width would have (the
width/coverage trade-off: all 2.0x wide, 73% of rows and 57% of models), and
the same three figures on published ratios of models with no row in the
shipped data (``bench/data/unseen_models.csv``, from the facts sheet, each with
its source), asked as messages through the whole pipeline. Measured: 20.7% /
83.3% / 3.07x over 12 rows of 7 models; on the 5 blind rows (3 models) 30.7% /
60.0% / 3.07x. The other 7 rows are the figures the memory-bound prior was
set from, so they are no test of it.

    .venv/bin/python bench/prediction_eval.py
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pydantic import BaseModel

from bot.advice.catalog import is_recurrent, measurements
from bot.advice.prediction import (
    TYPICAL_HIGH,
    TYPICAL_LOW,
    Setup,
    fit_with_band,
    model_key,
    predict,
    training_rows,
)
from bot.conversation import answer, to_json

TARGET_ERROR = 0.20
TARGET_COVERAGE = 0.80
TARGET_WIDTH = 2.0


class Figures(BaseModel):
    rows: int
    models: int
    median_error: float  # fraction, 0.15 = 15%
    coverage: float  # fraction of rows inside [low, high]
    median_width: float  # high / low

    def meets_targets(self) -> bool:
        return (
            self.median_error <= TARGET_ERROR
            and self.coverage >= TARGET_COVERAGE
            and self.median_width <= TARGET_WIDTH
        )


Triple = tuple[float, float, float, float]  # (actual, point, low, high)


def _weighted_median(values: Sequence[tuple[float, float]]) -> float:
    """Median of (value, weight) pairs; equal weights give the ordinary median."""
    ordered = sorted(values)
    half = sum(w for _, w in ordered) / 2
    seen = 0.0
    for i, (value, weight) in enumerate(ordered):
        seen += weight
        if math.isclose(seen, half) and i + 1 < len(ordered):
            return (value + ordered[i + 1][0]) / 2
        if seen > half:
            return value
    return ordered[-1][0]


def _figures(triples: Sequence[Triple], models: int, weights: Sequence[float] = ()) -> Figures:
    """Row-weighted figures, or weighted by ``weights`` (one per triple)."""
    weights = list(weights) or [1.0] * len(triples)
    total = sum(weights)
    return Figures(
        rows=len(triples),
        models=models,
        median_error=_weighted_median(
            [(abs(p - a) / a, w) for (a, p, _, _), w in zip(triples, weights, strict=True)]
        ),
        coverage=sum(w for (a, _, lo, hi), w in zip(triples, weights, strict=True) if lo <= a <= hi)
        / total,
        median_width=_weighted_median(
            [(hi / lo, w) for (_, _, lo, hi), w in zip(triples, weights, strict=True)]
        ),
    )


def _model_weighted(per_model: dict[str, list[Triple]]) -> Figures:
    """Each held-out model weighs the same, however many rows it published."""
    triples = [t for rows in per_model.values() for t in rows]
    weights = [1 / len(rows) for rows in per_model.values() for _ in rows]
    return _figures(triples, len(per_model), weights)


@dataclass(frozen=True)
class Lomo:
    """Leave-one-model-out triples per held-out model, for the prediction and the fixed rule."""

    ours: dict[str, list[Triple]]
    rule: dict[str, list[Triple]]

    def figures(self, *, by_model: bool = False) -> tuple[Figures, Figures]:
        """(prediction, fixed rule), rows weighing equally or models weighing equally."""
        if by_model:
            return _model_weighted(self.ours), _model_weighted(self.rule)
        flat = [
            [t for rows in triples.values() for t in rows] for triples in (self.ours, self.rule)
        ]
        return _figures(flat[0], len(self.ours)), _figures(flat[1], len(self.rule))


def lomo_figures(*, by_model: bool = False) -> tuple[Figures, Figures]:
    """(model, fixed rule) figures, leave-one-model-out over the shipped measurements."""
    return _lomo().figures(by_model=by_model)


@cache
def _lomo() -> Lomo:
    rows = training_rows()
    data = measurements()
    groups = sorted({model_key(m) for m in data})
    ours: dict[str, list[Triple]] = {}
    rule: dict[str, list[Triple]] = {}
    typical_point = math.sqrt(TYPICAL_LOW * TYPICAL_HIGH)
    for group in groups:
        fitted = fit_with_band([r for r in rows if r.model_key != group])
        ours[group], rule[group] = [], []
        for m in data:
            if model_key(m) != group or m.speedup is None:
                continue
            hidden = Setup(
                gpu=m.gpu,
                family=m.family,
                num_gpus=m.num_gpus,
                baseline=m.baseline,
                precision=m.precision,
                # What a user says of their model ("an LSTM"), not its name.
                architecture="recurrent" if is_recurrent(m.model) else None,
                batch_fp32=m.batch_fp32,
                batch_amp=m.batch_amp,
            )
            p = predict(hidden, fitted=fitted)
            ours[group].append((m.speedup, p.ratio, p.low, p.high))
            rule[group].append((m.speedup, typical_point, TYPICAL_LOW, TYPICAL_HIGH))
    return Lomo(ours=ours, rule=rule)


UNSEEN = Path(__file__).parent / "data" / "unseen_models.csv"


def _at_width(triple: Triple, width: float) -> Triple:
    """The same range squeezed (or stretched) to ``width``, keeping its shape around the point."""
    actual, point, low, high = triple
    scale = math.log(width) / math.log(high / low)
    return actual, point, point * (low / point) ** scale, point * (high / point) ** scale


def coverage_at_width(width: float) -> tuple[float, float]:
    """(rows, models) coverage of leave-one-model-out ranges all made ``width`` wide."""
    squeezed = {model: [_at_width(t, width) for t in rows] for model, rows in _lomo().ours.items()}
    flat = [t for rows in squeezed.values() for t in rows]
    return _figures(flat, len(squeezed)).coverage, _model_weighted(squeezed).coverage


class UnseenRow(BaseModel):
    message: str
    model: str
    speedup: float
    blind: bool
    ratio: float
    low: float
    high: float


def unseen_rows() -> list[UnseenRow]:
    """Published ratios of models with no row in the shipped data, asked as a user would.

    Each message goes through the whole pipeline (understanding, then
    prediction), so an unknown model name counts only through the task family
    the message gives. ``blind`` is "no" where the bot's memory-bound prior was
    set from that very figure (facts sheet section 5.6), so it is not a test.
    """
    out = []
    with UNSEEN.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            got = to_json(answer(row["message"]))
            out.append(
                UnseenRow(
                    message=row["message"],
                    model=row["model"],
                    speedup=float(row["speedup"]),
                    blind=row["blind"] == "yes",
                    ratio=got["ratio"],
                    low=got["ratio_low"],
                    high=got["ratio_high"],
                )
            )
    return out


def unseen_figures(*, blind_only: bool = False) -> tuple[Figures, Figures]:
    """(prediction, fixed rule) on the models the shipped data has no rows for."""
    rows = [r for r in unseen_rows() if r.blind or not blind_only]
    typical_point = math.sqrt(TYPICAL_LOW * TYPICAL_HIGH)
    ours = [(r.speedup, r.ratio, r.low, r.high) for r in rows]
    rule = [(r.speedup, typical_point, TYPICAL_LOW, TYPICAL_HIGH) for r in rows]
    models = len({r.model for r in rows})
    return _figures(ours, models), _figures(rule, models)


def _print_unseen() -> None:
    print(f"\nmodels with no row in the data ({UNSEEN.name}, asked through the whole pipeline):")
    for r in unseen_rows():
        inside = "in " if r.low <= r.speedup <= r.high else "OUT"
        blind = "" if r.blind else "  (not blind: set the memory-bound prior)"
        print(
            f"  {r.message:44}{r.speedup:>6.2f}x  predicted {r.ratio:.2f}x "
            f"[{r.low:.2f}-{r.high:.2f}] {inside}{blind}"
        )
    for label, blind_only in (("all rows", False), ("blind rows only", True)):
        ours, rule = unseen_figures(blind_only=blind_only)
        for name, f in (("prediction", ours), ("fixed 1.2-2.5 rule", rule)):
            title = f"{name} ({label}, {f.rows} rows, {f.models} models)"
            print(f"  {title:52}{f.median_error:>7.1%}{f.coverage:>8.1%}{f.median_width:>7.2f}x")


def main() -> None:
    lomo = _lomo()
    ours, _ = lomo.figures()
    print(f"leave-one-model-out over {ours.rows} measured rows, {ours.models} models")
    print(f"{'':42}{'median error':>14}{'coverage':>10}{'width':>8}")
    for weighting, by_model in (("rows weigh equally", False), ("models weigh equally", True)):
        ours_w, rule_w = lomo.figures(by_model=by_model)
        for name, f in (("prediction", ours_w), ("fixed 1.2-2.5 rule", rule_w)):
            label = f"{name} ({weighting})"
            print(f"{label:42}{f.median_error:>13.1%}{f.coverage:>10.1%}{f.median_width:>7.2f}x")
    per_model = {name: _figures(triples, 1) for name, triples in lomo.ours.items()}
    print("\nper held-out model:")
    for name, f in sorted(per_model.items(), key=lambda item: -item[1].rows):
        print(
            f"  {name:22}{f.rows:>4} rows{f.median_error:>9.1%}{f.coverage:>10.1%}{f.median_width:>7.2f}x"
        )
    print("\nthe width/coverage trade-off: every range made exactly this wide")
    for width in (1.5, 2.0, 2.5, 3.0):
        by_rows, by_models = coverage_at_width(width)
        print(f"  {width:.1f}x wide: covers {by_rows:.1%} of rows, {by_models:.1%} by model")
    _print_unseen()
    models_within = sum(f.median_error <= TARGET_ERROR for f in per_model.values())
    print(f"  models with median error <= {TARGET_ERROR:.0%}: {models_within} of {len(per_model)}")
    print(
        f"targets: error <= {TARGET_ERROR:.0%}, coverage >= {TARGET_COVERAGE:.0%}, "
        f"width <= {TARGET_WIDTH:.1f}x -> rows: {'met' if ours.meets_targets() else 'NOT met'}, "
        f"models: {'met' if lomo.figures(by_model=True)[0].meets_targets() else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
