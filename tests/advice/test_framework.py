"""The framework a user names picks that framework's published runs of a model."""

from __future__ import annotations

import pytest

from bot.advice.prediction import Factor, Setup, predict
from bot.conversation import answer, to_json
from bot.models import Channel
from bot.understanding import understand


@pytest.mark.parametrize(
    ("text", "framework"),
    [
        ("BERT on A100 with PyTorch, 10 hours fp32", "PyTorch"),
        ("resnet50 v100 torch 20h", "PyTorch"),
        ("we train in TF2 on V100, 10 hours", "TensorFlow"),
        ("keras model on A100, fp32 5h", "TensorFlow"),
        ("jax on H100, 12h fp32", "JAX"),
        ("ResNet-50 in MXNet on V100, 3 days", "MXNet"),
        ("BERT على A100 بـ paddle، ١٠ ساعات", "PaddlePaddle"),
        ("التدريب على بايتورش ١٠ ساعات على V100", "PyTorch"),
        ("TF32 on A100, 10 hours", None),  # TF32 is a number format, not TensorFlow
    ],
)
def test_framework_words(text, framework):
    assert understand(text, Channel.DM).framework == framework


def test_named_framework_picks_its_published_runs():
    everyone = predict(Setup(gpu="A100", model="BERT"))
    paddle = predict(Setup(gpu="A100", model="BERT", framework="PaddlePaddle"))
    tf = predict(Setup(gpu="A100", model="BERT", framework="TensorFlow"))
    # DLE BERT-large on A100: TF1 1.67x, TF2 1.85x, PyTorch 1.84x, PaddlePaddle 2.29x.
    assert tf.tuned < everyone.tuned < paddle.tuned
    assert all("PaddlePaddle" in url for url in paddle.sources)
    note = next(f for f in paddle.factors if f.code is Factor.FRAMEWORK)
    assert note.params == {"framework": "PaddlePaddle", "matched": 1}


def test_framework_without_runs_keeps_every_run_and_says_so():
    jax = predict(Setup(gpu="A100", model="BERT", framework="JAX"))
    assert jax.tuned == predict(Setup(gpu="A100", model="BERT")).tuned
    note = next(f for f in jax.factors if f.code is Factor.FRAMEWORK)
    assert note.params["matched"] == 0


def test_framework_in_json_and_reply():
    got = to_json(answer("BERT on A100 with jax, speedup?", Channel.DM))
    assert got["framework"] == "JAX" and got["kind"] == "help" and got["ratio"]
    assert "no published JAX runs of this model" in got["text"]
    arabic = to_json(answer("كم التسريع لـ BERT على A100 مع pytorch", Channel.DM))
    assert "وحدها" in arabic["text"]
