"""Issue 21's reading classes, one table each, in English, MSA, Gulf, Levantine and
Egyptian Arabic (Arabic-Indic and Western digits, English terms mixed in).

Written from the class descriptions (own phrasings, held-out style), not from the
sentences of the issue: two numbers offered as alternatives, «كم» with a clitic
before a singular unit, number words in long sentences, days-plus-hours compounds,
halving in dialect, `key: value` lines, slowdowns below 1, infinite ratios in words,
a week with a bare ratio, and a time-and-cost question that names a model size.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from readings import check_reading

from bot.conversation import answer, to_json
from bot.models import Channel, Intent
from bot.understanding import understand

AMB = "ambiguous"

# (text, channel, FP32 hours, ratio, reason, candidates)
ALTERNATIVES = [
    (
        "training takes either 40 or 50 hours, what with amp?",
        "mention",
        None,
        None,
        AMB,
        ["40", "50"],
    ),
    ("training takes 40 or 50 hours, how much with amp?", "dm", None, None, AMB, ["40", "50"]),
    ("my run takes 2 or 3 days in fp32", "dm", None, None, AMB, ["2", "3"]),
    ("takes 40 hours, or 50, not sure. amp?", "mention", None, None, AMB, ["40", "50"]),
    ("it's 30h or maybe 35h on fp32", "dm", None, None, AMB, ["30", "35"]),
    ("the speedup is either 1.5x or 2x, training 100h", "dm", 100, None, AMB, ["1.5", "2"]),
    ("training 100h, ratio 1.5 or 2", "dm", 100, None, AMB, ["1.5", "2"]),
    ("40h or 50h 2", "command", None, 2, AMB, ["40", "50"]),
    # Gulf
    ("التدريب ياخذ يا ٥٠ يا ٦٠ ساعة، كم بيصير مع amp؟", "mention", None, None, AMB, ["50", "60"]),
    (
        "التدريب ياخذ ٣٠ والا ٤٠ ساعة، كم يصير بالـ mixed precision؟",
        "dm",
        None,
        None,
        AMB,
        ["30", "40"],
    ),
    ("ياخذ تقريبا ٣٠ ساعة او ٣٥", "dm", None, None, AMB, ["30", "35"]),
    ("التدريب يومين والا ٣ أيام على A100", "dm", None, None, AMB, ["2", "3"]),
    ("التسريع يا ١٫٥ يا ٢ والتدريب ١٠٠ ساعة", "dm", 100, None, AMB, ["1.5", "2"]),
    # Levantine
    (
        "التدريب بياخد إما ٤٠ أو ٥٠ ساعة، قديش بيوفر الـ AMP؟",
        "mention",
        None,
        None,
        AMB,
        ["40", "50"],
    ),
    ("بياخد شي ٣٠ او ٤٠ ساعة", "dm", None, None, AMB, ["30", "40"]),
    ("النسبة ١٫٥ والا ٢؟ التدريب ١٠٠ ساعة", "dm", 100, None, AMB, ["1.5", "2"]),
    ("ياخذ ٤٠ ساعة أو يمكن ٥٠", "dm", None, None, AMB, ["40", "50"]),
    # Egyptian
    (
        "التدريب بياخد ٤٠ ولا ٥٠ ساعة مش متأكد، كم هيبقى مع fp16؟",
        "mention",
        None,
        None,
        AMB,
        ["40", "50"],
    ),
    ("ياخد ٤٠ ساعة ولا ٥٠ ساعة مش فاكر", "dm", None, None, AMB, ["40", "50"]),
    ("التدريب ياخد يعني ٢٠ أو ٢٥ ساعة، بكم يصير؟", "dm", None, None, AMB, ["20", "25"]),
    ("40 ولا 50 ساعة 2", "command", None, 2, AMB, ["40", "50"]),
    ("١٠٠ او ١٢٠ ساعة ٢", "command", None, 2, AMB, ["100", "120"]),
    ("training takes either 2 days or 60 hours", "dm", None, None, AMB, ["2 days", "60 hours"]),
    ("٤٠/٥٠ ساعة التدريب", "dm", None, None, AMB, ["40", "50"]),
    ("training: 40 hrs, maybe 50", "dm", None, None, AMB, ["40", "50"]),
    ("the job is 40 hours, could be 50", "dm", None, None, AMB, ["40", "50"]),
    ("التدريب ياخذ ٤٠ ساعة، يمكن ٥٠", "dm", None, None, AMB, ["40", "50"]),
    ("amp is 1.5 or 2 times faster, training 100h", "dm", 100, None, AMB, ["1.5", "2"]),
    ("التدريب ٣ أو ٤ أيام على ٨ كروت", "dm", None, None, AMB, ["3", "4"]),
    ("يستغرق التدريب إما يومين أو ثلاثة أيام", "dm", None, None, AMB, ["2", "3"]),
    # A range said with "to"/"between" and a compound stay what they were.
    ("training takes 36h, amp 2x", "dm", 36, 2, None, None),
    ("يومين و٦ ساعات والتسريع ٢", "dm", 54, 2, None, None),
    ("40 hours or 50 epochs?", "dm", 40, None, None, None),
    ("التدريب ١٠٠ ساعة أو أكثر والتسريع ٢", "dm", 100, 2, None, None),
    ("batch 32 or 64, training 10h ratio 2", "dm", 10, 2, None, None),
    ("on 01/05 training took 10h, amp 2x", "dm", 10, 2, None, None),
]

KAM_WITH_CLITIC = [
    ("بكم ساعة؟", "dm", None, None, "no_numbers", None),
    ("لكم يوم؟", "dm", None, None, "no_numbers", None),
    ("بكم ساعة يخلص التدريب لو التسريع ٢؟", "dm", None, 2, "no_numbers", None),
    ("التدريب ٥٠ ساعة، بكم ساعة يصير مع fp16 بنسبة ٢؟", "dm", 50, 2, None, None),
    ("لكم يوم يحتاج التدريب مع الدقة المختلطة بتسريع ١٫٥؟ حاليا ٤ أيام", "dm", 96, 1.5, None, None),
    ("كم ساعه يوفر الـ amp لو التدريب ٣٠ ساعة والنسبة ٢؟", "dm", 30, 2, None, None),
    ("وبكم ساعة يخلص اذا التسريع مرتين؟", "dm", None, 2, "no_numbers", None),
    ("فكم يوم بياخد مع amp بنسبة ٢؟", "dm", None, 2, "no_numbers", None),
    ("how many hours with amp at 2x?", "dm", None, 2, "no_numbers", None),
]

NUMBER_WORDS = [
    (
        (
            "عندي موديل BERT على A100 والتدريب بياخد خمسين ساعة بالـ fp32 وبدي أعرف قديش بيصير "
            "مع الدقة المختلطة بتسريع ٢"
        ),
        "mention",
        50,
        2,
        None,
        None,
    ),
    (
        (
            "التدريب الكامل للنموذج على كرت واحد يستغرق ثلاثة وعشرين ساعة تقريبا بدون amp، "
            "والتسريع ١٫٥"
        ),
        "dm",
        23,
        1.5,
        None,
        None,
    ),
    (
        "احنا مدربين النموذج وياخذ مية وعشرين ساعة على V100 والـ AMP أسرع مرتين",
        "dm",
        120,
        2,
        None,
        None,
    ),
    ("الشغلة تاخذ خمس وثلاثين ساعة بالدقة الكاملة، والنسبة ٢", "dm", 35, 2, None, None),
    ("التدريب ياخذ ثنعش ساعة والتسريع ٢", "dm", 12, 2, None, None),
    ("التدريب بياخد تلتاشر ساعة على A100 والنسبة ١٫٣", "dm", 13, 1.3, None, None),
    ("يستغرق التدريب ثلاثة عشر ساعة بدقة fp32 ومعامل التسريع ٢", "dm", 13, 2, None, None),
    ("التدريب بياخد تمنتاشر ساعة والـ amp أسرع بمرتين", "dm", 18, 2, None, None),
    (
        "تدريبه ياخذ مية وخمسين ساعة على كرتين ونبغى نعرف الـ bf16 كم يوفر بنسبة ٢",
        "dm",
        150,
        2,
        None,
        None,
    ),
    ("التدريب بياخد ميتين ساعة، لو شغلت الـ fp16 بتسريع ٢ قديش بيصير؟", "dm", 200, 2, None, None),
    ("التدريب ياخذ ثنتين وعشرين ساعة والتسريع ٢", "dm", 22, 2, None, None),
    (
        (
            "ابغى اعرف كم بيصير التدريب اللي ياخذ سبعة وعشرين ساعة لو فعلت الدقة المختلطة "
            "والتسريع ١٫٥"
        ),
        "dm",
        27,
        1.5,
        None,
        None,
    ),
    (
        "the training takes about fifty hours on a single A100 and amp is 2x",
        "dm",
        50,
        2,
        None,
        None,
    ),
    ("our job runs for twenty-three hours in fp32 and amp gives 1.5x", "dm", 23, 1.5, None, None),
    ("it takes one hundred and twenty hours on V100, ratio 2", "dm", 120, 2, None, None),
]

DAYS_AND_HOURS = [
    ("يومين و٦ ساعات ٢", "command", 54, 2, None, None),
    ("التدريب ياخذ يومين و٦ ساعات والتسريع ٢", "dm", 54, 2, None, None),
    ("التدريب يوم وثلاث ساعات بالـ fp32، والتسريع ٢", "dm", 27, 2, None, None),
    ("التدريب بياخد يوم و٣ ساعات والنسبة ١٫٥", "dm", 27, 1.5, None, None),
    ("training takes 2 days and 6 hours, amp 2x", "dm", 54, 2, None, None),
    ("training 1d 4h, ratio 1.5", "dm", 28, 1.5, None, None),
    ("1d 4h 2", "command", 28, 2, None, None),
    ("2d 6h 1.8", "command", 54, 1.8, None, None),
    ("it took 3 days, 4 hours in fp32, amp 2x", "dm", 76, 2, None, None),
    ("يومين وست ساعات والتسريع ٢", "dm", 54, 2, None, None),
    ("٣ ايام و ١٢ ساعة، النسبة ١٫٥", "dm", 84, 1.5, None, None),
    ("the run is 1 day 12 hours, speedup 2", "dm", 36, 2, None, None),
    ("١ يوم ٤ ساعات ٢", "command", 28, 2, None, None),
    ("التدريب يومين وساعتين والنسبة ٢", "dm", 50, 2, None, None),
    ("training is a day and 6 hours, 2x with amp", "dm", 30, 2, None, None),
]

HALVING = [
    ("التدريب ١٠٠ ساعة، والـ amp ينص الوقت", "dm", 100, 2, None, None),
    ("التدريب ياخذ ٤٠ ساعة ومع fp16 يصير النص", "dm", 40, 2, None, None),
    ("لو شغلت amp الوقت بينزل بالنص، التدريب ٦٠ ساعة", "dm", 60, 2, None, None),
    ("التدريب ٨٠ ساعة والـ AMP بيقص الوقت للنص", "dm", 80, 2, None, None),
    ("التدريب ٥٠ ساعة، مع amp الوقت بيصير نصه", "dm", 50, 2, None, None),
    ("التدريب ٣٠ ساعة والدقة المختلطة تنصف الوقت", "dm", 30, 2, None, None),
    ("التدريب ٢٠ ساعة والـ amp يخليه النص", "dm", 20, 2, None, None),
    ("التدريب ٢٠ ساعة والـ amp بيخليه نص", "dm", 20, 2, None, None),
    ("training takes 100h and amp halves it", "dm", 100, 2, None, None),
    ("training 100h, amp cuts it in half", "dm", 100, 2, None, None),
    ("التدريب ساعتين ونص", "dm", 2.5, None, None, None),  # a fraction of a unit stays one
]

CONFIG_LINES = [
    ("```train_time: 36h```", "dm", 36, None, None, None),
    ("```\nmodel: bert\ngpu: a100\ntrain_time: 36h\nspeedup: 2\n```", "dm", 36, 2, None, None),
    ("```yaml\nfp32_time: 48h\nspeedup: 1.5\n```", "dm", 48, 1.5, None, None),
    ("```\ntime_fp32: 10h\ntime_amp: 6h\n```", "dm", 10, 10 / 6, None, None),
    ("```\ntrain_hours: 36\nratio: 2\n```", "dm", 36, 2, None, None),
    ("```\nfp32_hours: 36\nspeedup: 2\n```", "dm", 36, 2, None, None),
    ("```\ntrain_time = 20h\nnum_gpus = 4\nratio = 2\n```", "dm", 20, 2, None, None),
    ("`train_time: 36h` و التسريع ٢", "dm", 36, 2, None, None),
    ("model: wide_resnet50_2, 10h, 2x", "dm", 10, 2, None, None),
]

SLOWDOWN_BELOW_ONE = [
    ("training 100h, amp is 0.9x slower", "dm", 100, 0.9, "ratio_below_one", None),
    ("amp made it 0.9x slower, fp32 10h", "dm", 10, 0.9, "ratio_below_one", None),
    ("fp16 slowed training to 0.9x, fp32 was 10h", "dm", 10, 0.9, "ratio_below_one", None),
    ("the ratio came out 0.9x on P100, training 10h", "dm", 10, 0.9, "ratio_below_one", None),
    ("التدريب ٢٠ ساعة والـ amp أبطأ ٠٫٩x", "dm", 20, 0.9, "ratio_below_one", None),
    ("الـ amp خلاه أبطأ ٠٫٩ مرة، التدريب ١٠ ساعات", "dm", 10, 0.9, "ratio_below_one", None),
    ("10 0.9x", "command", 10, 0.9, "ratio_below_one", None),
    ("amp is 2x slower, 10h fp32", "dm", 10, 0.5, "ratio_below_one", None),
    ("training 10h, 1.5x on V100", "dm", 10, 1.5, None, None),
]

INFINITE_IN_WORDS = [
    ("training 100h, amp is infinitely faster", "dm", 100, math.inf, "not_finite", None),
    ("التدريب ١٠٠ ساعة والتسريع لانهائي", "dm", 100, math.inf, "not_finite", None),
    ("التدريب ١٠٠ ساعة والـ amp أسرع بشكل لانهائي", "dm", 100, math.inf, "not_finite", None),
    ("١٠ لانهائي", "command", 10, math.inf, "not_finite", None),
    ("fp32 takes 10 hours, ratio NaN", "dm", 10, None, "not_finite", None),
]

WEEK_AND_RATIO = [
    ("a week 2", "command", 168, 2, None, None),
    ("أسبوع ٢", "command", 168, 2, None, None),
    ("week 2", "command", 168, 2, None, None),
    ("week 1.5", "command", 168, 1.5, None, None),
    ("اسبوع ١٫٥", "command", 168, 1.5, None, None),
    ("أسبوع ٢", "dm", 168, 2, None, None),
    ("a week, 2x", "dm", 168, 2, None, None),
    ("day 1.5", "command", 24, 1.5, None, None),
    ("اسبوعين ٢", "command", 336, 2, None, None),
]

FASTER_BY = [
    ("التدريب ١٠ ساعات والـ amp اسرع ب ١٫٥", "dm", 10, 1.5, None, None),
    ("التدريب ١٠ ساعات والـ amp أسرع بـ١٫٥", "dm", 10, 1.5, None, None),
    ("التدريب ١٠ ساعات والـ amp بيسرع ١٫٥", "dm", 10, 1.5, None, None),
    ("training 10h, amp faster by 1.5", "dm", 10, 1.5, None, None),
    ("training 10h, amp speeds it up by 1.5", "dm", 10, 1.5, None, None),
    ("training 10h, amp is faster by 40%", "dm", 10, 1.4, None, None),
    ("amp is faster on 8 GPUs, training 10h", "dm", 10, None, None, None),
    ("٤٠ ساعة ÷ ١٫٨ كم؟", "dm", 40, 1.8, None, None),
    ("40h ÷ 1.8", "command", 40, 1.8, None, None),
]

# A time said "without amp" is the FP32 side of a pair (the rates' precision look-up),
# and a fractional number before a GPU is a ratio, never a count.
NEGATED_PAIRS_AND_FRACTIONS = [
    ("دربت النموذج ١٠ ساعات بدون amp، ومع amp صار ٦ ساعات", "dm", 10, 10 / 6, None, None),
    ("١٠ ساعات بدون amp و ٦ ساعات مع amp", "dm", 10, 10 / 6, None, None),
    ("10h without amp, and with amp 6h", "dm", 10, 10 / 6, None, None),
    ("التدريب ٢٠ ساعة من غير amp و ١٠ ساعات معاه", "dm", 20, 2, None, None),
    ("72h 1.8 V100 resnet50", "command", 72, 1.8, None, None),
]

CLASSES = (
    NEGATED_PAIRS_AND_FRACTIONS
    + FASTER_BY
    + ALTERNATIVES
    + KAM_WITH_CLITIC
    + NUMBER_WORDS
    + DAYS_AND_HOURS
    + HALVING
    + CONFIG_LINES
    + SLOWDOWN_BELOW_ONE
    + WEEK_AND_RATIO
)


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason", "cands"), CLASSES)
def test_class_reading(text, channel, hours, ratio, reason, cands) -> None:
    check_reading(text, channel, hours, ratio, reason, cands)


@pytest.mark.parametrize(
    ("text", "channel", "hours", "ratio", "reason", "cands"), INFINITE_IN_WORDS
)
def test_infinite_ratio_in_words_is_refused(text, channel, hours, ratio, reason, cands) -> None:
    q = understand(text, Channel(channel))
    assert q.reason is not None and q.reason.value == reason, q
    assert q.fp32 is not None and q.fp32.hours == pytest.approx(hours), q
    reply = to_json(answer(text, Channel(channel)))
    assert reply["kind"] == "error" and reply["reason"] == "not_finite", reply


@pytest.mark.parametrize(
    "text",
    [
        "7B at $2/hr takes 3 days, how much would bf16 save?",
        "7B model on A100 at $2/hr takes 3 days, how much would bf16 save?",
        "a 7b llama at 2 usd/hour takes 3 days in fp32; bf16 savings?",
        "نموذج 7B بسعر ٢ دولار بالساعة ياخذ ٣ أيام، كم بيوفر bf16؟",
        "موديل 7B على A100 بـ ٢ دولار في الساعة وياخد ٣ أيام، قد ايه هيوفر الـ bf16؟",
    ],
)
def test_time_and_cost_question_naming_a_size(text: str) -> None:
    """A time and an hourly price make an estimate with its cost; the size is the model's."""
    q = understand(text, Channel.DM)
    assert q.intent == Intent.ESTIMATE, q
    assert q.fp32 is not None and q.fp32.hours == pytest.approx(72), q
    assert q.price is not None and q.price.amount == 2, q
    assert q.params == pytest.approx(7e9), q
    reply = to_json(answer(text, Channel.DM))
    assert reply["kind"] in ("estimate", "range", "preset") and reply["cost"], reply


_NUMBERS = st.integers(min_value=1, max_value=999)
_JOINERS = st.sampled_from(["or", "ولا", "والا", "أو", "او"])


@settings(max_examples=60, deadline=None)
@given(a=_NUMBERS, b=_NUMBERS, joiner=_JOINERS)
def test_two_alternatives_always_ask_which(a: int, b: int, joiner: str) -> None:
    """Any two different times joined as alternatives are both offered, never the first."""
    if a == b:
        return
    q = understand(f"training takes {a} {joiner} {b} hours", Channel.DM)
    assert q.reason is not None and q.reason.value == AMB, q
    assert q.candidates == [str(a), str(b)], q


_KEYS = st.sampled_from(["train_time", "fp32_time", "training_time", "run_time", "train_hours"])
_OTHER = st.sampled_from(["batch_size: 64", "num_gpus: 4", "model: bert", "lr: 3e-4", "seed: 1"])


@settings(max_examples=60, deadline=None)
@given(
    key=_KEYS, hours=st.integers(min_value=1, max_value=500), others=st.lists(_OTHER, max_size=3)
)
def test_a_time_key_in_a_config_block_is_the_fp32_time(key, hours, others) -> None:
    """Rule ``config_key``: whatever other keys stand around it, the time key's value is
    the FP32 time (a bare number under an hours key too)."""
    value = f"{hours}" if key.endswith("hours") else f"{hours}h"
    lines = [*others, f"{key}: {value}"]
    q = understand("```\n" + "\n".join(lines) + "\n```", Channel.DM)
    assert q.fp32 is not None and q.fp32.hours == pytest.approx(hours), (lines, q)
