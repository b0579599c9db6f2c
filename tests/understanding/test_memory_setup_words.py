"""Rules memory_by_method and memory_setup: how a memory question says the GPU is used
(method, recipe, weight precision, sharding, a catalog model), and the card size said
in words; rule memory_by_setup reads "GPT-2 124M" as a size, never 124 minutes."""

from __future__ import annotations

import pytest

from bot.models import Channel, Intent
from bot.understanding.parse import understand


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("can I LoRA fine-tune llama 7b on one H100?", {"memory_method": "lora"}),
        ("QLoRA 13B on a 24GB 4090?", {"memory_method": "qlora", "weight_precision": "nf4"}),
        ("fine-tune 13B in 4-bit on a 4090", {"memory_method": "qlora"}),  # 4-bit base trains
        (
            "llama 7b inference in fp16 on a 4090",
            {"memory_method": "inference", "weight_precision": "fp16", "sized_model": "llama7b"},
        ),
        (
            "70B in 4-bit on a 4090 for inference?",
            {"memory_method": "inference", "weight_precision": "int4"},
        ),
        (
            "serve llama-2-70b in fp16 on 2 A100 80GB",
            {"memory_method": "inference", "num_gpus": 2, "sized_model": "llama270b"},
        ),
        ("can I run llama 13b on a 4090?", {"memory_method": "inference"}),  # run, no training
        ("7B pure bf16 on A100 80GB memory", {"memory_recipe": "bf16", "memory_method": None}),
        (
            "7B full fine-tune with deepspeed zero-3 on 4 A100 40GB",
            {"memory_recipe": "master", "sharding": "zero3", "num_gpus": 4, "gpu_memory_gb": 40},
        ),
        ("13B zero stage 2 on 8 A100 memory", {"sharding": "zero2"}),
        ("7B full fine-tune with DDP on 8 A100 80GB", {"sharding": "ddp"}),
        ("full fine-tune 7B with FSDP on 8 A100 80GB", {"sharding": "zero3"}),
        ("70B with 8-bit adam on 8 H100", {"optimizer": "8-bit adam"}),
        ("fine-tune 7b with adamw 8bit on an A100 80GB", {"optimizer": "adamw 8-bit"}),
        ("أقدر أسوي LoRA لـ llama 7b على 4090؟", {"memory_method": "lora"}),
        (
            "ينفع أشغل llama 13b للاستدلال على كرت 24 جيجا؟",
            {"memory_method": "inference", "gpu_memory_gb": 24},
        ),
        ("هل يمكنني تدريب نموذج 7B على A100 بسعة ٤٠ جيجا؟", {"gpu_memory_gb": 40}),
        (
            "ممكن أشغل موديل 70B بدقة ٤ بت على كرت 4090؟",
            {"memory_method": "inference", "weight_precision": "int4"},
        ),
    ],
)
def test_what_the_memory_question_says(text, fields):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY
    for name, value in fields.items():
        assert getattr(query, name) == value, name


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("can I train GPT-2 124M on a 3090?", 124e6),  # a size after a model: not minutes
        ("هل أقدر أدرب GPT-2 124M على 3090؟", 124e6),
        ("will BERT-large fit on a T4?", 340e6),
        ("can I fine-tune gpt2-xl on a 3090?", 1.5e9),
        ("can I run mistral 7b on a 4090?", 7e9),  # the count written wins over the catalog
    ],
)
def test_model_sizes(text, params):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY and query.params == params


@pytest.mark.parametrize(
    "text",
    [
        "training GPT-2 takes 124m on a 3090, what about bf16?",  # a time, said as one
        "how much faster is LoRA with bf16 on a 4090?",  # a speed question
        "inference takes 3 hours in fp32 on a T4, how long with fp16?",  # a time
    ],
)
def test_method_words_do_not_take_over_speed_and_time_questions(text):
    assert understand(text, Channel.DM).intent is not Intent.MEMORY


def test_a_card_number_read_as_seconds_stays_a_time_without_a_count():
    query = understand("training takes 3090s on a V100", Channel.DM)
    assert query.gpu == "V100" and query.fp32 is not None and query.fp32.hours == 3090 / 3600
