"""A question that names a setup but gives no time gets the predicted ratio alone.

Rule 12 of the reading rules still holds: asking for a *time* without the FP32
one is no_numbers, and greetings or general questions naming nothing are help.
"""

from __future__ import annotations

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel


@pytest.mark.parametrize(
    ("text", "gpu", "model", "family"),
    [
        ("what speedup should I expect for BERT on A100?", "A100", "BERT", "language_model"),
        ("BERT A100", "A100", "BERT", "language_model"),
        ("how much faster is resnet50 on a V100 with AMP", "V100", "ResNet-50", None),
        ("YOLOv8 on A100", "A100", None, "detection"),
        ("llama-2-7b on 8 H100, speedup?", "H100", None, "language_model"),
        ("ratio for a recommender on A100", "A100", None, "recommender"),
        ("كم التسريع المتوقع لـ bert على a100؟", "A100", "BERT", "language_model"),
        ("بدي أدرب llama على A100 كم التسريع", "A100", None, "language_model"),
        ("شو نسبة التسريع لنموذج تصنيف الصور على V100؟", "V100", None, "image_classification"),
    ],
)
def test_named_setup_without_time_gets_the_ratio(text, gpu, model, family):
    got = to_json(answer(text, Channel.DM))
    assert got["kind"] == "ratio", (text, got["kind"], got["reason"])
    assert got["fp32_hours"] is None and got["mp_hours"] is None
    assert got["gpu"] == gpu and got["model"] == model
    if family:
        assert got["family"] == family
    assert got["ratio_low"] <= got["ratio"] <= got["ratio_high"]
    assert got["basis"] in ("measured", "modelled", "team")


@pytest.mark.parametrize(
    ("text", "kind", "reason"),
    [
        # Asking for a time: the FP32 time is missing (rule 12), even with names.
        ("how long will my BERT run on V100 take with AMP?", "error", "no_numbers"),
        ("estimate my training time for BERT on A100", "error", "no_numbers"),
        ("كم سيستغرق تدريب BERT على A100؟", "error", "no_numbers"),
        # Nothing named: help, or no_numbers when an estimate is asked for.
        ("does mixed precision help?", "help", None),
        ("what speedup does AMP give?", "help", None),
        ("estimate my training time with AMP", "error", "no_numbers"),
    ],
)
def test_time_questions_and_unnamed_ones_are_unchanged(text, kind, reason):
    got = to_json(answer(text, Channel.DM))
    assert (got["kind"], got["reason"]) == (kind, reason), text


def test_a_ratio_answer_in_a_thread_with_a_time_becomes_an_estimate():
    got = to_json(answer("and on BERT A100?", Channel.MENTION, thread_fp32_hours=10.0))
    assert got["kind"] == "preset" and got["fp32_hours"] == 10.0
