"""Issue 9's phrasing classes, one named rule each, in English and Arabic.

Written from the class descriptions (own phrasings), not from single sentences.
"""

from __future__ import annotations

import pytest
from readings import check_reading

from bot.conversation import answer
from bot.models import Channel, Intent, Lang
from bot.understanding import understand

# (text, channel, FP32 hours, ratio, reason)
CHATTER_AROUND_COMMAND = [
    ("hello, 80 1.5", "mention", 80, 1.5, None),
    ("hey team, 36h 2.1 thanks!", "dm", 36, 2.1, None),
    ("60 2 ty", "mention", 60, 2, None),
    ("quick one: 64h and 1.9", "mention", 64, 1.9, None),
    ("quick one: 64h and 1.9", "command", 64, 1.9, None),
    ("ok so 12h 2x", "mention", 12, 2, None),
    ("مرحبا، ٨٠ ١٫٥", "mention", 80, 1.5, None),
    ("سؤال سريع: ٦٤ ساعة و ١٫٩ لو سمحت", "command", 64, 1.9, None),
    ("هلا، ٣٠ ٢ شكرا", "dm", 30, 2, None),
    ("thanks!", "dm", None, None, "help"),  # no digits: stays small talk
]
THROUGHPUT_IS_SPEED = [
    ("AMP gives 25% more it/s, fp32 run is 10h", "dm", 10, 1.25, None),
    ("bf16: ~8% more samples/sec on a 30h job", "dm", 30, 1.08, None),
    ("tokens/s up 40% with amp, 50 hours in fp32", "dm", 50, 1.4, None),
    ("we see 30% more images per second with fp16; fp32 takes 20h", "dm", 20, 1.3, None),
    ("عدد الصور في الثانية زاد ٢٥٪ مع amp والتدريب ١٠ ساعات", "dm", 10, 1.25, None),
    ("مع bf16 صار عندي ٣٠٪ عينات/ث أكثر، و fp32 ياخذ ٢٠ ساعة", "dm", 20, 1.3, None),
    ("the step time went up 40%, 10h fp32", "dm", 10, 1 / 1.4, "ratio_below_one"),
    # Throughputs in thousands (rule rate_unit): "1.2k tokens/s" is 1,200 a second.
    ("fp32 1.2k tokens/s, amp 2.1k tokens/s, 100h in fp32", "dm", 100, 1.75, None),
    ("التدريب ١٠٠ ساعة، fp32 ١٫٢k توكن/ث و amp ٢٫١k توكن/ث", "dm", 100, 1.75, None),
]
SLOWDOWNS = [
    ("fp16 made it 40% slower, 10h fp32", "dm", 10, 1 / 1.4, "ratio_below_one"),
    ("three times as slow, 10 hours", "dm", 10, 1 / 3, "ratio_below_one"),
    ("amp is 2 times as slow as fp32, 10h", "dm", 10, 0.5, "ratio_below_one"),
    ("slowed down by 1.5x, 10 hours", "dm", 10, 1 / 1.5, "ratio_below_one"),
    ("fp16 slows training by 2x, fp32 takes 10h", "dm", 10, 0.5, "ratio_below_one"),
    ("الـ amp بطّأ التدريب ٢x، ١٠ ساعات", "dm", 10, 0.5, "ratio_below_one"),
    ("صار أبطأ مرتين، ١٠ ساعات fp32", "dm", 10, 0.5, "ratio_below_one"),
    ("fp32 is slow, amp 2x, 10h", "dm", 10, 2, None),  # slow said of FP32: still 2x
]
STEP_RATE = [
    ("0.9 s/it in fp32, 0.5 s/it with amp, 20k iterations", "dm", 5, 1.8, None),
    ("fp32: 2 it/s, amp: 3.6 it/s, 18000 steps", "dm", 2.5, 1.8, None),
    ("120ms/step with fp32 vs 60ms/step with bf16, 30k steps", "dm", 1, 2, None),
    ("fp32 0.9 s/it, amp 0.5 s/it", "dm", None, 1.8, "no_numbers"),  # no step count
    ("١٫٢ ث/خطوة بدون amp و ٠٫٦ ث/خطوة مع amp، ١٠ آلاف خطوة", "dm", 1.2 * 10000 / 3600, 2, None),
    ("fp32 ٢ خطوات/ث و amp ٤ خطوات/ث، ٣٦٠٠٠ خطوة", "dm", 5, 2, None),
    (
        (
            "fp32: Epoch 1/10: 100%|██████████| 1000/1000 [03:20<00:00, 5.00it/s]\n"
            "amp: Epoch 1/10: 100%|██████████| 1000/1000 [01:51<00:00, 9.00it/s]"
        ),
        "dm",
        1000 * 10 / 5 / 3600,
        1.8,
        None,
    ),
    (
        (
            "fp32:\nEpoch 0: 100%|██████████| 1563/1563 [02:10<00:00, 11.98it/s, v_num=0]\n"
            "bf16:\nEpoch 0: 100%|██████████| 1563/1563 [01:10<00:00, 22.1it/s, v_num=0]"
        ),
        "dm",
        None,
        22.1 / 11.98,
        "no_numbers",
    ),
    (
        (
            "keras fp32: 1563/1563 [==============================] - 45s 29ms/step - loss: 1.2\n"
            "mixed: 1563/1563 [==============================] - 25s 16ms/step - loss: 1.2\n"
            "20 epochs"
        ),
        "dm",
        0.029 * 1563 * 20 / 3600,
        29 / 16,
        None,
    ),
]
NAME_DIGITS = [
    ("ResNeXt-101 32x8d 40h 2", "command", 40, 2, None),
    ("ResNeXt-101 32x8d takes 40h in fp32, 1.5x", "dm", 40, 1.5, None),
    ("wide_resnet50_2 30h 2", "command", 30, 2, None),
    ("vit_b_16 takes 20h, speedup 1.7", "dm", 20, 1.7, None),
    ("2080 Ti 20 2", "command", 20, 2, None),
    ("A5000 20 2", "command", 20, 2, None),
    ("GH200 20 2", "command", 20, 2, None),
    ("A10G ١٢ ساعة بمعامل ٢", "dm", 12, 2, None),
    ("yolov5s at 1280 takes 12h with 1.5x", "dm", 12, 1.5, None),
    ("EfficientNet-B7 40 2", "command", 40, 2, None),
]
COUNT_BESIDE_FIGURE = [
    ("cut the time of 500 steps by 55%, fp32 is 10h", "dm", 10, 1 / 0.45, None),
    (
        "AMP reduced the time for 1000 iterations by 40%; fp32 run takes 20h",
        "dm",
        20,
        1 / 0.6,
        None,
    ),
    ("قلل amp وقت ٥٠٠ خطوة بنسبة ٥٥٪، والتدريب ١٠ ساعات", "dm", 10, 1 / 0.45, None),
]
RUN_TIME_LABELS = [
    ("ETA 30h in fp32, amp 2x", "dm", 30, 2, None),
    ("my fp32 ETA is 30h, amp 2x", "dm", 30, 2, None),
    ("eta 3h left, amp 2x", "dm", None, 2, "no_numbers"),  # remaining, not the run
    ("wall-clock 30h fp32 speedup 2", "dm", 30, 2, None),
    ("budget is 30h fp32, ratio 2", "dm", 30, 2, None),
    ("I have a 20h budget, fp32 takes 30h, ratio 2", "dm", 30, 2, None),
    ("الوقت المتوقع للتدريب ٣٠ ساعة بمعامل ٢", "dm", 30, 2, None),
]
ONE_UNIT_AND_EPOCHS = [
    ("التدريب ساعة وحدة بمعامل ٢", "dm", 1, 2, None),
    ("التدريب ياخذ يوم واحد وساعة وحدة بمعامل ٢", "dm", 25, 2, None),
    ("كل ايبوك ٣ ساعات، ١٠ ايبوكات، بمعامل ٢", "dm", 30, 2, None),
    ("كل إيبوك ياخذ ٣ ساعات و عندي ١٠ إيبوك، بمعامل ٢", "dm", 30, 2, None),
    ("١٠ إيبوكات، كل واحد ٣ ساعات، بمعامل ٢", "dm", 30, 2, None),
    ("each epoch takes 3h, 10 epochs, ratio 2", "dm", 30, 2, None),
]
PRICE_BEFORE_TIME = [
    ("السيرفر سعره ١٢٠ درهم بالساعة، والتدريب ٤٠ ساعة بمعامل ١٫٥", "dm", 40, 1.5, None),
    ("the server costs $3 per hour, training takes 40 hours at 1.5x", "dm", 40, 1.5, None),
]
CASES = (
    CHATTER_AROUND_COMMAND
    + THROUGHPUT_IS_SPEED
    + SLOWDOWNS
    + STEP_RATE
    + NAME_DIGITS
    + COUNT_BESIDE_FIGURE
    + RUN_TIME_LABELS
    + ONE_UNIT_AND_EPOCHS
    + PRICE_BEFORE_TIME
)


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), CASES)
def test_reading(text, channel, hours, ratio, reason):
    check_reading(text, channel, hours, ratio, reason)


@pytest.mark.parametrize(
    ("text", "lang"),
    [("مرحبا، ٨٠ ١٫٥", Lang.AR), ("hello, 80 1.5", Lang.EN), ("سؤال سريع: 64h 2", Lang.AR)],
)
def test_chatter_keeps_the_language(text, lang):
    assert understand(text, Channel.MENTION).lang == lang


@pytest.mark.parametrize(
    ("text", "gpu"), [("2080 Ti 20 2", "RTX 2080 Ti"), ("on a 2080 ti, 10h", "RTX 2080 Ti")]
)
def test_card_number_ti_names_the_gpu(text, gpu):
    assert understand(text, Channel.DM).gpu == gpu


@pytest.mark.parametrize(
    ("text", "params", "gpus", "memory_gb"),
    [
        ("13B on 4 A100 40GB?", 13e9, 4, 40),
        ("can I train a 3B on a 24GB 3090?", 3e9, None, 24),
        ("can I fine-tune a 7B on a 24GB 4090?", 7e9, None, 24),
        ("fine-tuning a 13b with adamw, enough?", 13e9, None, None),
        ("a 13 billion model on 8 H100?", 13e9, 8, None),
        ("هل أقدر أدرب نموذج 7B على 4090؟", 7e9, None, None),
        ("13 مليار على ٤ A100 40GB؟", 13e9, 4, 40),
    ],
)
def test_memory_by_setup(text, params, gpus, memory_gb):
    q = understand(text, Channel.DM)
    assert q.intent == Intent.MEMORY, q
    assert q.params == pytest.approx(params)
    assert q.num_gpus == gpus
    assert q.gpu_memory_gb == memory_gb


def test_a_billion_parameter_model_with_a_time_is_still_an_estimate():
    q = understand("llama 7b on a100 takes 30h, amp 2x", Channel.DM)
    assert q.intent == Intent.ESTIMATE and q.fp32.hours == 30 and q.ratio == 2


@pytest.mark.parametrize("text", ["و٢؟", "ف٣؟", "و ٢٫٥؟"])
def test_arabic_follow_up_is_answered_in_arabic(text):
    turn = answer(text, Channel.DM, thread_fp32_hours=40.0)
    assert turn.query.lang == Lang.AR and turn.query.ratio is not None
    assert turn.reply.lang == Lang.AR


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("will bf16 change my final accuracy?", Lang.EN),
        ("best lr for bf16?", Lang.EN),
        ("هل bf16 يغير الدقة النهائية؟", Lang.AR),
        ("شو أفضل learning rate مع bf16؟", Lang.AR),
    ],
)
def test_off_topic_question_gets_one_line(text, lang):
    turn = answer(text, Channel.DM)
    assert turn.query.small_talk == "off_topic"
    assert turn.reply.lang == lang
    assert "\n" not in turn.reply.text.strip() and "/mpestimate" in turn.reply.text


@pytest.mark.parametrize(
    "text", ["does mixed precision help?", "how do I use this bot?", "how do I use it?"]
)
def test_questions_about_the_bot_get_the_usage(text):
    """What mixed precision is gets its own two lines (test_first_hour_messages.py)."""
    q = understand(text, Channel.DM)
    assert q.intent == Intent.HELP and q.small_talk is None


@pytest.mark.parametrize(
    "text",
    [
        "كيف أستخدمك؟",
        "شنو تقدر تسوي؟",
        "ممكن تساعدني؟",
        "is bf16 better than fp16?",
        "وش الفرق بين FP16 و BF16؟",
        "what can you do?",
    ],
)
def test_questions_about_the_bot_or_precisions_are_not_off_topic(text):
    assert understand(text, Channel.DM).small_talk is None
