"""Ratio prediction: the right basis, honest ranges, the factors that drove it."""

import importlib.util
import math
import sys
from pathlib import Path
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.advice.catalog import FAMILIES
from bot.advice.prediction import (
    TYPICAL_HIGH,
    TYPICAL_LOW,
    Basis,
    Factor,
    Prediction,
    Setup,
    predict,
)
from bot.models import GPU_NAMES, MODEL_NAMES

DLE = "https://github.com/NVIDIA/DeepLearningExamples/"


def codes(prediction: Prediction) -> list[Factor]:
    return [f.code for f in prediction.factors]


def params(prediction: Prediction, code: Factor) -> dict:
    return next(f.params for f in prediction.factors if f.code == code)


def record(ratio: float, **setup) -> SimpleNamespace:
    fields = {"gpu": None, "model": None, "family": None, "num_gpus": None, "precision": None}
    return SimpleNamespace(**{**fields, **setup, "ratio": ratio})


# ---------------------------------------------------------------- typical


def test_nothing_known_is_the_guides_typical_range():
    p = predict(Setup())
    assert (p.low, p.high, p.basis, p.named) == (TYPICAL_LOW, TYPICAL_HIGH, Basis.TYPICAL, False)
    assert p.ratio == round(math.sqrt(TYPICAL_LOW * TYPICAL_HIGH), 2)
    assert codes(p) == [Factor.TYPICAL]


def test_gpu_count_precision_or_baseline_alone_do_not_narrow_it():
    for setup in (
        Setup(num_gpus=8),
        Setup(precision="bf16"),
        Setup(baseline="tf32"),
        Setup(num_gpus=8, precision="fp16", batch_fp32=64, batch_amp=128),
    ):
        p = predict(setup)
        assert p.basis is Basis.TYPICAL and not p.named
        assert (p.low, p.high) == (TYPICAL_LOW, TYPICAL_HIGH)


# ---------------------------------------------------------------- measured


def test_resnet50_on_v100_is_measured_near_the_dle_figures():
    p = predict(Setup(gpu="V100", model="ResNet-50"))
    assert p.basis is Basis.MEASURED and p.named
    assert 2.9 <= p.ratio <= 3.7  # DLE: PyTorch 3.26x/2.91x, TF1 3.08x, MXNet 3.58x
    assert p.low < p.ratio < p.high
    assert p.sources and all(url.startswith(DLE) for url in p.sources)
    assert Factor.MEASURED_MATCH in codes(p)
    # DLE's AMP runs used a bigger batch (e.g. 112 -> 256): said, not hidden.
    bigger = params(p, Factor.LARGER_AMP_BATCH)
    assert bigger["batch_amp"] > bigger["batch_fp32"]


def test_more_gpus_means_a_smaller_measured_ratio():
    one = predict(Setup(gpu="V100", model="ResNet-50", num_gpus=1))
    eight = predict(Setup(gpu="V100", model="ResNet-50", num_gpus=8))
    assert eight.ratio < one.ratio
    assert params(eight, Factor.MULTI_GPU) == {"num_gpus": 8}


def test_some_published_setups_are_slower_with_mixed_precision():
    p = predict(Setup(gpu="A100", model="Tacotron2"))
    assert p.basis is Basis.MEASURED and p.ratio < 1


def test_user_batch_sizes_replace_the_published_batch_change():
    published = predict(Setup(gpu="V100", model="ResNet-50"))
    same_batch = predict(Setup(gpu="V100", model="ResNet-50", batch_fp32=128, batch_amp=128))
    assert same_batch.ratio < published.ratio
    assert Factor.LARGER_AMP_BATCH not in codes(same_batch)


# ---------------------------------------------------------------- modelled


def test_a10_is_not_matched_as_a100():
    p = predict(Setup(gpu="A10", model="ResNet-50"))
    assert p.basis is Basis.MODELLED and p.sources == []
    assert params(p, Factor.GPU_GENERATION)["gpu"] == "A10"


def test_p100_has_no_tensor_cores_and_a_low_ratio():
    p = predict(Setup(gpu="P100", model="ResNet-50"))
    assert p.named and Factor.NO_TENSOR_CORES in codes(p)
    assert p.ratio < 1.3 and p.high <= 1.5 and p.low < 1


def test_a100_baseline_defaults_to_tf32_and_says_so():
    p = predict(Setup(gpu="A100", model="BERT"))
    assert p.baseline == "tf32"
    note = params(p, Factor.TF32_BASELINE)
    assert note["assumed"] == 1
    assert note["fp32_ratio"] > 1.5 * p.ratio  # against strict FP32 it is much larger


def test_strict_fp32_baseline_gives_a_much_larger_ratio():
    for setup in (Setup(gpu="A100", model="BERT"), Setup(gpu="A100", family="segmentation")):
        tf32 = predict(setup.model_copy(update={"baseline": "tf32"}))
        fp32 = predict(setup.model_copy(update={"baseline": "fp32"}))
        assert fp32.ratio > 1.5 * tf32.ratio
        assert Factor.STRICT_FP32_BASELINE in codes(fp32)
        assert params(fp32, Factor.STRICT_FP32_BASELINE)["tf32_ratio"] == tf32.ratio


def test_tf32_baseline_on_a_gpu_without_tf32_falls_back_to_fp32():
    assert predict(Setup(gpu="V100", model="BERT", baseline="tf32")).baseline == "fp32"


def test_family_alone_narrows_it():
    p = predict(Setup(family="translation", gpu="V100"))
    assert p.named and p.basis is Basis.MODELLED
    assert params(p, Factor.FAMILY_PRIOR) == {"family": "translation"}
    assert predict(Setup(family="translation")).named


def test_unmeasured_memory_bound_models_sit_near_their_published_figures():
    # Facts sheet: NCF/Wide&Deep 0.90-0.95x on A100, Wide&Deep 1.03-1.49x on V100.
    a100 = predict(Setup(gpu="A100", model="NCF"))
    v100 = predict(Setup(gpu="V100", model="Wide&Deep"))
    assert a100.basis is Basis.MODELLED and a100.low < 0.9 and a100.ratio < 1.2
    assert v100.low < 1.03 and 1.2 < v100.ratio < v100.high
    measured_family = predict(Setup(gpu="A100", family="translation"))
    assert a100.high / a100.low > measured_family.high / measured_family.low
    # GNMT (LSTM) is a translation model, but memory-bound: TF1 0.96x on A100.
    gnmt = predict(Setup(gpu="A100", model="GNMT"))
    assert gnmt.low < 0.96 < gnmt.high and gnmt.ratio < measured_family.ratio


def test_unknown_gpu_spans_both_reference_setups():
    narrow = predict(Setup(family="image_classification", gpu="V100"))
    wide = predict(Setup(family="image_classification"))
    assert wide.high / wide.low > narrow.high / narrow.low


def test_bf16_without_bf16_tensor_cores_is_no_speedup():
    p = predict(Setup(gpu="V100", precision="bf16"))
    assert params(p, Factor.PRECISION) == {"precision": "bf16", "supported": 0}
    assert p.ratio < 1.3


def test_bf16_on_ampere_is_accelerated_like_fp16():
    bf16 = predict(Setup(gpu="A10", family="image_classification", precision="bf16"))
    fp16 = predict(Setup(gpu="A10", family="image_classification", precision="fp16"))
    assert bf16.ratio == fp16.ratio
    assert params(bf16, Factor.PRECISION) == {"precision": "bf16", "supported": 1}
    measured = predict(Setup(gpu="A100", model="BERT", precision="bf16"))
    assert measured.basis is Basis.MEASURED


def test_fp8_needs_fp8_units():
    a100 = predict(Setup(gpu="A100", family="language_model", precision="fp8"))
    assert params(a100, Factor.PRECISION) == {"precision": "fp8", "supported": 0, "instead": "bf16"}
    assert a100.precision == "bf16"
    bf16 = predict(Setup(gpu="H100", model="GPT-2", precision="bf16"))
    fp8 = predict(Setup(gpu="H100", model="GPT-2", precision="fp8"))
    assert fp8.ratio > bf16.ratio
    assert params(fp8, Factor.PRECISION) == {"precision": "fp8", "supported": 1}


# ---------------------------------------------------------------- team records


def test_team_records_take_precedence_with_the_published_figure_beside():
    records = [record(r, gpu="A100", model="BERT") for r in (2.0, 2.2, 2.4)]
    p = predict(Setup(gpu="A100", model="BERT"), records)
    assert p.basis is Basis.TEAM
    assert p.ratio == round((2.0 * 2.2 * 2.4) ** (1 / 3), 2)
    assert p.low <= 2.0 and p.high >= 2.4
    assert params(p, Factor.TEAM_RECORDS)["n"] == 3
    assert p.reference is not None and p.reference.basis is Basis.MEASURED
    assert p.reference.sources


def test_team_records_for_another_setup_are_ignored():
    setup = Setup(gpu="A100", model="BERT")
    others = [
        record(3.5, gpu="V100", model="BERT"),
        record(3.0, gpu="A100", model="ResNet-50"),
        record(2.0, gpu="A100", model="BERT", precision="fp8"),
    ]
    assert predict(setup.model_copy(update={"precision": "bf16"}), others).basis != Basis.TEAM
    assert predict(setup, others[:2]) == predict(setup)


def test_team_records_match_by_family_and_prefer_the_same_gpu_count():
    records = [
        record(1.5, gpu="A100", family="language_model", num_gpus=8),
        record(2.5, gpu="A100", model="BERT", num_gpus=1),
    ]
    p = predict(Setup(gpu="A100", family="language_model", num_gpus=8), records)
    assert p.basis is Basis.TEAM and p.ratio == 1.5


def test_team_records_with_a_count_alone_do_not_narrow_it():
    assert predict(Setup(num_gpus=8), [record(2.0, num_gpus=8)]).basis is Basis.TYPICAL


def test_team_answer_keeps_published_notes_on_the_reference():
    records = [record(2.2, gpu="V100", model="ResNet-50", num_gpus=8)]
    p = predict(Setup(gpu="V100", model="ResNet-50", num_gpus=8), records)
    assert codes(p) == [Factor.TEAM_RECORDS, Factor.MULTI_GPU]
    assert Factor.LARGER_AMP_BATCH in codes(p.reference)
    assert p.low < 2.2 < p.high


# ---------------------------------------------------------------- properties

setups = st.builds(
    Setup,
    gpu=st.none() | st.sampled_from(GPU_NAMES),
    model=st.none() | st.sampled_from(MODEL_NAMES),
    family=st.none() | st.sampled_from(FAMILIES),
    num_gpus=st.none() | st.integers(1, 1024),
    precision=st.none() | st.sampled_from(["fp16", "bf16", "fp8"]),
    baseline=st.none() | st.sampled_from(["fp32", "tf32"]),
    batch_fp32=st.none() | st.integers(1, 4096),
    batch_amp=st.none() | st.integers(1, 4096),
)


@settings(max_examples=300, deadline=None)
@given(setups)
def test_every_setup_gets_an_ordered_finite_range(setup):
    p = predict(setup)
    assert 0 < p.low <= p.ratio <= p.high < 20
    assert p.named == bool(setup.gpu or setup.model or setup.family)
    assert (p.basis is Basis.TYPICAL) == (not p.named)


# ---------------------------------------------------------------- evaluation


def _bench():
    path = Path(__file__).parents[2] / "bench" / "prediction_eval.py"
    spec = importlib.util.spec_from_file_location("prediction_eval", path)
    module = importlib.util.module_from_spec(spec)
    # Registered first, as importlib's recipe does, so its classes can resolve their annotations.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_leave_one_model_out_error_and_coverage_targets_hold():
    bench = _bench()
    ours, rule = bench.lomo_figures()
    assert ours.rows == rule.rows > 300
    assert ours.median_error <= bench.TARGET_ERROR < rule.median_error
    assert ours.coverage >= bench.TARGET_COVERAGE > rule.coverage
    # The 2.0x width target is NOT met (about 2.4x); bench/prediction_eval.py prints it.
    assert ours.median_width < 2.6


def test_range_is_calibrated_for_models_it_has_not_seen():
    """With every held-out model weighing the same, the 80% range still holds about 80%.

    The point is no better than the guide's 1.73 for an unseen model (about 30% error
    either way) and the range is about 3x wide, not 2x: both said, not hidden.
    """
    bench = _bench()
    ours, rule = bench.lomo_figures(by_model=True)
    assert ours.models == rule.models >= 11
    assert ours.coverage >= bench.TARGET_COVERAGE > rule.coverage
    assert ours.median_error < 0.35
    assert ours.median_width < 3.5


def test_models_with_no_rows_are_answered_and_mostly_covered():
    """Published ratios of models the data lacks, asked through the whole pipeline.

    Every message gets a ratio with a range; over all rows the range holds at
    least 80% and the point beats the fixed rule. The blind rows alone (the
    memory-bound prior was not set from them) are fewer and worse: 3 of 5 inside.
    """
    bench = _bench()
    rows = bench.unseen_rows()
    assert len(rows) >= 12 and all(r.low <= r.ratio <= r.high for r in rows)
    ours, rule = bench.unseen_figures()
    assert ours.coverage >= bench.TARGET_COVERAGE > rule.coverage
    assert ours.median_error < rule.median_error
    blind, _ = bench.unseen_figures(blind_only=True)
    assert blind.rows >= 5 and blind.coverage >= 0.6


def test_width_coverage_trade_off_is_monotonic():
    bench = _bench()
    covered = [bench.coverage_at_width(w) for w in (1.5, 2.0, 3.0)]
    assert covered == sorted(covered)
    # A range only 2x wide would miss more than one unseen model in five.
    assert covered[1][1] < bench.TARGET_COVERAGE
