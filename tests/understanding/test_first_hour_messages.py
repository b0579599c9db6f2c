"""What a brand-new user types in the first hour, read as meant: a price per hour
with the run's length, pasted training logs with a ratio, bare numbers in either
script. Each row was run through ``mpbot ask --explain`` before the fix (the
price rows lost their time, the log rows their ratio) and after it.

Columns: message, channel, FP32 hours, ratio, reason ("help": a help reading).
"""

from __future__ import annotations

import pytest

from bot.models import Channel
from bot.understanding import understand
from tests.understanding.readings import check_reading

# Rule ``paid_at_a_rate`` (other_durations.py): a price per period, then a duration
# in the same clause, is how long the rate is paid, the run's own time; a sum
# ("$500 for 3 days") still buys the time, which is then no FP32 time.
PRICE_PER_HOUR_FOR_A_TIME = [
    ("what does it cost at $3/hour for 20 hours, ratio 2?", "dm", 20, 2, None),
    ("20 hours at $3/h with ratio 2, cost?", "dm", 20, 2, None),
    ("at $2.5 per GPU-hour for 40 hours with 1.8x, how much?", "dm", 40, 1.8, None),
    ("€3 an hour for 2 days at 1.7x, what's the bill?", "dm", 48, 1.7, None),
    ("how much at 10 SAR an hour for 3 days, ratio 2", "dm", 72, 2, None),
    ("cost at $4/h for 36h at 2x?", "dm", 36, 2, None),
    ("what would $2/hr for 50 hours cost with amp at 1.5x", "dm", 50, 1.5, None),
    ("كم التكلفة إذا التدريب ٢٠ ساعة بسعر ٣ دولار للساعة والمعامل ٢", "dm", 20, 2, None),
    ("بكم يطلع إذا السعر ٥ دولار في الساعة لمدة ٣٠ ساعة والنسبة ٢", "dm", 30, 2, None),
    ("بسعر ٣ دولار للساعة لمدة ٢٠ ساعة ومعامل ٢، كم التكلفة؟", "dm", 20, 2, None),
    ("بـ ١٠ ريال بالساعة لمدة يومين ونسبة ١٫٥ كم بتكلف؟", "dm", 48, 1.5, None),
    ("كم تكلف ٢٠ ساعة بـ ٣ دولار للساعة مع معامل ٢", "dm", 20, 2, None),
    (
        "if I pay $1.2 per hour for 100 hours and amp gives 1.6x, what do I save?",
        "dm",
        100,
        1.6,
        None,
    ),
    ("$0.9/GPU-hr, 8 GPUs, 30 hours, 2x", "dm", 30, 2, None),
    ("السيرفر ب ٢ دولار في الساعة لمدة ١٠٠ ساعة، التسريع ٢", "dm", 100, 2, None),
    # A sum is still what the money buys:
    ("$500 for 3 days, ratio 2", "dm", None, 2, "no_numbers"),
]

# Rule ``progress_readout``: a pasted log's readouts are set aside, but a ratio named
# on its line ("ratio 2", "2x") is the user's, and the log ends at the "]" that
# closes its rate: what follows is read as the user's words.
LOG_LINES = [
    (
        "Epoch 3/10: 100%|██████████| 500/500 [12:34<00:00, 1.51s/it] ratio 2",
        "dm",
        754 / 3600,  # the epoch's bar: elapsed + remaining, answered per epoch
        2,
        None,
    ),
    (
        "Epoch 0: 100%|██████████| 1000/1000 [05:00<00:00, 3.33it/s, loss=0.12] speedup 1.8?",
        "dm",
        5 / 60,  # the epoch's bar: elapsed + remaining, answered per epoch
        1.8,
        None,
    ),
    (
        "312/312 [==============================] - 312s 1s/step - loss: 0.31 ratio 2",
        "dm",
        None,
        2,
        "no_numbers",
    ),
    (
        "Epoch 2/20: 100%|█████| 800/800 [10:00<00:00, 1.33it/s] والنسبة ١٫٨",
        "dm",
        10 / 60,  # the epoch's bar: elapsed + remaining, answered per epoch
        1.8,
        None,
    ),
    (
        "Epoch 5/50: 100%|████| 200/200 [01:40<00:00, 2.0it/s] with amp I'd expect 2x",
        "dm",
        None,
        2,
        "no_numbers",
    ),
    (
        "Epoch 3/10: 100%|██████████| 500/500 [12:34<00:00, 1.51s/it] fp32, the whole run takes 20 hours, ratio 2",
        "dm",
        20,
        2,
        None,
    ),
    (
        "Epoch 1/90: 100%|████| 1000/1000 [20:00<00:00, 1.2s/it]\nthe fp32 run takes 30 hours, ratio 1.6",
        "dm",
        30,
        1.6,
        None,
    ),
]

# Rule ``pasted_log``: a log line alone shows a run; its bar's clocks (rule
# ``progress_clock``) or a finished Keras epoch's elapsed time (rule
# ``progress_elapsed``) time one epoch, answered per epoch; else the reply asks for its
# FP32 time.
LOGS_ALONE = [
    (
        "Epoch 3/10: 100%|██████████| 500/500 [12:34<00:00, 1.51s/it]",
        "dm",
        754 / 3600,  # rule progress_clock: one epoch, answered per epoch
        None,
        None,
    ),
    ("Epoch 0: 100%|██████████| 1000/1000 [05:00<00:00, 3.33it/s]", "dm", 5 / 60, None, None),
    (
        "Epoch 1/5 312/312 - 312s 1s/step - loss: 0.2 - accuracy: 0.9",
        "dm",
        312 / 3600,  # rule progress_elapsed: the Keras epoch's time, answered per epoch
        None,
        None,
    ),
]

# A bare command with a setting phrase (setting_words.py): the price or the GPU count
# keeps the message bare, so its lone ratio is read by position, as in "48h 2".
BARE_WITH_A_SETTING = [
    ("48h 2 at $3/h", "dm", 48, 2, None),
    ("2 days 1.5 at 40 AED/h", "dm", 48, 1.5, None),
    ("10 hours 2 on 4 GPUs", "dm", 10, 2, None),
    ("36h 1.8 on 8 A100 at $2.5 per GPU-hour", "dm", 36, 1.8, None),
    ("١٠ ساعات ٢ بسعر ٣ دولار للساعة على ٤ كروت", "dm", 10, 2, None),
    ("٤٨ ساعة ١٫٥ على ٨ كروت", "dm", 48, 1.5, None),
    ("يومين ٢ بسعر ١٢ ريال للساعة", "dm", 48, 2, None),
    ("100 2 on 4 GPUs", "command", 100, 2, None),
    ("fp32 100h on 8 gpus, 2.5", "dm", 100, 2.5, None),
    ("١٠٠ ساعة على ٨ بطاقات، و ٢٫٥", "dm", 100, 2.5, None),
    ("36h, at 2.5?", "dm", 36, None, None),  # no price read: 2.5 may be one, so unused
]

CASES = PRICE_PER_HOUR_FOR_A_TIME + LOG_LINES + LOGS_ALONE + BARE_WITH_A_SETTING


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), CASES)
def test_a_first_hour_message_is_read_as_meant(text, channel, hours, ratio, reason):
    check_reading(text, channel, hours, ratio, reason)


# Rules ``greeting``, ``speed_question``, ``cost_question`` (rules/talk/first_questions.py):
# a new user's first words get a short answer in kind; "help" keeps the usage.
FIRST_WORDS = [
    ("hi", "greeting", "en"),
    ("hello!", "greeting", "en"),
    ("hey there", "greeting", "en"),
    ("good morning 👋", "greeting", "en"),
    ("مرحبا", "greeting", "ar"),
    ("السلام عليكم", "greeting", "ar"),
    ("هلا", "greeting", "ar"),
    ("هلا والله", "greeting", "ar"),
    ("صباح الخير", "greeting", "ar"),
    ("how much will it cost?", "cost_question", "en"),
    ("what will the bill be?", "cost_question", "en"),
    ("قديش بتكلف؟", "cost_question", "ar"),
    ("كم التكلفة؟", "cost_question", "ar"),
    ("how much faster is mixed precision?", "speed_question", "en"),
    ("what speedup can I expect?", "speed_question", "en"),
    ("does mixed precision speed things up?", "speed_question", "en"),
    ("is amp faster?", "speed_question", "en"),
    ("كم أسرع الدقة المختلطة؟", "speed_question", "ar"),
    ("شو التسريع المتوقع؟", "speed_question", "ar"),
    ("هل الدقة المختلطة بتسرع التدريب؟", "speed_question", "ar"),
    ("hiya!", "greeting", "en"),
    ("good evening", "greeting", "en"),
    ("اهلين", "greeting", "ar"),
    ("وعليكم السلام", "greeting", "ar"),
    ("شلونك", "greeting", "ar"),
    ("how much quicker will training be with bf16?", "speed_question", "en"),
    ("what kind of speedup does amp give?", "speed_question", "en"),
    ("قديش بتسرع الـ amp؟", "speed_question", "ar"),
    ("هل bf16 أسرع؟", "speed_question", "ar"),
    ("how much would I pay?", "cost_question", "en"),
    ("كم راح يكلف؟", "cost_question", "ar"),
    # whether it pays off is the speed question (rule worth_question)
    ("is mixed precision worth it?", "speed_question", "en"),
    ("is amp worthwhile for my training?", "speed_question", "en"),
    ("is bf16 beneficial?", "speed_question", "en"),
    ("هل تستاهل الدقة المختلطة؟", "speed_question", "ar"),
    ("فيه فايدة من الدقة المختلطة؟", "speed_question", "ar"),
    ("هل تستحق الدقة المختلطة التجربة؟", "speed_question", "ar"),
    ("الـ amp بيفرق ولا لا؟", "speed_question", "ar"),
    # what mixed precision is (rule definition_question)
    ("what is mixed precision?", "definition_question", "en"),
    ("how does amp work?", "definition_question", "en"),
    ("whats bf16", "definition_question", "en"),
    ("can you explain mixed precision training?", "definition_question", "en"),
    ("يعني ايه mixed precision اصلا؟", "definition_question", "ar"),
    ("ما هي الدقة المختلطة؟", "definition_question", "ar"),
    ("شو يعني AMP؟", "definition_question", "ar"),
    ("اشرح لي الدقة المختلطة", "definition_question", "ar"),
    ("what is the speedup of amp?", "speed_question", "en"),
    ("help", None, "en"),
    ("مساعدة", None, "ar"),
]


@pytest.mark.parametrize(("text", "talk", "lang"), FIRST_WORDS)
def test_first_words_get_an_answer_in_kind(text, talk, lang):
    q = understand(text, Channel.DM)
    assert q.intent.value == "help" and q.small_talk == talk and q.lang.value == lang, q


@pytest.mark.parametrize(
    "text",
    [
        "كم بيوفر علي؟",
        "how much time will amp save me?",
        "كم راح يوفر؟",
        "how much will it save?",
        "قديش بيوفر؟",
        "كم ساعة بيوفر؟",
    ],
)
def test_a_saving_asked_without_numbers_asks_for_the_time(text):
    check_reading(text, "dm", None, None, "no_numbers")


def test_a_named_setup_still_gets_its_ratio():
    q = understand("how much faster is amp on A100 with BERT?", Channel.DM)
    assert q.small_talk is None and q.gpu == "A100" and q.model == "BERT"
