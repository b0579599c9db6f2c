"""Ranges from held-out misses: calibrated on fresh draws, never used where the rule wins."""

from __future__ import annotations

import math
import random
from concurrent.futures import ThreadPoolExecutor

from bot.advice import calibration
from bot.advice.calibration import (
    MIN_CLUSTERS,
    Band,
    Miss,
    band_of,
    bands,
    fallbacks,
    interval_score,
    stretches,
)
from bot.advice.prediction import Factor, Setup, predict

STRATUM = ("seen", "family")


def draws(rng: random.Random, n: int, level: str, centre: float, sigma: float) -> list[Miss]:
    """Setups whose truth scatters around the prediction ``centre`` (log units)."""
    return [
        Miss(STRATUM, level, rng.gauss(centre, sigma), centre, centre, (level, i)) for i in range(n)
    ]


def coverage(band: Band, misses: list[Miss]) -> float:
    inside = 0
    for m in misses:
        low, high = band.interval(m.tuned, m.practice)
        inside += low <= m.actual <= high
    return inside / len(misses)


def test_a_band_chosen_on_held_out_misses_covers_about_80_percent_of_fresh_ones():
    rng = random.Random(7)
    centre = math.log(3.0)  # far above the rule's 2.5: the rule is wrong here
    band = band_of(draws(rng, 400, "tuned", centre, 0.15))
    assert band is not None and band.beats_rule
    fresh = draws(rng, 2000, "tuned", centre, 0.15)
    assert 0.75 <= coverage(band, fresh) <= 0.92
    # The tighter the evidence, the narrower the band.
    tight = band_of(draws(rng, 400, "tuned", centre, 0.05))
    assert tight.hi - tight.lo < band.hi - band.lo


def test_no_band_where_the_rule_already_does_as_well():
    rng = random.Random(3)
    # Truth inside the rule's 1.2-2.5, predictions that know nothing about it.
    misses = []
    for i in range(300):
        guess = rng.gauss(math.log(1.8), 0.5)
        actual = rng.uniform(math.log(1.25), math.log(2.4))
        misses.append(Miss(STRATUM, "tuned", actual, guess, guess, ("t", i)))
    assert band_of(misses) is None


def test_a_band_needs_misses_from_enough_setups_and_from_every_level():
    rng = random.Random(5)
    few = draws(rng, MIN_CLUSTERS - 1, "tuned", math.log(3.0), 0.1)
    assert band_of(few) is None
    tuned_only = draws(rng, 100, "tuned", math.log(3.0), 0.1)
    assert band_of(tuned_only, ("practice", "tuned")) is None
    assert band_of(tuned_only) is not None


def test_bands_cover_both_levels_low_end_below_the_realistic_figure():
    rng = random.Random(11)
    tuned = [m for m in draws(rng, 200, "tuned", math.log(3.0), 0.1)]
    # Real projects at about 1x where tuned benchmarks reach 3x: the rule misses both.
    practice = [
        Miss(STRATUM, "practice", rng.gauss(0.0, 0.1), math.log(3.0), 0.0, ("p", i))
        for i in range(200)
    ]
    band = bands(tuned + practice)[STRATUM]
    low, high = band.interval(math.log(3.0), 0.0)
    assert low < 0.0 < math.log(3.0) < high
    assert coverage(band, tuned) >= 0.75 and coverage(band, practice) >= 0.75


def test_interval_score_is_width_plus_ten_times_the_miss():
    assert interval_score(0.0, 1.0, 0.5) == 1.0
    assert interval_score(0.0, 1.0, 1.5) == 1.0 + 10 * 0.5


def test_sparse_strata_borrow_only_along_the_model_axis():
    assert fallbacks(("near", "seen")) == [("near", "seen"), ("near", "family"), ("near", "none")]
    assert all(gpu == "far" for gpu, _ in fallbacks(("far", "family")))


def test_without_a_band_the_rule_is_said_stretched_to_hold_both_figures():
    fitted = calibration.fitted()
    empty = calibration.Fitted(model=fitted.model, bands={}, rows=fitted.rows)
    p = predict(Setup(gpu="V100", family="image_classification"), fitted=empty)
    assert Factor.WIDE_SETUPS in [f.code for f in p.factors]
    assert p.low == 1.2 and p.high == max(2.5, p.tuned)
    assert p.low <= p.ratio <= p.high


def test_the_rules_ends_reach_where_held_out_tables_and_projects_landed():
    fitted = calibration.fitted()
    stretched = calibration.Fitted(
        model=fitted.model,
        bands={},
        rows=fitted.rows,
        tuned_above={("seen", "family"): math.log(1.3)},
        practice_below={("seen", "family"): math.log(0.5)},
    )
    p = predict(Setup(gpu="V100", family="image_classification"), fitted=stretched)
    assert Factor.WIDE_SETUPS in [f.code for f in p.factors]
    assert p.high > 2.5 and math.isclose(p.high, p.tuned * 1.3, abs_tol=0.02)
    assert p.low < 1.2 and p.low <= 0.5 * p.ratio + 0.01  # half the realistic figure


def test_stretches_are_each_levels_end_per_setup():
    # Ten setups whose tables landed 0.0, 0.1, ..., 0.9 above the tuned figure (the last
    # with many rows: it still weighs one setup); projects' rows do not count for them.
    misses = [Miss(STRATUM, "tuned", k / 10, 0.0, 0.0, ("t", k)) for k in range(9)]
    misses += [Miss(STRATUM, "tuned", 0.9, 0.0, 0.0, ("t", 9))] * 50
    misses += [Miss(STRATUM, "practice", -k / 10, 0.0, 0.0, ("p", k)) for k in range(10)]
    assert math.isclose(stretches(misses, "tuned")[STRATUM], 0.7)
    # Projects' end is split conformal's: the ceil(11 x 0.8) = 9th of ten setups.
    assert math.isclose(stretches(misses, "practice")[STRATUM], -0.8)
    # Inside the figures: no stretch. Too few setups: no entry.
    low = [Miss(STRATUM, "tuned", -1.0, 0.0, 0.0, ("t", k)) for k in range(MIN_CLUSTERS)]
    assert stretches(low, "tuned") == {STRATUM: 0.0}
    assert stretches(low[: MIN_CLUSTERS - 1], "tuned") == {}


def test_every_shipped_stratum_with_a_band_beats_the_rule():
    assert all(band.beats_rule for band in calibration.fitted().bands.values())


def test_a_gpu_only_real_projects_measured_is_not_seen():
    """RTX 2080 Ti has practice rows but no tuned table: its tuned figure is extrapolated,
    so it is ranged like an unmeasured GPU; V100 has tables."""
    from bot.advice.catalog import gpu_spec
    from bot.advice.features import Job

    model = calibration.fitted().model
    state = {
        g: model.stratum(Job(spec=gpu_spec(g), family="cnn"))[0] for g in ("RTX 2080 Ti", "V100")
    }
    assert state["V100"] == "seen" and state["RTX 2080 Ti"] in ("near", "far")


def test_a_far_gpu_stretches_at_least_like_a_gpu_that_knows_more():
    """With V100 held out no GPU is far from the tables, so 'far' has no stretch of its
    own: it takes the near one's (never the other way round)."""
    fitted = calibration.fitted()
    stretched = calibration.Fitted(
        model=fitted.model, bands={}, rows=fitted.rows, tuned_above={("near", "seen"): 0.4}
    )
    assert stretched.above_tuned(("far", "seen")) == 0.4
    assert stretched.above_tuned(("seen", "seen")) == 0.0
    assert stretched.above_tuned(("none", "seen")) == 0.0  # no GPU named is its own state


# ------------------------------------------------ ranges for projects alone

MEASURED = ("seen", "seen")


def test_ranges_for_projects_alone_are_where_the_tuned_figure_is_no_uncertainty():
    assert calibration.for_projects(MEASURED)  # a table measured this model on this GPU
    assert all(calibration.for_projects(("none", m)) for m in ("seen", "family", "none"))
    assert not any(
        calibration.for_projects((g, m))
        for g in ("seen", "near", "far")
        for m in ("seen", "family", "none")
        if (g, m) != MEASURED
    )


def test_a_band_for_projects_alone_sits_around_the_realistic_figure():
    rng = random.Random(5)
    # Projects scatter around a realistic 1.5x; the tuned figure (4x) is far above them.
    misses = [
        Miss(MEASURED, "practice", rng.gauss(math.log(1.5), 0.2), math.log(4), math.log(1.5), i)
        for i in range(300)
    ]
    band = band_of(misses, ("practice",), top="practice")
    assert band is not None and band.top == "practice"
    low, high = band.interval(math.log(4.0), math.log(1.5))
    assert low < math.log(1.5) < high < math.log(2.5) < math.log(4.0)
    assert 0.75 <= coverage(band, misses) <= 0.92
    # Measured from the tuned figure, no band could end that far below it.
    assert band_of(misses, ("practice",)) is None


def test_a_measured_setup_names_the_tuned_figure_as_the_best_case_above_its_range():
    fitted = calibration.fitted()
    stretched = calibration.Fitted(
        model=fitted.model,
        bands={},
        rows=fitted.rows,
        tuned_above={MEASURED: math.log(1.3)},
        practice_below={MEASURED: math.log(0.6)},
        practice_above={MEASURED: math.log(1.4)},
    )
    p = predict(Setup(gpu="V100", model="Transformer"), fitted=stretched)
    assert p.tuned > 3 and p.high < p.tuned  # tables reach ~4x; projects see less
    assert math.isclose(p.low, 0.6 * p.ratio, abs_tol=0.02)
    assert math.isclose(p.high, max(2.5, 1.4 * p.ratio), abs_tol=0.02)
    codes = [f.code for f in p.factors]
    assert Factor.TUNED_BEST_CASE in codes and Factor.MEASURED_MATCH in codes
    assert Factor.TYPICAL not in codes  # a measured setup is not "nothing specific is known"


def test_broken_runs_are_never_fitted_but_held_out():
    from bot.advice.ratio_model import evidence

    found = evidence()
    assert found.broken and all(r.measurement.setup_issue for r in found.broken)
    assert not any(r.measurement.setup_issue for r in (*found.rows, *found.unplaced))
    # A source held out (the bench's practice split) takes its broken runs with it.
    source = found.broken[0].source
    assert not any(r.source == source for r in found.without(lambda r: r.source == source).broken)


def test_threads_asking_a_cold_process_at_once_share_one_fit(monkeypatch):
    fits = []
    fit_all = calibration.fit_all
    monkeypatch.setattr(calibration, "fit_all", lambda rows: fits.append(1) or fit_all(rows))
    calibration._fit_once.cache_clear()
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda _: calibration.fitted(), range(8)))
    assert len(fits) == 1 and all(result is results[0] for result in results)


def test_projects_stretch_to_split_conformals_finite_sample_level_tables_do_not():
    projects = [Miss(STRATUM, "practice", -k / 10, 0.5, 0.0, ("p", k)) for k in range(1, 11)]
    tables = [Miss(STRATUM, "tuned", 0.5 + k / 10, 0.5, 0.0, ("t", k)) for k in range(1, 11)]
    # Ten setups: the plain 80% point is the 8th; the next setup lands inside the
    # ceil(11 x 0.8) = 9th of them with probability 0.8.
    assert math.isclose(stretches(projects, "practice")[STRATUM], -0.9)
    assert math.isclose(stretches(tables, "tuned")[STRATUM], 0.8)
    assert calibration._conformal_level(10) == 0.9
    assert calibration._conformal_level(4) == 1.0
