"""The records command reader, in English and Arabic."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.models import Lang
from bot.records import RecordReason, validate
from bot.records.models import Measure, StepUnit
from bot.understanding import (
    DeleteCommand,
    HistoryCommand,
    RecordCommand,
    read_command,
    read_fields,
    read_record,
)


def recorded(text: str):
    command = read_command(text)
    assert isinstance(command, RecordCommand), command
    assert command.draft is not None, command.reasons
    return command.draft, validate(command.draft).ratio, command.lang


def test_step_times_with_every_setup_field():
    draft, ratio, lang = recorded("record A100 BERT 8 GPUs bf16 fp32 420ms amp 190ms")
    assert (draft.gpu, draft.model, draft.family) == ("A100", "BERT", "language_model")
    assert (draft.num_gpus, draft.precision, draft.baseline) == (8, "bf16", "fp32")
    assert draft.fp32_step.unit is StepUnit.MILLISECONDS
    assert ratio == pytest.approx(420 / 190)
    assert lang is Lang.EN


def test_throughputs():
    draft, ratio, _ = recorded("record V100 resnet50 fp32 367 img/s amp 1200 img/s")
    assert (draft.gpu, draft.model) == ("V100", "ResNet-50")
    assert draft.fp32_throughput.unit == "img/s"
    assert ratio == pytest.approx(1200 / 367)
    assert draft.num_gpus is None  # the 50 of resnet50 is no count, no value


def test_a_ratio_stated_directly():
    draft, ratio, _ = recorded("record T4 ratio 1.9")
    assert draft.gpu == "T4" and ratio == 1.9
    assert recorded("record H100 gpt2 2.3x")[1] == 2.3


@pytest.mark.parametrize(
    "text", ["سجل T4 معامل ١٫٩", "سجل T4 المعامل ١٫٩", "سجل T4 معامل التسريع ١٫٩"]
)
def test_the_word_replies_use_for_the_ratio_records_it(text):
    """Replies call the ratio المعامل, so a user writing it back must be understood."""
    assert recorded(text)[1] == 1.9


def test_arabic_with_arabic_indic_digits_and_units():
    draft, ratio, lang = recorded(
        "سجل A100 BERT على ٨ بطاقات fp32 ٤٢٠ مللي ثانية amp ١٩٠ مللي ثانية"
    )
    assert lang is Lang.AR
    assert (draft.gpu, draft.model, draft.num_gpus) == ("A100", "BERT", 8)
    assert ratio == pytest.approx(420 / 190)


def test_arabic_ratio_words_and_decimal_comma():
    draft, ratio, lang = recorded("سجّل T4 تصنيف الصور نسبة التسريع ١٫٩")
    assert lang is Lang.AR and ratio == 1.9
    assert draft.family == "image_classification"


def test_value_before_label_and_mixed_units():
    draft, ratio, _ = recorded("record 8x A100 gpt2 0.42 s in fp32, 190 ms with amp")
    assert draft.num_gpus == 8
    assert ratio == pytest.approx(420 / 190)


def test_a_unit_written_once_applies_to_both_sides():
    assert recorded("record A100 fp32 420 amp 190ms")[1] == pytest.approx(420 / 190)


def test_thousands_separators_are_one_number():
    assert recorded("record A100 fp32 1,200 img/s amp 2,400 img/s")[1] == pytest.approx(2.0)


def test_tf32_baseline_and_task_family():
    draft, ratio, _ = recorded("record object detection on H100 tf32 1.2 s/it amp 0.5 s/it")
    assert (draft.family, draft.baseline) == ("detection", "tf32")
    assert ratio == pytest.approx(2.4)


def test_free_text_model_is_kept_verbatim_for_escaping_later():
    draft, _, _ = recorded("record A100 model=my-llama ratio 1.5")
    assert draft.model == "my-llama"


@pytest.mark.parametrize(
    ("text", "reasons"),
    [
        ("record A100 fp32 420 amp 190", (RecordReason.MISSING_UNIT,)),
        ("record ratio 2", (RecordReason.MISSING_SETUP,)),
        ("record A100 fp32 420ms", (RecordReason.MISSING_PAIR,)),
        ("record", (RecordReason.MISSING_SETUP, RecordReason.MISSING_PAIR)),
        ("record A100 fp32 nan ms amp 3ms", (RecordReason.NOT_FINITE,)),
        ("record A100 fp32 −4ms amp 3ms", (RecordReason.NOT_POSITIVE,)),
        ("record A100 fp32 400 img/s amp 900 tokens/s", (RecordReason.UNIT_MISMATCH,)),
        ("record A100 ratio 25", (RecordReason.IMPLAUSIBLE,)),
        ("سجل A100 نسبة ما لا نهاية", (RecordReason.NOT_FINITE,)),
    ],
)
def test_refusals(text, reasons):
    command = read_command(text)
    assert isinstance(command, RecordCommand)
    assert command.draft is None and command.reasons == reasons


def test_read_record_returns_draft_or_reasons():
    assert read_record("A100 ratio 2").ratio == 2
    assert read_record("A100") == (RecordReason.MISSING_PAIR,)


@pytest.mark.parametrize(
    ("text", "page", "lang"),
    [
        ("history", 1, Lang.EN),
        ("history 3", 3, Lang.EN),
        ("history page 2", 2, Lang.EN),
        ("سجل القياسات", 1, Lang.AR),
        ("سجل القياسات ٢", 2, Lang.AR),
        ("history 0", 1, Lang.EN),
    ],
)
def test_history(text, page, lang):
    assert read_command(text) == HistoryCommand(lang=lang, page=page)


@pytest.mark.parametrize(
    ("text", "record_id", "lang"),
    [("delete 12", 12, Lang.EN), ("delete #4", 4, Lang.EN), ("احذف ٣", 3, Lang.AR)],
)
def test_delete(text, record_id, lang):
    assert read_command(text) == DeleteCommand(lang=lang, record_id=record_id)


@pytest.mark.parametrize(
    "text",
    [
        "100 2",
        "ResNet-50 on V100, 30 hours in FP32?",
        "help",
        "delete",
        "history of AMP?",
        "log: training takes 100 hours, ratio 2",
        "recording 100 hours of audio, ratio 2",
    ],
)
def test_questions_are_not_commands(text):
    assert read_command(text) is None


def test_measure_kind_follows_the_numbers():
    draft, _, _ = recorded("record A100 fp32 420ms amp 190ms ratio 2.2")
    assert validate(draft).measure is Measure.STEP_TIME


def test_modal_fields_use_the_same_rules():
    draft = read_fields(
        gpu="a100 80gb",
        model="bert-large",
        num_gpus=8,
        precision="bf16",
        fp32="420 ms",
        mixed="0.19s",
    )
    assert (draft.gpu, draft.model, draft.family, draft.num_gpus) == (
        "A100",
        "BERT",
        "language_model",
        8,
    )
    assert validate(draft).ratio == pytest.approx(420 / 190)
    family = read_fields(model="تصنيف الصور", ratio="1.9x")
    assert (family.family, family.model, family.ratio) == ("image_classification", None, 1.9)
    free = read_fields(gpu="RTX 6000 Ada", model="my llama <x>", fp32="367 img/s", mixed="1200")
    assert (free.gpu, free.model) == ("RTX 6000 Ada", "my llama <x>")
    assert validate(free).ratio == pytest.approx(1200 / 367)


@pytest.mark.parametrize(
    ("fields", "reasons"),
    [
        ({"gpu": "T4", "fp32": "abc", "mixed": "3ms"}, (RecordReason.MISSING_PAIR,)),
        ({"gpu": "T4", "fp32": "420", "mixed": "190"}, (RecordReason.MISSING_UNIT,)),
        ({"fp32": "420ms", "mixed": "190ms"}, (RecordReason.MISSING_SETUP,)),
        ({"gpu": "T4", "ratio": "0"}, (RecordReason.NOT_POSITIVE,)),
    ],
)
def test_modal_field_refusals(fields, reasons):
    assert read_fields(**fields) == reasons


def test_arabic_throughput_units():
    draft, ratio, lang = recorded("سجل V100 resnet50 fp32 367 صورة/ث amp 1200 صورة/ث")
    assert lang is Lang.AR and draft.fp32_throughput.unit == "img/s"
    assert ratio == pytest.approx(1200 / 367)


@given(st.text(max_size=200))
def test_any_text_is_read_without_raising(text):
    command = read_command("record " + text)
    assert isinstance(command, RecordCommand)
    assert (command.draft is None) != (not command.reasons)
    read_command(text)


@given(st.text(max_size=40), st.text(max_size=40), st.text(max_size=20))
def test_any_modal_fields_are_read_without_raising(fp32, mixed, ratio):
    result = read_fields(gpu="T4", fp32=fp32, mixed=mixed, ratio=ratio)
    assert isinstance(result, tuple) or validate(result).ok


@pytest.mark.parametrize(
    ("line", "gpu", "model", "ratio"),
    [
        ("record H100 BERT 8 GPUs tf32 420.00ms bf16 190.00ms", "H100", "BERT", 420 / 190),
        ("record CPU model=MLP-tiny 1 GPU fp32 12.00ms bf16 8.00ms", None, "MLP-tiny", 1.5),
    ],
)
def test_the_line_mpbot_experiment_prints_is_read(line, gpu, model, ratio):
    """`mpbot experiment` ends with a record line to paste into Slack (bot/experiment/report.py)."""
    draft, got, _ = recorded(line)
    assert (draft.gpu, draft.model) == (gpu, model)
    assert got == pytest.approx(ratio)
