"""How good is the ratio prediction on models it has never seen?

Leave-one-model-out over the shipped measurements: for each model (canonical
name, e.g. every BERT and BioBERT row together), refit the ratio model and its
80% band without any of that model's rows, then predict each of its rows with
the model's name hidden, so only the family, GPU, GPU count, baseline and
batch sizes are known. Prints, next to the guide's fixed 1.2-2.5 rule (point =
geometric mean 1.73):

* median absolute percentage error of the point ratio,
* share of measurements inside the 80% range,
* median range width (high / low).

Targets: error <= 20%, coverage >= 80%, width <= 2.0x.

    .venv/bin/python bench/prediction_eval.py
"""

from __future__ import annotations

import math
from statistics import median

from pydantic import BaseModel

from bot.advice.catalog import measurements
from bot.advice.prediction import (
    TYPICAL_HIGH,
    TYPICAL_LOW,
    Setup,
    fit_with_band,
    model_key,
    predict,
    training_rows,
)

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


def _figures(triples: list[tuple[float, float, float, float]], models: int) -> Figures:
    """triples: (actual, point, low, high)."""
    return Figures(
        rows=len(triples),
        models=models,
        median_error=median(abs(point - actual) / actual for actual, point, _, _ in triples),
        coverage=sum(low <= actual <= high for actual, _, low, high in triples) / len(triples),
        median_width=median(high / low for _, _, low, high in triples),
    )


def lomo_figures() -> tuple[Figures, Figures]:
    """(model, fixed rule) figures, leave-one-model-out over the shipped measurements."""
    ours, rule, _ = _lomo()
    return ours, rule


def _lomo() -> tuple[Figures, Figures, dict[str, Figures]]:
    rows = training_rows()
    data = measurements()
    groups = sorted({model_key(m) for m in data})
    ours, rule = [], []
    per_model: dict[str, Figures] = {}
    typical_point = math.sqrt(TYPICAL_LOW * TYPICAL_HIGH)
    for group in groups:
        fitted = fit_with_band([r for r in rows if r.model_key != group])
        start = len(ours)
        for m in data:
            if model_key(m) != group or m.speedup is None:
                continue
            hidden = Setup(
                gpu=m.gpu,
                family=m.family,
                num_gpus=m.num_gpus,
                baseline=m.baseline,
                precision=m.precision,
                batch_fp32=m.batch_fp32,
                batch_amp=m.batch_amp,
            )
            p = predict(hidden, fitted=fitted)
            ours.append((m.speedup, p.ratio, p.low, p.high))
            rule.append((m.speedup, typical_point, TYPICAL_LOW, TYPICAL_HIGH))
        per_model[group] = _figures(ours[start:], 1)
    return _figures(ours, len(groups)), _figures(rule, len(groups)), per_model


def main() -> None:
    ours, rule, per_model = _lomo()
    print(f"leave-one-model-out over {ours.rows} measured rows, {ours.models} models")
    print(f"{'':24}{'median error':>14}{'coverage':>10}{'width':>8}")
    for name, f in (("prediction", ours), ("fixed 1.2-2.5 rule", rule)):
        print(f"{name:24}{f.median_error:>13.1%}{f.coverage:>10.1%}{f.median_width:>7.2f}x")
    print("\nper held-out model (rows weigh equally above, so BERT's 161 rows dominate):")
    for name, f in sorted(per_model.items(), key=lambda item: -item[1].rows):
        print(
            f"  {name:22}{f.rows:>4} rows{f.median_error:>9.1%}{f.coverage:>10.1%}{f.median_width:>7.2f}x"
        )
    models_within = sum(f.median_error <= TARGET_ERROR for f in per_model.values())
    print(f"  models with median error <= {TARGET_ERROR:.0%}: {models_within} of {len(per_model)}")
    print(
        f"targets: error <= {TARGET_ERROR:.0%}, coverage >= {TARGET_COVERAGE:.0%}, "
        f"width <= {TARGET_WIDTH:.1f}x -> {'met' if ours.meets_targets() else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
