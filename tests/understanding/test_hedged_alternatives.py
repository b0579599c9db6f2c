"""Times and ratios said with a hedge, and times said with "within".

A time introduced by "within", «خلال», «في غضون» is how long the run takes
("training is done within 2 hours", «التدريب خلال ساعتين»); only a need or a
want before it ("must finish within 2 days", «لازم يخلص خلال يومين», «بدي ياه خلال
يومين») makes it a deadline (convention 4).

(text, channel, FP32 hours or None, ratio or None, reason or None, candidates).
"""

from __future__ import annotations

import pytest
from readings import check_reading

WITHIN = [
    ("done within 2 hours", "dm", 2, None, None),
    ("training is done within 36 hours, ratio 1.8", "mention", 36, 1.8, None),
    ("fp32 finishes within 3 days on V100 and amp gives 2x", "dm", 72, 2, None),
    ("التدريب خلال ساعتين", "dm", 2, None, None),
    ("التدريب يخلص خلال ٣٦ ساعة والنسبة ١٫٨", "dm", 36, 1.8, None),
    ("يخلص في غضون ٣ ساعات", "dm", 3, None, None),
    ("التدريب ينتهي في غضون يومين بالـ fp32، والتسريع ٢", "mention", 48, 2, None),
    ("بيخلص خلال ٤٠ ساعة والـ amp أسرع بمرة ونص", "dm", 40, 1.5, None),
]

DEADLINES = [
    # A need or a want before "within" keeps it a deadline, in the clause before a comma too.
    ("fp32 takes 60h, we want it within 2 days, ratio 1.8", "mention", 60, 1.8, None),
    ("I need results by Friday, within 48 hours. FP32 takes 60 hours, AMP 1.5x", "dm", 60, 1.5, None),
    ("fp32 takes 3 days and it should be done within 2 days, ratio 2", "dm", 72, 2, None),
    ("بدي ياه خلال يومين والتدريب ٣ أيام بنسبة ٢", "dm", 72, 2, None),
    ("عايزه يخلص خلال يومين والتدريب ٣ أيام بنسبة ٢", "dm", 72, 2, None),
    ("لازم يخلص في غضون يومين والتدريب ٣ أيام بنسبة ٢", "dm", 72, 2, None),
    ("المفروض يخلص خلال ٤٠ ساعة، التدريب بالـ fp32 ياخذ ٦٠ ساعة والنسبة ١٫٨", "dm", 60, 1.8, None),
]


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), WITHIN)
def test_a_time_said_with_within_is_the_time(text, channel, hours, ratio, reason):
    check_reading(text, channel, hours, ratio, reason)


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), DEADLINES)
def test_within_after_a_need_or_a_want_is_a_deadline(text, channel, hours, ratio, reason):
    check_reading(text, channel, hours, ratio, reason)
