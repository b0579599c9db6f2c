"""Examples of the time dimension (issue 21's classes), the corpus beside its rules.

Each row: (text, channel, FP32 hours, ratio, reason, candidates); ``None`` where a
value must be absent, candidates ``None`` when not checked. The case tests in
``tests/understanding/test_alternatives_and_dialect_values.py`` read every row, and
``bench/reader_diff.py`` compares them between revisions. Written from the class
descriptions, in English, MSA, Gulf, Levantine and Egyptian Arabic.
"""

AMB = "ambiguous"

# (text, channel, FP32 hours, ratio, reason, candidates)
ALTERNATIVES = [
    (
        "training takes either 40 or 50 hours, what with amp?",
        "mention",
        None,
        None,
        AMB,
        ["40", "50"],
    ),
    ("training takes 40 or 50 hours, how much with amp?", "dm", None, None, AMB, ["40", "50"]),
    ("my run takes 2 or 3 days in fp32", "dm", None, None, AMB, ["2", "3"]),
    ("takes 40 hours, or 50, not sure. amp?", "mention", None, None, AMB, ["40", "50"]),
    ("it's 30h or maybe 35h on fp32", "dm", None, None, AMB, ["30", "35"]),
    ("the speedup is either 1.5x or 2x, training 100h", "dm", 100, None, AMB, ["1.5", "2"]),
    ("training 100h, ratio 1.5 or 2", "dm", 100, None, AMB, ["1.5", "2"]),
    ("40h or 50h 2", "command", None, 2, AMB, ["40", "50"]),
    # Gulf
    ("التدريب ياخذ يا ٥٠ يا ٦٠ ساعة، كم بيصير مع amp؟", "mention", None, None, AMB, ["50", "60"]),
    (
        "التدريب ياخذ ٣٠ والا ٤٠ ساعة، كم يصير بالـ mixed precision؟",
        "dm",
        None,
        None,
        AMB,
        ["30", "40"],
    ),
    ("ياخذ تقريبا ٣٠ ساعة او ٣٥", "dm", None, None, AMB, ["30", "35"]),
    ("التدريب يومين والا ٣ أيام على A100", "dm", None, None, AMB, ["2", "3"]),
    ("التسريع يا ١٫٥ يا ٢ والتدريب ١٠٠ ساعة", "dm", 100, None, AMB, ["1.5", "2"]),
    # Levantine
    (
        "التدريب بياخد إما ٤٠ أو ٥٠ ساعة، قديش بيوفر الـ AMP؟",
        "mention",
        None,
        None,
        AMB,
        ["40", "50"],
    ),
    ("بياخد شي ٣٠ او ٤٠ ساعة", "dm", None, None, AMB, ["30", "40"]),
    ("النسبة ١٫٥ والا ٢؟ التدريب ١٠٠ ساعة", "dm", 100, None, AMB, ["1.5", "2"]),
    ("ياخذ ٤٠ ساعة أو يمكن ٥٠", "dm", None, None, AMB, ["40", "50"]),
    # Egyptian
    (
        "التدريب بياخد ٤٠ ولا ٥٠ ساعة مش متأكد، كم هيبقى مع fp16؟",
        "mention",
        None,
        None,
        AMB,
        ["40", "50"],
    ),
    ("ياخد ٤٠ ساعة ولا ٥٠ ساعة مش فاكر", "dm", None, None, AMB, ["40", "50"]),
    ("التدريب ياخد يعني ٢٠ أو ٢٥ ساعة، بكم يصير؟", "dm", None, None, AMB, ["20", "25"]),
    ("40 ولا 50 ساعة 2", "command", None, 2, AMB, ["40", "50"]),
    ("١٠٠ او ١٢٠ ساعة ٢", "command", None, 2, AMB, ["100", "120"]),
    ("training takes either 2 days or 60 hours", "dm", None, None, AMB, ["2 days", "60 hours"]),
    ("٤٠/٥٠ ساعة التدريب", "dm", None, None, AMB, ["40", "50"]),
    ("training: 40 hrs, maybe 50", "dm", None, None, AMB, ["40", "50"]),
    ("the job is 40 hours, could be 50", "dm", None, None, AMB, ["40", "50"]),
    ("التدريب ياخذ ٤٠ ساعة، يمكن ٥٠", "dm", None, None, AMB, ["40", "50"]),
    ("amp is 1.5 or 2 times faster, training 100h", "dm", 100, None, AMB, ["1.5", "2"]),
    ("التدريب ٣ أو ٤ أيام على ٨ كروت", "dm", None, None, AMB, ["3", "4"]),
    ("يستغرق التدريب إما يومين أو ثلاثة أيام", "dm", None, None, AMB, ["2", "3"]),
    # A range said with "to"/"between" and a compound stay what they were.
    ("training takes 36h, amp 2x", "dm", 36, 2, None, None),
    ("يومين و٦ ساعات والتسريع ٢", "dm", 54, 2, None, None),
    ("40 hours or 50 epochs?", "dm", 40, None, None, None),
    ("التدريب ١٠٠ ساعة أو أكثر والتسريع ٢", "dm", 100, 2, None, None),
    ("batch 32 or 64, training 10h ratio 2", "dm", 10, 2, None, None),
    ("on 01/05 training took 10h, amp 2x", "dm", 10, 2, None, None),
]

KAM_WITH_CLITIC = [
    ("بكم ساعة؟", "dm", None, None, "no_numbers", None),
    ("لكم يوم؟", "dm", None, None, "no_numbers", None),
    ("بكم ساعة يخلص التدريب لو التسريع ٢؟", "dm", None, 2, "no_numbers", None),
    ("التدريب ٥٠ ساعة، بكم ساعة يصير مع fp16 بنسبة ٢؟", "dm", 50, 2, None, None),
    ("لكم يوم يحتاج التدريب مع الدقة المختلطة بتسريع ١٫٥؟ حاليا ٤ أيام", "dm", 96, 1.5, None, None),
    ("كم ساعه يوفر الـ amp لو التدريب ٣٠ ساعة والنسبة ٢؟", "dm", 30, 2, None, None),
    ("وبكم ساعة يخلص اذا التسريع مرتين؟", "dm", None, 2, "no_numbers", None),
    ("فكم يوم بياخد مع amp بنسبة ٢؟", "dm", None, 2, "no_numbers", None),
    ("how many hours with amp at 2x?", "dm", None, 2, "no_numbers", None),
]

NUMBER_WORDS = [
    (
        (
            "عندي موديل BERT على A100 والتدريب بياخد خمسين ساعة بالـ fp32 وبدي أعرف قديش بيصير "
            "مع الدقة المختلطة بتسريع ٢"
        ),
        "mention",
        50,
        2,
        None,
        None,
    ),
    (
        (
            "التدريب الكامل للنموذج على كرت واحد يستغرق ثلاثة وعشرين ساعة تقريبا بدون amp، "
            "والتسريع ١٫٥"
        ),
        "dm",
        23,
        1.5,
        None,
        None,
    ),
    (
        "احنا مدربين النموذج وياخذ مية وعشرين ساعة على V100 والـ AMP أسرع مرتين",
        "dm",
        120,
        2,
        None,
        None,
    ),
    ("الشغلة تاخذ خمس وثلاثين ساعة بالدقة الكاملة، والنسبة ٢", "dm", 35, 2, None, None),
    ("التدريب ياخذ ثنعش ساعة والتسريع ٢", "dm", 12, 2, None, None),
    ("التدريب بياخد تلتاشر ساعة على A100 والنسبة ١٫٣", "dm", 13, 1.3, None, None),
    ("يستغرق التدريب ثلاثة عشر ساعة بدقة fp32 ومعامل التسريع ٢", "dm", 13, 2, None, None),
    ("التدريب بياخد تمنتاشر ساعة والـ amp أسرع بمرتين", "dm", 18, 2, None, None),
    (
        "تدريبه ياخذ مية وخمسين ساعة على كرتين ونبغى نعرف الـ bf16 كم يوفر بنسبة ٢",
        "dm",
        150,
        2,
        None,
        None,
    ),
    ("التدريب بياخد ميتين ساعة، لو شغلت الـ fp16 بتسريع ٢ قديش بيصير؟", "dm", 200, 2, None, None),
    ("التدريب ياخذ ثنتين وعشرين ساعة والتسريع ٢", "dm", 22, 2, None, None),
    (
        (
            "ابغى اعرف كم بيصير التدريب اللي ياخذ سبعة وعشرين ساعة لو فعلت الدقة المختلطة "
            "والتسريع ١٫٥"
        ),
        "dm",
        27,
        1.5,
        None,
        None,
    ),
    (
        "the training takes about fifty hours on a single A100 and amp is 2x",
        "dm",
        50,
        2,
        None,
        None,
    ),
    ("our job runs for twenty-three hours in fp32 and amp gives 1.5x", "dm", 23, 1.5, None, None),
    ("it takes one hundred and twenty hours on V100, ratio 2", "dm", 120, 2, None, None),
]

DAYS_AND_HOURS = [
    ("يومين و٦ ساعات ٢", "command", 54, 2, None, None),
    ("التدريب ياخذ يومين و٦ ساعات والتسريع ٢", "dm", 54, 2, None, None),
    ("التدريب يوم وثلاث ساعات بالـ fp32، والتسريع ٢", "dm", 27, 2, None, None),
    ("التدريب بياخد يوم و٣ ساعات والنسبة ١٫٥", "dm", 27, 1.5, None, None),
    ("training takes 2 days and 6 hours, amp 2x", "dm", 54, 2, None, None),
    ("training 1d 4h, ratio 1.5", "dm", 28, 1.5, None, None),
    ("1d 4h 2", "command", 28, 2, None, None),
    ("2d 6h 1.8", "command", 54, 1.8, None, None),
    ("it took 3 days, 4 hours in fp32, amp 2x", "dm", 76, 2, None, None),
    ("يومين وست ساعات والتسريع ٢", "dm", 54, 2, None, None),
    ("٣ ايام و ١٢ ساعة، النسبة ١٫٥", "dm", 84, 1.5, None, None),
    ("the run is 1 day 12 hours, speedup 2", "dm", 36, 2, None, None),
    ("١ يوم ٤ ساعات ٢", "command", 28, 2, None, None),
    ("التدريب يومين وساعتين والنسبة ٢", "dm", 50, 2, None, None),
    ("training is a day and 6 hours, 2x with amp", "dm", 30, 2, None, None),
]

CONFIG_LINES = [
    ("```train_time: 36h```", "dm", 36, None, None, None),
    ("```\nmodel: bert\ngpu: a100\ntrain_time: 36h\nspeedup: 2\n```", "dm", 36, 2, None, None),
    ("```yaml\nfp32_time: 48h\nspeedup: 1.5\n```", "dm", 48, 1.5, None, None),
    ("```\ntime_fp32: 10h\ntime_amp: 6h\n```", "dm", 10, 10 / 6, None, None),
    ("```\ntrain_hours: 36\nratio: 2\n```", "dm", 36, 2, None, None),
    ("```\nfp32_hours: 36\nspeedup: 2\n```", "dm", 36, 2, None, None),
    ("```\ntrain_time = 20h\nnum_gpus = 4\nratio = 2\n```", "dm", 20, 2, None, None),
    ("`train_time: 36h` و التسريع ٢", "dm", 36, 2, None, None),
    ("model: wide_resnet50_2, 10h, 2x", "dm", 10, 2, None, None),
    ("```\nepochs: 90\ntime_per_epoch: 20m\n```\namp 2x?", "dm", 30, 2, None, None),
    ("```\nالايبوكات: ١٠\nزمن الايبوك: ٣ ساعات\n```\nوالتسريع ٢", "dm", 30, 2, None, None),
    ("```\nfp32_time_h: 40\namp_time_h: 25\n```", "dm", 40, 1.6, None, None),
    ("```\nelapsed: 7:30:00\n```\nwith amp 2x", "dm", 7.5, 2, None, None),
    ('```json\n{"train_time": "36h", "speedup": 2}\n```', "dm", 36, 2, None, None),
]

WEEK_AND_RATIO = [
    ("a week 2", "command", 168, 2, None, None),
    ("أسبوع ٢", "command", 168, 2, None, None),
    ("week 2", "command", 168, 2, None, None),
    ("week 1.5", "command", 168, 1.5, None, None),
    ("اسبوع ١٫٥", "command", 168, 1.5, None, None),
    ("أسبوع ٢", "dm", 168, 2, None, None),
    ("a week, 2x", "dm", 168, 2, None, None),
    ("day 1.5", "command", 24, 1.5, None, None),
    ("اسبوعين ٢", "command", 336, 2, None, None),
    # A time label before the week names the week, and the bare number after it is the ratio.
    ("التدريب أسبوع ٢", "dm", 168, 2, None, None),
    ("training a week 2", "dm", 168, 2, None, None),
    ("التدريب يوم ٢", "dm", 24, 2, None, None),
    ("التدريب اسبوع ١٫٥", "dm", 168, 1.5, None, None),
    ("التدريب بياخد اسبوعين ١٫٥", "dm", 336, 1.5, None, None),
    ("training takes 2 weeks 1.5", "dm", 336, 1.5, None, None),
    ("التدريب ٤٠ ساعة ٢", "dm", 40, 2, None, None),
    ("بعد ما شغلت الـ amp نزل من ١٠ ساعات ل ٦", "dm", 10, 10 / 6, None, None),
]

# "كرت واحد والتسريع ١٫٥": a ratio label glued to "و" opens the next clause, so the
# "one" before it is the card's, never a second ratio.
ONE_BEFORE_A_LABEL = [
    (
        "التدريب بيستغرق حوالي اتنين وسبعين ساعة على كارت واحد والتسريع ١٫٥",
        "dm",
        72,
        1.5,
        None,
        None,
    ),
    ("التدريب ٧٢ ساعة على كرت واحد والتسريع ١٫٥", "dm", 72, 1.5, None, None),
    ("التدريب ٧٢ ساعة على جهاز واحد والنسبة ٢", "dm", 72, 2, None, None),
    ("training 72h on one gpu, ratio 1.5", "dm", 72, 1.5, None, None),
]

# A time said "without amp" is the FP32 side of a pair (the rates' precision look-up),
# and a fractional number before a GPU is a ratio, never a count.
NEGATED_PAIRS_AND_FRACTIONS = [
    ("دربت النموذج ١٠ ساعات بدون amp، ومع amp صار ٦ ساعات", "dm", 10, 10 / 6, None, None),
    ("١٠ ساعات بدون amp و ٦ ساعات مع amp", "dm", 10, 10 / 6, None, None),
    ("10h without amp, and with amp 6h", "dm", 10, 10 / 6, None, None),
    ("التدريب ٢٠ ساعة من غير amp و ١٠ ساعات معاه", "dm", 20, 2, None, None),
    ("72h 1.8 V100 resnet50", "command", 72, 1.8, None, None),
]

EXAMPLES = (
    ALTERNATIVES
    + KAM_WITH_CLITIC
    + NUMBER_WORDS
    + DAYS_AND_HOURS
    + CONFIG_LINES
    + WEEK_AND_RATIO
    + ONE_BEFORE_A_LABEL
    + NEGATED_PAIRS_AND_FRACTIONS
)
