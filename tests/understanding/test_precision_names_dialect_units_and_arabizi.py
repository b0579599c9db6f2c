"""Words that look like values but are not, and dialect spellings that are.

"half precision" / "نص دقة" name a precision (FP16), never the ratio "halves";
"ي" right after a number is days, Levantine "تيام" is days, Maghrebi جوج/زوج/زوز
are 2, ربعة is 4, السوايع are hours ("ربعة د السوايع": four of the hours);
Arabizi units (ayam, saa, sa3tein, yomein) are durations and a digit glued into
a Latin word ("3ndi", "3ala") is a letter, not a number.

(text, channel, FP32 hours or None, ratio or None, reason or None).
"""

import pytest
from readings import check_reading

from bot.models import Channel
from bot.understanding import understand

CASES = [
    # Half precision is FP16, so no ratio is given: a range (or a preset with a GPU).
    ("36h fp32, want to try half precision", "mention", 36, None, None),
    ("36h in full precision, we want to try half precision on V100", "mention", 36, None, None),
    ("التدريب ٣٦ ساعة بالـ fp32 ونبي نجرب نص دقة", "mention", 36, None, None),
    # ... while "half the time" is still the ratio 2.
    ("36h fp32, amp takes half the time", "mention", 36, 2, None),
    # Arabic day abbreviation and dialect plurals.
    ("٣ ي ٢", "command", 72, 2, None),
    ("١٠٠ س ٢", "command", 100, 2, None),
    ("التدريب يطوّل ٣ تيام بالـ fp32، والنسبة ٢", "mention", 72, 2, None),
    # Maghrebi number words and hours.
    ("التدريب كياخد جوج أيام ف fp32 والنسبة ٢", "mention", 48, 2, None),
    ("التدريب كياخد زوز أيام ف fp32 والنسبة ٢", "mention", 48, 2, None),
    ("التدريب كياخد زوج أيام ف fp32 والنسبة ٢", "mention", 48, 2, None),
    ("التدريب كياخد ربعة د السوايع ف fp32 والنسبة ٢", "mention", 4, 2, None),
    ("التدريب كياخد ٣٠ سوايع ف fp32 والنسبة ٢", "mention", 30, 2, None),
    # "٣٠ د" alone is still thirty minutes.
    ("٣٠ د ٢", "command", 0.5, 2, None),
    # Arabizi.
    ("el training byakhod 3 ayam 3ala fp32, kam haykhod bel amp?", "mention", 72, None, None),
    ("training 3ndi ya5od 48 saa fp32 w ratio 2, kam?", "mention", 48, 2, None),
    ("el fp32 byakhod yomein, ratio 2", "mention", 48, 2, None),
    ("el fp32 byakhod sa3tein w ratio 2", "mention", 2, 2, None),
    ("3ala el fp32 10 sa3at, 2x", "mention", 10, 2, None),
    # A digit glued to a unit or a count is still a number.
    ("fp32 3days ratio 2", "mention", 72, 2, None),
]


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), CASES)
def test_reading(text, channel, hours, ratio, reason) -> None:
    check_reading(text, channel, hours, ratio, reason)


def test_half_precision_is_the_fp16_precision() -> None:
    q = understand("36h fp32, want to try half precision", Channel.MENTION)
    assert q.precision == "fp16", q
