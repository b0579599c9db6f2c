"""The lead is a GPU-busy run's figure; what the user says of the run moves it, nothing
said moves nothing, and what projects report rides beside it (issue 19, items 1-2)."""

from __future__ import annotations

import pytest

from bot.advice.prediction import Factor, Setup, predict
from bot.conversation import answer, to_json
from bot.models import Channel


def ask(text: str) -> dict:
    return to_json(answer(text, Channel.DM))


@pytest.mark.parametrize(
    ("text", "run"),
    [
        ("ResNet-50 on V100 with DALI, speedup?", "busy"),
        ("BERT on A100 at 100% GPU utilization, how much faster?", "busy"),
        ("ResNet-50 on V100, data loading is the bottleneck, speedup with amp?", "input_bound"),
        ("my training is CPU-bound on a V100, how much faster with amp?", "input_bound"),
        ("tiny model on an A100, 10 hours fp32", "small_model"),
        ("pure fp16 with model.half() on V100, ResNet-50, speedup?", "pure_fp16"),
        ("ResNet-50 على V100، عنق الزجاجة هو تحميل البيانات، كم التسريع؟", "input_bound"),
        ("نموذج صغير على A100، كم التسريع؟", "small_model"),
        ("ResNet-50 on V100, what speedup?", None),
    ],
)
def test_the_reader_reads_what_the_message_says_of_the_run(text, run):
    from bot.understanding import understand

    assert understand(text, Channel.DM).run == run


def test_nothing_said_is_no_discount_and_projects_ride_beside_it():
    got = ask("ResNet-50 on V100, 100 hours in FP32, how long with AMP?")
    # NVIDIA's tables ran ResNet-50 on V100 at 2.9-3.6x: the lead, one headline figure.
    assert 2.9 <= got["ratio"] <= 3.7 and got["basis"] == "measured"
    projects = got["projects"]
    assert set(projects) == {"ratio", "low", "high"}
    assert projects["low"] < projects["ratio"] < got["ratio"]
    first_lines = "\n".join(got["text"].split("\n")[:2])
    assert "projects report" in first_lines and "nvidia-smi" in first_lines
    assert "2.9–3.6" not in got["text"] and "tuned benchmarks reach" not in got["text"]


@pytest.mark.parametrize(
    "words",
    ["data loading is the bottleneck", "CPU-bound", "tiny model", "pure fp16"],
)
def test_a_run_said_to_be_like_the_threads_leads_with_what_projects_report(words):
    plain = ask("ResNet-50 on V100, 100 hours in FP32, how long with AMP?")
    said = ask(f"ResNet-50 on V100, {words}, 100 hours in FP32, how long with AMP?")
    assert said["ratio"] == plain["projects"]["ratio"] < plain["ratio"]
    assert said["basis"] == "measured_realistic"
    assert any(f["code"] == "run_evidence" for f in said["factors"])


def test_a_busy_run_keeps_the_lead_and_says_why():
    plain = predict(Setup(gpu="V100", model="BERT"))
    busy = predict(Setup(gpu="V100", model="BERT", run="busy"))
    assert busy.ratio == plain.ratio
    assert Factor.RUN_EVIDENCE in [f.code for f in busy.factors]
    assert Factor.PROJECTS not in [f.code for f in busy.factors]
    assert "keeps the GPU busy" in ask("BERT on V100 with DALI, 10 hours fp32")["text"]


def test_arabic_replies_say_the_projects_line_too():
    got = ask("كم التسريع لـ BERT على V100؟")
    assert got["projects"] and "تبلّغ المشاريع" in got["text"]


def test_published_batches_are_said_as_theirs_never_as_the_users():
    """Mask R-CNN on A100 80GB: the lead sits among NVIDIA's rows (1.02-1.55x), and no
    batch the user never gave is put in their mouth."""
    got = ask("Mask R-CNN on A100 80GB, how much faster with AMP?")
    assert 1.02 <= got["ratio"] <= 1.55
    text = got["text"]
    assert "batch 8 in FP32 vs 16" not in text
    bert = ask("BERT on V100, 10 hours fp32")["text"]
    assert "the published runs used batch" in bert


def test_the_baseline_is_the_one_the_framework_really_runs():
    """Stock PyTorch runs BERT's matmuls in strict FP32 on A100; an NGC container, and
    TensorFlow, in TF32; with nothing said TF32 is assumed and the other figure given."""
    torch = ask("what speedup for BERT on A100 with PyTorch?")
    ngc = ask("what speedup for BERT on A100 with PyTorch in the NGC container?")
    tf = ask("what speedup for BERT on A100 with TensorFlow?")
    unsaid = ask("what speedup for BERT on A100?")
    assert torch["baseline"] == "fp32" and ngc["baseline"] == tf["baseline"] == "tf32"
    assert torch["ratio"] > 1.8 * ngc["ratio"]
    assert "strict FP32" in torch["text"] and "as fast as a TF32 baseline" in ngc["text"]
    assert unsaid["baseline"] == "tf32" and "against strict FP32 it would be" in unsaid["text"]
    # A conv net's baseline under stock PyTorch is TF32 (cuDNN convolutions).
    assert ask("ResNet-50 on A100 with PyTorch, speedup?")["baseline"] == "tf32"
    # Before Ampere there is no TF32 to speak of.
    v100 = ask("what speedup for BERT on V100 with PyTorch?")
    assert v100["baseline"] == "fp32" and "TF32" not in v100["text"]
