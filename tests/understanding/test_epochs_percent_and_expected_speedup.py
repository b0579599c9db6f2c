"""Epochs shared out by "each", "speeds it up p%", "a couple of", and
"التسريع المتوقع" asking for the ratio rather than a time.
"""

import pytest

from bot.conversation import answer
from bot.models import Channel, Intent, Kind, Lang
from bot.understanding import understand


def _estimate(text, channel="dm"):
    q = understand(text, Channel(channel))
    assert q.intent == Intent.ESTIMATE, q
    assert q.reason is None, q
    return q


EACH_EPOCH = [
    # (text, FP32 hours, ratio): "each" gives one epoch's time, the count makes the job's.
    ("3 epochs, each taking 2 hours in fp32, ratio 2", 6, 2),
    ("3 epochs, 2h each in fp32, ratio 2", 6, 2),
    ("3 epochs at 2 hours each, fp32, ratio 2", 6, 2),
    ("3 epochs of 2 hours each, ratio 2", 6, 2),
    ("3 epochs, each one takes 2 hours, ratio 2", 6, 2),
    ("٣ حقب، كل حقبة ساعتين، النسبة ٢", 6, 2),
    ("٣ حقب، كل واحدة ساعتين، النسبة ٢", 6, 2),
    ("٣ حقب، كل حقبة تاخذ ساعتين بدقة FP32، والتسريع 2x", 6, 2),
    ("each of the 3 epochs takes 2h in fp32, 2x", 6, 2),
    ("3 epochs of ~2h in fp32, 2x", 6, 2),
    ("3 epochs of about 2 hours, 2x", 6, 2),
    ("3 epochs of training, 2h each, 2x", 6, 2),
    ("3 epochs of training took 6h, 2x", 6, 2),
    # The whole job's time, when given, stays the time.
    ("3 epochs take 6h, ratio 2", 6, 2),
    ("3 epochs, 10h total, each 2h, ratio 2", 10, 2),
]


@pytest.mark.parametrize(("text", "hours", "ratio"), EACH_EPOCH)
def test_each_epoch_times_the_epoch_count(text, hours, ratio):
    q = _estimate(text)
    assert q.fp32.hours == pytest.approx(hours)
    assert q.ratio == pytest.approx(ratio)


def test_bert_fine_tune_each_epoch_gets_a_preset():
    turn = answer(
        "Our BERT fine-tune: 3 epochs, each ~2h in fp32 on one V100. AMP estimate?",
        Channel.MENTION,
    )
    assert turn.query.reason is None, turn.query
    assert turn.query.fp32.hours == pytest.approx(6)
    assert turn.advice.kind == Kind.PRESET
    assert (turn.query.gpu, turn.query.model) == ("V100", "BERT")


def test_each_without_epochs_is_not_a_job_time():
    """ "8 GPUs, each 2h" counts GPUs, not epochs: no FP32 time is read."""
    q = understand("8 GPUs, each 2h, ratio 2", Channel.DM)
    assert q.fp32 is None
    assert q.reason is not None and q.reason.value == "no_numbers"


SPEEDS_UP = [
    ("our job is 4h 45m in fp32; AMP speeds it up 35%", 4.75),
    ("10h fp32, speeds up training by 35%", 10),
    ("10h fp32, AMP sped training up by 35%", 10),
    ("10h fp32, accelerates training by 35%", 10),
    ("١٠ ساعات FP32، AMP يسرع التدريب بنسبة ٣٥٪", 10),
    ("١٠ ساعات FP32، AMP بيسرّعه ٣٥٪", 10),
]


@pytest.mark.parametrize(("text", "hours"), SPEEDS_UP)
def test_speeds_up_by_a_percentage_is_percent_faster(text, hours):
    q = _estimate(text)
    assert q.fp32.hours == pytest.approx(hours)
    assert q.ratio == pytest.approx(1.35)


def test_speeds_up_with_less_time_keeps_the_time_meaning():
    q = _estimate("10h fp32, it speeds up training: 35% less time")
    assert q.ratio == pytest.approx(1 / 0.65)


COUPLE = [
    ("it takes a couple of days in fp32, ratio 2", 48),
    ("a couple of hours in fp32 ratio 2", 2),
    ("couple hours fp32, 2x", 2),
    ("a couple of days and 6 hours in fp32, 2x", 54),
    ("a couple of GPUs, 10h fp32, ratio 2", 10),
]


@pytest.mark.parametrize(("text", "hours"), COUPLE)
def test_a_couple_of_is_two(text, hours):
    q = _estimate(text)
    assert q.fp32.hours == pytest.approx(hours)
    assert q.ratio == pytest.approx(2)


def test_a_few_stays_unread():
    q = understand("a few hours in fp32 ratio 2", Channel.DM)
    assert q.fp32 is None
    assert q.reason is not None and q.reason.value == "no_numbers"


EXPECTED_RATIO_QUESTIONS = [
    # (text, language, GPU): the expected speed-up is the ratio; the help answer gives it.
    ("كم التسريع المتوقع لـ BERT على A100؟", Lang.AR, "A100"),
    ("ايش التسريع المتوقع لو استخدمت bf16 على H100 لنموذج لغوي؟", Lang.AR, "H100"),
    ("ما نسبة التسريع المتوقعة لـ BERT على A100؟", Lang.AR, "A100"),
    ("كم التسريع لـ BERT على A100؟", Lang.AR, "A100"),
    ("estimated speedup for BERT on A100?", Lang.EN, "A100"),
    ("speedup estimate for BERT on A100?", Lang.EN, "A100"),
]


@pytest.mark.parametrize(("text", "lang", "gpu"), EXPECTED_RATIO_QUESTIONS)
def test_expected_speedup_is_answered_with_the_ratio(text, lang, gpu):
    turn = answer(text, Channel.MENTION)
    assert turn.query.intent == Intent.HELP, turn.query
    assert turn.query.gpu == gpu
    assert turn.advice.kind == Kind.HELP
    assert turn.advice.ratio is not None and turn.advice.ratio > 1
    assert turn.reply.lang == lang


@pytest.mark.parametrize(
    "text", ["كم الوقت المتوقع لـ BERT على A100؟", "estimate for BERT on A100?"]
)
def test_expected_time_still_needs_the_fp32_time(text):
    q = understand(text, Channel.MENTION)
    assert q.reason is not None and q.reason.value == "no_numbers", q


@pytest.mark.parametrize(
    "text", ["100h in fp32, at 2 times faster how long?", "100h fp32, at 2 x faster"]
)
def test_at_n_times_is_a_ratio_not_a_clock_time(text):
    query = understand(text, Channel.DM)
    assert query.ratio == 2 and query.fp32.hours == 100


@pytest.mark.parametrize(
    ("text", "ratio"),
    [
        ("100h fp32 and the time drops 35%", 1 / 0.65),
        ("training time falls 35% with amp, 100h fp32", 1 / 0.65),
        ("100h fp32, time goes down 40%", 1 / 0.6),
        ("100h fp32, time drops to 40%", 2.5),  # what remains
        ("١٠٠ ساعة fp32 والوقت يقل ٣٥٪", 1 / 0.65),
        ("١٠٠ ساعة والوقت ينخفض ٤٠٪", 1 / 0.6),
        ("١٠٠ ساعة والوقت ينخفض إلى ٤٠٪", 2.5),
    ],
)
def test_a_drop_without_to_is_the_amount_removed(text, ratio):
    assert understand(text, Channel.DM).ratio == pytest.approx(ratio)
