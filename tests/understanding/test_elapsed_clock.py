"""Rule elapsed_clock: an H:MM:SS after a word of how long something ran is that
time, as Python and most trainers print it; a clock time stays a clock time."""

from __future__ import annotations

import pytest

from tests.understanding.readings import check_reading

HMS = 7.5  # 7:30:00


@pytest.mark.parametrize(
    ("text", "hours", "ratio"),
    [
        ("fp32 run took 7:30:00, amp 1.8x", HMS, 1.8),
        ("Training time: 7:30:00 in fp32, ratio 2", HMS, 2),
        ("fp32 elapsed = 0:45:30, amp gives 1.5x", 0.75 + 30 / 3600, 1.5),
        ("Training time: 1 day, 3:04:05 in fp32, ratio 2", 27 + 4 / 60 + 5 / 3600, 2),
        ("التدريب استغرق ٧:٣٠:٠٠ بالـfp32 والمعامل ٢", HMS, 2),
        ("الوقت: ٧:٣٠:٠٠ بدقة fp32، والتسريع ١٫٥", HMS, 1.5),
    ],
)
def test_an_elapsed_clock_is_the_fp32_time(text, hours, ratio):
    check_reading(text, "dm", hours, ratio, None)


@pytest.mark.parametrize(
    "text",
    [
        "meeting at 10:30:00, 100h 2x",  # a clock time after "at"
        "run started 07:30:00, 100h 2x",  # no word of how long it ran
        "took 10:30, 100h 2x",  # two parts: a clock time, not H:MM:SS
        "took 7:75:00, 100h 2x",  # no minute 75
    ],
)
def test_a_clock_time_is_never_the_fp32_time(text):
    check_reading(text, "dm", 100, 2, None)
