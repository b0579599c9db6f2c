"""Which team records speak for a setup: the prediction picks them from all of the team's."""

from bot.advice.prediction import Basis, Factor, Setup, predict


def team_ratio(records, **setup):
    """The team ratio the prediction used for ``setup``, or None when no record applied."""
    prediction = predict(Setup(**setup), team_records=records)
    return prediction.ratio if prediction.basis is Basis.TEAM else None


def runs(records, **setup) -> int:
    prediction = predict(Setup(**setup), team_records=records)
    return next(f.params["n"] for f in prediction.factors if f.code == Factor.TEAM_RECORDS)


def test_same_gpu_and_model_match_and_others_do_not(make_record):
    records = [
        make_record(gpu="A100", model="BERT", ratio=2.0),
        make_record(gpu="V100", model="BERT", ratio=3.5),
        make_record(gpu="A100", model="ResNet-50", ratio=2.9),
    ]
    assert team_ratio(records, gpu="A100", model="BERT") == 2.0


def test_a_record_must_name_the_model_the_setup_names(make_record):
    gpu_only = make_record(gpu="A100", ratio=1.7)
    model_only = make_record(model="BERT", ratio=2.4)
    assert team_ratio([gpu_only, model_only], gpu="A100", model="BERT") is None
    assert team_ratio([gpu_only, model_only], gpu="A100") == 1.7


def test_family_matches_when_no_model_is_named(make_record):
    lm = make_record(gpu="A100", model="BERT", family="language_model", ratio=2.0)
    vision = make_record(gpu="A100", family="image_classification", ratio=3.0)
    assert team_ratio([lm, vision], gpu="A100", family="language_model") == 2.0


def test_stated_count_precision_or_baseline_must_not_conflict(make_record):
    eight = make_record(gpu="A100", model="BERT", num_gpus=8, ratio=1.6)
    one = make_record(gpu="A100", model="BERT", num_gpus=1, precision="bf16", ratio=2.5)
    assert team_ratio([eight, one], gpu="A100", model="BERT", num_gpus=8) == 1.6
    assert team_ratio([one], gpu="A100", model="BERT", num_gpus=8) is None
    assert team_ratio([one], gpu="A100", model="BERT", precision="fp16") is None
    tf32 = make_record(gpu="A100", model="BERT", baseline="tf32", ratio=1.8)
    assert team_ratio([tf32], gpu="A100", model="BERT", baseline="fp32") is None


def test_the_same_count_comes_before_runs_that_did_not_say_theirs(make_record):
    records = [
        make_record(gpu="A100", model="BERT", num_gpus=8, ratio=1.6),
        make_record(gpu="A100", model="BERT", ratio=2.4),
    ]
    assert runs(records, gpu="A100", model="BERT", num_gpus=8) == 1
    assert runs(records, gpu="A100", model="BERT") == 2


def test_nothing_named_matches_nothing(make_record):
    records = [make_record(gpu="A100", num_gpus=8, ratio=2.0)]
    assert team_ratio(records, num_gpus=8) is None
    assert team_ratio(records, precision="bf16") is None


def test_matched_records_drive_the_prediction(make_record):
    """The team's runs come first, with the published figure beside them."""
    records = [make_record(gpu="A100", model="BERT", ratio=r) for r in (2.1, 2.2, 2.3)]
    records.append(make_record(gpu="V100", model="BERT", ratio=4.0))
    prediction = predict(Setup(gpu="A100", model="BERT"), team_records=records)
    assert prediction.basis == "team"
    assert 2.1 <= prediction.ratio <= 2.3
    assert prediction.reference is not None and prediction.reference.basis != "team"
