"""GPU names spelled apart or sold under another name, and precisions spelled in parts."""

import pytest

from bot.models import Channel
from bot.understanding import understand


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("10 hours on v 100", "V100"),
        ("10h tesla v 100", "V100"),
        ("١٠ ساعات على v 100", "V100"),
        # Same chip, another card (12 GB, 48 GB): its own name, never the sibling's.
        ("10h on titan v", "TITAN V"),
        ("10h on a6000", "RTX A6000"),
        ("10h RTX A6000", "RTX A6000"),
        ("10h on A800", "A100"),  # export variant, same GA100
        ("10h A800-80gb", "A100"),
        ("10h on H800", "H100"),  # export variant, same GH100
        ("10h on GH200", "GH200"),  # a Hopper with 96 GB or more: not an 80 GB H100
        ("10h on P40", "P40"),
        ("10h on K80", "K80"),
        ("10h on a10g", "A10G"),  # not the A10: 70 vs 125 TFLOPS
        ("2x RTX A6000, 10h", "RTX A6000"),
        ("3x GTX 1080 Ti 10h", "GTX 1080 Ti"),
        ("on a 3080, 10h", "RTX 3080"),
        ("10h rtx 3080 ti", "RTX 3080 Ti"),
        ("on my 2080, 10h", "RTX 2080"),
        ("١٠ ساعات على كرت 3060", "RTX 3060"),
        ("10h on a 100 node cluster", None),  # "a 100" is an article and a number
    ],
)
def test_gpu_spellings(text: str, gpu: str | None) -> None:
    q = understand(text, Channel.MENTION)
    assert q.gpu == gpu
    assert q.fp32 is not None and q.fp32.hours == 10


def test_spaced_series_digits_are_never_the_time() -> None:
    q = understand("100 v 100 2", Channel.COMMAND)
    assert (q.fp32.hours, q.ratio, q.gpu) == (100, 2, "V100")


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("bf-16 on A100 100h", "bf16"),
        ("BF 16 on A100 100h", "bf16"),
        ("FP-8 on H100 100h", "fp8"),
        ("fp 8 on H100 100h", "fp8"),
        ("float 16, 100h", "fp16"),
        ("التدريب ١٠٠ ساعة على A100 بدقة BF 16", "bf16"),
    ],
)
def test_precision_spelled_in_parts(text: str, precision: str) -> None:
    q = understand(text, Channel.MENTION)
    assert q.precision == precision
    assert q.fp32.hours == 100 and q.reason is None


def test_split_fp32_still_pairs_with_its_time() -> None:
    q = understand("FP 32 takes 10h, FP 16 takes 6h", Channel.MENTION)
    assert q.fp32.hours == 10 and q.ratio == pytest.approx(10 / 6)


def test_tf_32_spelled_apart_is_the_baseline() -> None:
    assert understand("tf-32 off, 10h on A100", Channel.MENTION).baseline == "fp32"
    assert understand("TF 32 baseline, 10h on A100", Channel.MENTION).baseline == "tf32"


def test_fp8_on_a100_is_read_as_asked() -> None:
    """The reading keeps what the user said; the advice says A100 has no FP8."""
    assert understand("36h fp32 on A100 with fp8", Channel.MENTION).precision == "fp8"
