"""Rule ``time_range``: an FP32 time said as a range is read at both ends.

"30-40 hours", "between 2 and 3 days", "30 to 40h", «من يومين لـ ٣ أيام», «بين ٣٠
و٤٠ ساعة», «٣٠-٤٠ ساعة»: the low end is ``Query.fp32``, the high end
``Query.fp32_high``, and the answer is given at both (docs/reading.md). Times
offered as alternatives ("40 or 50 hours", «٤٠ ولا ٥٠ ساعة») are still asked
about, and so is a ratio range ("1.5-2x"), which is no time range.
"""

from __future__ import annotations

import pytest

from bot.models import Channel, Reason
from bot.understanding import understand

# (text, low hours, high hours, ratio or None)
RANGES = [
    ("fp32 takes 30-40 hours, amp 2x", 30, 40, 2),
    ("training is 30 to 40h, ratio 1.5", 30, 40, 1.5),
    ("between 2 and 3 days in fp32, speedup 1.8", 48, 72, 1.8),
    ("it runs for 12 until 16 hours, 2x with amp", 12, 16, 2),
    ("fp32 run is 2 to 3 days on A100", 48, 72, None),
    ("takes 90-120 minutes, ratio 2", 1.5, 2, 2),
    ("somewhere between 10 and 14 hours, amp gives 1.6x", 10, 14, 1.6),
    ("1-2 weeks of training, 2x", 168, 336, 2),
    # Arabic: MSA and dialects, Arabic-Indic digits.
    ("من يومين لـ ٣ أيام والنسبة ٢", 48, 72, 2),
    ("بين ٣٠ و٤٠ ساعة، التسريع ١٫٥", 30, 40, 1.5),
    ("٣٠-٤٠ ساعة ٢x", 30, 40, 2),
    ("التدريب ياخد من ٣٠ إلى ٤٠ ساعة والتسريع ٢", 30, 40, 2),
    ("التدريب بياخد من ٣٠ ل ٤٠ ساعة، النسبة ٢", 30, 40, 2),
    ("يستغرق التدريب بين ١٠ و١٤ ساعة بدقة fp32", 10, 14, None),
    ("التدريب من ٢ لحد ٣ أيام على A100", 48, 72, None),
]


@pytest.mark.parametrize(("text", "low", "high", "ratio"), RANGES)
def test_a_time_range_is_read_at_both_ends(text, low, high, ratio):
    q = understand(text, Channel.DM)
    assert q.reason is None, q
    assert q.fp32 is not None and q.fp32.hours == pytest.approx(low), q
    assert q.fp32_high is not None and q.fp32_high.hours == pytest.approx(high), q
    assert q.ratio == (pytest.approx(ratio) if ratio is not None else None), q
    assert q.read_by["fp32"][0] == "time_range", q


@pytest.mark.parametrize(
    "text",
    [
        "40 or 50 hours, ratio 2",
        "either 2 or 3 days, 2x",
        "40/50 hours ratio 2",
        "٤٠ ولا ٥٠ ساعة والنسبة ٢",
        "يا ٥٠ يا ٦٠ ساعة، التسريع ٢",
        "٤٠ أو ٥٠ ساعة ٢x",
    ],
)
def test_alternatives_are_still_asked_about(text):
    q = understand(text, Channel.DM)
    assert q.reason is Reason.AMBIGUOUS, q
    assert q.fp32_high is None, q


@pytest.mark.parametrize(
    "text",
    [
        "training takes 100 hours, amp gives 1.5-2x",
        "100h, 1.5 to 2x faster",
        "التدريب ١٠٠ ساعة والتسريع ١٫٥-٢x",
    ],
)
def test_a_ratio_range_is_no_time_range(text):
    q = understand(text, Channel.DM)
    assert q.fp32 is not None and q.fp32.hours == 100, q
    assert q.fp32_high is None, q
    assert q.reason is Reason.AMBIGUOUS and q.candidates == ["1.5", "2"], q


@pytest.mark.parametrize(
    "text",
    [
        "with amp it went from 20h to 12h",  # a change, not a range
        "40-30 hours, ratio 2",  # the high end first: no range, asked
        "بعد ما شغلت الـ amp نزل من ١٠ ساعات ل ٦",
    ],
)
def test_a_descending_pair_is_no_range(text):
    assert understand(text, Channel.DM).fp32_high is None


def test_a_range_in_a_slash_command():
    q = understand("30-40h 2", Channel.COMMAND)
    assert (q.fp32.hours, q.fp32_high.hours, q.ratio) == (30, 40, 2)
