"""Localized texts for records: ratios, plurals, isolates, escaping, mentions."""

import re

import pytest

from bot.models import Lang
from bot.records import RecordReason
from bot.records.models import Measure, RecordPage
from bot.rendering.records import RecordWords
from bot.understanding import RecordCommand, read_command

FSI, PDI = "\u2068", "\u2069"


@pytest.fixture
def bert(make_record):
    return make_record(
        gpu="A100",
        model="BERT",
        family="language_model",
        num_gpus=8,
        precision="bf16",
        ratio=420 / 190,
        measure=Measure.STEP_TIME,
        fp32_value=420,
        mixed_value=190,
        unit="ms",
        user_id="U42",
    )


def test_confirmation_says_the_ratio_and_the_setup(bert):
    text = RecordWords(Lang.EN).recorded(bert)
    assert f"Recorded #{bert.id}: *2.21×* for BERT on A100." in text
    assert "8 GPUs · BF16 · FP32 420 ms vs mixed 190 ms" in text


def test_arabic_confirmation_isolates_latin_runs(bert):
    text = RecordWords(Lang.AR).recorded(bert)
    assert "سُجِّل القياس" in text
    assert f"{FSI}2.21×{PDI}" in text and f"{FSI}BERT{PDI}" in text
    assert f"{FSI}8{PDI} بطاقات" in text
    assert f"{FSI}420 ms{PDI}" in text


@pytest.mark.parametrize(
    ("n", "words"),
    [(1, "بطاقة واحدة"), (2, "بطاقتان"), (3, "بطاقات"), (11, "بطاقةً"), (100, "بطاقة")],
)
def test_arabic_gpu_counts_use_babel_plural_forms(n, words):
    assert RecordWords(Lang.AR).gpus(n).endswith(words)


def test_user_text_is_escaped_and_not_split_by_isolates(make_record):
    record = make_record(gpu="A100", model="<!channel> & co")
    for lang in Lang:
        text = RecordWords(lang).recorded(record)
        assert "<!channel>" not in text
        assert "&lt;!channel&gt; &amp; co" in text


def test_history_lists_ratio_gpu_model_count_precision_who_and_when(bert, make_record):
    other = make_record(gpu="T4", family="image_classification", ratio=1.9, user_id="U7")
    page = RecordPage(records=[other, bert], page=1, pages=3, total=23)
    text = RecordWords(Lang.EN).history(page)
    lines = text.splitlines()
    assert lines[0] == "*Team measurements* (23 records, page 1 of 3)"
    assert lines[1].startswith(
        f"#{other.id} · *1.9×* · T4 · image classification · — · — · <@U7> · <!date^"
    )
    assert f"#{bert.id} · *2.21×* · A100 · BERT · 8 GPUs · BF16 · <@U42>" in lines[2]
    assert re.search(r"<!date\^\d+\^\{date_short\}\|Nov 1, 2026>", lines[2])
    arabic = RecordWords(Lang.AR).history(page)
    assert "قياسات الفريق" in arabic and "٢٣" not in arabic  # Western digits by default
    assert f"{FSI}23{PDI} قياسًا" in arabic and "<@U42>" in arabic


def test_empty_history_and_page_past_the_end():
    words = RecordWords(Lang.EN)
    assert "no measurements yet" in words.history(RecordPage(records=[], page=1, pages=1, total=0))
    past = words.history(RecordPage(records=[], page=5, pages=2, total=12))
    assert past == "There is no page 5; the last page is 2."


@pytest.mark.parametrize("lang", list(Lang))
def test_every_refusal_is_worded_with_something_to_type(lang):
    words = RecordWords(lang)
    text = words.refused(tuple(RecordReason))
    assert len(text.splitlines()) == len(RecordReason) + 2
    assert text.count("`") >= 6  # the examples to copy


def test_the_arabic_examples_are_commands_the_reader_accepts():
    for example in RecordWords(Lang.AR).examples():
        command = read_command(example)
        assert isinstance(command, RecordCommand) and command.draft is not None, example
        assert command.lang is Lang.AR


def test_delete_texts_in_both_languages():
    en, ar = RecordWords(Lang.EN), RecordWords(Lang.AR)
    assert en.deleted(4) == "Deleted record #4."
    assert "admin" in en.delete_forbidden(4) and "history" in en.not_found(4)
    assert "حُذف" in ar.deleted(4) and "مديري" in ar.delete_forbidden(4)
