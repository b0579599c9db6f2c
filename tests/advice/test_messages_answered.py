"""Whole messages, read by the real reader and answered by the real advice: every one
gets a ratio or the memory answer it asked for (issue 10, items 2 and 4)."""

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel


def ask(text: str) -> dict:
    return to_json(answer(text, Channel.DM))


@pytest.mark.parametrize(
    "text",
    [
        # A card the spec table has no row for: its number is part of its name, not a time.
        "mlp_wide on Radeon 8060S, with ocannl, 100 hours in FP32, how long with AMP?",
        "training on Radeon RX 7900 XTX, 100 hours in FP32, how long with AMP?",
    ],
)
def test_a_card_the_bot_does_not_know_still_gets_the_rules_range(text):
    got = ask(text)
    assert got["fp32_hours"] == 100
    assert (got["ratio_low"], got["ratio_high"]) == (1.2, 2.5)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("can I fine-tune Llama 2 13B on 2x A100 40GB?", "104 GB per GPU"),  # 13e9 x 16 / 2
        ("can I train a 7B model on an RTX 4090?", "at least 7 GPUs"),  # 126 / (19.2 - 1)
    ],
)
def test_can_i_train_x_on_y_is_a_memory_question_for_the_gpus_named(text, says):
    got = ask(text)
    assert got["memory"] is not None and says in got["text"]


def test_fp8_is_said_to_be_8_bit():
    got = ask("speedup for GPT-2 on H100 with fp8?")
    generation = next(f for f in got["factors"] if f["code"] == "gpu_generation")
    assert generation["params"]["bits"] == 8
    assert "8-bit (FP8) Tensor Core peak" in got["text"]
