"""Rule fit_question: asking whether a job fits a GPU ("will ResNet-50 fit on a GTX
1060?", "can I train GPT-2 on a T4?") is a memory question even without a parameter
count: the reply sizes a model the catalog knows and asks for the count of any other,
instead of answering a speed-up nobody asked."""

from __future__ import annotations

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel, Intent
from bot.understanding.parse import understand


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("will resnet50 fit on a GTX 1060", 25.6e6),  # sized from the model catalog
        ("can I train gpt2 on a T4?", 124e6),
        ("could we fine-tune bert on an RTX 3060?", 110e6),
        ("will it fit on a T4?", None),
        ("will bert fit on 2 A100s?", 110e6),
        ("will bert-large fit on a T4?", 340e6),
        ("أقدر أدرب bert على T4؟", 110e6),
        ("هل يمكن تدريب gpt2 على T4؟", 124e6),
        ("can I train yolov8 on a T4?", None),  # no size known: the reply asks for it
    ],
)
def test_asking_whether_a_job_fits_a_gpu_is_a_memory_question(text, params):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY
    assert query.params == params


@pytest.mark.parametrize(
    "text",
    [
        "can I train resnet50 faster on a V100 with amp?",  # a speed word
        "can I train gpt2 on a T4 with amp, it takes 10 hours in fp32",  # a time
        "is 2x enough on a T4?",  # a number outside the names
        "is amp enough?",  # no GPU
        "can I use amp on a T4?",  # no training verb
    ],
)
def test_a_fit_word_or_can_i_is_no_memory_question_beside_speed_times_or_ratios(text):
    assert understand(text, Channel.DM).intent is not Intent.MEMORY


def test_with_a_parameter_count_the_fit_is_answered():
    query = understand("can I train a 3B on a 24GB 3090?", Channel.DM)
    assert query.intent is Intent.MEMORY
    assert query.params == 3e9


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("can I train yolov8 on a T4?", "I need the model's parameter count"),
        ("أقدر أدرب yolov8 على T4؟", "أحتاج إلى عدد معلمات النموذج"),
    ],
)
def test_the_reply_asks_for_the_parameter_count_in_the_users_language(text, asked):
    assert asked in to_json(answer(text, Channel.DM))["text"]


@pytest.mark.parametrize(
    ("text", "params"),
    [
        # The batch and sequence length are the data's shape, not loose numbers.
        ("will bert-base fit on a T4 with bs 16 and seq len 512?", 110e6),
        ("can I fine-tune gpt2 on an RTX 3060, batch size 8, context 1024?", 124e6),
        ("will bert-large fit on a V100 16GB at 64 seqs per batch?", 340e6),
        ("هل يمكن تدريب bert على T4 بدفعة ٣٢ وطول تسلسل ٢٥٦؟", 110e6),
        ("أقدر أدرب gpt2 على كرت ١٢ جيجا، batch ٤ و seq ١٠٢٤؟", 124e6),
        # A scaled sequence length is no parameter count, however it is said.
        ("serve llama 2 13b on a 3090 with 8k context", 13e9),
        ("mistral 7b inference on a 4090, 32k tokens of context, fits?", 7.24e9),
        ("will a 7b fit on an A100 40GB for inference, seq 4k?", 7e9),
        ("تشغيل mistral 7b للاستدلال على كرت ٢٤ جيجا بطول سياق 8k", 7.24e9),
        # Rule size_after_hyphen: "opt-1.3b" is 1.3 billion parameters; the name used to
        # swallow "-1" and leave 3 billion.
        ("can I fully fine-tune opt-1.3b on a T4 with adam?", 1.3e9),
        ("pythia-1.4b full finetune on a 3060 12gb, fits?", 1.4e9),
        ("gpt-neo-2.7B inference on a T4 in fp16?", 2.7e9),
        ("qwen1.5-0.5b inference on a T4, fits?", 0.5e9),
        ("هل يتسع bloom-1.1b للتدريب الكامل على T4؟", 1.1e9),
        ("smollm-1.7b qlora على 3060، يكفي؟", 1.7e9),
    ],
)
def test_the_data_shape_and_the_size_written_into_a_name_keep_a_fit_question(text, params):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY
    assert query.params == pytest.approx(params, rel=0.05)


@pytest.mark.parametrize(
    ("text", "gb"),
    [
        # Every spelling of gigabytes counts the size, so fp32 before it is no time.
        ("بدي أعمل full fine-tune لموديل ٣ مليار بـ fp32 على كرت ١٦ غيغا", 16.0),
        ("تدريب كامل لنموذج ١ مليار fp32 على بطاقة ٤٨ غيغابايت", 48.0),
        ("أبي أسوي full fine-tune لموديل ٢ مليار fp32 على كرت ٢٤ قيقا", 24.0),
    ],
)
def test_gigabyte_spellings_after_fp32_are_the_card(text, gb):
    query = understand(text, Channel.DM)
    assert query.intent is Intent.MEMORY
    assert query.gpu_memory_gb == gb
