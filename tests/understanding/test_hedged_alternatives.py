"""Times and ratios said with a hedge, and times said with "within".

Two or more guesses at the ratio, set side by side by words of doubt or of
alternatives ("maybe 1.5, maybe 2", "perhaps 1.3 or perhaps 1.8", «يمكن ١٫٥ يمكن ٢»,
«إما ١٫٥ أو ٢», «يا ١٫٥ يا ٢», «بلكي ١٫٥ بلكي ٢»), with or without a label and beside
a time, are all ratio candidates: the reply asks which, and never pairs the time
with one of them. Two words the tables give the same number, offered as
alternatives («يا ضعف يا ضعفين»), are asked about as written.

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

from bot.models import Channel, Reason
from bot.understanding import understand

HEDGED_RATIOS = [
    ("maybe 1.5, maybe 2", "dm", None, None, "ambiguous", ["1.5", "2"]),
    ("perhaps 1.3 or perhaps 1.8", "dm", None, None, "ambiguous", ["1.3", "1.8"]),
    ("ratio possibly 1.4 or possibly 1.7", "dm", None, None, "ambiguous", ["1.4", "1.7"]),
    (
        "training takes 100 hours, speedup maybe 1.5 maybe 2",
        "mention",
        100,
        None,
        "ambiguous",
        ["1.5", "2"],
    ),
    ("training takes 100 hours, maybe 1.5 maybe 2", "dm", 100, None, "ambiguous", ["1.5", "2"]),
    ("fp32 36h, amp maybe 1.5x maybe 2", "dm", 36, None, "ambiguous", ["1.5", "2"]),
    (
        "the speedup is either 1.5 or 2, fp32 takes 3 days",
        "mention",
        72,
        None,
        "ambiguous",
        ["1.5", "2"],
    ),
    ("100 1.5 or 2", "command", 100, None, "ambiguous", ["1.5", "2"]),
    ("100 maybe 1.5 maybe 2", "command", 100, None, "ambiguous", ["1.5", "2"]),
    ("يمكن ١٫٥ يمكن ٢", "dm", None, None, "ambiguous", ["1.5", "2"]),
    ("إما ١٫٥ أو ٢", "dm", None, None, "ambiguous", ["1.5", "2"]),
    ("يا ١٫٥ يا ٢", "dm", None, None, "ambiguous", ["1.5", "2"]),
    ("بلكي ١٫٥ بلكي ٢", "dm", None, None, "ambiguous", ["1.5", "2"]),
    ("١٠٠ يا ١٫٥ يا ٢", "command", 100, None, "ambiguous", ["1.5", "2"]),
    ("التدريب ١٠٠ ساعة والتسريع يمكن ١٫٥ يمكن ٢", "dm", 100, None, "ambiguous", ["1.5", "2"]),
    ("التدريب ٤٠ ساعة، ممكن ١٫٥ ممكن ٢", "dm", 40, None, "ambiguous", ["1.5", "2"]),
    ("التدريب بياخد ٣٠ ساعة والـ amp يا ١٫٥ يا ٢", "dm", 30, None, "ambiguous", ["1.5", "2"]),
    ("التدريب ياخذ ٣٠ ساعة، والتسريع إما ١٫٥ أو ٢", "dm", 30, None, "ambiguous", ["1.5", "2"]),
    # A word of doubt alone, and guesses after a labelled ratio across a comma.
    ("ratio of 1.5 maybe 2", "dm", None, None, "ambiguous", ["1.5", "2"]),
    ("speedup could be 1.5, could be 2", "dm", None, None, "ambiguous", ["1.5", "2"]),
    ("fp32 40h amp 1.5 probably 2", "dm", 40, None, "ambiguous", ["1.5", "2"]),
    ("training 40 hours, 1.5 maybe 2", "dm", 40, None, "ambiguous", ["1.5", "2"]),
    ("النسبة ١٫٥، يمكن ٢", "dm", None, None, "ambiguous", ["1.5", "2"]),
    ("ممكن ١٫٥ ممكن ٢", "dm", None, None, "ambiguous", ["1.5", "2"]),
    ("يا ضعف يا ضعفين", "dm", None, None, "ambiguous", ["ضعف", "ضعفين"]),
    (
        "التدريب ١٠٠ ساعة والـ amp أسرع يا ضعف يا ضعفين",
        "dm",
        100,
        None,
        "ambiguous",
        ["ضعف", "ضعفين"],
    ),
    # Guesses too large for a ratio are times.
    ("maybe 40 maybe 50, ratio 2", "dm", None, 2, "ambiguous", ["40", "50"]),
    ("يمكن ٤٠ يمكن ٥٠ ساعة والنسبة ٢", "dm", None, 2, "ambiguous", ["40", "50"]),
]

NOT_GUESSES_AT_THE_RATIO = [
    # A joiner beside a count keeps the count's; the message is no bare command.
    ("4 or 8 GPUs, 40 hours, ratio 2", "dm", 40, 2, None),
    ("batch 32 or 64, training 10h ratio 2", "dm", 10, 2, None),
    ("يمكن ٤ يمكن ٨ كروت، التدريب ٤٠ ساعة والنسبة ٢", "dm", 40, 2, None),
    # The vocative «يا» offers nothing.
    ("يا جماعة التدريب ٤٠ ساعة والنسبة ٢", "dm", 40, 2, None),
    ("fp32 takes 40 hours, amp maybe 2x", "dm", 40, 2, None),
]

HEDGED_TIMES = [
    ("٤٠ ساعة ويمكن ٥٠", "dm", None, None, "ambiguous", ["40", "50"]),
    ("40-ish hours, maybe 45", "dm", None, None, "ambiguous", ["40", "45"]),
    ("about 40h, maybe 50", "dm", None, None, "ambiguous", ["40", "50"]),
    ("حوالي ٤٠ ساعة وممكن ٥٠", "dm", None, None, "ambiguous", ["40", "50"]),
    ("40 hours and maybe 50", "dm", None, None, "ambiguous", ["40", "50"]),
    (
        "training about 40 hours, possibly 45, ratio 2",
        "mention",
        None,
        2,
        "ambiguous",
        ["40", "45"],
    ),
    ("40ish h and perhaps 50, amp 2x", "dm", None, 2, "ambiguous", ["40", "50"]),
    ("fp32 is 2 days-ish, maybe 3", "dm", None, None, "ambiguous", ["2", "3"]),
    ("40h-ish, could be 50, ratio 2", "dm", None, 2, "ambiguous", ["40", "50"]),
    ("التدريب ٤٠ ساعة وربما ٥٠ والتسريع ١٫٥", "dm", None, 1.5, "ambiguous", ["40", "50"]),
    ("ياخد ٤٠ ساعة وبلكي ٥٠", "dm", None, None, "ambiguous", ["40", "50"]),
    ("التدريب هياخد حوالي ٤٠ ساعة وممكن ٥٠", "dm", None, None, "ambiguous", ["40", "50"]),
    ("ياخذ ٤٠ ساعة ويمكن ٤٥", "dm", None, None, "ambiguous", ["40", "45"]),
    ("٤٠ ساعة تقريبا، يمكن ٥٠", "dm", None, None, "ambiguous", ["40", "50"]),
    ("١٠٠ ساعة و يمكن ١٢٠ بالـ fp32، النسبة ٢", "dm", None, 2, "ambiguous", ["100", "120"]),
    ("40 hours maybe 50", "dm", None, None, "ambiguous", ["40", "50"]),
    ("التدريب ٤٠ ساعة يمكن ٥٠", "dm", None, None, "ambiguous", ["40", "50"]),
    ("fp32 time: 40, maybe 50", "dm", None, None, "ambiguous", ["40", "50"]),
]

NOT_A_SECOND_GUESS = [
    # A lone hedged number after the time is read as a bare one is ("…, 1.5"): the ratio.
    ("training takes 100 hours, maybe 1.5", "dm", 100, 1.5, None),
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
    ("التدريب بيخلص بظرف ساعتين", "dm", 2, None, None),
    ("يخلص جوا ساعتين", "dm", 2, None, None),
    ("the fp32 run is done within 10 hours, amp 1.8x", "dm", 10, 1.8, None),
]

DEADLINES = [
    # A need or a want before "within" keeps it a deadline, in the clause before a comma too.
    ("fp32 takes 60h, we want it within 2 days, ratio 1.8", "mention", 60, 1.8, None),
    (
        "I need results by Friday, within 48 hours. FP32 takes 60 hours, AMP 1.5x",
        "dm",
        60,
        1.5,
        None,
    ),
    ("fp32 takes 3 days and it should be done within 2 days, ratio 2", "dm", 72, 2, None),
    ("بدي ياه خلال يومين والتدريب ٣ أيام بنسبة ٢", "dm", 72, 2, None),
    ("عايزه يخلص خلال يومين والتدريب ٣ أيام بنسبة ٢", "dm", 72, 2, None),
    ("لازم يخلص في غضون يومين والتدريب ٣ أيام بنسبة ٢", "dm", 72, 2, None),
    ("لازم يخلص بظرف يومين والتدريب ٣ أيام بنسبة ٢", "dm", 72, 2, None),
    ("لازم يخلص جوا يومين والتدريب ٣ أيام بنسبة ٢", "dm", 72, 2, None),
    ("we need it inside 2 days, fp32 takes 3 days, ratio 2", "dm", 72, 2, None),
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


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason", "between"), HEDGED_RATIOS)
def test_hedged_guesses_at_the_ratio_are_asked_about(text, channel, hours, ratio, reason, between):
    check_reading(text, channel, hours, ratio, reason, between)


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), NOT_GUESSES_AT_THE_RATIO)
def test_words_of_alternatives_beside_a_count_offer_no_ratio(text, channel, hours, ratio, reason):
    check_reading(text, channel, hours, ratio, reason)


@pytest.mark.parametrize("text", ["maybe 2, maybe 2.5", "يمكن ٢ يمكن ٢٫٥؟", "و يا ٢ يا ٣؟"])
def test_in_a_thread_hedged_guesses_are_ratios_to_choose_from(text):
    query = understand(text, Channel.DM, follow_up=True)
    assert query.reason is Reason.AMBIGUOUS and query.ratio is None, query
    assert len(query.candidates) == 2, query
