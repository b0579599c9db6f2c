"""A bare 3090/4090 after a card word is the GPU; record commands
read "fp32 step 1.2s" and give a model word the family estimates give it."""

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel
from bot.understanding import understand
from bot.understanding.rules.record.record_command import RecordCommand, read_command


@pytest.mark.parametrize(
    ("text", "gpu", "hours"),
    [
        ("تدريب ResNet-50 على كرت 3090 ياخذ ١٠ ساعات", "RTX 3090", 10),
        ("التدريب ٣٠ ساعة على 4090", "RTX 4090", 30),
        ("التدريب ٣٠ ساعة ببطاقة 4090", "RTX 4090", 30),
        ("ResNet-50 on a 24GB 4090, 10h fp32", "RTX 4090", 10),
        ("ResNet-50 on a 24 GB 3090, 10h fp32", "RTX 3090", 10),
        ("fp32 10h on a 3090", "RTX 3090", 10),
        ("fp32 10h on my GPU card 4090", "RTX 4090", 10),
    ],
)
def test_a_bare_card_number_after_card_words_is_the_gpu(text, gpu, hours) -> None:
    q = understand(text, Channel.DM)
    assert q.gpu == gpu and q.fp32 is not None and q.fp32.hours == hours
    assert q.reason is None and q.candidates == []


def test_a_bare_card_number_in_an_arabic_question() -> None:
    q = understand("كم مرة أسرع التدريب على كرت 3090 لتصنيف الصور؟", Channel.DM)
    assert q.gpu == "RTX 3090" and q.family == "image_classification"


def test_a_memory_size_before_the_card_is_its_memory() -> None:
    text = "does mixed precision reduce memory for a 2.7B model with Adam on a 24GB 4090?"
    got = to_json(answer(text, Channel.DM))
    assert got["kind"] == "memory" and got["gpu"] == "RTX 4090"
    assert "24 GB" in got["text"]


@pytest.mark.parametrize("text", ["fp32 10h, 4090 steps", "100 3090", "3090 hours"])
def test_a_bare_number_without_card_words_stays_a_number(text) -> None:
    assert understand(text, Channel.COMMAND).gpu is None


def draft(text: str):
    command = read_command(text)
    assert isinstance(command, RecordCommand)
    assert command.draft is not None, command.reasons
    return command.draft


@pytest.mark.parametrize(
    "text",
    [
        "record H100 GPT-2 fp32 step 1.2s, bf16 step 0.55s",
        "record H100 GPT-2 fp32 step time: 1.2s, bf16 step time: 0.55s",
        "record H100 GPT-2 fp32 1.2s bf16 0.55s",
    ],
)
def test_record_reads_step_between_label_and_value(text) -> None:
    d = draft(text)
    assert d.gpu == "H100" and d.model == "GPT-2" and d.precision == "bf16"
    assert d.fp32_step.value == 1.2 and d.mixed_step.value == 0.55


def test_record_reads_arabic_step_words() -> None:
    d = draft("سجل A100 BERT fp32 زمن الخطوة ٤٢٠ مللي ثانية amp زمن الخطوة ١٩٠ مللي ثانية")
    assert d.fp32_step.value == 420 and d.mixed_step.value == 190


@pytest.mark.parametrize(
    ("record", "question"),
    [
        ("record RTX 4090 yolov8 fp32 100 img/s amp 180 img/s", "yolov8 on RTX 4090, 10h fp32"),
        ("record L4 whisper ratio 1.4", "whisper on L4, 10h fp32"),
        ("سجل A100 llama-2-7b ratio 1.8", "llama-2-7b على A100 لمدة ١٠ ساعات"),
    ],
)
def test_records_get_the_family_estimates_give(record, question) -> None:
    family = understand(question, Channel.DM).family
    assert family is not None and draft(record).family == family
