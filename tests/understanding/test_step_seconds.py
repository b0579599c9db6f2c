"""Seconds said of two precisions are step times (rules step_named_time with the
dialect verbs, step_time_partner across a glued «و», step_seconds_pair), and a
count in thousands said in words is a count (rule scaled_count), never unused."""

from __future__ import annotations

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel
from bot.understanding.parse import understand


@pytest.mark.parametrize(
    "text",
    [
        "الخطوة تاخد ٠٫٩ ثانية بالـfp32 و٠٫٥ ثانية مع amp",  # Egyptian/Levantine تاخد, glued و
        "الخطوة بتاخد ٠٫٩ ثانية بالـfp32 و ٠٫٥ ثانية مع amp",
        "الخطوة بياخد ٠٫٩ ثانية بدون amp و٠٫٥ ثانية مع amp",
        "each step takes 0.9 s in fp32 and 0.5 s with amp",
        "0.9 s in fp32 and 0.5 s with amp",  # step_seconds_pair: no step word
        "٠٫٩ ثانية بالـfp32 و٠٫٥ ثانية مع amp",
        "fp32 0.9s vs bf16 0.5s",
    ],
)
def test_seconds_of_two_precisions_are_two_step_times(text):
    query = understand(text, Channel.DM)
    assert query.ratio == pytest.approx(1.8)
    assert query.fp32 is None  # no step count: the FP32 time is asked for
    assert query.read_by["ratio"][0] == "step_rate"


def test_with_a_count_in_thousands_the_fp32_rate_gives_the_time_and_no_number_is_unused():
    text = "الخطوة بتاخد ٠٫٩ ثانية بالـfp32 و٠٫٥ ثانية مع amp، ٢٠ الف خطوة"
    query = understand(text, Channel.DM)
    assert query.fp32 is not None and query.fp32.hours == pytest.approx(5.0)
    assert query.unused == []
    english = understand("20 thousand steps, 0.9 s/it fp32, 0.5 s/it amp", Channel.DM)
    assert english.fp32.hours == pytest.approx(5.0) and english.unused == []


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("fp32 1m 30s, amp 50s", 0.025),  # a compound's seconds stay a duration
        ("fp32 takes 10 h, amp takes 6 h", 10.0),
    ],
)
def test_seconds_inside_a_compound_or_hours_stay_durations(text, hours):
    assert understand(text, Channel.DM).fp32.hours == pytest.approx(hours)


def test_a_progress_lines_elapsed_seconds_are_no_step_pair():
    text = (
        "keras fp32: 1563/1563 [====] - 45s 29ms/step - loss: 1.2\n"
        "mixed: 1563/1563 [====] - 25s 16ms/step - loss: 1.2\n20 epochs"
    )
    assert understand(text, Channel.DM).ratio == pytest.approx(29 / 16)


def test_the_read_line_quotes_what_a_worked_out_value_came_from():
    reply = to_json(answer("fp32 takes 10 h, amp takes 6 h", Channel.DM))
    assert "10 h ÷ 6 h" in str(reply)


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("الحقبة ٢/١٠ الوقت ٣٠ دقيقة", 0.5),
        ("الحقبه ٤/٢٠ خلصت في ٤٥ دقيقة", 0.75),
        ("الخطوة ٢٠٠/١٠٠٠ والتدريب ياخذ ٣ ساعات", 3.0),
        ("Epoch 2/10 time 30 min", 0.5),
    ],
)
def test_a_logs_epoch_or_step_counter_is_never_a_ratio(text, hours):
    """ "2/10" after an epoch or step word counts progress (COUNT_LABELS in both
    languages); before, «الحقبة ٢/١٠» was read as a ratio of 5."""
    query = understand(text, Channel.DM)
    assert query.ratio is None, query.read_by
    assert query.fp32 is not None and query.fp32.hours == pytest.approx(hours)


def test_a_time_after_an_epoch_word_is_still_the_time():
    query = understand("الخطوة ٠٫٩ ثانية بالـfp32 و٠٫٥ ثانية مع amp", Channel.DM)
    assert query.ratio == pytest.approx(1.8)
