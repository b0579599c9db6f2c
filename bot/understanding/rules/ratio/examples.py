"""Examples of the ratio dimension (issue 21's classes), the corpus beside its rules.

Rows as in :mod:`bot.understanding.rules.time.examples`.
"""

import math

HALVING = [
    ("التدريب ١٠٠ ساعة، والـ amp ينص الوقت", "dm", 100, 2, None, None),
    ("التدريب ياخذ ٤٠ ساعة ومع fp16 يصير النص", "dm", 40, 2, None, None),
    ("لو شغلت amp الوقت بينزل بالنص، التدريب ٦٠ ساعة", "dm", 60, 2, None, None),
    ("التدريب ٨٠ ساعة والـ AMP بيقص الوقت للنص", "dm", 80, 2, None, None),
    ("التدريب ٥٠ ساعة، مع amp الوقت بيصير نصه", "dm", 50, 2, None, None),
    ("التدريب ٣٠ ساعة والدقة المختلطة تنصف الوقت", "dm", 30, 2, None, None),
    ("التدريب ٢٠ ساعة والـ amp يخليه النص", "dm", 20, 2, None, None),
    ("التدريب ٢٠ ساعة والـ amp بيخليه نص", "dm", 20, 2, None, None),
    ("training takes 100h and amp halves it", "dm", 100, 2, None, None),
    ("training 100h, amp cuts it in half", "dm", 100, 2, None, None),
    ("التدريب ساعتين ونص", "dm", 2.5, None, None, None),  # a fraction of a unit stays one
    # A verb of cutting with its object glued on: "يخفضه للنص", "ينزلها للنص".
    ("التدريب ٦٠ ساعة والـ amp بينزله للنص", "dm", 60, 2, None, None),
    ("التدريب ٦٠ ساعة والـ amp ينزلها للنص", "dm", 60, 2, None, None),
    ("التدريب ٦٠ ساعة والـ amp يقصرها للنص", "dm", 60, 2, None, None),
    ("التدريب ٦٠ ساعة والـ amp يقلصه للنص", "dm", 60, 2, None, None),
    ("يقلص الوقت للنصف، التدريب ٦٠ ساعة", "dm", 60, 2, None, None),
    ("التدريب ٦٠ ساعة والـ amp يخفضه للنص", "dm", 60, 2, None, None),
    ("التدريب ٦٠ ساعة والـ amp بيخفضه ٤٠٪", "dm", 60, 1 / 0.6, None, None),
]

SLOWDOWN_BELOW_ONE = [
    ("training 100h, amp is 0.9x slower", "dm", 100, 0.9, "ratio_below_one", None),
    ("amp made it 0.9x slower, fp32 10h", "dm", 10, 0.9, "ratio_below_one", None),
    ("fp16 slowed training to 0.9x, fp32 was 10h", "dm", 10, 0.9, "ratio_below_one", None),
    ("the ratio came out 0.9x on P100, training 10h", "dm", 10, 0.9, "ratio_below_one", None),
    ("التدريب ٢٠ ساعة والـ amp أبطأ ٠٫٩x", "dm", 20, 0.9, "ratio_below_one", None),
    ("الـ amp خلاه أبطأ ٠٫٩ مرة، التدريب ١٠ ساعات", "dm", 10, 0.9, "ratio_below_one", None),
    ("10 0.9x", "command", 10, 0.9, "ratio_below_one", None),
    ("amp is 2x slower, 10h fp32", "dm", 10, 0.5, "ratio_below_one", None),
    ("training 10h, 1.5x on V100", "dm", 10, 1.5, None, None),
    # A fraction of times counts no tries: it is the multiple, said with no speed word.
    ("جربنا الـ amp وطلع ٠٫٩ مرة، التدريب ٤٠ ساعة", "dm", 40, 0.9, "ratio_below_one", None),
    ("التدريب ٤٠ ساعة والـ amp طلع ١٫٥ مرة", "dm", 40, 1.5, None, None),
    ("with amp we got 1.7 times, training 40h", "dm", 40, 1.7, None, None),
    ("I ran it 3 times, training 40h", "dm", 40, None, None, None),
    ("جربت ٣ مرات والتدريب ٤٠ ساعة", "dm", 40, None, None, None),
]

INFINITE_IN_WORDS = [
    ("training 100h, amp is infinitely faster", "dm", 100, math.inf, "not_finite", None),
    ("التدريب ١٠٠ ساعة والتسريع لانهائي", "dm", 100, math.inf, "not_finite", None),
    ("التدريب ١٠٠ ساعة والـ amp أسرع بشكل لانهائي", "dm", 100, math.inf, "not_finite", None),
    ("١٠ لانهائي", "command", 10, math.inf, "not_finite", None),
    ("fp32 takes 10 hours, ratio NaN", "dm", 10, None, "not_finite", None),
]

FASTER_BY = [
    ("التدريب ١٠ ساعات والـ amp اسرع ب ١٫٥", "dm", 10, 1.5, None, None),
    ("التدريب ١٠ ساعات والـ amp أسرع بـ١٫٥", "dm", 10, 1.5, None, None),
    ("التدريب ١٠ ساعات والـ amp بيسرع ١٫٥", "dm", 10, 1.5, None, None),
    ("training 10h, amp faster by 1.5", "dm", 10, 1.5, None, None),
    ("training 10h, amp speeds it up by 1.5", "dm", 10, 1.5, None, None),
    ("training 10h, amp is faster by 40%", "dm", 10, 1.4, None, None),
    ("amp is faster on 8 GPUs, training 10h", "dm", 10, None, None, None),
    ("٤٠ ساعة ÷ ١٫٨ كم؟", "dm", 40, 1.8, None, None),
    ("40h ÷ 1.8", "command", 40, 1.8, None, None),
]

# Rule ``offered_multiple``: a multiple offered as an alternative to a ratio is one
# too (the speed word is said once); two multiples offered with no speed word are
# speed-ups; "once or twice" counts tries.
OFFERED_MULTIPLES = [
    ("يا مرة ونص يا مرتين والتدريب ٤٠ ساعة", "dm", 40, None, "ambiguous", ["1.5", "2"]),
    ("التدريب ٤٠ ساعة والتسريع يا مرة ونص يا مرتين", "dm", 40, None, "ambiguous", ["1.5", "2"]),
    ("٤٠ ساعة مرة ونص ولا مرتين", "command", 40, None, "ambiguous", ["1.5", "2"]),
    (
        "الـ amp بيسرع يا مرة ونص يا مرتين، والتدريب ٦٠ ساعة",
        "dm",
        60,
        None,
        "ambiguous",
        ["1.5", "2"],
    ),
    ("amp is twice or three times as fast, training 40h", "dm", 40, None, "ambiguous", ["2", "3"]),
    ("amp gives twice or three times the speed, 40 hours", "dm", 40, None, "ambiguous", ["2", "3"]),
    ("التدريب ٣٠ ساعة، الـ AMP أسرع ضعفين أو ثلاثة", "dm", 30, None, "ambiguous", ["2", "3"]),
    ("training 40h, amp 1.5x or 2", "dm", 40, None, "ambiguous", ["1.5", "2"]),
    ("amp gives 1.5x, maybe 2, on 40h", "dm", 40, None, "ambiguous", ["1.5", "2"]),
    ("التدريب ٤٠ ساعة والـ amp ١٫٥x أو ٢", "dm", 40, None, "ambiguous", ["1.5", "2"]),
    ("التدريب ٤٠ ساعة والـ amp أسرع بمرتين أو ٣", "dm", 40, None, "ambiguous", ["2", "3"]),
    ("جربت مرة أو مرتين والتدريب ٤٠ ساعة", "dm", 40, None, None, None),
    ("I tried once or twice, training 40h", "dm", 40, None, None, None),
    ("training 40h, 2x faster on 8 or 16 GPUs", "dm", 40, 2, None, None),
    ("التدريب ٤٠ ساعة والتسريع ٢ على ٨ أو ١٦ كرت", "dm", 40, 2, None, None),
]

# Rule ``lone_scale``: an absurd multiple in words is read, and refused as too large
# (the reply says what a real speed-up is), never dropped for the typical range.
ABSURD_IN_WORDS = [
    ("التدريب ١٠ ساعات والـ amp أسرع بمليون مرة", "dm", 10, 1e6, "too_large", None),
    ("التدريب ١٠ ساعات والـ amp أسرع مليون مرة", "dm", 10, 1e6, "too_large", None),
    ("amp is a million times faster, training 10h", "dm", 10, 1e6, "too_large", None),
    ("amp is a billion times faster, training 10h", "dm", 10, 1e9, "too_large", None),
    ("الـ amp بيسرع التدريب مليار مرة، التدريب ١٠ ساعات", "dm", 10, 1e9, "too_large", None),
    ("7 million params on A100, training 10h 2x", "dm", 10, 2, None, None),
    ("٧ مليار معامل والتدريب ٣٠ ساعة والتسريع ٢", "dm", 30, 2, None, None),
]

EXAMPLES = HALVING + SLOWDOWN_BELOW_ONE + FASTER_BY + OFFERED_MULTIPLES + ABSURD_IN_WORDS
