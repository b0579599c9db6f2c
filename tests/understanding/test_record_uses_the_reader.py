"""`record` reads its setup with the question reader: the same names, counts, precisions."""

from __future__ import annotations

import pytest

from bot.models import Channel
from bot.understanding import understand
from bot.understanding.rules.record.record_command import read_command


@pytest.mark.parametrize(
    ("body", "gpu", "num_gpus"),
    [
        ("A800 BERT 8 GPUs bf16 fp32 420ms amp 190ms", "A100", 8),
        ("2080 Ti resnet50 fp32 367 img/s amp 1200 img/s", "RTX 2080 Ti", None),
        ("on 4 A100 80GB gpt2 ratio 1.9", "A100", 4),
        ("A100 BERT على ٨ بطاقات fp32 ٤٢٠ مللي ثانية amp ١٩٠ مللي ثانية", "A100", 8),
        ("على كرتين 3090 fp32 ١٫٢ ث amp ٠٫٦ ث", "RTX 3090", 2),
    ],
)
def test_record_knows_what_a_question_knows(body, gpu, num_gpus):
    keyword = "سجل" if any("\u0600" <= c <= "\u06ff" for c in body) else "record"
    draft = read_command(f"{keyword} {body}").draft
    question = understand(body, Channel.DM)
    assert draft is not None
    assert draft.gpu == question.gpu == gpu
    assert draft.num_gpus == question.num_gpus == num_gpus
    assert draft.model == question.model and draft.precision == question.precision


def test_names_with_digits_are_no_measurements_in_a_record():
    draft = read_command("record ResNeXt-101 32x8d V100 ratio 1.7").draft
    assert draft is not None and draft.ratio == 1.7 and draft.gpu == "V100"
