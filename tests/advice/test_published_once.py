"""A setup's published figure is worked out once per process fit, then served again."""

from bot.advice import calibration, prediction
from bot.advice.prediction import Setup, predict


def test_a_setup_asked_again_is_not_worked_out_again(monkeypatch):
    setup = Setup(gpu="V100", model="resnet50", num_gpus=2)
    first = predict(setup)
    worked = []
    published = prediction._published
    monkeypatch.setattr(
        prediction, "_published", lambda *args: worked.append(args) or published(*args)
    )
    again = predict(Setup(gpu="V100", model="resnet50", num_gpus=2))
    other = predict(Setup(gpu="V100", model="resnet50", num_gpus=4))
    assert again == first and not any(a[0].num_gpus == 2 for a in worked)
    assert other.factors != first.factors and worked  # another setup is its own


def test_a_refit_is_not_answered_from_the_old_fit(monkeypatch):
    setup = Setup(gpu="A100", model="bert-large")
    before = predict(setup)
    fit_all = calibration.fit_all
    refits = []
    monkeypatch.setattr(calibration, "fit_all", lambda rows: refits.append(1) or fit_all(rows))
    calibration._fit_once.cache_clear()
    try:
        after = predict(setup)
    finally:
        calibration._fit_once.cache_clear()
    assert refits == [1] and after == before and after is not before


def test_the_evaluations_own_fits_are_not_kept(monkeypatch):
    fit = calibration.fitted()
    kept = dict(prediction._published_by_setup)
    predict(Setup(gpu="T4", model="gnmt", precision="fp16"), fitted=fit)
    assert prediction._published_by_setup == kept
