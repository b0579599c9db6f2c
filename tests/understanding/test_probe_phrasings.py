"""Classes the held-out probes found (``bench/data/reading_probe2.jsonl`` to
``reading_probe6.jsonl``, run with ``python bench/reading_probe.py``), each fixed by
a general rule named in docs/reading.md and checked here on phrasings other than the
probe's own.

Columns: message, channel, FP32 hours, ratio, reason.
"""

from __future__ import annotations

import pytest

from bot.models import Channel, Intent, Reason
from bot.understanding import understand
from tests.understanding.readings import check_reading

# Rule finished_in: an H:MM:SS after a verb of finishing and "in" («في», «خلال») is
# how long the run took; "finished at" stays a clock time.
FINISHED_IN = [
    ("the fp32 job completed in 11:20:00", "dm", 11 + 1 / 3, None, None),
    ("done training in 4:15:00 with fp32, amp 1.5x?", "dm", 4.25, 1.5, None),
    ("baseline ended in 20:00:00. bf16 gives 2x", "dm", 20, 2, None),
    ("التدريب انتهى في ٨:٤٥:٠٠ بالـ fp32", "dm", 8.75, None, None),
    ("خلصت التجربة خلال ١٢:٣٠:٠٠، والتسريع ١٫٥", "dm", 12.5, 1.5, None),
    ("اكتمل في ٣:٠٠:٠٠ والـ bf16 أسرع مرتين", "dm", 3, 2, None),
]

# Rule epochs_times_duration: a duration multiplied ("x", "×") by a count of epochs is
# one epoch's, and the count makes the run's time.
EPOCHS_TIMES = [
    ("40 epochs x 9 min in fp32", "dm", 6, None, None),
    ("fp32: 15 min × 12 epochs, amp 1.6x", "dm", 3, 1.6, None),
    ("10 epochs x 2h each, bf16 gives 1.5x", "dm", 20, 1.5, None),
    ("٣٠ ايبوك × ١٠ دقايق بالـ fp32", "dm", 5, None, None),
    ("نص ساعة x ٢٠ epoch والتسريع ٢", "dm", 10, 2, None),
    # A count of something else is no epoch count: "2 days x 3" stays a ratio.
    ("2 days x 3", "command", 48, 3, None),
]

# Rule mixed_clause: a mixed precision opening a clause of its own («والـ amp», "and
# bf16") owns the number after it; the FP32 time label before the clause ("fp32",
# «تدريب») no longer takes it as the mixed run's time (36 h ÷ 1.5 = a 24x "ratio").
# Whether the bare number is then the ratio is another rule's call: either is allowed.
MIXED_CLAUSES = [
    ("التدريب ٣٦ ساعة fp32 والـ bf16 ١٫٥", 36, 1.5),
    ("اسبوع تدريب fp32 والـ amp يعطي ١٫٧", 168, 1.7),
    ("ثلاث ايام fp32 و bf16 ٢", 72, 2),
    ("training 30 hours fp32 and amp 1.4", 30, 1.4),
]


@pytest.mark.parametrize(("text", "hours", "bare"), MIXED_CLAUSES)
def test_mixed_clause_owns_its_number(text, hours, bare):
    q = understand(text, Channel("dm"))
    assert q.fp32 is not None and q.fp32.hours == pytest.approx(hours), q
    assert q.ratio is None or q.ratio == pytest.approx(bare), q


# A closer label in the mixed precision's clause still reads its time or ratio.
MIXED_CLAUSE_LABELS = [
    ("fp32 10 hours and bf16 takes 6", "dm", 10, 10 / 6, None),
    ("التدريب ١٠ ساعات fp32 والـ bf16 ٦ ساعات", "dm", 10, 10 / 6, None),
    ("training takes 12h and the speedup with amp is 1.5", "dm", 12, 1.5, None),
    ("التدريب ٢٠ ساعة والتسريع مع الـ amp ١٫٦", "dm", 20, 1.6, None),
]


# Rule mixed_precision_ratio with YIELD_VERBS: a verb of bringing between the mixed
# precision and its bare number ("gives", «يعطي») leaves the number its ratio, and a
# time written in words («أسبوعين», "two weeks") is a time with its unit.
YIELDED_RATIOS = [
    ("fp32 9h and bf16 gives 1.5", "dm", 9, 1.5, None),
    ("fp32 40 hours, amp would give 1.6", "dm", 40, 1.6, None),
    ("training is two weeks, amp gives 1.9", "dm", 336, 1.9, None),
    ("أسبوعين تدريب fp32 والـ bf16 يعطي ١٫٩", "dm", 336, 1.9, None),
    ("التدريب ٤٠ ساعة والـ amp بيدي ١٫٧", "dm", 40, 1.7, None),
    # A time after the verb stays a time: the ratio comes from the two times.
    ("amp would give 20 hours, fp32 is 40", "dm", 40, 2, None),
]


# Rules own_result, epoch_time_change and a "/" after a time (probe2's misses 151,
# 162, 174, checked on other phrasings): the user's own working-out is never the FP32
# time; an epoch time that mixed precision changed is a measured pair.
WORKED_OUT = [
    ("fp32 is 80 hours and someone said amp is ~1.6x. so ~50h?", "dm", 80, 1.6, None),
    ("fp32 40h, amp 2x, so 20h right?", "dm", 40, 2, None),
    ("so 60 hrs / 1.5 = 40?", "dm", 60, 1.5, None),
    ("90h/2 = 45h?", "dm", 90, 2, None),
    ("التدريب ٤٠ ساعة والنسبة ٢، يعني ٢٠ ساعة؟", "dm", 40, 2, None),
    ("الـ fp32 ياخذ ٣٠ ساعة والـ bf16 أسرع بـ ١٫٥، اذن ٢٠ ساعة صح؟", "dm", 30, 1.5, None),
    # No working-out: a label's "=" and a message that starts with "so".
    ("fp32=40h amp=25h", "dm", 40, 1.6, None),
    ("so 40 hours in fp32 and 2x?", "dm", 40, 2, None),
    # A counter is no division.
    ("epoch 3/10 took 2h with fp32, amp 1.5x", "dm", 2, 1.5, None),
    ("bf16 cut the epoch time from 30 min to 20 min, the fp32 run is 12h", "dm", 12, 1.5, None),
    ("with amp each epoch went from 9 min down to 6 min, 40 epochs", "dm", 6, 1.5, None),
    ("وقت الـ epoch نزل من ٢٠ دقيقة لـ ١٠ مع الـ bf16", "dm", 1 / 3, 2, None),
]


# A bare time paired with one in its unit is in that unit (never 90 minutes against
# 60 hours, a ratio of 0.025), and a bare step time joined to a named one is in its
# seconds (rule step_time_partner; probe2-114).
SHARED_UNITS = [
    ("with amp it went from 90 min to 60", "dm", 1.5, 1.5, None),
    ("التدريب ٩٠ دقيقة بالـ fp32 و ٦٠ مع amp", "dm", 1.5, 1.5, None),
    ("مع الـ bf16 نزل من ٤٥ دقيقة لـ ٣٠", "dm", 0.75, 1.5, None),
    ("a step takes 0.9 s in fp32 and 0.6 with amp, 40k steps", "dm", 10, 1.5, None),
    ("خطوة التدريب تاخد ١٫٢ ثانية بالـ fp32 و ٠٫٦ مع bf16، وعندي ٣٠ الف خطوة", "dm", 10, 2, None),
    # A label with no unit and nothing to pair with stays hours.
    ("FP32 time: 40, amp 2x", "dm", 40, 2, None),
]


# Classes probe4 found (bench/data/reading_probe4.jsonl), on other phrasings: a sign
# between a mixed precision and its ratio ("amp = 1.45"), a mixed precision typed
# against its multiple ("amp2x", "bf16x2"), an H:MM with its format written out, and a
# progress bar printed with no rate ("[18:00<00:00]").
PROBE4_CLASSES = [
    ("fp32 takes 30 hrs, speedup w/ bf16 = 1.6", "dm", 30, 1.6, None),
    ("قل لي: fp32 = ٤٠ ساعة، bf16 = ١٫٨", "dm", 40, 1.8, None),
    ("fp32 60h amp1.5x", "dm", 60, 1.5, None),
    ("80h in fp32, fp16x2?", "dm", 80, 2, None),
    ("baseline 3:45 (h:mm) in fp32, amp 1.5x", "dm", 3.75, 1.5, None),
    ("التدريب استغرق ٤:١٥ (ساعة:دقيقة) بالـ fp32 والنسبة ٢", "dm", 4.25, 2, None),
    (
        "Epoch 1: 100%|█████| 800/800 [24:00<00:00] per epoch in fp32, 10 epochs, amp 2x",
        "dm",
        4,
        2,
        None,
    ),
    ("60%|██████ | 600/1000 [30:00<20:00] fp32, amp 2x?", "dm", 50 / 60, 2, None),
    # The dialect object suffix -و on the verb of speeding up ("speeds it up").
    ("التدريب كياخد 30 ساعة ف fp32 والـ bf16 كيسرعو ب 1.6", "dm", 30, 1.6, None),
    ("التدريب ٢٠ ساعة والـ amp بيسرعو ب ١٫٥", "dm", 20, 1.5, None),
    # One time or another, as runs vary: both are offered, the reply asks which.
    ("training sometimes takes 10h, sometimes 15h, amp 1.5x", "dm", None, 1.5, "ambiguous"),
    ("التدريب مرة ياخذ ٢٠ ساعة ومرة ٢٥، والتسريع ١٫٥", "dm", None, 1.5, "ambiguous"),
    ("التدريب أحيانا ٢٠ ساعة وأحيانا ٢٥", "dm", None, None, "ambiguous"),
    # «مرة» of a multiple stays the ratio's.
    ("التدريب ٣٠ ساعة والـ amp أسرع مرة ونص", "dm", 30, 1.5, None),
    # A heart is no part of a clock, and stays a heart elsewhere.
    ("thanks <3 100h 2x", "dm", 100, 2, None),
]


# Classes probe5 found (bench/data/reading_probe5.jsonl), on other phrasings: a finished
# Keras line's elapsed seconds after an "Epoch a/b" header time that epoch (rule
# progress_elapsed, times the epochs said, else answered per epoch); a mixed
# precision's bare number after a pasted progress line is its ratio (the line's elapsed
# time is the message's time, rule mixed_precision_ratio); the Maghrebi week «سيمانة».
PROBE5_CLASSES = [
    (
        (
            "Epoch 5/5\n391/391 ━━━━━━━━━━━━━━━━━━━━ 95s 243ms/step - accuracy: 0.81 - loss: 0.52\n"
            "that's one fp32 epoch, we run 40 epochs, bf16 is 1.7x"
        ),
        "dm",
        95 * 40 / 3600,
        1.7,
        None,
    ),
    (
        (
            "Epoch 1/20\n600/600 [==============================] - 300s 500ms/step - loss: 0.3\n"
            "fp32, 20 epochs, amp 2x"
        ),
        "dm",
        300 * 20 / 3600,
        2,
        None,
    ),
    (
        (
            "Epoch 1/30\n1000/1000 [==============================] - 180s 180ms/step\n"
            "هذا بالـ fp32، وعندي ٣٠ epoch، والـ amp ١٫٥"
        ),
        "dm",
        1.5,
        1.5,
        None,
    ),
    # No epoch count said: one epoch's time, answered per epoch.
    (
        "Epoch 3/50\n200/200 [====] - 60s 300ms/step - loss: 0.2\nfp32, speedup 1.4",
        "dm",
        1 / 60,
        1.4,
        None,
    ),
    # A line still running prints its time left, not the epoch's: no time is read.
    (
        "Epoch 1/20\n250/600 [===========>......] - ETA: 2:55 - loss: 0.3\nfp32, 20 epochs, amp 2x",
        "dm",
        None,
        2,
        "no_numbers",
    ),
    (
        "Epoch 1/30: 100%|██████████| 500/500 [04:00<00:00, 2.08it/s]\nthats fp32, with amp 1.7. total?",
        "dm",
        2,
        1.7,
        None,
    ),
    (
        (
            "Epoch 1/30: 100%|██████████| 500/500 [04:00<00:00, 2.08it/s]\n"
            "fp32 و الـ amp ١٫٧، كم الوقت الكامل؟"
        ),
        "dm",
        2,
        1.7,
        None,
    ),
    ("الـ fp32 كياخد ٣ سيمانات والـ amp ٢", "dm", 504, 2, None),
    ("التدريب خدا سمانة كاملة بالـ fp32 والتسريع ١٫٨", "dm", 168, 1.8, None),
    ("fp32 = 2 سيمانات, amp x1.5", "dm", 336, 1.5, None),
    ("التدريب كياخد جوج سيمانات فـ fp32 والتسريع ١٫٦", "dm", 336, 1.6, None),
]

# Probe6's classes, each on phrasings other than the probe's own.
# PCT_LESS: verbs that take a share off the time ("knocked 35% off", "chopped", "lops",
# «بيشيل ٢٠٪ من الوقت») cut it: never a share that remains (20% off is 1.25, not 5).
PERCENT_OFF = [
    ("amp knocks 20% off the runtime, fp32 is 30h", "dm", 30, 1.25, None),
    ("bf16 chopped 50% off our fp32 time of 12h", "dm", 12, 2, None),
    ("fp32 20h; amp lops 25% off", "dm", 20, 4 / 3, None),
    ("الـ amp بيشيل ٢٠٪ من الوقت، والـ fp32 ٣٠ ساعة", "dm", 30, 1.25, None),
    ("الـ bf16 شال ٥٠٪ من وقت التدريب، كان ١٢ ساعة", "dm", 12, 2, None),
]

# YIELD_VERBS: more verbs of bringing ("delivers", "got", "offers"; Maghrebi «كيعطي»,
# «تيعطي») between a mixed precision and its bare ratio (rule mixed_precision_ratio).
MORE_YIELD_VERBS = [
    ("fp32 takes 10 hours and bf16 delivers 1.6", "dm", 10, 1.6, None),
    ("training is 2 days in fp32, amp got 1.4 on our last run", "dm", 48, 1.4, None),
    ("fp32 20h, amp offers 1.3", "dm", 20, 1.3, None),
    ("التدريب كياخد ١٠ سوايع ف fp32 و amp كيعطي ١٫٥", "dm", 10, 1.5, None),
    ("الـ fp32 كياخد يومين والـ bf16 تيعطي ١٫٧", "dm", 48, 1.7, None),
]

# Rule finished_in with "after" («بعد»): "ended after 9:15:00" is how long it ran;
# "finished at 7:30:00" stays a clock time.
FINISHED_AFTER = [
    ("the fp32 job finished after 9:15:00, amp 1.5x", "dm", 9.25, 1.5, None),
    ("انتهى التدريب بعد ٤:٣٠:٠٠ والتسريع ٢", "dm", 4.5, 2, None),
    ("the job finished at 7:30:00, amp 2x", "dm", None, 2, "no_numbers"),
]

# RATIO_LABELS in the MSA accusative: «تسريعاً قدره ١٫٧», «معاملاً قدره ٢».
ACCUSATIVE_LABELS = [
    ("يستغرق التدريب ٢٠ ساعة، ونتوقع تسريعاً قدره ١٫٥", "dm", 20, 1.5, None),
    ("التدريب ١٠ ساعات بدقة fp32، ويعطي amp معاملاً قدره ٢", "dm", 10, 2, None),
    ("مدة التدريب يومان، وحققنا تسريعاً مقداره ١٫٨", "dm", 48, 1.8, None),
]

# Rule mixed_precision_ratio: an H:MM the format says is hours and minutes ("(h:mm)",
# «(ساعات:دقائق)») is a time with its unit, so the mixed precision's bare number is the ratio.
CLOCK_FORMAT_TIMES = [
    ("baseline took 2:45 (h:mm) in fp32, with amp 1.5", "dm", 2.75, 1.5, None),
    ("fp32 run: 10:30 (hh:mm); bf16 1.4", "dm", 10.5, 1.4, None),
    ("التدريب خلص في ٧:٣٠ بالـ fp32 (ساعات:دقائق) والـ amp ١٫٥", "dm", 7.5, 1.5, None),
]

# Rule epoch_time_change: the changed epoch is the measured pair, FP32 end first, even
# when the mixed precision is named right before its first end; a third time is the job.
EPOCH_CHANGE_PAIRS = [
    ("amp took our epoch from 10 min down to 5 min, fp32 run is 20h", "dm", 20, 2, None),
    (
        "with bf16 the epoch went from 30 min to 20 min, whole fp32 training is 3 days",
        "dm",
        72,
        1.5,
        None,
    ),
    (
        "الـ amp نزّل الـ epoch من ٢٠ دقيقة لـ ١٠ دقايق، والتدريب fp32 كامل ١٠ ساعات",
        "dm",
        10,
        2,
        None,
    ),
    (
        "مع الـ bf16 الـ epoch صار من ٣٠ دقيقة لـ ٢٠، والتدريب كله ٣٠ ساعة بالـ fp32",
        "dm",
        30,
        1.5,
        None,
    ),
]

# Rule fp32_and_mixed_times: the precision a time is said of may open a long clause
# ("the amp version of the exact same run took 6h"): it is looked for up to the
# clause's start (eight tokens), past the words that describe the run.
PRECISION_OPENS_CLAUSE = [
    (
        "fp32 took 10h, the amp version of the exact same run took 6h. how about a 50h job?",
        "dm",
        50,
        10 / 6,
        None,
    ),
    ("fp32 is 20h; amp on the exact same config takes 12h", "dm", 20, 20 / 12, None),
    ("الـ fp32 أخذ ١٠ ساعات، والـ amp على نفس الإعدادات بالضبط أخذ ٥ ساعات", "dm", 10, 2, None),
]

# AR_TEEN_HEADS (probe7): MSA's 11 and 12 open with a form of one or two that is a
# number only before the ten; «أحد» alone stays "someone".
MSA_ELEVEN_TWELVE = [
    ("مدة التدريب بدقة fp32 اثنتا عشرة ساعة والتسريع ١٫٥", "dm", 12, 1.5, None),
    ("يستغرق التدريب إحدى عشرة ساعة، ومع amp التسريع ٢", "dm", 11, 2, None),
    ("التدريب الكامل أحد عشر يوماً بالـ fp32 و bf16 يعطي ٢", "dm", 264, 2, None),
    ("يحتاج النموذج اثني عشر ساعة في fp32 وتسريع ١٫٨", "dm", 12, 1.8, None),
    ("هل أحد جرب amp على تدريب ١٠ ساعات؟ التسريع ١٫٥", "dm", 10, 1.5, None),
]

# Rule faster_by (probe7): the speed itself, then "by", then the number is the ratio; a
# speed with no "by" may be a rate and stays unread.
SPEED_BY = [
    ("fp32 takes 30h, amp boosts speed by 1.5", "dm", 30, 1.5, None),
    ("fp32 is 12h and bf16 raises throughput by about 1.8", "dm", 12, 1.8, None),
    ("التدريب ٣٠ ساعة بالـ fp32، والـ bf16 كيزيد السرعة ب ١٫٥", "dm", 30, 1.5, None),
    ("٢٤ ساعة fp32، و amp يرفع السرعة بمقدار ٢", "dm", 24, 2, None),
    ("fp32 takes 20h, speed is 1.6 it/s", "dm", 20, None, None),
    # The past tense, and its run-together typo (probe7: "amp spedup 1.6").
    ("fp32 was 40h, amp sped it up by 1.7", "dm", 40, 1.7, None),
    ("baseline 10 hrs in fp32; bf16 spedup about 1.5", "dm", 10, 1.5, None),
    ("fp32 30h, bf16 accelerated training by 1.3", "dm", 30, 1.3, None),
]

# Rule count_key in prose (probe7): "the number of epochs is N", «عدد الـ epochs N».
COUNT_KEY_PROSE = [
    ("one epoch is 30 min and the number of epochs is 40; amp ~1.6x", "dm", 20, 1.6, None),
    ("epoch takes 15 min, total number of epochs was 12, bf16 gives 1.5", "dm", 3, 1.5, None),
    ("الـ epoch الواحدة ٢٠ دقيقة وعدد الـ epochs ٦٠، والتسريع ٢", "dm", 20, 2, None),
    ("كل ايبوك ياخذ ساعة، وعدد الايبوكات عشرة، و amp يعطي ١٫٥", "dm", 10, 1.5, None),
]

# _is_pronoun_one (probe7): "the bf16 one 9h 30m": a pronoun "one" with the time its
# noun measured right after; "one 8h run" still counts a run.
PRONOUN_ONE_MEASURED = [
    ("fp32 took 12h, the amp one 8h. what about a 30h fp32 job?", "dm", 30, 1.5, None),
    ("our fp32 run was 20h and the bf16 one 10h", "dm", 20, 2, None),
    ("the fp32 one 9h, that amp one 6h", "dm", 9, 1.5, None),
    ("one 8h run in fp32, amp 2x", "dm", 8, 2, None),
]

PROBE6_CLASSES = (
    PERCENT_OFF
    + MORE_YIELD_VERBS
    + FINISHED_AFTER
    + ACCUSATIVE_LABELS
    + CLOCK_FORMAT_TIMES
    + EPOCH_CHANGE_PAIRS
    + PRECISION_OPENS_CLAUSE
)

# Classes of probe8's Arabic misses (and their English kin): MSA's accusative half and
# quarter after a unit, a ratio label with a possessive ending, "has" between a mixed
# precision and its ratio, "now" after a time said "before amp" (rule rate_precision;
# an epoch's time too: epoch_time_change), and "slow by N%" as a slowdown.
PROBE8_CLASSES = [
    ("استغرق التدريب بالـ fp32 يوماً ونصفاً والتسريع ١٫٥", "dm", 36, 1.5, None),
    ("مدة التدريب ثلاث ساعات وربعاً بدقة fp32", "dm", 3.25, None, None),
    ("التدريب ٢٠ ساعة بالـ fp32 والـ amp نسبته ٢", "dm", 20, 2, None),
    ("fp32 ياخذ ١٠ ساعات و bf16 تسريعها ١٫٢٥", "dm", 10, 1.25, None),
    ("fp32 ١٢ ساعة والـ amp عنده ١٫٥", "dm", 12, 1.5, None),
    ("fp32 takes 8h, bf16 has 1.6 on our box", "dm", 8, 1.6, None),
    ("قبل الـ amp كان ياخذ ١٠ ساعات والحين ٦ ساعات", "dm", 10, 10 / 6, None),
    ("before bf16 training took 30h, now 20h", "dm", 30, 1.5, None),
    (
        "قبل الـ bf16 كان الـ epoch ساعتين، دلوقتي بقى ساعة وربع، والتدريب كله ٥٠ ساعة",
        "dm",
        50,
        1.6,
        None,
    ),
    ("before amp an epoch took 24 min, now it's 15 min. full fp32 run is 60h", "dm", 60, 1.6, None),
    # "now" with no "before amp" earlier names no precision.
    ("fp32 takes 10h now, amp 1.5x", "dm", 10, 1.5, None),
    ("fp32 كياخد ١٢ ساعة، و fp16 رجع بطيء ب ١٥٪", "dm", 12, 1 / 1.15, "ratio_below_one"),
    (
        "مع الـ bf16 صار التدريب بطيئاً بنسبة ١٠٪ و fp32 ياخذ ٥ ساعات",
        "dm",
        5,
        1 / 1.1,
        "ratio_below_one",
    ),
]

# Classes of probe9's misses: "before" a few words ahead of the mixed precision ("before
# we turned on amp"), the fortnight, a time taken off the run (rule time_saved: never
# the mixed time), MSA's «إما … وإما» alternatives, and Maghrebi teens («تلطاش»).
PROBE9_CLASSES = [
    ("before we turned on amp training took 30h, now 20h", "dm", 30, 1.5, None),
    (
        "قبل ما نفعّل الـ bf16 كان الـ epoch ياخد ٣٠ دقيقة، هسه صار ٢٠ دقيقة، وعدنا ٤٠ epoch",
        "dm",
        20,
        1.5,
        None,
    ),
    ("fp32 takes 2 fortnights, amp 1.5x", "dm", 672, 1.5, None),
    ("a fortnight in fp32, bf16 gives 1.4", "dm", 336, 1.4, None),
    ("amp saves 12 hours on our 48h fp32 run", "dm", 48, 48 / 36, None),
    ("fp32 takes 40h and bf16 shaves about 10 hours off", "dm", 40, 40 / 30, None),
    ("الـ amp وفر لنا ٦ ساعات من تدريب ٢٤ ساعة بالـ fp32", "dm", 24, 24 / 18, None),
    ("fp32 ٣٠ ساعة ومع الـ amp ١٠ ساعات أقل", "dm", 30, 1.5, None),
    # What the run became is no saving: a change from one time to another.
    ("amp cut our fp32 run from 48h to 36h", "dm", 48, 48 / 36, None),
    ("مدة التدريب بالـ fp32 عشرين ساعة، والتسريع إما ١٫٣ وإما ١٫٦", "dm", 20, None, "ambiguous"),
    ("التدريب ف fp32 كياخد سطاش ساعة، و bf16 كيعطي ١٫٦", "dm", 16, 1.6, None),
    ("fp32 تمنطاش ساعة والتسريع ٢", "dm", 18, 2, None),
]

# Rule per_step_time (probe9): a duration said of one step ("a step is 1.5 minutes",
# "2 min per step", «كل خطوة تاخذ ٣ ثواني», «الخطوة الواحدة دقيقتين») is a step time
# like "90 s/step": with a step count it makes the run's time, and a pair of them, one
# per precision, the ratio; a count may follow a plural step noun («والخطوات ١٠ آلاف»).
PER_STEP_TIMES = [
    ("each iteration takes 3 minutes, 400 iterations total, bf16 1.5x", "dm", 20, 1.5, None),
    ("2 min per step on fp32, 900 steps", "dm", 30, None, None),
    ("a single step is 1.5 min with fp32 and 1 min with amp, 2000 steps", "dm", 50, 1.5, None),
    ("every step needs about 2 minutes in fp32 and we run 1,500 steps", "dm", 50, None, None),
    ("one step takes a minute in fp32; number of steps: 3,000. amp 2x", "dm", 50, 2, None),
    ("كل خطوة بتاخد دقيقة ونص بالـ fp32، وعندنا ١٠٠٠ خطوة، والتسريع ١٫٥", "dm", 25, 1.5, None),
    ("الخطوة الواحدة تستغرق ثلاث دقائق، وعدد الخطوات ٤٠٠", "dm", 20, None, None),
    ("دقيقتين للخطوة بالـ fp32 و ٣٠٠ خطوة", "dm", 10, None, None),
    ("الخطوة بتاخد دقيقتين في fp32 ودقيقة وحدة مع amp، وعدنا ٦٠٠ خطوة", "dm", 20, 2, None),
    ("كل step ياخذ ٣ ثواني والخطوات ١٢ الف", "dm", 10, None, None),
    (
        "3 min per iteration in fp32 and 2 min per iteration with bf16, 500 iterations",
        "dm",
        25,
        1.5,
        None,
    ),
    ("دقيقتين للخطوة بالـ fp32 ودقيقة للخطوة مع amp، و ٣٠٠ خطوة", "dm", 10, 2, None),
    # Counted steps take the whole run's time; a numbered step's time stays a time.
    ("1200 steps take 30 hours in fp32", "dm", 30, None, None),
    ("step 3 took 2 hours, amp 2x", "dm", 2, 2, None),
    # No training step takes an hour: a step of a plan times the job.
    ("next step: train for 20 hours with amp 1.5x", "dm", 20, 1.5, None),
    ("الخطوة الجاية التدريب ٢٠ ساعة بالـ fp32 والتسريع ٢", "dm", 20, 2, None),
]

# Rule mixed_precision_ratio with a verb of bringing (probe9): "amp gave me 1.8",
# «amp عطاني ١٫٨» say the number is the ratio even with no time in the message; it is
# read, and the reply asks for the FP32 time (as for "amp 1.8x, how long?").
YIELDED_WITHOUT_TIME = [
    ("bf16 gets us 1.5, how long does training take?", "dm", None, 1.5, "no_numbers"),
    (
        "mixed precision gave us 1.4 on the small run, no idea the fp32 time",
        "dm",
        None,
        1.4,
        "no_numbers",
    ),
    ("amp gives 1.7 but what's the total?", "dm", None, 1.7, "no_numbers"),
    ("الـ amp اداني ١٫٦ بس مش عارف وقت الـ fp32", "dm", None, 1.6, "no_numbers"),
    ("الـ bf16 أعطاني ١٫٧ ولا أعرف مدة التدريب", "dm", None, 1.7, "no_numbers"),
    ("amp عطانا ١٫٣، كم بياخذ التدريب؟", "dm", None, 1.3, "no_numbers"),
    # A time with its unit after the verb stays a time; a bare "amp 1.8" a position.
    ("fp32 40 hours, amp gave me 1.6", "dm", 40, 1.6, None),
]

# Classes of probe10's misses: a pasted nvidia-smi table (its watts are no weeks), a
# JSON config's quoted key, a typed fraction of a unit, and a saving with what it cut
# named between the verb and the time.
SMI_V100 = (
    "```\n| 1  Tesla V100-SXM2-32GB  On | 00000000:1A:00.0 Off |  0 |\n"
    "| N/A 58C  P0  250W / 300W | 30110MiB / 32768MiB | 97%  Default |\n```\n"
)
SMI_T4 = "```\n| N/A 71C P0 69W / 70W | 14800MiB / 15360MiB | 100% Default |\n```\n"
PROBE10_CLASSES = [
    (
        SMI_V100 + "fp32 here is 20h, amp 2x",
        "dm",
        20,
        2,
        None,
    ),
    (
        SMI_T4 + "التدريب بالـ fp32 ٩ ساعات والتسريع ١٫٥",
        "dm",
        9,
        1.5,
        None,
    ),
    ('```json\n{"fp32_hours": 36, "expected_speedup": 1.7}\n```', "dm", 36, 1.7, None),
    ("{'train_hours_fp32': 12} and amp 1.5x", "dm", 12, 1.5, None),
    ("fp32 takes 3/4 of a day, amp 1.5x", "dm", 18, 1.5, None),
    ("fp32 takes 9 hours, amp takes 2/3 of the time", "dm", 9, 1.5, None),
    ("{'train_runtime': 36000.0, 'epoch': 2.0} in fp32, bf16 1.5x?", "dm", 10, 1.5, None),
    # The Arabic comma typed as the decimal separator (a new user's «١،٧» was ratio 1).
    ("التدريب ٢٫٥ يوم بمعامل ١،٧", "dm", 60, 1.7, None),
    ("fp32 ١٢،٥ ساعة والتسريع ١،٥", "dm", 12.5, 1.5, None),
    # The same time said twice, to the minute, is one time.
    (
        "{'train_runtime': 36000.4} is our fp32 run, so 10 hours. amp 1.5x?",
        "dm",
        36000.4 / 3600,
        1.5,
        None,
    ),
    ("1/2 of a week in fp32, bf16 gives 1.4", "dm", 84, 1.4, None),
    ("fp32 is ¾ of an hour per epoch, 40 epochs", "dm", 30, None, None),
    ("الـ bf16 قلل المدة ٥ ساعات، والـ fp32 ياخذ ٢٠ ساعة", "dm", 20, 20 / 15, None),
    ("الـ amp نزّل الوقت ٦ ساعات من تدريب ٣٠ ساعة بالـ fp32", "dm", 30, 1.25, None),
]

# Rule rate_change (probe9, probe10): a rate changed "from A to B" or "A → B" with its
# unit said once, before both or after the second number, makes two rates of that unit.
RATE_CHANGES = [
    ("img/s went 900 → 1530 with amp, fp32 training takes 12h", "dm", 12, 1.7, None),
    ("we went from 3k to 4.5k tok/s after turning on bf16, fp32 is 20h", "dm", 20, 1.5, None),
    ("throughput 1.2k -> 2.1k tokens/s with bf16, 30 hours in fp32", "dm", 30, 1.75, None),
    (
        "speed jumped from 200 to 360 img/sec with mixed precision. fp32 takes 9h",
        "dm",
        9,
        1.8,
        None,
    ),
    ("ms/step went 420 → 210 with amp, fp32 run is 10h", "dm", 10, 2, None),
    (
        "السرعة زادت من ٨٠٠ ل ١٢٠٠ صورة في الثانية مع الـ amp، والتدريب بالـ fp32 ١٠ ساعات",
        "dm",
        10,
        1.5,
        None,
    ),
    ("التوكنات في الثانية ١٥٠٠ → ٢٧٠٠ مع bf16، والتدريب fp32 ٤٠ ساعة", "dm", 40, 1.8, None),
    (
        "طلعت السرعة من ١٠٠٠ الى ١٦٠٠ عينة بالثانية بعد تشغيل amp، التدريب fp32 ياخذ ٢٠ ساعة",
        "dm",
        20,
        1.6,
        None,
    ),
]

# Rule rate_partner (probe9, probe10): a word of change glued to «و» opens the new
# value's clause («... بالـ fp32 وبقت ٢١٠٠ مع bf16»); a verb of doing may follow the word
# of becoming («ولينا كنديرو ١٤٤٠»); a bare number right after the other precision is
# the other rate ("bf16 1800"), unless far from the rate ("bf16 1.8" is a ratio).
RATE_PARTNER_FORMS = [
    (
        "كنا نعمل ١٠٠٠ صورة في الثانية بالـ fp32 وصارت ١٥٠٠ مع الـ amp، والتدريب ١٢ ساعة",
        "dm",
        12,
        1.5,
        None,
    ),
    (
        "السرعة ٥٠٠ عينة في الثانية في الـ fp32 وبقت ٨٠٠ بالـ amp، التدريب ٤٠ ساعة",
        "dm",
        40,
        1.6,
        None,
    ),
    (
        "كنا نطلع ٥٠٠ عينة في الثانية بالـ fp32 وبقينا ٨٠٠ بالـ amp، والتدريب ٤٠ ساعة",
        "dm",
        40,
        1.6,
        None,
    ),
    (
        "في fp32 كنا كنديرو ١٠٠٠ صورة فالثانية، ومع amp ولينا كنديرو ١٥٠٠، والتدريب ٢٠ ساعة",
        "dm",
        20,
        1.5,
        None,
    ),
    (
        "بالـ fp32 بنعمل ٦٠٠ صورة في الثانية، ومع bf16 صرنا بنعمل ٩٠٠، والتدريب ١٥ ساعة",
        "dm",
        15,
        1.5,
        None,
    ),
    ("fp32 does 2000 tok/s; with bf16 it now does 3400. fp32 run is 30h", "dm", 30, 1.7, None),
    ("fp32 1000 img/s, bf16 1800. training 24h in fp32", "dm", 24, 1.8, None),
    ("2400 tokens/s in fp32 and with amp 3600, fp32 takes 40 hours", "dm", 40, 1.5, None),
    ("سرعة الـ fp32 ٨٠٠ صورة في الثانية ومع الـ amp ١٢٠٠، التدريب ٣٠ ساعة", "dm", 30, 1.5, None),
    ("بالـ fp32 ٥٠٠ عينة بالثانية، وبالـ bf16 ٩٠٠، والتدريب ١٠ ساعات fp32", "dm", 10, 1.8, None),
    # Far from the rate: the ratio.
    ("fp32 1000 img/s, bf16 1.8. training 24h in fp32", "dm", 24, 1.8, None),
    ("سرعة الـ fp32 ٨٠٠ صورة في الثانية ومع الـ amp ١٫٥، التدريب ٣٠ ساعة", "dm", 30, 1.5, None),
]

# Rule per_step_time (probe10): a copula (``SAID_OF_COPULAS``: "is", «هو», «هي») adds
# nothing to how far a step noun may be from its duration; "step" written in Arabic
# letters («ستب», «ستيب», «ستبات») is a step noun.
STEP_FORMS = [
    (
        "زمن الخطوة بالـ fp32 هو ثانية ونص، وعدد الخطوات ٢٤ ألف خطوة، والتسريع ١٫٥",
        "dm",
        10,
        1.5,
        None,
    ),
    ("الخطوة الواحدة في fp32 هي ٢ ثانية، وعندنا ١٨ ألف خطوة", "dm", 10, None, None),
    ("each step in plain fp32 is 1.5 s, 24k steps", "dm", 10, None, None),
    ("a single step at fp32 precision is 3 seconds; 12000 steps; amp 1.5x", "dm", 10, 1.5, None),
    (
        "كل ستيب بياخد ٣ ثواني بالـ fp32 وعندنا ١٢ ألف ستيب، والـ bf16 بيسرعها ١٫٥",
        "dm",
        10,
        1.5,
        None,
    ),
    ("الستب الواحد ياخذ ثانية بالـ fp32، وعدد الستبات ٣٦ ألف، والتسريع ٢", "dm", 10, 2, None),
    ("ثانيتين لكل ستب بالـ fp32 و ١٨٠٠٠ ستب", "dm", 10, None, None),
    ("كل ستب كياخد ثانيتين ب fp32 و عندنا ٣٦ ألف ستب، و amp كيسرعها ١٫٥", "dm", 20, 1.5, None),
]

CASES = (
    FINISHED_IN
    + EPOCHS_TIMES
    + MIXED_CLAUSE_LABELS
    + YIELDED_RATIOS
    + WORKED_OUT
    + SHARED_UNITS
    + PROBE4_CLASSES
    + PROBE5_CLASSES
    + PROBE6_CLASSES
    + MSA_ELEVEN_TWELVE
    + SPEED_BY
    + COUNT_KEY_PROSE
    + PRONOUN_ONE_MEASURED
    + PROBE8_CLASSES
    + PROBE9_CLASSES
    + PROBE10_CLASSES
    + PER_STEP_TIMES
    + YIELDED_WITHOUT_TIME
    + RATE_CHANGES
    + RATE_PARTNER_FORMS
    + STEP_FORMS
)


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), CASES)
def test_probe_phrasing(text, channel, hours, ratio, reason):
    check_reading(text, channel, hours, ratio, reason)


# CARD_LEADERS: a bare card number after a word of having or using one is the card.
CARD_OWNERS = [
    ("عندنا 3090 والتدريب ياخذ ٢٠ ساعة", "RTX 3090"),
    ("معايا 4090 والتدريب بياخد ٦ ساعات", "RTX 4090"),
    ("معي 3090 وبياخد يومين", "RTX 3090"),
    ("we have 4090 here, fp32 takes 8h", "RTX 4090"),
    ("using 3090 for this, 12h fp32", "RTX 3090"),
]


@pytest.mark.parametrize(("text", "gpu"), CARD_OWNERS)
def test_owned_bare_card_number(text, gpu):
    q = understand(text, Channel("dm"))
    assert q.gpu == gpu, q


# PRECISION_COMPARE_WORDS (probe5): the dialects' "better than" (Maghrebi «حسن من»,
# «خير من», Gulf and Iraqi «أزين»), "which of the two" and English comparatives
# compare the two 16-bit formats with no "or" between them.
PRECISION_COMPARISONS = [
    "واش الـ bf16 خير من الـ fp16 فالتدريب؟",
    "الـ bf16 حسن بزاف من الـ fp16؟",
    "الـ bf16 أزين من الـ fp16 على A100؟",
    "هل الـ bf16 أثبت من الـ fp16 في التدريب؟",
    "ايهما fp16 bf16 للتدريب",
    "is bf16 safer than fp16?",
    "is bf16 preferable to fp16 on an A100?",
    "bf16 superior to fp16 for llm training?",
    # "X differs from Y" (probe7).
    "how does bf16 differ from fp16 for training?",
    "is fp16 different from bf16 on an H100?",
    "بماذا يختلف الـ bf16 عن الـ fp16 في التدريب؟",
    "شو بيفرق bf16 عن fp16؟",
    "وش يفرق الـ fp16 عن الـ bf16 بالتدريب؟",
]


@pytest.mark.parametrize("text", PRECISION_COMPARISONS)
def test_dialect_comparisons_of_the_formats(text):
    q = understand(text, Channel("dm"))
    assert q.intent is Intent.PRECISION and q.precision_topic == "compare", q


# probe9: whether a GPU runs a format, asked with a modal and a verb of running.
RUNS_THE_FORMAT = [
    ("can a V100 do bf16 at all?", True),
    ("could my old 2080 run fp16?", True),
    ("هل يقدر كرت T4 يشغل bf16؟", True),
    ("can you do bf16 estimates?", False),
]


@pytest.mark.parametrize(("text", "asks"), RUNS_THE_FORMAT)
def test_whether_a_gpu_runs_a_format(text, asks):
    q = understand(text, Channel("dm"))
    assert (q.intent is Intent.PRECISION) is asks, q


# Rule precision_question before memory_by_setup: a size with a GPU or a training verb
# asks which 16-bit format to train in when the message compares the two; a memory size
# said ("on a 24gb card") keeps it the fit question.
FORMAT_OVER_SIZE = [
    ("bf16 vs fp16 for training a 13b on 8 a100s?", Intent.PRECISION),
    ("which is better for a 3b finetune on a 4090, fp16 or bf16?", Intent.PRECISION),
    ("هل الأفضل fp16 ولا bf16 لتدريب موديل 7B على H100؟", Intent.PRECISION),
    ("can i fine-tune a 7b in bf16 or fp16 on a 24gb card?", Intent.MEMORY),
    ("لتدريب موديل ٣ مليار على كرت ٢٤ جيجا، bf16 ولا fp16؟", Intent.MEMORY),
]


@pytest.mark.parametrize(("text", "intent"), FORMAT_OVER_SIZE)
def test_format_question_with_a_model_size(text, intent):
    q = understand(text, Channel("dm"))
    assert q.intent is intent, q


# Rule asks_estimate (probe7): an estimate *of the speed-up* a few words on is the ratio
# (a help answer gives it); an estimate of the time still needs the FP32 time.
ESTIMATE_OF_WHAT = [
    ("any estimate of the bf16 speedup for gpt-2 on an h100?", True),
    ("هل من تقدير لمقدار تسريع bf16 لنموذج GPT-2 على بطاقة H100؟", True),
    ("هل عندك تقدير للتسريع مع amp على A100؟", True),
    ("can you estimate how long my training takes with amp?", False),
    ("estimate the training time with amp on a100, is it faster?", False),
]


@pytest.mark.parametrize(("text", "of_ratio"), ESTIMATE_OF_WHAT)
def test_what_an_estimate_is_of(text, of_ratio):
    q = understand(text, Channel("dm"))
    if of_ratio:
        assert q.intent is Intent.HELP, q
    else:
        assert q.intent is Intent.ESTIMATE and q.reason is Reason.NO_NUMBERS, q


# The plural scale words after 3 to 10 (probe7): «سبعة مليارات معامل» is a parameter
# count, spelled or in digits, with a preposition glued on or not.
PLURAL_SCALES = [
    ("ما حجم الذاكرة اللازمة لتدريب نموذج بثلاثة مليارات معامل؟", 3e9),
    ("كم ذاكرة يحتاج نموذج ٧ مليارات بارامتر مع Adam؟", 7e9),
    ("هل يكفي كرت ٢٤ جيجا لتدريب نموذج بخمسة مليارات معامل؟", 5e9),
    ("كم ذاكرة لنموذج فيه ٣٠٠ مليون معامل و ٨ ملايين كلمة؟", 3e8),
]


@pytest.mark.parametrize(("text", "params"), PLURAL_SCALES)
def test_plural_scale_words_count_parameters(text, params):
    q = understand(text, Channel("dm"))
    assert q.intent is Intent.MEMORY and q.params == pytest.approx(params), q


# PRECISION_FAILURE_WORDS (probe8): the two 16-bit formats contrasted by a numeric failure
# one has and the other lacks ask which format to train in, with no comparison word.
FAILURE_CONTRASTS = [
    "fp16 keeps giving me NaNs, bf16 is fine. why?",
    "my loss goes to inf in fp16 but not in bf16",
    "why does my fp16 run blow up while bf16 trains fine?",
    "bf16 fine, fp16 diverged. why",
    "ليش الـ fp16 بيعمل overflow والـ bf16 لا؟",
    "ليه الـ fp16 بيطلع nan والـ bf16 لأ؟",
    "ليش التدريب بالـ fp16 مش مستقر بس الـ bf16 تمام؟",
    "علاه الـ fp16 كيفيض و bf16 لا؟",
]


@pytest.mark.parametrize("text", FAILURE_CONTRASTS)
def test_a_failure_contrasts_the_formats(text):
    q = understand(text, Channel("dm"))
    assert q.intent is Intent.PRECISION and q.precision_topic == "compare", q


def test_a_failure_of_one_format_alone_is_no_comparison():
    q = understand("fp16 run gives nan", Channel("dm"))
    assert q.intent is not Intent.PRECISION, q


# Rule precision_arrow (probe8): an arrow right after a precision that opens its clause
# labels the value after it, as a colon does; after a number it stays a change.
PRECISION_ARROWS = [
    ("fp32 -> 12h, bf16 -> 7h", "dm", 12, 12 / 7, None),
    ("mixed precision → 6h, full precision → 10h", "dm", 10, 10 / 6, None),
    ("fp32 => 20 hours, amp => 1.6x", "dm", 20, 1.6, None),
    ("الـ fp32 → ١٠ ساعات، والـ amp → ٦ ساعات", "dm", 10, 10 / 6, None),
    ("بالـ fp32 -> ٨ ساعات و مع bf16 -> ٥ ساعات، كم لتدريب ٤٠ ساعة؟", "dm", 40, 1.6, None),
    # The arrow of a change keeps its meaning.
    ("12h fp32 → 7h amp", "dm", 12, 12 / 7, None),
    ("fp32 → bf16: 10h → 6h", "dm", 10, 10 / 6, None),
]


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), PRECISION_ARROWS)
def test_arrow_after_a_precision_labels(text, channel, hours, ratio, reason):
    check_reading(text, channel, hours, ratio, reason)


# Rule rate_label (probe8): a rate's unit said once as a label is the unit of each bare
# number after it in its sentence said of a precision; a number of something else keeps
# its own unit.
RATE_LABELS = [
    ("img/sec: 900 with fp32, 1,620 with amp; the fp32 job needs 50 hours", "dm", 50, 1.8, None),
    ("throughput (samples/s): 1200 fp32, 2000 amp. 30h in fp32", "dm", 30, 2000 / 1200, None),
    ("ms/step = 420 fp32, 190 amp, 50k steps", "dm", 420e-3 * 50000 / 3600, 420 / 190, None),
    (
        "الإنتاجية (صورة/ث): ١٢٠٠ بالـ fp32 و ٢٠٠٠ مع amp، والتدريب ٣٠ ساعة",
        "dm",
        30,
        2000 / 1200,
        None,
    ),
    ("التوكنات بالثانية: ٤٠٠٠ بدون amp و ٦٠٠٠ مع amp، والتدريب يومين", "dm", 48, 1.5, None),
    # A number far from the label's first is no rate: the ratio asked about.
    (
        "tokens/s: 4200 fp32 vs 7560 bf16, 3 days in fp32, what with bf16 at 1.5?",
        "dm",
        72,
        1.5,
        None,
    ),
]

# Rule rate_partner (probe8): with the rates said of one precision, a bare number said of
# the other after what the rate became ("went to", «صارت») is in the rate's unit.
RATE_PARTNERS = [
    ("fp32 does 3000 tok/s, with bf16 it went to 5100. full run is 40 hours", "dm", 40, 1.7, None),
    ("fp32 gets 2.1 it/s, with amp it shot up to 3.4. 20h fp32 run", "dm", 20, 3.4 / 2.1, None),
    ("800 img/s in fp32, and with amp it became 1200. fp32 takes 10h", "dm", 10, 1.5, None),
    (
        "بالـ fp32 كنت أوصل ٨٠٠ صورة في الثانية، وبعد ما شغلت amp وصلت لـ ١٤٠٠. التدريب ٢٠ ساعة",
        "dm",
        20,
        1.75,
        None,
    ),
    ("الـ fp32 بيعمل ٢٠٠٠ عينة/ث، ومع الـ bf16 بقت ٣٠٠٠، والتدريب ١٠ ساعات", "dm", 10, 1.5, None),
]


@pytest.mark.parametrize(
    ("text", "channel", "hours", "ratio", "reason"), RATE_LABELS + RATE_PARTNERS
)
def test_rate_unit_said_once(text, channel, hours, ratio, reason):
    check_reading(text, channel, hours, ratio, reason)


def test_a_far_number_is_no_partner_rate():
    # 1.7 is no throughput beside 3000 tok/s, nor are 16 GPUs.
    for text in (
        "fp32 3000 tok/s, with bf16 it became 1.7. 40 hours",
        "fp32 3000 tok/s on 8 gpus, with bf16 it went to 16 gpus. 40 hours",
    ):
        q = understand(text, Channel("dm"))
        assert q.fp32 is not None and q.fp32.hours == pytest.approx(40), q
        assert q.ratio is None, q
