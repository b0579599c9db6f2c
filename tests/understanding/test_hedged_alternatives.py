"""Times and ratios said with a hedge, and times said with "within".

A second guess at the time after a word of doubt is an alternative, after a comma
or an "and" ("40-ish hours, maybe 45", "about 40h and perhaps 50", «٤٠ ساعة ويمكن
٥٠», «حوالي ٤٠ ساعة وممكن ٥٠»): both are candidates and the reply asks which, never
taking the first (rule ``alternatives``). A number many times smaller or larger is no
second guess at the time ("takes 100 hours, maybe 1.5").

A time introduced by "within", «خلال», «في غضون» is how long the run takes
("training is done within 2 hours", «التدريب خلال ساعتين»); only a need or a
want before it ("must finish within 2 days", «لازم يخلص خلال يومين», «بدي ياه خلال
يومين») makes it a deadline (convention 4).

(text, channel, FP32 hours or None, ratio or None, reason or None, candidates).
"""

from __future__ import annotations

import pytest
from readings import check_reading

HEDGED_TIMES = [
    ("٤٠ ساعة ويمكن ٥٠", "dm", None, None, "ambiguous", ["40", "50"]),
    ("40-ish hours, maybe 45", "dm", None, None, "ambiguous", ["40", "45"]),
    ("about 40h, maybe 50", "dm", None, None, "ambiguous", ["40", "50"]),
    ("حوالي ٤٠ ساعة وممكن ٥٠", "dm", None, None, "ambiguous", ["40", "50"]),
    ("40 hours and maybe 50", "dm", None, None, "ambiguous", ["40", "50"]),
    ("training about 40 hours, possibly 45, ratio 2", "mention", None, 2, "ambiguous", ["40", "45"]),
    ("40ish h and perhaps 50, amp 2x", "dm", None, 2, "ambiguous", ["40", "50"]),
    ("fp32 is 2 days-ish, maybe 3", "dm", None, None, "ambiguous", ["2", "3"]),
    ("40h-ish, could be 50, ratio 2", "dm", None, 2, "ambiguous", ["40", "50"]),
    ("التدريب ٤٠ ساعة وربما ٥٠ والتسريع ١٫٥", "dm", None, 1.5, "ambiguous", ["40", "50"]),
    ("ياخد ٤٠ ساعة وبلكي ٥٠", "dm", None, None, "ambiguous", ["40", "50"]),
    ("التدريب هياخد حوالي ٤٠ ساعة وممكن ٥٠", "dm", None, None, "ambiguous", ["40", "50"]),
    ("ياخذ ٤٠ ساعة ويمكن ٤٥", "dm", None, None, "ambiguous", ["40", "45"]),
    ("٤٠ ساعة تقريبا، يمكن ٥٠", "dm", None, None, "ambiguous", ["40", "50"]),
    ("١٠٠ ساعة و يمكن ١٢٠ بالـ fp32، النسبة ٢", "dm", None, 2, "ambiguous", ["100", "120"]),
]

NOT_A_SECOND_GUESS = [
    ("training takes 100 hours, maybe 1.5", "dm", 100, None, None),
    ("takes 40 hours and maybe 2 on amp", "dm", 40, None, None),
    ("about 40h and perhaps 50 epochs, ratio 2", "dm", 40, 2, None),
    ("40-ish hours 2", "command", 40, 2, None),
    ("التدريب ١٠٠ ساعة وممكن ٨ كروت، النسبة ٢", "dm", 100, 2, None),
]

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


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason", "between"), HEDGED_TIMES)
def test_a_hedged_second_guess_at_the_time_is_asked_about(
    text, channel, hours, ratio, reason, between
):
    check_reading(text, channel, hours, ratio, reason, between)


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), NOT_A_SECOND_GUESS)
def test_a_number_far_from_the_time_or_counting_something_is_no_second_guess(
    text, channel, hours, ratio, reason
):
    check_reading(text, channel, hours, ratio, reason)
