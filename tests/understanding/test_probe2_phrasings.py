"""Classes a second held-out probe found (``bench/data/reading_probe2.jsonl``, run with
``python bench/reading_probe.py``), each fixed by a general rule named in
docs/reading.md and checked here on phrasings other than the probe's own.

Columns: message, channel, FP32 hours, ratio, reason.
"""

from __future__ import annotations

import pytest

from tests.understanding.readings import check_reading

# A change said with "down to" or an arrow, and a measured pair or change followed by
# the job to estimate (rules fp32_and_mixed_times, measured_pair_for_job).
CHANGES_AND_JOBS = [
    ("bf16 took it 30h down to 18h", "dm", 30, 30 / 18, None),
    ("fp32 20h -> amp 12h", "dm", 20, 20 / 12, None),
    ("20h => 12h with bf16", "dm", 20, 20 / 12, None),
    ("8 hrs in fp32 → 5 hrs in amp", "dm", 8, 1.6, None),
    ("with bf16 it went from 20h to 12h. what about a 60h run?", "dm", 60, 20 / 12, None),
    ("amp brought it down from 9h to 6h, our real job is 90h", "dm", 90, 1.5, None),
    ("fp32 12h → amp 8h, how long for 3 days?", "dm", 72, 1.5, None),
    ("the run takes 30h, with amp 20h. and for a 50h run?", "dm", 50, 1.5, None),
    ("التدريب ٣٠ ساعة، ومع الـ bf16 صار ٢٠ ساعة، طيب لو ٦٠ ساعة؟", "dm", 60, 1.5, None),
    ("مع الـ amp نزل من ١٠ ساعات ل ٦ ساعات، كم لو التدريب ٥٠ ساعة؟", "dm", 50, 10 / 6, None),
    # Two times said of no precision with a third stay a question of which.
    ("20h, 12h and 60h", "dm", None, None, "ambiguous"),
]

# "before amp" is the FP32 run, not a time before something (NEGATIONS, WITH_IT), and a
# negation is read past an article written apart («بدون الـ amp»).
BEFORE_AND_AFTER = [
    ("before amp it was 10h, after amp 6h", "dm", 10, 10 / 6, None),
    ("before bf16 each run took 30 hours, with bf16 18 hours", "dm", 30, 30 / 18, None),
    ("قبل الـ amp كان ١٠ ساعات، وبعده صار ٦ ساعات", "dm", 10, 10 / 6, None),
    ("قبل الـ bf16 التدريب ياخذ ٢٠ ساعة وبعدها ١٢ ساعة", "dm", 20, 20 / 12, None),
    ("بدون الـ amp ١٠ ساعات ومعاه ٦ ساعات", "dm", 10, 10 / 6, None),
    # "before" a date or a duration still says when, not the FP32 run.
    ("قبل ٣ أيام شغلت تدريب ١٠ ساعات", "dm", 10, None, None),
    ("need it before friday, 10h fp32 2x", "dm", 10, 2, None),
]

# Rule percent_phrase: a percent said in two words.
PERCENT_PHRASES = [
    ("fp32 is 40 hours, amp is 50 per cent faster", "dm", 40, 1.5, None),
    ("التدريب ٤٠ ساعة والـ amp أسرع ب ٥٠ في المية", "dm", 40, 1.5, None),
    ("التدريب ٢٠ ساعة والـ amp يقلل الوقت ٢٠ في المائة", "dm", 20, 1.25, None),
    ("التدريب ٢٠ ساعة والـ bf16 أسرع ٣٠ بالمائة", "dm", 20, 1.3, None),
    ("التدريب كياخد ٢٠ ساعة والـ amp كيسرع ب ٤٠ فالمية", "dm", 20, 1.4, None),
]

# Rule number_and_a_fraction: a bare number completed by a half or a quarter.
NUMBERS_AND_FRACTIONS = [
    ("fp32 10 hours, speedup one and a half", "dm", 10, 1.5, None),
    ("fp32 10h, ratio 2 and a half", "dm", 10, 2.5, None),
    ("التدريب عشرين ساعة والتسريع واحد ونص", "dm", 20, 1.5, None),
    ("التدريب ١٠ ساعات والنسبة ٢ وربع", "dm", 10, 2.25, None),
    ("التدريب ١٠ ساعات والتسريع ١ و نص", "dm", 10, 1.5, None),
    # A unit's number keeps its duration reading.
    ("2 and a half hours 2x", "command", 2.5, 2, None),
    ("2h and a half, 1.5x", "dm", 2.5, 1.5, None),
]

# "2x w amp" (MULTIPLE_SAID_OF), "at 65%" (no clock), a label a few words back past
# an article written apart and a hedge (labelled_ratio).
SPEEDUPS_SAID_OF_A_SETUP = [
    ("fp32 3 days, 2x w amp", "dm", 72, 2, None),
    ("fp32 10h, 1.5x w/ bf16", "dm", 10, 1.5, None),
    ("bf16 runs at 60% of the fp32 time, fp32 is 20h", "dm", 20, 100 / 60, None),
    ("fp32 20h, with amp we are at 80 % of that", "dm", 20, 1.25, None),
    ("التدريب ٤٨ ساعة، والتسريع المتوقع من الـ amp حوالي ١٫٧", "dm", 48, 1.7, None),
    ("التدريب ٢٠ ساعة، والنسبة مع الـ bf16 تقريبا ١٫٤", "dm", 20, 1.4, None),
    ("fp32 40h, speedup of the bf16 run about 1.6", "dm", 40, 1.6, None),
    # «بـ» after a mixed precision labels the ratio, as "at" does (PRECISION_AT).
    ("التدريب ٤٠ ساعة، طيب والـ amp بـ ١٫٨؟", "dm", 40, 1.8, None),
    ("التدريب ١٠ ساعات، وش رايك بالـ bf16 ب ١٫٥؟", "dm", 10, 1.5, None),
]

# A unit completed by a fraction is a time of its own beside another (rule duration).
UNIT_WORDS_WITH_FRACTIONS = [
    ("ساعتين fp32 و ساعة وربع amp", "dm", 2, 1.6, None),
    ("fp32 2 hours, amp an hour and a quarter", "dm", 2, 1.6, None),
    ("fp32 يومين و amp يوم ونص", "dm", 48, 48 / 36, None),
    # A unit alone stays weak: "a day" is no second time beside 40h.
    ("fp32 40h, about a day with amp?", "dm", 40, None, None),
]

CASES = (
    CHANGES_AND_JOBS
    + BEFORE_AND_AFTER
    + PERCENT_PHRASES
    + NUMBERS_AND_FRACTIONS
    + SPEEDUPS_SAID_OF_A_SETUP
    + UNIT_WORDS_WITH_FRACTIONS
)


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), CASES)
def test_probe2_phrasing(text, channel, hours, ratio, reason):
    check_reading(text, channel, hours, ratio, reason)
