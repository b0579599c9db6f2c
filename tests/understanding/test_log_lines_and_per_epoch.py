"""Per-step and per-epoch times composed with their counts into the run's FP32
time, pasted log lines, and "each one" (docs/reading.md, rules
``per_epoch_times_epochs``, ``step_rate``, ``definite_one``).

Found by a new-user probe: the most frequent misreads were a per-unit time not
multiplied by its count, or taken for the whole run.
"""

import pytest

from bot.models import Channel, Intent
from bot.understanding import understand


def _read(text, channel="dm"):
    q = understand(text, Channel(channel))
    assert q.intent == Intent.ESTIMATE, q
    return q


PER_EPOCH_AFTER_A_PREPOSITION = [
    # (text, FP32 hours, ratio): «في الـ epoch», «في كل epoch», "in each epoch" are per epoch.
    ("ساعتين ونص في الـ epoch و عندي ١٢ epoch، ratio ١٫٨", 30, 1.8),
    ("٢٥ دقيقة في كل epoch و ٤٠ epoch بنسبة ٢", 25 * 40 / 60, 2),
    ("ساعة في الحقبة وعندنا ١٠ حقب والنسبة ٢", 10, 2),
    ("التدريب بياخد ٣ ساعات في كل ايبوك و ٨ ايبوكات، التسريع ١٫٥", 24, 1.5),
    ("20 min in each epoch, 90 epochs, ratio 2", 30, 2),
    ("it takes 2 hours for every epoch and I run 12 epochs, speedup 1.8", 24, 1.8),
]


@pytest.mark.parametrize(("text", "hours", "ratio"), PER_EPOCH_AFTER_A_PREPOSITION)
def test_a_time_in_each_epoch_times_the_epochs(text, hours, ratio):
    q = _read(text)
    assert q.reason is None, q
    assert q.fp32.hours == pytest.approx(hours)
    assert q.ratio == pytest.approx(ratio)
    assert q.read_by["fp32"][0] == "per_epoch_times_epochs"


EACH_ONE = [
    # "كل واحد", "كل وحدة", "each one": a pronoun for the epoch, not the number one.
    ("عندي ١٢ epoch كل واحد ساعتين ونص بنسبة ١٫٨", 30, 1.8),
    ("٣ حقب، كل وحدة ساعتين، والنسبة ٢", 6, 2),
    ("عندي ٤ ايبوكات كل واحدة ٣ ساعات، ratio ٢", 12, 2),
    ("3 epochs, each one 2 hours, ratio 2", 6, 2),
]


@pytest.mark.parametrize(("text", "hours", "ratio"), EACH_ONE)
def test_each_one_is_no_number(text, hours, ratio):
    q = _read(text)
    assert q.reason is None, q
    assert q.fp32.hours == pytest.approx(hours)
    assert q.ratio == pytest.approx(ratio)
    assert q.unused == [], q.unused


STEP_TIME_TIMES_STEPS = [
    # (text, FP32 hours): one step time said of no mixed precision, times the steps said.
    (
        "step 1200 | loss 2.31 | 0.85 s/step  -- total 50k steps, what would bf16 give me on A100?",
        0.85 * 50_000 / 3600,
    ),
    ("٠٫٩ ثانية لكل step و عندي ٥٠٠٠٠ step", 12.5),
    (
        "step 500 | loss 1.92 | 1.2 s/step والمفروض ١٠٠ ألف step، كم ياخذ بالـ bf16 على H100؟",
        1.2 * 100_000 / 3600,
    ),
    ("0.9 seconds per step, 50000 steps, how long with amp?", 12.5),
    ("each step takes 0.9 s and I need 50k steps, what if I use fp16?", 12.5),
    ("الخطوة بتاخد ٠٫٩ ثانية و عندي ٥٠ الف خطوة، كم بالـ amp؟", 12.5),
    ("٠٫٩ ثانية للخطوة و ٥٠ ألف خطوة، لو شغلت bf16 كم يصير؟", 12.5),
    ("زمن الخطوة ٠٫٩ ث والتدريب ٥٠٠٠٠ خطوة، قديش بياخد مع الدقة المختلطة؟", 12.5),
]


@pytest.mark.parametrize(("text", "hours"), STEP_TIME_TIMES_STEPS)
def test_a_step_time_times_the_steps_is_the_fp32_run(text, hours):
    q = _read(text)
    assert q.fp32 is not None, q
    assert q.fp32.hours == pytest.approx(hours)
    assert q.read_by["fp32"][0] == "step_rate"


def test_a_rate_said_of_mixed_precision_is_no_fp32_run():
    # "with amp" said of the rate itself: its steps give no FP32 time.
    q = _read("with amp I get 0.5 s/it, 20k steps, how long was it in fp32?")
    assert q.fp32 is None, q


RATIO_FROM_TWO_STEP_TIMES = [
    # (text, ratio): two step times, one per precision, asked for the ratio alone.
    ("0.85s/it fp32, 0.41s/it amp, whats my ratio?", 0.85 / 0.41),
    ("fp32 step 420ms, amp 190ms, what's the ratio?", 420 / 190),
    ("fp32 takes 1.2 s per step and bf16 0.6 s per step, speedup?", 2.0),
    ("زمن الخطوة ١٫٢ ث في fp32 و٠٫٦ ث مع amp، كم المعامل؟", 2.0),
    ("بالـ fp32 الخطوة ٩٠٠ مللي ثانية ومع الـ amp ٤٥٠ مللي ثانية، قديش التسريع؟", 2.0),
]


@pytest.mark.parametrize(("text", "ratio"), RATIO_FROM_TWO_STEP_TIMES)
def test_the_measured_ratio_is_said_back(text, ratio):
    from bot.conversation import answer

    reply = answer(text, Channel.DM)
    assert reply.query.ratio == pytest.approx(ratio)
    said = f"{ratio:.3g}"
    first = reply.reply.text.splitlines()[0]
    assert said in first, reply.reply.text
    assert "36h " + said in reply.reply.text  # how to add the FP32 time


PER_EPOCH_ALONE = [
    # (text, one epoch's hours): no epoch count, so the estimate is per epoch.
    (
        "انا بدرب موديل على Colab T4 والـ epoch بياخد ٢٥ دقيقة، لو شغلت mixed precision هيبقى كام؟",
        25 / 60,
    ),
    ("each epoch takes 25 min on a T4, how much faster with amp?", 25 / 60),
    ("الحقبة الواحدة تستغرق ٤٠ دقيقة، كم ستصبح بالدقة المختلطة؟", 40 / 60),
    ("كل ايبوك ياخذ ساعة ونص، كم يصير مع bf16؟", 1.5),
    ("20 min per epoch on V100, what with fp16?", 1 / 3),
    ("Epoch 5/20 takes 35 min, how much faster with amp?", 35 / 60),
    ("Epoch 5/20 ياخذ 35 دقيقة، كم يصير بالـ mixed precision؟", 35 / 60),
    # A pasted epoch bar: its elapsed + remaining clocks time that epoch.
    (
        "Epoch 3/10: 100%|██████████| 1563/1563 [06:52<00:00, 3.79it/s] how much faster with bf16?",
        (6 * 60 + 52) / 3600,
    ),
    ("Epoch 1: 40%|████      | 400/1000 [02:00<03:00, 3.33it/s] كم يصير مع amp؟", 5 / 60),
]


@pytest.mark.parametrize(("text", "hours"), PER_EPOCH_ALONE)
def test_an_epochs_time_alone_is_answered_per_epoch(text, hours):
    from bot.conversation import answer

    reply = answer(text, Channel.DM)
    q = reply.query
    assert q.per_epoch, q
    assert q.fp32.hours == pytest.approx(hours)
    assert "epoch" in reply.reply.text.splitlines()[1]  # said right under the answer


RUN_TOTAL_ASKED = [
    # (text, FP32 hours): "total", «الوقت الكامل», «كل التدريب» ask for the whole run,
    # so a log's epoch time is multiplied by its counter's epochs.
    ("Epoch 5/20 takes 35 min, total time with amp?", 20 * 35 / 60),
    ("Epoch 5/20 ياخذ 35 دقيقة، كم بيصير الوقت الكامل بالـ mixed precision؟", 20 * 35 / 60),
    ("الحقبة ٢/١٠ تاخذ ساعة، كم ياخذ كل التدريب مع bf16؟", 10),
    (
        "Epoch 3/10: 100%|██████████| 1563/1563 [06:52<00:00, 3.79it/s] how long for the whole run with bf16?",
        10 * (6 * 60 + 52) / 3600,
    ),
    ("epoch 2/8 took 30 min, what's the overall time with amp?", 4),
]


@pytest.mark.parametrize(("text", "hours"), RUN_TOTAL_ASKED)
def test_the_run_total_asked_multiplies_a_logs_epoch(text, hours):
    q = _read(text)
    assert not q.per_epoch, q
    assert q.fp32.hours == pytest.approx(hours)
    assert q.read_by["fp32"][0] == "per_epoch_times_epochs"


WHOLE_RUN_BAR = [
    # A bar with no epoch before it (Hugging Face's) times the run: elapsed + remaining.
    (
        "  7%|▋         | 350/5000 [04:12<55:48,  1.39it/s] how long would amp take for the whole thing",
        1.0,
    ),
    (" 50%|█████     | 2500/5000 [1:00:00<1:00:00, 0.69it/s] كم ياخذ مع bf16؟", 2.0),
]


@pytest.mark.parametrize(("text", "hours"), WHOLE_RUN_BAR)
def test_a_bar_without_an_epoch_times_the_run(text, hours):
    q = _read(text)
    assert not q.per_epoch, q
    assert q.fp32.hours == pytest.approx(hours)
    assert q.read_by["fp32"][0] == "progress_clock"


def test_a_bar_measured_with_amp_is_no_fp32_time():
    q = _read("with amp: Epoch 1/10: 100%|████| 1000/1000 [01:51<00:00, 9.00it/s]")
    assert q.fp32 is None, q


@pytest.mark.parametrize("follow_up", ["and at 2.5?", "و٢٫٥؟"])
def test_a_follow_up_on_a_per_epoch_estimate_stays_per_epoch(follow_up):
    from bot.conversation import answer
    from bot.follow_up import thread_memory

    first = answer("each epoch takes 25 min on a T4, how much faster with amp?", Channel.DM)
    setup = thread_memory(first.query)
    reply = answer(follow_up, Channel.MENTION, thread_fp32_hours=25 / 60, thread_setup=setup)
    assert reply.query.per_epoch and reply.query.ratio == 2.5, reply.query
    assert "epoch" in reply.reply.text
