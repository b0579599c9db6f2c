"""A question that names a setup but gives no time still says which ratio to expect.

The kind stays what the reading rules (rule 12) say: asking for a time
estimate without the FP32 time is no_numbers, a general question is help; the
predicted ratio, its range and basis ride along whenever a setup is named.
"""

from __future__ import annotations

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel


@pytest.mark.parametrize(
    ("text", "kind", "gpu", "model", "family"),
    [
        (
            "what speedup should I expect for BERT on A100?",
            "help",
            "A100",
            "BERT",
            "language_model",
        ),
        ("BERT A100", "help", "A100", "BERT", "language_model"),
        ("how much faster is resnet50 on a V100 with AMP", "help", "V100", "ResNet-50", None),
        ("YOLOv8 on A100", "help", "A100", None, "detection"),
        ("llama-2-7b on 8 H100, speedup?", "help", "H100", None, "language_model"),
        ("ratio for a recommender on A100", "help", "A100", None, "recommender"),
        ("كم التسريع لـ bert على a100؟", "help", "A100", "BERT", "language_model"),
        ("بدي أدرب llama على A100 كم التسريع", "help", "A100", None, "language_model"),
        (
            "شو نسبة التسريع لنموذج تصنيف الصور على V100؟",
            "help",
            "V100",
            None,
            "image_classification",
        ),
        # A time estimate asked for without the time: no_numbers, with the ratio to expect.
        ("how long will my BERT run on V100 take with AMP?", "error", "V100", "BERT", None),
        ("estimate my training time for BERT on A100", "error", "A100", "BERT", None),
        ("كم سيستغرق تدريب BERT على A100؟", "error", "A100", "BERT", None),
    ],
)
def test_named_setup_without_time_says_the_ratio(text, kind, gpu, model, family):
    got = to_json(answer(text, Channel.DM))
    assert got["kind"] == kind, (text, got["kind"], got["reason"])
    assert got["reason"] == (None if kind == "help" else "no_numbers")
    assert got["fp32_hours"] is None and got["mp_hours"] is None
    assert got["gpu"] == gpu and got["model"] == model
    if family:
        assert got["family"] == family
    assert got["ratio_low"] <= got["ratio"] <= got["ratio_high"]
    assert got["basis"] in ("measured", "measured_realistic", "modelled", "team")


@pytest.mark.parametrize(
    ("text", "kind", "reason"),
    [
        # Nothing named: help, or no_numbers when an estimate is asked for; no ratio.
        ("does mixed precision help?", "help", None),
        ("what speedup does AMP give?", "help", None),
        ("estimate my training time with AMP", "error", "no_numbers"),
    ],
)
def test_nothing_named_suggests_no_ratio(text, kind, reason):
    got = to_json(answer(text, Channel.DM))
    assert (got["kind"], got["reason"]) == (kind, reason), text
    assert got["ratio"] is None and got["basis"] is None


def test_a_ratio_answer_in_a_thread_with_a_time_becomes_an_estimate():
    got = to_json(answer("and on BERT A100?", Channel.MENTION, thread_fp32_hours=10.0))
    assert got["kind"] == "preset" and got["fp32_hours"] == 10.0
