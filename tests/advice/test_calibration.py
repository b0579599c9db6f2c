"""Two bands from held-out misses, each sized on its own level: the lead's around the
tuned figure (a run that keeps the GPU busy), the projects' around the realistic one."""

from __future__ import annotations

import math
import random
from concurrent.futures import ThreadPoolExecutor

from bot.advice import calibration
from bot.advice.calibration import (
    MEASURED,
    MIN_CLUSTERS,
    POOLED,
    Band,
    Miss,
    band_of,
    bands,
    fallbacks,
    interval_score,
)
from bot.advice.prediction import Factor, Setup, predict

STRATUM = ("seen", "family")


def draws(rng: random.Random, n: int, level: str, centre: float, sigma: float) -> list[Miss]:
    """Setups whose truth scatters around the prediction ``centre`` (log units)."""
    return [
        Miss(STRATUM, level, rng.gauss(centre, sigma), centre, centre, (level, i)) for i in range(n)
    ]


def coverage(band: Band, misses: list[Miss], level: str = "tuned") -> float:
    inside = 0
    for m in misses:
        low, high = band.interval(m.figure(level))
        inside += low <= m.actual <= high
    return inside / len(misses)


def test_a_band_chosen_on_held_out_misses_covers_about_80_percent_of_fresh_ones():
    rng = random.Random(7)
    centre = math.log(3.0)
    band = band_of(draws(rng, 400, "tuned", centre, 0.15), "tuned")
    assert band is not None
    fresh = draws(rng, 2000, "tuned", centre, 0.15)
    assert 0.75 <= coverage(band, fresh) <= 0.92
    # The tighter the evidence, the narrower the band.
    tight = band_of(draws(rng, 400, "tuned", centre, 0.05), "tuned")
    assert tight is not None and tight.hi - tight.lo < band.hi - band.lo


def test_a_band_needs_misses_from_enough_setups():
    rng = random.Random(5)
    assert band_of(draws(rng, MIN_CLUSTERS - 1, "tuned", math.log(3.0), 0.1), "tuned") is None
    assert band_of(draws(rng, 100, "tuned", math.log(3.0), 0.1), "tuned") is not None


def test_each_level_gets_its_own_band_around_its_own_figure():
    """Tables land near the tuned 3x, projects near a realistic 1x: the lead's band is
    narrow around 3x, the projects' around 1x, and neither is widened by the other."""
    rng = random.Random(11)
    tuned = [
        Miss(STRATUM, "tuned", rng.gauss(math.log(3.0), 0.1), math.log(3.0), 0.0, ("t", i))
        for i in range(200)
    ]
    practice = [
        Miss(STRATUM, "practice", rng.gauss(0.0, 0.1), math.log(3.0), 0.0, ("p", i))
        for i in range(200)
    ]
    busy = bands(tuned + practice, "tuned")[STRATUM]
    projects = bands(tuned + practice, "practice")[STRATUM]
    low, high = busy.interval(math.log(3.0))
    assert 0.0 < low < math.log(3.0) < high and high - low < 0.6
    low, high = projects.interval(0.0)
    assert low < 0.0 < high < math.log(3.0)
    assert coverage(busy, tuned) >= 0.75 and coverage(projects, practice, "practice") >= 0.75
    assert POOLED in bands(tuned, "tuned")


def test_interval_score_is_width_plus_ten_times_the_miss():
    assert interval_score(0.0, 1.0, 0.5) == 1.0
    assert interval_score(0.0, 1.0, 1.5) == 1.0 + 10 * 0.5


def test_sparse_strata_borrow_only_along_the_model_axis():
    assert fallbacks(("near", "seen")) == [("near", "seen"), ("near", "family"), ("near", "none")]
    assert all(gpu == "far" for gpu, _ in fallbacks(("far", "family")))


def test_a_far_gpu_borrows_from_a_gpu_state_that_knows_more():
    """With V100 held out no GPU is far from the tables, so 'far' may have no band of its
    own: it takes the near one's (never the other way round)."""
    fitted = calibration.fitted()
    near = Band(-0.4, 0.4, clusters=9)
    only_near = calibration.Fitted(model=fitted.model, busy={("near", "seen"): near})
    assert only_near.busy_band(("far", "seen")) == near
    assert only_near.busy_band(("seen", "seen")) is None
    assert only_near.busy_band(("none", "seen")) is None  # no GPU named is its own state


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


def test_a_measured_setup_is_ranged_by_how_far_apart_two_tables_of_it_land():
    """Asked of the other sources' tables, held-out tables of the same model and GPU size
    the measured stratum, not the fit's misses."""
    fitted = calibration.fitted()
    assert MEASURED in fitted.busy
    tight = Band(-0.1, 0.1, clusters=9)
    narrow = calibration.Fitted(
        model=fitted.model, busy={MEASURED: tight}, rows=fitted.rows, projects=fitted.projects
    )
    p = predict(Setup(gpu="V100", model="Transformer"), fitted=narrow)
    assert p.basis == "measured" and p.tuned == p.ratio
    # The band's offsets are in units of the model's spread (test_model_spread.py).
    half = 0.1 * fitted.model.spread["Transformer"]
    assert math.isclose(p.low, p.ratio * math.exp(-half), abs_tol=0.02)
    assert math.isclose(p.high, p.ratio * math.exp(half), abs_tol=0.02)
    assert p.projects is not None and p.projects.ratio < p.ratio


def test_without_any_band_the_lead_gets_the_rules_width_around_its_figure():
    fitted = calibration.fitted()
    empty = calibration.Fitted(model=fitted.model, rows=fitted.rows)
    p = predict(Setup(gpu="V100", family="image_classification"), fitted=empty)
    assert math.isclose(p.high / p.low, 2.5 / 1.2, rel_tol=0.02)
    assert p.low <= p.ratio <= p.high
    assert Factor.TYPICAL not in [f.code for f in p.factors]


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


def test_a_band_holds_split_conformals_finite_sample_level():
    """Ten setups, one each 0.1 apart: the next lands inside the ceil(11 x 0.8) = 9th of
    them with probability 0.8, so the band keeps 9 of the 10 inside."""
    misses = [Miss(STRATUM, "practice", k / 10, 0.0, 0.0, ("p", k)) for k in range(10)]
    band = band_of(misses, "practice")
    assert band is not None and coverage(band, misses, "practice") >= 0.9
    assert calibration._conformal_level(10) == 0.9
    assert calibration._conformal_level(4) == 1.0
