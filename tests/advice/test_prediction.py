"""Ratio prediction: the right basis, honest ranges, the factors that drove it."""

import csv
import dataclasses
import importlib.util
import math
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.advice.catalog import FAMILIES, PRACTICE, measurements, spec_for
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


def test_a_gpu_without_tables_is_ranged_by_held_out_gpus_not_said_to_be_unknown():
    # ResNet-50 on a T4: no table measured it, so its range is what held-out GPUs missed
    # by; "nothing specific is known" would be false.
    p = predict(Setup(gpu="T4", model="ResNet-50"))
    assert p.low < p.ratio < p.high and p.basis is Basis.MODELLED
    assert Factor.TYPICAL not in codes(p) and Factor.PROJECTS in codes(p)


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
    assert p.basis in (Basis.MEASURED, Basis.MEASURED_REALISTIC) and p.named
    # The lead is the published one (DLE: PyTorch 3.26x/2.91x, TF1 3.08x, MXNet 3.58x): a
    # run that keeps the GPU busy; what real projects report is said beside it, lower.
    assert 2.9 <= p.ratio == p.tuned <= 3.7 and p.low < 2.5 < p.ratio <= p.high
    assert p.projects is not None and p.projects.ratio < 2.0
    assert params(p, Factor.PROJECTS) == p.projects.model_dump()
    assert p.sources and all(url.startswith(DLE) or "lambdal" in url for url in p.sources)
    assert Factor.MEASURED_MATCH in codes(p)
    # DLE's AMP runs used a bigger batch (e.g. 112 -> 256): said as theirs, not hidden.
    bigger = params(p, Factor.LARGER_AMP_BATCH)
    assert bigger["batch_amp"] > bigger["batch_fp32"] and bigger["published"] == 1
    assert codes(p)[-1] is Factor.NARROW_BY


def test_more_gpus_means_a_smaller_measured_ratio():
    one = predict(Setup(gpu="V100", model="ResNet-50", num_gpus=1))
    eight = predict(Setup(gpu="V100", model="ResNet-50", num_gpus=8))
    assert eight.tuned < one.tuned and eight.ratio < one.ratio
    assert params(eight, Factor.MULTI_GPU) == {"num_gpus": 8}


def test_some_published_setups_are_slower_with_mixed_precision():
    p = predict(Setup(gpu="A100", model="Tacotron2"))
    assert p.basis in (Basis.MEASURED, Basis.MEASURED_REALISTIC) and p.tuned < 1 and p.ratio < 1


def test_user_batch_sizes_replace_the_published_batch_change():
    published = predict(Setup(gpu="V100", model="ResNet-50"))
    same_batch = predict(Setup(gpu="V100", model="ResNet-50", batch_fp32=128, batch_amp=128))
    assert same_batch.tuned < published.tuned
    assert Factor.LARGER_AMP_BATCH not in codes(same_batch)


# ---------------------------------------------------------------- modelled


def test_a10_is_not_matched_as_a100():
    p = predict(Setup(gpu="A10", model="ResNet-50"))
    assert p.basis is Basis.MODELLED and p.sources == []
    assert params(p, Factor.GPU_GENERATION)["gpu"] == "A10"


@pytest.mark.parametrize("gpu", ["Tesla K80", "GTX 1080 Ti", "Tesla P40", "GTX 1650"])
def test_no_tensor_cores_means_about_1x_or_a_slowdown(gpu):
    p = predict(Setup(gpu=gpu, model="ResNet-50"))
    assert p.named and codes(p)[0] is Factor.NO_TENSOR_CORES
    assert p.low < 1 <= p.high <= 1.8 and p.ratio <= 1.1
    assert p.tuned is None  # one figure only: no benchmark table measured these
    assert p.projects is not None and p.projects.ratio == p.ratio
    assert "TF32" not in str(p.factors)  # Pascal, Kepler, Turing: no TF32 to speak of


def test_p100_runs_fp16_at_double_rate_and_leads_no_lower_than_its_own_runs():
    from statistics import median

    from bot.advice.calibration import fitted

    p = predict(Setup(gpu="P100", model="ResNet-50"))
    assert params(p, Factor.NO_TENSOR_CORES)["fast_fp16"] == 1
    own = [math.exp(r.log_ratio) for r in fitted().no_tensor_cores if r.job.gpu == "p100"]
    assert own and p.ratio >= median(own) and p.low < 1 < p.ratio < p.high
    assert p.ratio > predict(Setup(gpu="GTX 1080 Ti", model="ResNet-50")).ratio
    assert p.baseline == "fp32" and Factor.TF32_BASELINE not in codes(p)


def test_no_tensor_cores_range_holds_the_kinds_prior_whatever_the_runs_say():
    from bot.advice.calibration import fitted
    from bot.advice.catalog import gpu_spec
    from bot.advice.features import Job
    from bot.advice.ratio_model import Row

    def runs(*ratios: float) -> tuple[Row, ...]:
        job = Job(spec=gpu_spec("GTX 1080 Ti"), level="practice")
        return tuple(Row(job, math.log(r), f"s{k}", None) for k, r in enumerate(ratios))  # type: ignore[arg-type]

    # Runs that all landed at 0.9-1.0x would make a 0.9-1.0 range: the next GPU's run
    # lands beyond a handful of runs' extremes as often as not.
    narrow = dataclasses.replace(
        fitted(), no_tensor_cores=runs(*(0.9 + 0.02 * k for k in range(6)))
    )
    p = predict(Setup(gpu="GTX 1080 Ti", model="ResNet-50"), fitted=narrow)
    assert (p.low, p.high) == (0.55, 1.15)
    wide = dataclasses.replace(fitted(), no_tensor_cores=runs(*(0.3 + 0.3 * k for k in range(6))))
    p = predict(Setup(gpu="GTX 1080 Ti", model="ResNet-50"), fitted=wide)
    assert p.low == 0.3 and p.high == 1.8


def test_an_unknown_gpu_is_said_to_be_unknown():
    p = predict(Setup(gpu="RTX 9999", model="BERT"))
    assert p.named and params(p, Factor.UNKNOWN_GPU) == {"gpu": "RTX 9999"}
    assert Factor.GPU_GENERATION not in codes(p)
    # As wide as for no GPU at all, never narrowed by a guess from the name.
    nameless = predict(Setup(model="BERT"))
    assert (p.low, p.high) == (nameless.low, nameless.high)


def test_an_unknown_gpu_alone_gets_the_rules_range_and_is_said_to_be_unknown():
    p = predict(Setup(gpu="RTX 9999", num_gpus=4))
    assert (p.low, p.high) == (TYPICAL_LOW, TYPICAL_HIGH) and p.basis is Basis.TYPICAL
    assert codes(p) == [Factor.UNKNOWN_GPU, Factor.TYPICAL]


def test_a100_baseline_defaults_to_tf32_and_says_so():
    p = predict(Setup(gpu="A100", model="BERT"))
    assert p.baseline == "tf32"
    note = params(p, Factor.TF32_BASELINE)
    assert note["why"] == "assumed"  # no framework said: as the tables ran (NGC)
    # Against strict FP32 it is larger, and said beside it.
    assert note["fp32_ratio"] > 1.25 * p.ratio
    assert params(p, Factor.NARROW_BY) == {"fact": "baseline"}


def test_strict_fp32_baseline_gives_a_much_larger_ratio():
    for setup in (Setup(gpu="A100", model="BERT"), Setup(gpu="A100", family="segmentation")):
        tf32 = predict(setup.model_copy(update={"baseline": "tf32"}))
        fp32 = predict(setup.model_copy(update={"baseline": "fp32"}))
        # Convolutions gain less from the 8x peak than BERT's matmuls.
        assert fp32.tuned > 1.3 * tf32.tuned
        assert Factor.STRICT_FP32_BASELINE in codes(fp32)
        assert params(fp32, Factor.STRICT_FP32_BASELINE)["tf32_ratio"] == tf32.ratio


def test_tf32_baseline_on_a_gpu_without_tf32_falls_back_to_fp32():
    assert predict(Setup(gpu="V100", model="BERT", baseline="tf32")).baseline == "fp32"


def test_family_alone_narrows_it():
    p = predict(Setup(family="translation", gpu="V100"))
    assert p.named and p.basis is Basis.MODELLED
    assert params(p, Factor.FAMILY_PRIOR) == {"family": "translation"}
    assert predict(Setup(family="translation")).named


def test_models_measured_by_lambda_only_have_their_rows():
    # NCF and GNMT have no NVIDIA README rows here, Lambda measured both on A100.
    for model in ("NCF", "GNMT"):
        p = predict(Setup(gpu="A100", model=model))
        assert p.basis in (Basis.MEASURED, Basis.MEASURED_REALISTIC) and all(
            "lambdal" in url for url in p.sources
        )


def test_a_model_with_no_rows_is_modelled_from_its_family():
    p = predict(Setup(gpu="V100", model="Wide&Deep"))
    assert p.basis is Basis.MODELLED and p.family == "recommender" and p.sources == []


def test_no_gpu_averages_the_measured_gpus_and_asks_for_it():
    v100 = predict(Setup(family="image_classification", gpu="V100"))
    a100 = predict(Setup(family="image_classification", gpu="A100"))
    nameless = predict(Setup(family="image_classification"))
    assert a100.tuned < nameless.tuned < v100.tuned
    assert nameless.low <= nameless.ratio <= nameless.high
    # The larger of the two gaps is named: between the measured GPUs, or between tuned
    # benchmarks and real projects (whether the FP32 run keeps the GPU busy).
    assert params(nameless, Factor.NARROW_BY)["fact"] in ("gpu", "utilisation")


def test_bf16_without_bf16_tensor_cores_is_no_speedup():
    p = predict(Setup(gpu="V100", precision="bf16"))
    assert params(p, Factor.PRECISION) == {"precision": "bf16", "supported": 0, "fast_fp16": 0}
    assert p.ratio < 1.3


def test_bf16_on_ampere_is_accelerated_like_fp16():
    bf16 = predict(Setup(gpu="A100", family="image_classification", precision="bf16"))
    fp16 = predict(Setup(gpu="A100", family="image_classification", precision="fp16"))
    assert bf16.tuned == pytest.approx(fp16.tuned, rel=0.15)
    assert params(bf16, Factor.PRECISION) == {"precision": "bf16", "supported": 1}
    measured = predict(Setup(gpu="A100", model="BERT", precision="bf16"))
    assert measured.basis in (Basis.MEASURED, Basis.MEASURED_REALISTIC)


def test_fp8_needs_fp8_units():
    a100 = predict(Setup(gpu="A100", family="language_model", precision="fp8"))
    assert params(a100, Factor.PRECISION) == {"precision": "fp8", "supported": 0, "instead": "bf16"}
    assert a100.precision == "bf16"
    bf16 = predict(Setup(gpu="H100", model="GPT-2", precision="bf16"))
    fp8 = predict(Setup(gpu="H100", model="GPT-2", precision="fp8"))
    assert fp8.tuned > bf16.tuned
    assert params(fp8, Factor.PRECISION) == {"precision": "fp8", "supported": 1}


# ---------------------------------------------------------------- team records


def test_team_records_take_precedence_with_the_published_figure_beside():
    records = [record(r, gpu="A100", model="BERT") for r in (2.0, 2.2, 2.4)]
    p = predict(Setup(gpu="A100", model="BERT"), records)
    assert p.basis is Basis.TEAM
    assert p.ratio == round((2.0 * 2.2 * 2.4) ** (1 / 3), 2)
    assert p.low <= 2.0 and p.high >= 2.4
    assert params(p, Factor.TEAM_RECORDS)["n"] == 3
    assert p.reference is not None and p.reference.basis in (
        Basis.MEASURED,
        Basis.MEASURED_REALISTIC,
    )
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


def test_models_with_no_rows_are_answered_and_led_closer_than_the_rule():
    """Published ratios of models the data lacks, asked through the whole pipeline. Most
    are NVIDIA's low cases (TF1 recommenders and GNMT on A100 at ~1x) the GPU-busy lead
    overshoots: its interval score is above the rule's (docs/advice.md), its point
    still nearer than the rule's."""
    bench = _bench()
    asked = bench.never_fitted(bench.UNSEEN)
    figures = bench.figures(asked)
    assert figures.rows >= 12 and figures.answered == figures.rows
    assert all(a.low <= a.ratio <= a.high for a in asked)
    assert figures.median_error < figures.rule_median_error


def test_lambdas_kept_back_gpus_stay_out_of_the_fit_and_are_answered_near():
    """The kept-back table measures GPUs no shipped benchmark table has: a tuned row of
    one of them would make it a seen GPU (projects' rows on them do not). Answered from the GPU's specs alone, the
    lead lands within 15% at the median and the ranges hold three rows in four."""
    bench = _bench()
    with bench.KEPT_BACK.open(encoding="utf-8") as f:
        kept = {row["gpu"] for row in csv.DictReader(f)}
    shipped = {spec_for(m.published_gpu) for m in measurements(any_gpu=True) if m.level != PRACTICE}
    assert {spec_for(gpu) for gpu in kept}.isdisjoint(shipped)
    figures = bench.figures(bench.never_fitted(bench.KEPT_BACK))
    assert figures.rows == 64 and figures.answered == figures.rows
    assert figures.median_error <= 0.15 and figures.coverage >= 0.75


def test_the_bench_scores_the_lead_and_what_projects_report_apart():
    bench = _bench()
    measured = bench.ask("ResNet-50 on V100, 100 hours in FP32, how long with AMP?", 3.2)
    assert measured.ratio > 2.9 > measured.projects().ratio  # the DLE tables' ~3.3x
    assert bench.figures([measured]).median_error < 0.1
    assert bench.figures([measured.projects()]).median_error > 0.3
    # Nothing named: no projects' range beside the rule's, so the rule's stands for it.
    plain = bench.ask("100 hours in FP32, how long with AMP?", 1.8)
    assert plain.projects() is plain


def test_held_out_messages_are_built_the_way_a_user_writes():
    bench = _bench()
    rows = [m for m in bench.measurements(any_gpu=True) if m.level == "practice"]
    unnamed = next(m for m in rows if m.published_gpu.startswith("unknown") and m.num_gpus > 1)
    assert "unknown" not in bench.message(unnamed) and " GPUs" in bench.message(unnamed)
    assert "(" not in bench.message(next(m for m in rows if "(" in m.published_model))


def test_a_tables_batches_said_are_read_as_its_batches():
    """The batches-said split asks Lambda's rows with their batch sizes (NCF's in
    millions): the reader must read them as batches, not as times."""
    from bot.understanding import understand

    bench = _bench()
    rows = [m for m in bench.measurements(any_gpu=True) if bench._lambda(m) and m.batch_amp]
    assert any(m.batch_fp32 >= 1_000_000 for m in rows)
    for m in rows:
        q = understand(bench.message(m, batches_said=True), bench.Channel.DM)
        assert (q.batch_fp32, q.batch_amp) == (m.batch_fp32, m.batch_amp), m
        assert q.fp32 is not None and q.fp32.hours == bench.FP32_HOURS, m


def test_every_gpu_in_the_spec_table_gets_a_ranged_answer():
    from bot.advice.catalog import known_gpus

    for gpu in known_gpus():
        p = predict(Setup(gpu=gpu, family="image_classification"))
        assert 0 < p.low <= p.ratio <= p.high < 20, gpu
        assert Factor.UNKNOWN_GPU not in codes(p), gpu


def test_a_framework_named_alone_is_read_and_answered_as_a_real_project():
    """The bench's framework-alone split asks what the reader reads, and each
    framework gets the range real projects see (below the rule's 1.2), not the rule."""
    from bot.conversation import answer, to_json
    from bot.models import Channel

    bench = _bench()
    rows = [m for m in bench.measurements(any_gpu=True) if m.level == "practice"]
    for key, name in bench.FRAMEWORK_NAMES.items():
        row = next(m for m in rows if bench.framework_key(m.framework) == key)
        got = to_json(answer(bench.framework_alone(row), Channel.DM))
        assert got["framework"] == name
        assert got["basis"] == "modelled" and got["projects"]["low"] < 1.2


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("how much faster is amp with pytorch?", "PyTorch projects"),
        ("what speedup with TF2?", "TensorFlow projects"),
        ("كم التسريع مع pytorch؟", "مشاريع"),
    ],
)
def test_a_speed_question_naming_only_a_framework_gets_its_projects_ratio(text, subject):
    """Without a time, too: the framework is what is known, and the reply says so."""
    from bot.conversation import answer, to_json
    from bot.models import Channel

    got = to_json(answer(text, Channel.DM))
    assert got["ratio"] and got["projects"]["low"] < 1.2 and got["basis"] == "modelled"
    assert subject in got["text"].split("\n")[0]
