"""Frameworks the way rows and users write them: the reader's framework for a
message and the fit's for a measured row must be the same, or the fitted
framework term is applied to rows it was not fitted on."""

from __future__ import annotations

import pytest

from bot.advice.features import framework_key
from bot.models import Channel
from bot.understanding import understand
from bot.understanding.values.lexicon import FRAMEWORKS

# Data rows write frameworks in Latin letters; Arabic spellings are for messages only.
LATIN_WORDS = sorted((w, f) for w, f in FRAMEWORKS.items() if w.isascii())


@pytest.mark.parametrize(("word", "framework"), LATIN_WORDS)
def test_every_framework_word_means_to_the_fit_what_it_means_to_the_reader(word, framework):
    assert framework_key(word) == framework_key(framework) is not None


@pytest.mark.parametrize(
    ("said", "framework"),
    [
        ("pytorch-amp", "PyTorch"),  # a hyphenated compound: its first part
        ("apex", "PyTorch"),
        ("apex-O2", "PyTorch"),
        ("fairseq-fp16", "PyTorch"),
        ("deepspeed-fp16", "PyTorch"),
        ("PyTorch Lightning", "PyTorch"),
        ("tensorflow-auto-mixed-precision", "TensorFlow"),
        ("tf.keras", "TensorFlow"),
        ("OpenSeq2Seq", "TensorFlow"),
        ("Flax", "JAX"),
        ("mxnet-amp", "MXNet"),
        ("paddle-amp", "PaddlePaddle"),
    ],
)
def test_a_framework_or_a_library_on_it_is_read_as_that_framework(said, framework):
    query = understand(f"ResNet-50 on V100 with {said}, 100 hours in FP32, amp?", Channel.DM)
    assert query.framework == framework
    assert query.fp32.hours == 100


def test_tf32_written_apart_is_a_baseline_not_tensorflow():
    query = understand("ResNet-50 on A100 with tf-32, 100 hours, amp?", Channel.DM)
    assert query.framework is None
