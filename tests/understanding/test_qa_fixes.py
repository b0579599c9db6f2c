"""Misreadings found by a QA pass: step times, rates and side activities,
prices after a ratio, 3D as a dimension, time questions without a time,
TF32 turned off, "سا" for hours, and task words (NER, speech).

(text, channel, FP32 hours or None, ratio or None, reason or None);
"help" in the reason column means the intent is help.
"""

import pytest
from readings import check_reading

from bot.models import Channel, Intent
from bot.understanding import understand

STEP_TIMES = [
    # A step time in milliseconds is never the FP32 training time.
    ("fp32 420 ms", "dm", None, None, "help"),
    ("step time 420ms fp32", "dm", None, None, "help"),
    # The FP32 step time times the step count is the FP32 time (issue 9, rule step_rate).
    ("step time 420ms fp32, 190ms amp, 100k steps", "dm", 42000 / 3600, 420 / 190, None),
    # Two step times, one per precision, give the ratio; the FP32 time is still missing.
    ("fp32 step 420ms, amp step 190ms", "dm", None, 420 / 190, "no_numbers"),
    ("fp32 36h, fp32 step 420ms, amp step 210ms", "dm", 36, 2, None),
    ("fp32 36h, fp32 step 0.42 ms, amp step 210 us", "dm", 36, 2, None),
    ("fp32 36h, ratio 1.5, fp32 step 420ms, amp step 210ms", "dm", 36, 1.5, None),
    ("step 420ms, then 190ms", "dm", None, None, "help"),
    ("fp32 420 msec, estimate please", "dm", None, None, "no_numbers"),
    ("fp32 420 milliseconds, 36h", "dm", 36, None, None),
    ("fp32 step 900us, training 36h", "dm", 36, None, None),
    ("fp32 step 900µs, training 36h", "dm", 36, None, None),
    ("fp32 step 900 μs, 36 hours", "dm", 36, None, None),
    ("الخطوة ٤٢٠ مللي ثانية والتدريب ٣٦ ساعة", "dm", 36, None, None),
    ("الخطوة ٤٢٠ ملي ثانية والتدريب ٣٦ ساعة", "dm", 36, None, None),
    ("الخطوة ٤٢٠ ميلي ثانية", "dm", None, None, "help"),
]

RATES_AND_SIDE_ACTIVITIES = [
    ("36h, 8 min per epoch", "dm", 36, None, None),
    ("36 hours, 30 sec per batch", "dm", 36, None, None),
    ("fp32 36h, 30 sec per batch, ratio 2", "dm", 36, 2, None),
    ("36h, 30s/it", "dm", 36, None, None),
    ("36h, 2 sec/step", "dm", 36, None, None),
    ("36h, 8 min eval", "dm", 36, None, None),
    ("36h, 8 min an epoch", "dm", 36, None, None),
    ("FP32 36h with 10 min warmup", "dm", 36, None, None),
    ("fp32 36h, 5 min compile, ratio 2", "dm", 36, 2, None),
    ("fp32 36h, 2 min checkpointing", "dm", 36, None, None),
    ("التدريب ٣٦ ساعة، ٨ دقائق لكل حقبة", "dm", 36, None, None),
    ("التدريب ٣٦ ساعة و١٠ دقائق للتقييم", "dm", 36, None, None),
    ("التدريب ٣٦ ساعة و١٠ دقائق للإحماء", "dm", 36, None, None),
    # Still the training time:
    ("36 hours per run", "dm", 36, None, None),
    ("36 hours in total", "dm", 36, None, None),
    ("2 days 6 hours", "dm", 54, None, None),
    ("fp32 takes 5h per epoch, 2x", "dm", 5, 2, None),  # per epoch (Query.per_epoch)
]

PRICES_AFTER_A_RATIO = [
    ("100h ratio 2 SAR 10 per hour", "dm", 100, 2, None),
    ("100h ratio 2 USD 3 per hour", "dm", 100, 2, None),
    ("100h ratio 2 EUR 3/h", "dm", 100, 2, None),
    ("100h ratio 2 at 2.5$/h", "dm", 100, 2, None),
]


@pytest.mark.parametrize("case", STEP_TIMES + RATES_AND_SIDE_ACTIVITIES + PRICES_AFTER_A_RATIO)
def test_reading(case):
    check_reading(*case)


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("100h ratio 2 SAR 10 per hour", 10, "SAR"),
        ("100h ratio 2 USD 3 per hour", 3, "USD"),
        ("100h ratio 2 EUR 3/h", 3, "EUR"),
        ("100h ratio 2 at 2.5$/h", 2.5, "USD"),
        ("fp32 10 hours, at $2.5 per GPU-hour, ratio 2", 2.5, "USD"),
    ],
)
def test_price_after_a_ratio(text, amount, currency):
    q = understand(text, Channel.DM)
    assert q.price is not None and q.price.amount == pytest.approx(amount), q
    assert q.price.currency == currency


DIMENSIONS = [
    # "3D"/"2D" qualifying a task, a network or the data is a dimension, not days.
    ("3D segmentation on V100, 36h", "dm", 36, None, None),
    ("3D CNN on A100 36h", "dm", 36, None, None),
    ("ViT on A100, 3D medical, 36h", "dm", 36, None, None),
    ("medical 3D model, fp32 takes 36h on A100", "dm", 36, None, None),
    ("2D conv net, 10 hours, ratio 2", "dm", 10, 2, None),
    ("3D volumes, fp32 12h", "dm", 12, None, None),
    ("تقسيم ثلاثي الأبعاد 3D على V100 ٣٦ ساعة", "dm", 36, None, None),
    ("nnU-Net 3D, 36h", "dm", 36, None, None),
    # Still three days:
    ("3d 1.5", "command", 72, 1.5, None),
    ("takes 3d on V100", "dm", 72, None, None),
    ("fp32 takes 3d", "dm", 72, None, None),
    ("fp32 takes 3d, model is BERT", "dm", 72, None, None),
]


@pytest.mark.parametrize("case", DIMENSIONS)
def test_dimension(case):
    check_reading(*case)


TIME_QUESTIONS = [
    # A time asked for without the FP32 time is no_numbers (convention 12).
    ("how many hours will BERT on A100 take?", "dm", None, None, "no_numbers"),
    (
        "how many hours does training ResNet-50 on V100 take with mixed precision?",
        "dm",
        None,
        None,
        "no_numbers",
    ),
    ("how much time will AMP save?", "dm", None, None, "no_numbers"),
    ("كم ساعة يحتاج التدريب؟", "dm", None, None, "no_numbers"),
    ("كم المدة المتوقعة لتدريب BERT على A100؟", "dm", None, None, "no_numbers"),
    ("كم راح ياخذ التدريب على A100 مع BERT؟", "dm", None, None, "no_numbers"),
    ("الموديل هياخد قد إيه على A100؟", "dm", None, None, "no_numbers"),
    # General questions stay help.
    ("how much faster is AMP?", "dm", None, None, "help"),
    ("how many GPUs does it take?", "dm", None, None, "help"),
    ("كم التسريع", "dm", None, None, "help"),
    ("does mixed precision help?", "dm", None, None, "help"),
]


@pytest.mark.parametrize("case", TIME_QUESTIONS)
def test_time_question(case):
    check_reading(*case)


def test_a_count_question_is_no_time_question():
    assert understand("كم بطاقة يحتاج التدريب؟", Channel.DM).intent == Intent.HELP


@pytest.mark.parametrize(
    ("text", "baseline"),
    [
        ("BERT on A100 without TF32, 36h", "fp32"),
        ("BERT on A100, TF32 disabled, 36h", "fp32"),
        ("TF32 off, 36h", "fp32"),
        ("no TF32, 36h", "fp32"),
        ("بدون TF32 ٣٦ ساعة", "fp32"),
        ("strict fp32 36h", "fp32"),
        ("BERT on A100 with TF32, 36h", "tf32"),
        ("TF32 on, 36h", "tf32"),
    ],
)
def test_tf32_turned_off_is_a_strict_fp32_baseline(text, baseline):
    q = understand(text, Channel.DM)
    assert q.baseline == baseline
    assert q.fp32 is not None and q.fp32.hours == pytest.approx(36)


def test_arabic_hour_abbreviation_sa():
    q = understand("36 سا على A100", Channel.DM)
    assert q.fp32 is not None and q.fp32.hours == pytest.approx(36)
    assert understand("التدريب ١٢ سا والنسبة ٢", Channel.DM).fp32.hours == pytest.approx(12)


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("bidirectional LSTM for NER, 36h", "language_model"),
        ("named entity recognition model, 36h", "language_model"),
        ("speech model with GRU layers, 36h", "speech_recognition"),
        ("text-to-speech model, 36h", "tts"),
        ("runner script, 36h", None),
    ],
)
def test_task_words(text, family):
    assert understand(text, Channel.DM).family == family


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("each run takes 8 hours on V100", 8.0),
        ("every run takes 8 hours on V100", 8.0),
        ("each training job is 20 hours on A100", 20.0),
        ("the job takes 12 hours per attempt", 12.0),
        ("كل تجربة تاخذ ٨ ساعات", 8.0),
    ],
)
def test_each_run_is_the_time_of_the_whole_job(text, hours):
    query = understand(text, Channel.DM)
    assert query.fp32 is not None and query.fp32.hours == hours


@pytest.mark.parametrize(
    "text",
    ["each epoch takes 2 hours", "every step takes 2 seconds, ratio 2", "كل حقبة تاخذ ساعتين"],
)
def test_each_epoch_or_step_is_still_not_the_training_time(text):
    # An epoch's time alone is answered per epoch (Query.per_epoch), never as the job's.
    query = understand(text, Channel.DM)
    assert query.fp32 is None or (query.per_epoch and "epoch" in query.read_by["fp32"][0])


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("20 min per epoch, 90 epochs, ratio 2", 30.0),
        ("each epoch takes 20 min and we train 90 epochs on A100", 30.0),
        ("90 epochs, each epoch 20 minutes on V100", 30.0),
        ("one epoch takes 20 min, 90 epochs", 30.0),
        ("كل حقبة تاخذ ٢٠ دقيقة و ٩٠ حقبة على A100", 30.0),
        ("الحقبة الواحدة تاخذ ساعتين و عندنا ٥٠ حقبة، النسبة ٢", 100.0),
        # A count of epochs said with the time is the whole job already.
        ("training 90 epochs takes 30 hours, ratio 2", 30.0),
        ("30 hours for 90 epochs", 30.0),
        # A whole-job time wins over a per-epoch one.
        ("10h fp32, 20 min per epoch, 30 epochs", 10.0),
    ],
)
def test_one_epochs_time_times_the_epochs_is_the_job(text, hours):
    query = understand(text, Channel.DM)
    assert query.fp32 is not None and query.fp32.hours == pytest.approx(hours)


@pytest.mark.parametrize(
    "text",
    ["one epoch takes 2 hours, ratio 2", "الحقبة الواحدة تاخذ ساعتين", "20 min per epoch on V100"],
)
def test_one_epochs_time_alone_is_not_the_job(text):
    query = understand(text, Channel.DM)  # answered per epoch, said so in the reply
    assert query.per_epoch and query.read_by["fp32"][0] == "per_epoch_time"
