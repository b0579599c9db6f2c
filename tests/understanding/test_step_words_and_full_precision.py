"""Rules step_named_time and the FP32 words: seconds said of a step are a step time
("fp32 step 1.2s"), never the run's time; "الدقة الكاملة" (full precision) is the
FP32 side. A record reads its pair with these same rules, so a question and a
record of the same words give the same ratio.

(text, channel, FP32 hours or None, ratio or None, reason or None).
"""

from __future__ import annotations

import pytest
from readings import check_reading

from bot.models import Channel
from bot.records.models import StepUnit
from bot.records.ratio import validate
from bot.understanding import understand
from bot.understanding.rules.record.record_command import RecordCommand, read_command

STEP_WORDS_AND_FULL_PRECISION = [
    # A step time written without "/it", after the word step.
    ("fp32 step 1.2s, amp step 0.6s", "dm", None, 2, "no_numbers"),
    ("fp32 step time: 1.2 s, bf16 step time: 0.5 s", "dm", None, 2.4, "no_numbers"),
    ("fp32 iteration takes 2 seconds, amp iteration takes 1 second", "dm", None, 2, "no_numbers"),
    ("training is 36h in fp32; fp32 step 1.2s, amp step 0.6s", "dm", 36, 2, None),
    ("fp32: زمن الخطوة ١٫٢ ث، amp: زمن الخطوة ٠٫٦ ث", "dm", None, 2, "no_numbers"),
    # Rule step_time_partner: seconds said of the other precision are the partner.
    ("fp32 step 1.2s, amp 0.6s", "dm", None, 2, "no_numbers"),
    ("each step takes 2 seconds in fp32 and 1 second with amp", "dm", None, 2, "no_numbers"),
    ("زمن الخطوة ١٫٢ ث في fp32 و٠٫٦ ث مع amp", "dm", None, 2, "no_numbers"),
    ("fp32 step 1.2s, 36 hours in fp32, amp 0.6s", "dm", 36, 2, None),
    # ... but not seconds of something else, or of the same precision.
    ("fp32 step 1.2s, 36h in fp32, warmup 30s", "dm", 36, None, None),
    # Without a step word, seconds are still a time ("1.2 s" of what, otherwise?).
    ("step 3 took 2s", "dm", 2 / 3600, None, None),
    # "الدقة الكاملة" is FP32, "الدقة المختلطة" mixed.
    ("بالدقة الكاملة ١٫٢ s/it ومع الدقة المختلطة ٠٫٦ s/it", "dm", None, 2, "no_numbers"),
    ("الدقة الكاملة ٤٢٠ مللي ثانية و amp ١٩٠ مللي ثانية", "dm", None, 420 / 190, "no_numbers"),
    ("الدقة الأحادية ٣٠٠ صورة/ث والمختلطة ٦٠٠ صورة/ث", "dm", None, 2, "no_numbers"),
    # A throughput written as one word.
    ("fp32 367 fps, amp 734 fps", "dm", None, 2, "no_numbers"),
]


@pytest.mark.parametrize("case", STEP_WORDS_AND_FULL_PRECISION)
def test_reading(case):
    check_reading(*case)


# Record bodies whose pair a question reads too: the record's ratio is the question's.
SAME_PAIR = [
    "A100 fp32 step 1.2s amp step 0.6s",
    "H100 GPT-2 fp32 step time: 1.2s, bf16 step time: 0.55s",
    "A100 BERT بالدقة الكاملة ٤٢٠ مللي ثانية ومع amp ١٩٠ مللي ثانية",
    "V100 resnet50 الدقة الأحادية ٣٠٠ صورة/ث والمختلطة ٦٠٠ صورة/ث",
    "A100 llama fp32 1.2k tokens/s amp 2.1k tokens/s",
    "T4 yolov5s fp32 367 fps amp 734 fps",
    "A100 0.9 s/it in fp32, 0.5 s/it with amp",
    "A100 fp32 420ms amp 190ms",
]


@pytest.mark.parametrize("body", SAME_PAIR)
def test_a_record_reads_its_pair_as_a_question_does(body):
    keyword = "سجل" if any("\u0600" <= c <= "\u06ff" for c in body) else "record"
    command = read_command(f"{keyword} {body}")
    assert isinstance(command, RecordCommand) and command.draft is not None, command
    assert validate(command.draft).ratio == pytest.approx(understand(body, Channel.DM).ratio)


def test_a_record_keeps_the_unit_it_was_written_in():
    draft = read_command("record A100 fp32 step 1.2s amp step 0.6s").draft
    assert draft.fp32_step.unit is StepUnit.SECONDS and draft.fp32_step.value == 1.2
    draft = read_command("سجل A100 الدقة الكاملة ٤٢٠ مللي ثانية amp ١٩٠ مللي ثانية").draft
    assert draft.fp32_step.unit is StepUnit.MILLISECONDS and draft.mixed_step.value == 190
    draft = read_command("record T4 fp32 367 fps amp 734 fps").draft
    assert draft.fp32_throughput.unit == draft.mixed_throughput.unit == "img/s"


@pytest.mark.parametrize(
    ("body", "ratio"),
    [
        ("A100 BERT we measured a speedup of 2.5", 2.5),
        ("A100 ResNet-50 والدقة المختلطة أسرع بمرتين", 2.0),
        ("A100 BERT mixed precision cut the time by 25%", 4 / 3),
    ],
)
def test_a_record_states_its_ratio_in_a_question_s_words(body, ratio):
    keyword = "سجل" if any("\u0600" <= c <= "\u06ff" for c in body) else "record"
    draft = read_command(f"{keyword} {body}").draft
    assert draft is not None and draft.ratio == pytest.approx(ratio)


def test_a_ratio_a_record_could_only_guess_is_not_stated():
    """ "record A100 100 2": in a bare question 2 is the ratio by position; a
    record states or measures its ratio, so nothing is recorded."""
    command = read_command("record A100 100 2")
    assert command.draft is None
