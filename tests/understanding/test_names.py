"""GPU and model spellings map to the canonical names of bot.models."""

import pytest

from bot.models import Channel
from bot.understanding import understand


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("a100-80gb", "A100"),
        ("A100 80GB", "A100"),
        ("Tesla T4", "T4"),
        ("tesla v100", "V100"),
        ("8 V100s", "V100"),
        ("rtx4090", "RTX 4090"),
        ("RTX 3090", "RTX 3090"),
        ("GeForce RTX 4090", "RTX 4090"),
        ("A10", "A10"),
        ("a10g", "A10G"),
        ("L40S", "L40S"),
        ("H100 SXM", "H100"),
        ("h200", "H200"),
        ("P100", "P100"),
        ("L4", "L4"),
        ("rtx 2080 ti", "RTX 2080 Ti"),
        ("a GPU", None),
        ("بطاقات رسومية", None),
    ],
)
def test_gpu_spellings(text: str, gpu: str | None) -> None:
    assert understand(f"{text}, fp32 10h", Channel.DM).gpu == gpu


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("resnet50", "ResNet-50"),
        ("ResNet-50", "ResNet-50"),
        ("resnet 50", "ResNet-50"),
        ("bert-large", "BERT"),
        ("BERT base", "BERT"),
        ("gpt2", "GPT-2"),
        ("GPT-2", "GPT-2"),
        ("tacotron 2", "Tacotron2"),
        ("Tacotron2", "Tacotron2"),
        ("Mask-RCNN", "Mask R-CNN"),
        ("mask r-cnn", "Mask R-CNN"),
        ("U-Net", "UNet"),
        ("unet", "UNet"),
        ("SSD300", "SSD"),
        ("Transformer", "Transformer"),
        ("transformer-xl", "Transformer-XL"),
        ("resnet 101", None),
    ],
)
def test_model_spellings(text: str, model: str | None) -> None:
    assert understand(f"{text}, fp32 10h", Channel.DM).model == model


def test_a_negated_gpu_is_not_chosen() -> None:
    q = understand("UNet on A10 (not A100!) 8h fp32", Channel.MENTION)
    assert q.gpu == "A10" and q.fp32.hours == 8


def test_name_numbers_are_never_values() -> None:
    q = understand("resnet 101 on rtx 3090", Channel.COMMAND)
    assert q.fp32 is None and q.ratio is None


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("memory 7B adam on A100 40GB", 40.0),
        ("memory 7B adam on a100-80gb", 80.0),
        ("A100 80 GB BERT 10h", 80.0),
        ("H100 (80GB) 12 hours", 80.0),
        ("ذاكرة 7B adam على A100 40GB", 40.0),
        ("memory 7B adam on H100 80 جيجا", 80.0),
        ("ذاكرة ٧ مليار مع adam على A100 ٤٠ جيجابايت", 40.0),
        ("memory 7B adam on A100", None),
        ("A100 7GB 10h", None),  # no A100 is sold with 7 GB: not read as its size
    ],
)
def test_gpu_memory_size_written_with_the_gpu(text: str, size: float | None) -> None:
    query = understand(text, Channel.DM)
    assert query.gpu in ("A100", "H100")
    assert query.gpu_memory_gb == size


def test_gpu_memory_size_is_never_the_time() -> None:
    query = understand("A100 40GB, fp32 takes 10 hours, ratio 2", Channel.DM)
    assert (query.fp32.hours, query.ratio, query.gpu_memory_gb) == (10.0, 2.0, 40.0)
