"""The name pass emits candidates and the one resolver chooses: overlapping name
readings keep the longer one, a stem with an unknown number never hides a word
that names a model alone, and every number inside a chosen name is no value."""

from __future__ import annotations

import pytest

from bot.models import Channel
from bot.understanding.explain import explain
from bot.understanding.parse import understand
from bot.understanding.resolving.candidates import NAME
from bot.understanding.rules.names.names import find_names
from bot.understanding.text.normalise import normalise
from bot.understanding.text.tokens import tokenize


def _names(text: str):
    tokens = tokenize(normalise(text))
    return find_names(tokens), tokens


@pytest.mark.parametrize(
    ("text", "gpu", "model"),
    [
        ("transformer xl on v100, 10h, 2x", "V100", "Transformer-XL"),  # not "Transformer"
        ("rtx 2080 ti, 10h", "RTX 2080 Ti", None),  # over the bare "2080 ti"
        ("ssd 300 on a100 20h", "A100", "SSD"),
        ("تدريب ssd 300 على a100 ياخذ ٢٠ ساعة", "A100", "SSD"),
        ("unet 3d on a100, 20h", "A100", "UNet"),  # unknown "unet 3d" keeps U-Net
        ("GTX 980 Ti: 30 hours fp32", "GTX 980 Ti", None),
    ],
)
def test_the_longer_name_reading_wins_and_its_digits_are_no_value(text, gpu, model):
    query = understand(text, Channel.DM)
    assert (query.gpu, query.model) == (gpu, model)
    assert query.unused == []


def test_each_overlapped_name_reading_is_kept_for_explain():
    names, _ = _names("rtx 2080 ti")
    offered = {(c.rule, ok) for c, ok in names.offered if c.kind == NAME}
    assert offered == {("numbered_name", True), ("card_number_ti", False)}
    assert "card_number_ti): overlapped" in explain("rtx 2080 ti, 10h 2x")


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("A100 40GB and H100 80GB, 30h, 2x", 40.0),
        ("a 24GB 4090, 10h, 2x", 24.0),
        ("H100 (80GB) 10h 2x", 80.0),
        ("a100-80gb 10h 2x", 80.0),
    ],
)
def test_the_first_cards_memory_is_read_and_every_cards_size_is_marked(text, size):
    names, tokens = _names(text)
    assert names.gpu_memory_gb == size
    sizes = [t for t in tokens if t.suffix == "gb"]
    assert all(t.role == "gpu" and t.extra["rule"] == "gpu_memory_size" for t in sizes)
