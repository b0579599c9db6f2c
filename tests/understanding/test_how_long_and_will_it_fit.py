"""Speed questions: "at 2x, how long?" is a speed-up, and "will a 7B model fit?" asks about memory.

"how long" after a ratio is the question, not "2x as long": only "as long",
"longer" and "slower" turn a multiple into a slowdown. A parameter count
with a fit verb (fit, يتسع, يكفي) is a memory question even without the
word "memory".
"""

import pytest

from bot.conversation import answer
from bot.models import Channel, Intent, Kind, Lang
from bot.understanding import understand

AT_RATIO_HOW_LONG = [
    # (text, channel, FP32 hours, ratio, estimated hours)
    ("FP32: 3 weeks. With AMP at 2.2x how long?", "mention", 504, 2.2, 504 / 2.2),
    ("100h in fp32, at 2x how long?", "dm", 100, 2, 50),
    ("fp32 takes 10h, at 1.5x how long?", "dm", 10, 1.5, 10 / 1.5),
    ("100h 2x how long", "command", 100, 2, 50),
    ("100h fp32, at 2x how much time?", "dm", 100, 2, 50),
    ("100h in fp32 with a 1.5x speedup how long will it take?", "dm", 100, 1.5, 100 / 1.5),
    ("FP32 ١٠٠ ساعة، مع AMP بـ 2x كم راح ياخذ؟", "mention", 100, 2, 50),
    ("التدريب بدقة FP32 ياخذ ١٠ ساعات، بتسريع 1.5x كم سيستغرق؟", "dm", 10, 1.5, 10 / 1.5),
    ("٣ أسابيع بـ FP32، مع AMP بسرعة ٢٫٢ مرة كم المدة؟", "mention", 504, 2.2, 504 / 2.2),
    ("١٠٠ ساعة FP32، أسرع مرتين، كم الوقت؟", "dm", 100, 2, 50),
]


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "mp_hours"), AT_RATIO_HOW_LONG)
def test_ratio_then_how_long_is_a_speed_up(text, channel, hours, ratio, mp_hours):
    turn = answer(text, Channel(channel))
    assert turn.query.reason is None, turn.query
    assert turn.query.fp32.hours == pytest.approx(hours)
    assert turn.query.ratio == pytest.approx(ratio)
    assert turn.advice.kind == Kind.ESTIMATE
    assert turn.advice.mp_hours == pytest.approx(mp_hours)


SLOWDOWNS_STAY = [
    "100h fp32, amp takes 2x as long",
    "100h fp32, amp takes twice as long",
    "100h fp32, amp is 2x longer",
    "100h fp32, amp takes 2 times as long",
    "100h fp32, 2x slower with amp",
    "١٠٠ ساعة FP32، و AMP أبطأ بمرتين",
    "١٠٠ ساعة FP32، AMP ياخذ وقت أطول مرتين",
    "١٠٠ ساعة FP32، AMP يستغرق ضعف الوقت",
]


@pytest.mark.parametrize("text", SLOWDOWNS_STAY)
def test_as_long_and_longer_are_still_slowdowns(text):
    q = understand(text, Channel.DM)
    assert q.ratio == pytest.approx(0.5), q
    assert q.reason is not None and q.reason.value == "ratio_below_one"


FIT_QUESTIONS = [
    # (text, language, parameters, GPU)
    ("can I fit a 7B model with AdamW on one H100 80GB?", Lang.EN, 7e9, "H100"),
    (
        "will a 13B model with AdamW fit on 8x A100 80GB for full fine-tuning in bf16?",
        Lang.EN,
        13e9,
        "A100",
    ),
    ("does a 340M params model fit on a T4?", Lang.EN, 340e6, "T4"),
    ("هل يتسع نموذج ٧ مليار معامل مع AdamW على بطاقة A100 \u200f80GB؟", Lang.AR, 7e9, "A100"),
    ("نموذج بـ ٧ مليار معامل مع adam، هل يكفيه كرت H100 80 جيجا؟", Lang.AR, 7e9, "H100"),
    ("هل يكفي كرت ٢٤ جيجا لنموذج ١٫٥ مليار معامل؟", Lang.AR, 1.5e9, None),
    ("هل تكفي بطاقة V100 لنموذج ٣٤٠ مليون معامل؟", Lang.AR, 340e6, "V100"),
    ("is one A100 40GB enough for a 3B model with adam?", Lang.EN, 3e9, "A100"),
    ("هل بطاقة A100 \u200f40GB كافية لنموذج ٣ مليار معامل؟", Lang.AR, 3e9, "A100"),
]


@pytest.mark.parametrize(("text", "lang", "params", "gpu"), FIT_QUESTIONS)
def test_parameter_count_with_a_fit_verb_asks_about_memory(text, lang, params, gpu):
    turn = answer(text, Channel.DM)
    assert turn.query.intent == Intent.MEMORY, turn.query
    assert turn.query.params == pytest.approx(params)
    assert turn.query.gpu == gpu
    assert turn.reply.lang == lang


NOT_MEMORY = [
    # A fit verb without a parameter count stays what it was.
    ("will it fit in 100h on a V100, ratio 2?", 100, 2),
    ("هل يتسع التدريب في ١٠ ساعات بنسبة ٢؟", 10, 2),
    ("does it fit in the slot: fp32 10h, 2x", 10, 2),
    ("is 10h fp32 enough with 2x?", 10, 2),
]


@pytest.mark.parametrize(("text", "hours", "ratio"), NOT_MEMORY)
def test_fit_without_a_parameter_count_is_not_memory(text, hours, ratio):
    q = understand(text, Channel.DM)
    assert q.intent == Intent.ESTIMATE, q
    assert q.fp32.hours == pytest.approx(hours)
    assert q.ratio == pytest.approx(ratio)
