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
    ("step 1200 | loss 2.31 | 0.85 s/step  -- total 50k steps, what would bf16 give me on A100?",
     0.85 * 50_000 / 3600),
    ("٠٫٩ ثانية لكل step و عندي ٥٠٠٠٠ step", 12.5),
    ("step 500 | loss 1.92 | 1.2 s/step والمفروض ١٠٠ ألف step، كم ياخذ بالـ bf16 على H100؟",
     1.2 * 100_000 / 3600),
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
