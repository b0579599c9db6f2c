"""BF16 or FP16, and loss scaling: read, advised for the GPU named and worded in both
languages (facts: shared/docs/mixed-precision-facts.md sections 1-3, gpu_specs.csv)."""

from __future__ import annotations

import pytest

from bot.advice.precision import PrecisionPoint
from bot.conversation import answer, to_json
from bot.models import Channel, Intent
from bot.rendering.numbers import FSI, PDI
from bot.understanding.parse import understand


def ask(text: str) -> dict:
    return to_json(answer(text, Channel.DM))


def plain(text: str) -> str:
    return text.replace(FSI, "").replace(PDI, "")


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("Is bf16 better than fp16 on A100?", "compare"),
        ("bf16 vs fp16?", "compare"),
        ("should I use bf16 or fp16 on a T4", "compare"),
        ("is bf16 faster than fp16 on H100", "compare"),
        ("هل bf16 أفضل من fp16 على A100؟", "compare"),
        ("bf16 ولا fp16 على 4090؟", "compare"),
        ("do I need loss scaling with bf16?", "loss_scaling"),
        ("is GradScaler needed for bfloat16?", "loss_scaling"),
        ("هل أحتاج loss scaling مع bf16؟", "loss_scaling"),
        ("هل أحتاج تحجيم الخسارة مع bf16؟", "loss_scaling"),
        ("what's the best loss scale for fp16?", "loss_scaling"),  # dynamic: GradScaler
        ("which loss scaler should I use with fp16?", "loss_scaling"),
        ("وش الفرق بين FP16 و BF16؟", "compare"),
    ],
)
def test_precision_questions_are_read_as_such(text, topic):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.PRECISION and query.precision_topic == topic


@pytest.mark.parametrize("text", ["and with bf16?", "36h fp32 on A100, bf16 or fp16?"])
def test_follow_ups_and_estimates_stay_what_they_were(text):
    assert understand(text, Channel.DM, follow_up=True).intent is not Intent.PRECISION


def test_bf16_on_a100_is_preferred_at_the_same_speed():
    got = ask("Is bf16 better than fp16 on A100?")
    assert got["kind"] == "precision" and got["gpu"] == "A100"
    assert got["notes"][0] == PrecisionPoint.PREFER_BF16
    assert PrecisionPoint.SAME_SPEED in got["notes"]
    assert got["text"].startswith("On A100 prefer BF16: it runs as fast as FP16 there")
    assert "same Tensor Core rate (312 dense TFLOPS each)" in got["text"]
    assert "needs no loss scaling" in got["text"] and "7 mantissa bits" in got["text"]


@pytest.mark.parametrize("gpu", ["V100", "T4", "RTX 2080 Ti"])
def test_volta_and_turing_have_no_bf16(gpu):
    got = ask(f"bf16 or fp16 on {gpu}?")
    assert got["notes"][0] == PrecisionPoint.USE_FP16
    assert "has no BF16 Tensor Cores: use FP16 with loss scaling" in got["text"]
    assert PrecisionPoint.SAME_SPEED not in got["notes"]


def test_a_gpu_without_tensor_cores():
    assert ask("bf16 or fp16 on a P100?")["notes"][0] == PrecisionPoint.NO_TENSOR_CORES


def test_loss_scaling_answer_leads_with_scaling():
    got = ask("do I need loss scaling with bf16?")
    assert got["text"].startswith("BF16 does not need loss scaling: it has FP32's exponent range")
    assert "FP16 needs loss scaling:" in got["text"] and "GradScaler" in got["text"]
    assert PrecisionPoint.BY_GENERATION in got["notes"]  # no GPU named
    fp8 = ask("do I need loss scaling with fp8 on H100?")
    assert PrecisionPoint.FP8_NEEDS_SCALING in fp8["notes"]


def test_arabic_answers():
    compare = plain(ask("هل bf16 أفضل من fp16 على A100؟")["text"])
    assert compare.startswith("على A100 فضّل BF16: فهي بسرعة FP16 عليها")
    assert "لا تحتاج BF16 إلى تحجيم الخسارة" in compare
    scaling = plain(ask("هل أحتاج تحجيم الخسارة مع bf16؟")["text"])
    assert scaling.startswith("لا تحتاج BF16 إلى تحجيم الخسارة")
    assert "تحتاج FP16 إلى تحجيم الخسارة" in scaling and "GradScaler" in scaling
    v100 = plain(ask("bf16 ولا fp16 على V100؟")["text"])
    assert v100.startswith("لا تحتوي V100 (Volta) على Tensor Cores تدعم BF16")


def test_loss_scaling_with_fp16_is_answered_for_fp16_first():
    for text in ("do I need loss scaling with fp16?", "is a GradScaler needed for fp16 training?"):
        got = ask(text)
        assert got["text"].startswith("FP16 needs loss scaling:"), text
    arabic = plain(ask("احتاج loss scaling مع fp16؟")["text"])
    assert arabic.startswith("تحتاج FP16 إلى تحجيم الخسارة")


@pytest.mark.parametrize(
    "text",
    [
        "can I use bf16 on V100?",
        "does the T4 support bf16?",
        "is bf16 supported on an RTX 2080 Ti?",
        "could we use bf16 on our V100s",
        "هو ينفع استخدم bf16 على V100؟",
        "هل يدعم T4 صيغة bf16؟",
        "اقدر استخدم bf16 على كرت V100؟",
    ],
)
def test_asking_whether_a_gpu_runs_a_format_gets_the_precision_answer(text):
    got = ask(text)
    assert got["kind"] == "precision", text
    assert got["notes"][0] == PrecisionPoint.USE_FP16


def test_a_support_word_beside_one_format_and_a_time_is_still_an_estimate():
    assert ask("can I use bf16 on A100? training takes 10 hours")["kind"] != "precision"
