"""Real-style messages the dev corpus does not have: paraphrases, dialects, traps.

Each expectation follows the data README conventions (checked by hand):
(text, channel, FP32 hours or None, ratio or None, reason or None).
"""

import pytest

from bot.models import Channel
from bot.understanding import understand

CASES = [
    ("<@U1> the fp32 baseline is around 14 hrs; amp should give ~1.8x", "mention", 14, 1.8, None),
    ("fp32 run: ~2d, expected speedup ≈ 1.6", "dm", 48, 1.6, None),
    ("we're on 16 A100s, FP32 takes 3.5 days, what does AMP give?", "dm", 84, None, None),
    ("our fp32 training is 1 week 2 days, ratio 1.5", "dm", 216, 1.5, None),
    ("FP32: 100h | AMP: 2x", "dm", 100, 2, None),
    ("fp32 takes 5h per epoch, 2x", "dm", 5, 2, None),  # answered per epoch
    ("v2 of the model takes 10 hours, speedup 2", "dm", 10, 2, None),
    ("with pytorch 2.1 and cuda 12.1, fp32 takes 20h", "dm", 20, None, None),
    ("gpu util 95%, fp32 12h, ratio 2", "dm", 12, 2, None),
    ("accuracy 76% after 90 epochs; fp32 takes 12h; amp 1.5x", "dm", 12, 1.5, None),
    ("لو سمحت، التدريب عندي بياخد ٨ ساعات بالFP32، والتسريع حوالي ١٫٧", "dm", 8, 1.7, None),
    ("ابغى اعرف كم بياخذ، التدريب ٣ ايام والنسبه ٢", "dm", 72, 2, None),
    ("التدريب حاليا خمس ساعات، ومعامل التسريع اثنين", "dm", 5, 2, None),
    ("شو رأيك، التدريب بياخد عشرين ساعة والـAMP بيسرّع مرة ونص", "dm", 20, 1.5, None),
    ("عندنا تدريب ٤٨ ساعة على ٨ كروت A100، كم بيوفر الـAMP؟", "dm", 48, None, None),
    ("التدريب يستغرق ٧٢ ساعة والدقة المختلطة تقلل الزمن بمقدار الربع", "dm", 72, 4 / 3, None),
    ("مدة التدريب ٢ يوم والتسريع ٢٫٥ ضعف", "dm", 48, 2.5, None),
    ("التدريب ١٢ ساعة، والنسبة بين ١٫٥ و ٢", "dm", 12, None, "ambiguous"),
    ("fp32 12h, ratio between 1.5 and 2", "dm", 12, None, "ambiguous"),
    # rule time_range: the low end is the FP32 time, the high end Query.fp32_high
    ("training takes between 10 and 12 hours, ratio 2", "dm", 10, 2, None),
    ("fp32 12h, speedup 1.5-2x", "dm", 12, None, "ambiguous"),
    (
        "Training in FP32 finishes in 6 hours. Mixed precision: 1.9 times faster.",
        "dm",
        6,
        1.9,
        None,
    ),
    ("fp32 = 45 min; amp = 1.3x", "dm", 0.75, 1.3, None),
    ("It takes about 3h in fp32 and AMP is 2.5 times quicker", "dm", 3, 2.5, None),
    ("Our model needs 10 GB and trains 4 hours in fp32, speedup 2", "dm", 4, 2, None),
    ("Run id 8812: fp32 for 7 hours, 1.4x", "dm", 7, 1.4, None),
    ("seed=42 fp32=7h amp=1.4x", "dm", 7, 1.4, None),
    ("fp32 24 hours 8 gpus 2x", "command", 24, 2, None),
    ("24 8", "command", 24, 8, None),
    ("hello, fp32 takes 10 hours", "dm", 10, None, None),
    ("if fp32 is twelve hours and the ratio is one point five?", "dm", 12, 1.5, None),
    ("fp32 time is 36 h, with AMP it drops to 20 h", "dm", 36, 1.8, None),
    ("تستغرق العملية ٣ أيام في FP32 وتنخفض إلى يومين مع AMP", "dm", 72, 1.5, None),
    ("my fp32 job takes 3 days and I must finish within 2 days; AMP ratio 2?", "dm", 72, 2, None),
    ("fp32 10h ratio 2 :+1: :100:", "dm", 10, 2, None),
    ("I love it &lt;3 fp32 10h ratio 2", "dm", 10, 2, None),
    ("fp32 10h on 4 x 8 GPUs, ratio 2", "dm", 10, 2, None),
    ("fp32 10h, images 224 x 224", "dm", 10, None, None),
    ("train 224x224 images for 10 hours fp32, ratio 1.5", "dm", 10, 1.5, None),
    ("fp32 10 hours, at $2.5 per GPU-hour on 8 GPUs, ratio 2", "dm", 10, 2, None),
    ("التدريب ١٠ ساعات بسعر ١٠ ريال للساعة والنسبة ٢", "dm", 10, 2, None),
    ("fp32 takes 100 hours. the AMP speedup is -2", "dm", 100, -2, "ratio_not_positive"),
    ("fp32 takes ∞ hours, ratio 2", "dm", float("inf"), 2, "not_finite"),
    ("كام دقيقة هياخد؟ التدريب ٤٥ دقيقة والتسريع ١٫٥", "dm", 0.75, 1.5, None),
]


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), CASES)
def test_tricky(text: str, channel: str, hours, ratio, reason) -> None:
    q = understand(text, Channel(channel))
    got = q.fp32.hours if q.fp32 else None
    assert got == (pytest.approx(hours, abs=1e-3) if hours is not None else None), q
    assert q.ratio == (pytest.approx(ratio, abs=1e-3) if ratio is not None else None), q
    assert (q.reason.value if q.reason else None) == reason, q
