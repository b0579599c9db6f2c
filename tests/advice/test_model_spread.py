"""A model the fit explains across GPUs and sources gets a narrower lead range than one
it does not: the busy band is sized in units of each model's spread around the fit."""

from __future__ import annotations

import math
import random

from bot.advice import calibration
from bot.advice.calibration import Miss, band_of
from bot.advice.catalog import gpu_spec
from bot.advice.features import Job
from bot.advice.prediction import Setup, predict
from bot.advice.ratio_model import SPREAD_LIMITS

STRATUM = ("near", "seen")


def _misses(rng: random.Random, n: int, scale: float, tag: str) -> list[Miss]:
    centre = math.log(2.0)
    return [
        Miss(STRATUM, "tuned", rng.gauss(centre, 0.1 * scale), centre, centre, (tag, i), scale)
        for i in range(n)
    ]


def _coverage(band: calibration.Band, misses: list[Miss]) -> float:
    inside = 0
    for m in misses:
        low, high = band.interval(m.tuned, m.scale)
        inside += low <= m.actual <= high
    return inside / len(misses)


def test_a_band_sized_in_spread_units_covers_steady_and_scattered_models_alike():
    rng = random.Random(11)
    steady, scattered = _misses(rng, 300, 0.5, "steady"), _misses(rng, 300, 2.0, "scattered")
    band = band_of(steady + scattered, "tuned")
    assert band is not None
    fresh_steady, fresh_scattered = _misses(rng, 1000, 0.5, "s"), _misses(rng, 1000, 2.0, "x")
    assert _coverage(band, fresh_steady) >= 0.7 and _coverage(band, fresh_scattered) >= 0.7
    # Without the scale, one band for both leaves the scattered model's range too narrow.
    pooled = band_of([_unscaled(m) for m in steady + scattered], "tuned")
    assert pooled is not None
    unscaled = [_unscaled(m) for m in fresh_scattered]
    assert _coverage(pooled, unscaled) < 0.7 <= _coverage(band, fresh_scattered)


def _unscaled(m: Miss) -> Miss:
    return Miss(m.stratum, m.level, m.actual, m.tuned, m.practice, m.cluster)


def test_spreads_come_from_the_models_own_rows_and_stay_within_limits():
    model = calibration.fitted().model
    assert model.spread, "every model with tuned rows in several setups has a spread"
    low, high = SPREAD_LIMITS
    assert all(low <= s <= high for s in model.spread.values())
    assert min(model.spread.values()) < 1.0 < max(model.spread.values())


def test_the_scale_applies_on_measured_and_near_gpus_only():
    model = calibration.fitted().model
    steadiest = min(model.spread, key=model.spread.get)
    on = {g: model.scale(Job(spec=gpu_spec(g), model=steadiest)) for g in ("A100", "V100")}
    assert on["A100"] == model.spread[steadiest] == on["V100"]
    assert model.scale(Job(spec=gpu_spec("A100"))) == 1.0  # no model named: the pooled width
    assert model.scale(Job(spec=None, model=steadiest)) == 1.0  # no GPU named


def test_the_lead_range_is_narrower_for_a_steady_model_than_a_scattered_one():
    model = calibration.fitted().model
    steadiest = min(model.spread, key=model.spread.get)
    widest = max(model.spread, key=model.spread.get)
    width = {}
    for name in (steadiest, widest):
        p = predict(Setup(gpu="RTX 3080", model=name))
        width[name] = p.high / p.low
    assert width[steadiest] < width[widest]
