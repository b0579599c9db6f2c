"""Durations and ratios in both languages, including phrasings the corpus lacks."""

import pytest

from bot.models import Channel, TimeUnit
from bot.understanding import understand


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("fp32 takes a day and a half", 36),
        ("half a day of fp32", 12),
        ("fp32 an hour and a half", 1.5),
        ("3 hours 20 minutes", 3 + 1 / 3),
        ("2 and a half hours", 2.5),
        ("1.5 weeks", 252),
        ("90 seconds", 0.025),
        ("twenty four hours", 24),
        ("ساعة إلا ربع", 0.75),
        ("ساعتين وربع", 2.25),
        ("يومين و٦ ساعات", 54),
        ("نص ساعة", 0.5),
        ("أسبوعين", 336),
        ("خمسة وعشرين ساعة", 25),
        ("التدريب ياخذ شهر", 730),
        ("٣ دقايق", 0.05),
        ("1h30m", 1.5),
        ("2d6h", 54),
    ],
)
def test_durations(text: str, hours: float) -> None:
    q = understand(text, Channel.DM)
    assert q.fp32 is not None and q.fp32.hours == pytest.approx(hours)


def test_duration_keeps_the_unit_written() -> None:
    q = understand("3 days", Channel.COMMAND)
    assert (q.fp32.value, q.fp32.unit, q.fp32.hours) == (3, TimeUnit.DAYS, 72)


@pytest.mark.parametrize(
    "text",
    [
        "deadline in 5 days; fp32 run takes 3 days, speedup 2",
        "the job started 3 days ago and fp32 takes 3 days, 2x",
        "fp32 run of 3 days, checkpoint every 2 hours, ratio 2",
        "الموعد النهائي بعد ٥ أيام والتدريب يستغرق ٣ أيام بنسبة ٢",
        "started at 10:30 on 2024-05-01, fp32 takes 3 days, 2x",
        "lr 0.001, 100 epochs, batch size 256, seed 42, fp32 3 days, AMP 2x",
    ],
)
def test_deadlines_intervals_and_settings_are_not_the_time(text: str) -> None:
    q = understand(text, Channel.DM)
    assert q.reason is None and q.fp32.hours == 72 and q.ratio == 2


@pytest.mark.parametrize(
    ("text", "ratio"),
    [
        ("fp32 10h, amp is three times faster", 3),
        ("fp32 10h, 2 times faster", 2),
        ("fp32 10h, twice as fast", 2),
        ("fp32 10h, doubles throughput", 2),
        ("fp32 10h, halves the time", 2),
        ("fp32 10h, cuts the time in half", 2),
        ("fp32 10h, saves a third of the time", 1.5),
        ("fp32 10h, takes half the time", 2),
        ("fp32 10h, AMP takes 60% of the time", 1 / 0.6),
        ("fp32 10h, reduces the time to 50%", 2),
        ("fp32 10h, throughput up 40%", 1.4),
        ("fp32 10h, 30% less time", 1 / 0.7),
        ("fp32 10h, speedup of 25%", 1.25),
        ("fp32 10h, 0% faster", 1.0),
        ("fp32 10h, divides the time by 3", 3),
        ("fp32 10h, x1.7", 1.7),
        ("fp32 10h, 1.7 speedup", 1.7),
        ("التدريب ٣٠ ساعة والدقة المختلطة ثلاثة أضعاف السرعة", 3),
        ("التدريب ٣٠ ساعة والدقة المختلطة أسرع بمرة ونص", 1.5),
        ("التدريب ٣٠ ساعة والدقة المختلطة توفر ثلث الوقت", 1.5),
        ("التدريب ٣٠ ساعة والوقت ينخفض إلى ٥٠٪", 2),
        ("التدريب ٣٠ ساعة ومعامل التسريع: ١٫٧", 1.7),
        ("التدريب ٣٠ ساعة والـAMP يسرع مرتين", 2),
    ],
)
def test_ratio_phrases(text: str, ratio: float) -> None:
    q = understand(text, Channel.DM)
    assert q.ratio == pytest.approx(ratio, abs=1e-4) and q.fp32 is not None, q


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("fp32 10h, AMP takes twice as long", "ratio_below_one"),
        ("fp32 10h, 3 times slower", "ratio_below_one"),
        ("fp32 10h, AMP adds 20% more time", "ratio_below_one"),
        ("التدريب ١٠ ساعات والدقة المختلطة ضعف الوقت", "ratio_below_one"),
        ("fp32 10 hours, ratio 2-3x", "ambiguous"),
        ("fp32 10 hours, ratio 2 on V100 vs 3 on A100", "ambiguous"),
        ("fp32 takes 10 hours on V100 and 6 hours on A100", "ambiguous"),
        ("100 2 3", "ambiguous"),
        ("fp32 1e400 hours, ratio 2", "not_finite"),
        ("fp32 10h, speedup 5000", "too_large"),
        ("fp32 200 years, ratio 2", "too_large"),
        ("fp32 minus 3 hours, ratio 2", "time_not_positive"),
        ("fp32 10h ratio zero", "ratio_not_positive"),
    ],
)
def test_reasons(text: str, reason: str) -> None:
    channel = Channel.COMMAND if text == "100 2 3" else Channel.DM
    assert understand(text, channel).reason == reason


def test_ambiguous_lists_the_numbers_seen() -> None:
    q = understand("FP32 takes 100 or 200 hours, ratio 2", Channel.DM)
    assert q.candidates == ["100", "200"] and q.fp32 is None


def test_fp32_and_mixed_times_give_the_ratio() -> None:
    q = understand("FP32 takes 10 hours, AMP takes 6 hours", Channel.DM)
    assert q.fp32.hours == 10 and q.ratio == pytest.approx(10 / 6) and q.reason is None
    q = understand("بدقة FP32 يستغرق ١٠ ساعات، وبالدقة المختلطة ٥ ساعات", Channel.DM)
    assert q.fp32.hours == 10 and q.ratio == 2


@pytest.mark.parametrize(
    ("text", "hours", "ratio"),
    [
        ("100 2", 100, 2),
        ("time=100h ratio=2", 100, 2),
        ("2 100h", 100, 2),
        ("ratio 2 100", 100, 2),
        ("2x 100", 100, 2),
        ("١٢٠٠٠ دقيقة ٢", 200, 2),
    ],
)
def test_labels_beat_position_in_a_command(text: str, hours: float, ratio: float) -> None:
    q = understand(text, Channel.COMMAND)
    assert q.fp32.hours == pytest.approx(hours) and q.ratio == ratio
