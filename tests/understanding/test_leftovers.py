"""Phrasings the understanding layer used to mis-read, one general rule each.

- "one" as a pronoun ("the fp32 one", "that one") is not the number 1;
- "2/3 of the time" is a fraction of the time, while 2/3/2024 stays a date;
- the Arabic abbreviations س (hours) and د (minutes) after a number;
- Egyptian/Levantine تلت: 3 before a plural counted noun, a third otherwise;
- "2 x 8 hours" is a product: 16 hours in all;
- "next review in 2 days", "meeting in 3 hours": a future event, not a time.

Expectations follow the data README conventions, worked out by hand.
"""

from __future__ import annotations

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel


def est(hours: float, ratio: float, lang: str = "en") -> dict:
    return {"kind": "estimate", "fp32_hours": hours, "ratio": ratio, "lang": lang}


def rng(hours: float, lang: str = "en") -> dict:
    return {"kind": "range", "fp32_hours": hours, "lang": lang}


def err(reason: str, lang: str = "en") -> dict:
    return {"kind": "error", "reason": reason, "lang": lang}


PRONOUN_ONE = [
    # "1.5x as long" multiplies the time (ratio 1/1.5): a slowdown, convention 9.
    ("AMP takes 1.5x as long as the 8h fp32 one", "dm", err("ratio_below_one")),
    ("amp is 2x faster than the 8h fp32 one", "dm", est(8, 2)),
    ("the fp32 one takes 10 hours, the amp one 2x faster", "dm", est(10, 2)),
    ("the big one runs 12 hours in fp32; speedup 1.5", "dm", est(12, 1.5)),
    ("that one took 20h in fp32, amp ratio 2", "dm", est(20, 2)),
    ("which one is faster? fp32 30h, amp 2x", "dm", est(30, 2)),
    # Still numbers: a unit, a counted noun or a number continues after "one".
    ("one hour in fp32, ratio 2", "dm", est(1, 2)),
    ("fp32 takes one and a half hours, 2x", "dm", est(1.5, 2)),
    ("the one hour fp32 run, speedup 2", "dm", est(1, 2)),
    ("fp32 10 hours on one GPU, ratio 2", "dm", est(10, 2)),
    ("ratio one, fp32 10h", "dm", est(10, 1)),
]

SLASH_FRACTION = [
    ("fp32 takes 8 hours, amp takes 2/3 of the time", "dm", est(8, 1.5)),
    ("fp32 takes 8 hours, amp takes 2/3 of the fp32 time", "dm", est(8, 1.5)),
    ("amp cuts 1/3 of the time, fp32 9h", "dm", est(9, 1.5)),
    ("fp32 12h; amp needs 1/2 the time", "dm", est(12, 2)),
    ("الدقه المختلطه تاخذ ٢/٣ الوقت، FP32 ٨ ساعات", "dm", est(8, 1.5, "ar")),
    # Dates stay dates, whatever their shape.
    ("fp32 8 hours, deadline 2/3/2024", "dm", rng(8)),
    ("fp32 8 hours, started 01/05/2024", "dm", rng(8)),
    ("fp32 8 hours, due 2/3", "dm", rng(8)),
    ("fp32 8 hours, 2/3 of the runs failed", "dm", rng(8)),
]

ARABIC_ABBREVIATIONS = [
    ("١٢ س ٢", "command", est(12, 2)),
    ("٢ ١٢ س", "command", est(12, 2)),  # the unit beats position
    ("٣٠ د ٢", "command", est(0.5, 2)),
    ("٢ ٩٠ د", "command", est(1.5, 2)),
    ("التدريب ١٢ س والنسبه ٢", "dm", est(12, 2, "ar")),
    ("التدريب ٣ س و٣٠ د والنسبه ٢", "dm", est(3.5, 2, "ar")),
    ("التدريب ١٢س والنسبه ٢", "dm", est(12, 2, "ar")),
    ("٥ س ١٠ د ٢", "command", est(5 + 10 / 60, 2)),
    # "د.ك" is the Kuwaiti dinar, not minutes.
    ("التدريب ٢٠ ساعه والسعر ١٠ د.ك للساعه والنسبه ٢", "dm", est(20, 2, "ar")),
]

EGYPTIAN_TALT = [
    ("التدريب بياخد تلت ساعات والنسبه ٢", "dm", est(3, 2, "ar")),
    ("التدريب بياخد تلت ايام والنسبه ٢", "dm", est(72, 2, "ar")),
    ("التدريب بياخد ٩ ساعات والمختلطه بتوفر تلت الوقت", "dm", est(9, 1.5, "ar")),
    ("التدريب ٩ ساعات والمختلطه بتاخد تلت المده", "dm", est(9, 3, "ar")),
    ("التدريب بياخد تلت ساعه والنسبه ٢", "dm", est(1 / 3, 2, "ar")),
    ("التدريب بياخد ساعتين وتلت والنسبه ٢", "dm", est(2 + 1 / 3, 2, "ar")),
    ("التدريب ١٠ ساعات على تلت كروت والنسبه ٢", "dm", est(10, 2, "ar")),
]

PRODUCT = [
    ("fp32 2 x 8 hours, speedup 2", "dm", est(16, 2)),
    ("fp32 2x8 hours, speedup 2", "dm", est(16, 2)),
    ("fp32 3 × 20 min, ratio 1.5", "dm", est(1, 1.5)),
    ("2 x 8 hours", "command", rng(16)),
    ("fp32 2 x 1h30m, 2x", "dm", est(3, 2)),
    ("التدريب ٢ × ٨ ساعات والنسبه ٢", "dm", est(16, 2, "ar")),
    # Counts stay counts, and "2x 8 hours" is still a ratio and a time.
    ("fp32 2x 8 hours", "dm", est(8, 2)),
    ("fp32 10h on 4 x 8 GPUs, ratio 2", "dm", est(10, 2)),
    ("fp32 10h on 2 x A100, ratio 2", "dm", est(10, 2)),
    ("fp32 10h at 224 x 224, ratio 2", "dm", est(10, 2)),
]

FUTURE_EVENTS = [
    ("fp32 10 hours; next review in 2 days", "dm", rng(10)),
    ("fp32 10 hours; meeting in 3 hours, speedup 2", "dm", est(10, 2)),
    ("fp32 10 hours, demo in 2 days", "dm", rng(10)),
    ("fp32 10 hours; due in 2 days", "dm", rng(10)),
    ("FP32 ١٠ ساعات والاجتماع بعد يومين", "dm", rng(10, "ar")),
    ("FP32 ١٠ ساعات والمراجعه الجايه بعد ٣ ايام", "dm", rng(10, "ar")),
    # An Arabic adjective right after a duration still excludes it.
    ("FP32 ١٠ ساعات، جربناه ٣ ايام الماضيه", "dm", rng(10, "ar")),
    ("FP32 ١٠ ساعات، فاضل يومين متبقيه على التسليم", "dm", rng(10, "ar")),
    # "next" alone does not exclude a time, nor does "in" alone.
    ("the next run takes 12h in fp32, ratio 2", "dm", est(12, 2)),
    ("fp32 training finishes in 12 hours, ratio 2", "dm", est(12, 2)),
    ("بعد التحويل FP32 ١٠ ساعات والنسبه ٢", "dm", est(10, 2, "ar")),
]

CASES = (
    PRONOUN_ONE + SLASH_FRACTION + ARABIC_ABBREVIATIONS + EGYPTIAN_TALT + PRODUCT + FUTURE_EVENTS
)


@pytest.mark.parametrize(("text", "channel", "expect"), CASES)
def test_leftover_phrasing(text: str, channel: str, expect: dict) -> None:
    got = to_json(answer(text, Channel(channel)))
    for key, want in expect.items():
        if key in ("fp32_hours", "ratio"):
            assert got[key] == pytest.approx(want, abs=1e-3), (text, key, got)
        else:
            assert got[key] == want, (text, key, got)
