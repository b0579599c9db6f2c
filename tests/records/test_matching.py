"""Which team records speak for a setup."""

from bot.advice.prediction import Setup, predict
from bot.records.matching import matching_records, same_name


def ids(records):
    return [r.id for r in records]


def test_same_gpu_and_model_match_and_others_do_not(make_record):
    bert_a100 = make_record(gpu="A100", model="BERT")
    bert_v100 = make_record(gpu="V100", model="BERT")
    resnet_a100 = make_record(gpu="A100", model="ResNet-50")
    found = matching_records([bert_a100, bert_v100, resnet_a100], Setup(gpu="A100", model="BERT"))
    assert ids(found) == [bert_a100.id]


def test_a_record_must_name_what_the_setup_names(make_record):
    gpu_only = make_record(gpu="A100")
    model_only = make_record(model="BERT")
    assert matching_records([gpu_only, model_only], Setup(gpu="A100", model="BERT")) == []
    assert ids(matching_records([gpu_only, model_only], Setup(gpu="A100"))) == [gpu_only.id]


def test_family_matches_when_no_model_is_named(make_record):
    lm = make_record(gpu="A100", model="BERT", family="language_model")
    vision = make_record(gpu="A100", family="image_classification")
    found = matching_records([lm, vision], Setup(gpu="A100", family="language_model"))
    assert ids(found) == [lm.id]


def test_stated_count_precision_or_baseline_must_not_conflict(make_record):
    eight = make_record(gpu="A100", model="BERT", num_gpus=8)
    one = make_record(gpu="A100", model="BERT", num_gpus=1, precision="bf16")
    unstated = make_record(gpu="A100", model="BERT")
    setup = Setup(gpu="A100", model="BERT", num_gpus=8)
    assert ids(matching_records([eight, one, unstated], setup)) == [eight.id, unstated.id]
    fp16 = Setup(gpu="A100", model="BERT", precision="fp16")
    assert one.id not in ids(matching_records([eight, one, unstated], fp16))
    tf32 = make_record(gpu="A100", model="BERT", baseline="tf32")
    assert matching_records([tf32], Setup(gpu="A100", model="BERT", baseline="fp32")) == []


def test_nothing_named_matches_nothing(make_record):
    records = [make_record(gpu="A100", num_gpus=8)]
    assert matching_records(records, Setup(num_gpus=8)) == []
    assert matching_records(records, Setup(precision="bf16")) == []


def test_closer_matches_first_then_newer(make_record):
    older_exact = make_record(gpu="A100", model="BERT", num_gpus=8)
    newer_loose = make_record(gpu="A100", model="BERT")
    newest_exact = make_record(gpu="A100", model="BERT", num_gpus=8)
    found = matching_records(
        [older_exact, newer_loose, newest_exact], Setup(gpu="A100", model="BERT", num_gpus=8)
    )
    assert ids(found) == [newest_exact.id, older_exact.id, newer_loose.id]


def test_names_compare_without_case_or_punctuation(make_record):
    assert same_name("ResNet-50", "resnet50") and not same_name("A10", "A100")
    record = make_record(gpu="a100", model="resnet50")
    assert matching_records([record], Setup(gpu="A100", model="ResNet-50")) == [record]


def test_matched_records_drive_the_prediction(make_record):
    """What matching feeds predict() comes first, with basis "team"."""
    records = [make_record(gpu="A100", model="BERT", ratio=r) for r in (2.1, 2.2, 2.3)]
    records.append(make_record(gpu="V100", model="BERT", ratio=4.0))
    setup = Setup(gpu="A100", model="BERT")
    prediction = predict(setup, team_records=matching_records(records, setup))
    assert prediction.basis == "team"
    assert 2.1 <= prediction.ratio <= 2.3
    assert prediction.reference is not None and prediction.reference.basis != "team"
