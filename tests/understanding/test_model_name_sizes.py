"""A model's name that carries its size ("Llama 7B", "llama-2-13b") gives the
parameter count of a memory question, and nothing else."""

import pytest

from bot.models import Channel, Intent
from bot.understanding import understand


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("memory for Llama 7B with adam on A100 80GB", 7e9),
        ("Will Llama 7B fit on a single 24GB card?", 7e9),
        ("memory Llama-2-13B adamw on 4 H100", 13e9),
        ("memory qwen2.5-7b adam on H100", 7e9),
        ("كم ذاكرة يحتاج Llama 7B مع adam على A100 80GB", 7e9),
        ("هل يتسع llama-2-13b على بطاقة H100؟", 13e9),
    ],
)
def test_the_size_in_a_models_name_is_its_parameter_count(text, params):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY and query.params == pytest.approx(params)


def test_a_count_written_on_its_own_wins_over_the_name():
    assert understand("memory 340M params llama-2-13b", Channel.DM).params == pytest.approx(340e6)


def test_outside_memory_questions_the_name_stays_a_name():
    query = understand("Llama 7B 100h ratio 2", Channel.DM)
    assert query.intent is Intent.ESTIMATE and query.fp32.hours == 100 and query.params is None


def test_the_word_replies_use_for_parameters_reads_as_one():
    """Replies say "معلمة"; a user echoing it back must be understood."""
    query = understand("كم ذاكرة يحتاج نموذج فيه ٧٠٠ معلمة على A100", Channel.DM)
    assert query.intent is Intent.MEMORY and query.params == 700


@pytest.mark.parametrize(
    "text",
    [
        "does a 7B model fit in 80GB?",
        "7B model on a GPU with 80 GB, adam, fits?",
        "هل يكفي ٨٠ جيجا لتدريب نموذج ٧ مليار معلمة؟",
    ],
)
def test_a_memory_size_without_a_gpu_name_is_the_gpus_memory(text):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY and query.gpu_memory_gb == 80 and query.gpu is None


def test_the_reply_judges_a_nameless_gpu_by_its_size():
    from bot.conversation import answer

    reply = answer("does a 7B model fit in 80GB?", Channel.DM).reply
    assert "Does not fit on one GPU (80 GB)" in reply.text
