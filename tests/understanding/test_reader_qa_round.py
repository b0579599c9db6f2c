"""Misreadings found by trying the bot as users write (reader QA round).

(text, channel, FP32 hours or None, ratio or None, reason or None);
"help" in the reason column means the intent is help.
"""

import pytest
from readings import check_reading

from bot.models import Channel
from bot.understanding import understand

# Rule step_rate: a negation said alone ("... vs 1.1 it/s without", "وبدونه")
# is the run without the mixed precision named before it.
BARE_NEGATIONS = [
    ("with amp I get 1.3 it/s vs 1.1 it/s without", "dm", None, 1.3 / 1.1, "no_numbers"),
    (
        "I get 1.3 it/s with amp vs 1.1 it/s without, 20k steps",
        "dm",
        20000 / 1.1 / 3600,
        1.3 / 1.1,
        None,
    ),
    ("bf16: 2.6 it/s, 2.0 it/s without", "dm", None, 1.3, "no_numbers"),
    ("0.5 s/it with amp, 0.9 s/it with it off", "dm", None, 1.8, "no_numbers"),
    ("مع amp ١٫٣ it/s وبدونه ١٫١ it/s", "dm", None, 1.3 / 1.1, "no_numbers"),
    ("مع fp16 ٢٫٦ it/s وبدونها ٢ it/s", "dm", None, 1.3, "no_numbers"),
    # The negation before a precision word still names that precision.
    ("1.3 it/s with amp vs 1.1 it/s without amp", "dm", None, 1.3 / 1.1, "no_numbers"),
    ("بدون amp ١٫١ it/s ومع amp ١٫٣ it/s", "dm", None, 1.3 / 1.1, "no_numbers"),
]

# Rule fp32_and_mixed_times: a time said of no precision, then one said of the
# mixed precision, are the FP32 baseline and the measured mixed time; a joiner
# ends the clause a precision word is looked for in.
BASELINE_THEN_MIXED = [
    ("training takes 30h, with amp 20h", "dm", 30, 1.5, None),
    ("our run is 12 hours, with bf16 8 hours", "dm", 12, 1.5, None),
    ("2 hours in fp32 and 1 hour with amp", "dm", 2, 2, None),
    ("30 hrs in fp32 vs 20 hrs with bf16", "dm", 30, 1.5, None),
    ("التدريب ٣٠ ساعه، مع الـ AMP صار ٢٠ ساعه", "dm", 30, 1.5, None),
    ("التدريب بياخد ١٢ ساعة، ومع bf16 ٨ ساعات", "dm", 12, 1.5, None),
    # A change "from X to Y" in a message naming a mixed precision: FP32 X, mixed Y
    # ("ل" is "to" as "الى" is).
    ("with amp it went from 10h to 6h", "dm", 10, 10 / 6, None),
    ("after enabling bf16 training went from 36h down to 20h", "dm", 36, 1.8, None),
    ("مع الـ amp التدريب نزل من ١٠ ساعات الى ٦ ساعات", "dm", 10, 10 / 6, None),
    ("بعد ما شغلت الـ amp نزل من ١٠ ساعات ل ٦", "dm", 10, 10 / 6, None),
    ("نزل من ١٠ ل ٦ ساعات مع الـ bf16", "dm", 10, 10 / 6, None),
    ("from 10h to 6h", "dm", None, None, "ambiguous"),
    # Both unmarked stays a question.
    ("training takes 30h, then 20h", "dm", None, None, "ambiguous"),
]

# Rule duration: a unit word with one letter dropped or two swapped is that unit
# (never the bare number read as hours).
UNIT_SLIPS = [
    ("our run takes 5 dyas in fp32, how much with amp?", "dm", 120, None, None),
    ("fp32 takes 3 dys, amp 2x", "dm", 72, 2, None),
    ("trainign takes 20 horus, amp 2x", "dm", 20, 2, None),
    ("fp32 45 minuets per epoch, 40 epochs", "dm", 30, None, None),
    ("fp32 90 mintues, ratio 1.5", "dm", 1.5, 1.5, None),
    ("fp32 2 weks, amp 1.5x", "dm", 336, 1.5, None),
    ("fp32 1 day 6 huors", "dm", 30, None, None),
    # Words of their own are not slips.
    ("fp32 takes 10 hours for ours, amp 2x", "dm", 10, 2, None),
]

# Rule step_rate: of two rates, one said of a precision, the other is the other one.
CONTRASTED_RATES = [
    ("with amp 2 it/s instead of 1.5 it/s", "dm", None, 2 / 1.5, "no_numbers"),
    ("1.5 it/s before, 2 it/s with bf16", "dm", None, 2 / 1.5, "no_numbers"),
    ("fp32 gives 0.9 s/it, now 0.5 s/it", "dm", None, 1.8, "no_numbers"),
    ("امبارح جربت amp و كان ٢ it/s بدل ١٫٥ it/s", "dm", None, 2 / 1.5, "no_numbers"),
    ("مع الـ amp صار ١٫٨ it/s بدل ١٫٢ it/s", "dm", None, 1.5, "no_numbers"),
    # A pasted Keras line, then the mixed one after a joiner: amp is said of the second.
    (
        "Epoch 3/90 312/312 [=====] - 312s 1s/step - loss: 0.4 and with amp 156s 500ms/step",
        "dm",
        90 * 312 / 3600,
        2,
        None,
    ),
    ("الخطوة ١ s/step - loss: 0.4 و مع amp الخطوة 500ms/step", "dm", None, 2, "no_numbers"),
    # Neither said of a precision: no ratio.
    ("1.5 it/s before, 2 it/s now", "dm", None, None, "help"),
]

# Rule name_suffix_number: a patch size after "/" ("ViT-L/14") or a version after
# "." ("sd1.5", "llama3.1") is part of the model's name, never a time or a ratio.
NAME_SUFFIX_NUMBERS = [
    ("fp32 training of ViT-L/14 takes 3 days, bf16?", "dm", 72, None, None),
    ("clip ViT-B/32 fp32 20h on a100, amp 1.5x", "dm", 20, 1.5, None),
    ("sd1.5 finetune 12h fp32 on a100", "dm", 12, None, None),
    ("llama3.1 finetune takes 2 days fp32, bf16 1.7x", "dm", 48, 1.7, None),
    ("تدريب ViT-H/14 ياخذ ٣ ايام على A100", "dm", 72, None, None),
    ("فاين تيون sd1.5 ياخذ ١٢ ساعة، والنسبة ٢", "dm", 12, 2, None),
]

# Rule glued_label: a ratio label typed against its number ("ratio1.5").
GLUED_LABELS = [
    ("ratio1.5 fp32 10h", "dm", 10, 1.5, None),
    ("fp32 10h speedup1.8", "dm", 10, 1.8, None),
    ("fp32 10h factor2", "dm", 10, 2, None),
    ("التدريب ١٠ ساعات ratio1.5", "dm", 10, 1.5, None),
    ("التدريب ١٠ ساعات والنسبة١٫٥", "dm", 10, 1.5, None),
]


# GPU-hours are a time (the ratio divides them alike), never a GPU count.
GPU_HOURS = [
    ("fp32 takes 384 gpu hours, amp 1.5x", "dm", 384, 1.5, None),
    ("fp32 384 GPU-hours on 8 gpus, ratio 2", "dm", 384, 2, None),
    ("fp32 needs 384 gpu hrs", "dm", 384, None, None),
    ("التدريب ٣٨٤ gpu hours والنسبه ١٫٥", "dm", 384, 1.5, None),
]


@pytest.mark.parametrize(
    "case",
    GPU_HOURS
    + GLUED_LABELS
    + BARE_NEGATIONS
    + BASELINE_THEN_MIXED
    + UNIT_SLIPS
    + CONTRASTED_RATES
    + NAME_SUFFIX_NUMBERS,
)
def test_reading(case):
    check_reading(*case)


@pytest.mark.parametrize("text", ["ViT-B/16 on 4x H100 takes 2 days", "sd1.5 finetune 12h"])
def test_name_suffix_numbers_are_not_unused(text):
    assert understand(text, Channel.DM).unused == []


# Rule gpu_times_count: "A100 x8" counts cards; it is never a ratio of 8.
@pytest.mark.parametrize(
    ("text", "gpus", "ratio"),
    [
        ("fp32 20h on a100 40gb x8", 8, None),
        ("fp32 20h on A100 x8, amp 1.5x", 8, 1.5),
        ("fp32 20h on h100 × 4", 4, None),
        ("fp32 20h on a100 x 2, ratio 1.6", 2, 1.6),
        ("التدريب ٢٠ ساعه على A100 x8", 8, None),
        ("التدريب ٢٠ ساعه على H100 ×٤ والنسبة ١٫٥", 4, 1.5),
        # Not after a card: still the ratio.
        ("fp32 20h on A100, x2", None, 2),
    ],
)
def test_gpu_times_count(text, gpus, ratio):
    q = understand(text, Channel.DM)
    assert (q.fp32.hours, q.num_gpus, q.ratio) == (20, gpus, ratio), q


# GPU spelled in Arabic letters, spaced or not, singular or plural, counts cards.
@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("التدريب ٢٠ ساعه على ٤ جي بي يوهات V100", 4),
        ("التدريب ٢٠ ساعه على ٤ جيبيوز A100", 4),
        ("عندي ٨ جي بي يو H100 والتدريب ٢٠ ساعه", 8),
        ("التدريب ٢٠ ساعه على ٣ جي بي يوز 3090", 3),
    ],
)
def test_arabic_gpu_spellings_count(text, gpus):
    q = understand(text, Channel.DM)
    assert (q.fp32.hours, q.num_gpus) == (20, gpus), q


@pytest.mark.parametrize(
    "text", ["fp32 10 hours, at $2.5 per gpu hour, ratio 2", "fp32 10 hours, $3/gpu-hour, ratio 2"]
)
def test_price_per_gpu_hour_is_still_a_price(text):
    q = understand(text, Channel.DM)
    assert (q.fp32.hours, q.ratio, q.price.per_gpu) == (10, 2, True), q


def test_a_precision_after_a_progress_line_is_never_given_to_the_next_line():
    # The fp32 written after the first line's rate is that line's; the second line
    # must not take it (which would invert the ratio to 0.5).
    text = (
        "45%|████▌ | 450/1000 [03:00<03:40, 2.50it/s] fp32 and "
        "45%|████▌ | 450/1000 [01:30<01:50, 5.00it/s] amp"
    )
    assert understand(text, Channel.DM).ratio in (None, 2.0)
