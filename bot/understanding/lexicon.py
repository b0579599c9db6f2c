"""The words the grammar knows, in English and Arabic (normalised spellings).

Arabic entries are written after normalisation (bare alef, ta marbuta as ha,
no diacritics), and :func:`lookup` strips the clitics a word may carry
(و، ب، ل، ف، ك، ال، بال، لل ...), so one entry covers "الساعات", "بالساعات"
and "وساعات". Everything here is data; the grammar lives in the other modules.
"""

from __future__ import annotations

from functools import lru_cache

# ---------------------------------------------------------------- time units
# Unit codes and their length in hours.
UNIT_HOURS: dict[str, float] = {
    "sec": 1 / 3600,
    "min": 1 / 60,
    "h": 1.0,
    "d": 24.0,
    "w": 168.0,
    "mo": 730.0,
    "y": 8760.0,
}

EN_UNITS: dict[str, str] = {}
for _unit, _words in {
    "sec": "s sec secs second seconds",
    "min": "m min mins minute minutes mn",
    # GPU-hours scale like hours: the ratio divides them the same way.
    "h": "h hr hrs hour hours hours' gpu-h gpu-hr gpu-hrs gpu-hour gpu-hours",
    "d": "d day days",
    "w": "w wk wks week weeks",
    "mo": "mo month months",
    "y": "y yr yrs year years",
}.items():
    for _w in _words.split():
        EN_UNITS[_w] = _unit

# Typed in a hurry, a unit word loses a letter or swaps two ("5 dyas", "20 horus",
# "45 minuets", "3 hous"): each such slip of a spelled-out unit of four or more
# letters (first letter kept) reads as that unit, unless it is a word of its own.
_NOT_UNIT_SLIPS = frozenset(
    {"ours", "moth", "moths", "mis", "das", "wee", "wees", "yea", "yeas", "yer", "ses", "ears"}
)


def _slips(word: str) -> set[str]:
    dropped = {word[:k] + word[k + 1 :] for k in range(1, len(word))}
    swapped = {word[:k] + word[k + 1] + word[k] + word[k + 2 :] for k in range(1, len(word) - 1)}
    return {w for w in dropped | swapped if len(w) >= 3}


for _w, _unit in list(EN_UNITS.items()):
    if len(_w) >= 4 and _w.isalpha():
        for _slip in _slips(_w) - _NOT_UNIT_SLIPS:
            EN_UNITS.setdefault(_slip, _unit)

# Arabic unit words: stem -> (unit, how many it says on its own).
# Singular forms say "one" when standing alone (يوم كامل), duals say two,
# plurals say nothing without a number.
AR_UNITS: dict[str, tuple[str, int]] = {}
for _unit, _one, _two, _many in [
    ("sec", "ثانيه", "ثانيتين ثانيتان", "ثواني ثوان"),
    ("min", "دقيقه", "دقيقتين دقيقتان", "دقائق دقايق"),
    ("h", "ساعه", "ساعتين ساعتان", "ساعات سوايع"),  # سوايع: Maghrebi plural
    ("d", "يوم يوما", "يومين يومان", "ايام تيام"),  # تيام: Levantine after a number
    ("w", "اسبوع اسبوعا", "اسبوعين اسبوعان", "اسابيع"),
    ("mo", "شهر شهرا", "شهرين شهران", "اشهر شهور"),
    ("y", "سنه عام عاما", "سنتين سنتان عامين عامان", "سنوات سنين اعوام"),
]:
    for _w in _one.split():
        AR_UNITS[_w] = (_unit, 1)
    for _w in _two.split():
        AR_UNITS[_w] = (_unit, 2)
    for _w in _many.split():
        AR_UNITS[_w] = (_unit, 0)

# Step and kernel times: never a training time, whatever label is near
# ("fp32 420 ms" is one step, not 420 hours). "µ" is normalised to "μ".
SUBSECOND_UNITS = frozenset(
    [
        "ms",
        "msec",
        "msecs",
        "millisecond",
        "milliseconds",
        "us",
        "usec",
        "usecs",
        "μs",
        "microsecond",
        "microseconds",
    ]
)
# "٤٢٠ مللي ثانية": the prefix word before ثانية.
AR_SUBSECOND_PREFIXES = frozenset(["مللي", "ملي", "ميلي", "ميلى", "مايكرو", "ميكرو"])

# Abbreviations, only right after a number ("١٢ س" or "١٢ سا" = 12 hours,
# "٣٠ د" = 30 minutes) and only as a whole word, never a letter inside one.
AR_UNIT_ABBREVIATIONS: dict[str, str] = {"س": "h", "سا": "h", "د": "min", "ي": "d"}
# Arabizi (Arabic in Latin letters, digits for missing letters): unit -> (unit, count said).
ARABIZI_UNITS: dict[str, tuple[str, int]] = {
    **dict.fromkeys(["sa3a", "sa3ah", "saa3a"], ("h", 1)),
    **dict.fromkeys(["sa3at", "sa3aat", "saa", "saat"], ("h", 0)),
    **dict.fromkeys(["sa3tein", "sa3ten", "sa3teen"], ("h", 2)),
    **dict.fromkeys(["yom", "youm", "yoom"], ("d", 1)),
    **dict.fromkeys(["ayam", "ayyam", "iyam"], ("d", 0)),
    **dict.fromkeys(["yomein", "yomen", "youmein", "yomain"], ("d", 2)),
}

# ---------------------------------------------------------------- number words
EN_NUMBERS: dict[str, int] = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "dozen": 12,
}
EN_SCALES: dict[str, int] = {"hundred": 100, "thousand": 1000}
# Words that open a noun phrase: "the fp32 one", "that one" make "one" a pronoun.
DETERMINERS = frozenset(
    ["the", "this", "that", "which", "each", "every", "another", "any", "my", "our", "your"]
)

AR_NUMBERS: dict[str, int] = {}
for _value, _words in {
    0: "صفر",
    1: "واحد واحده",
    2: "اثنين اثنان اتنين تنين جوج زوج زوز",  # جوج/زوج/زوز: Maghrebi
    3: "ثلاث ثلاثه تلات تلاته",
    4: "اربع اربعه ربعه",  # ربعه: Maghrebi
    5: "خمس خمسه",
    6: "ست سته",
    7: "سبع سبعه",
    8: "ثمان ثماني ثمانيه تمن تماني تمانيه",
    9: "تسع تسعه",
    10: "عشر عشره",
    11: "احدعش حداشر",
    12: "اثناعشر اتناشر",
    15: "خمستاشر",
    20: "عشرين عشرون",
    30: "ثلاثين ثلاثون تلاتين",
    40: "اربعين اربعون",
    50: "خمسين خمسون",
    60: "ستين ستون",
    70: "سبعين سبعون",
    80: "ثمانين ثمانون تمانين",
    90: "تسعين تسعون",
    100: "مئه مائه ميه مايه",
    200: "مئتين مئتان ميتين متين",
    300: "ثلاثمئه ثلاثمائه تلتميه",
    1000: "الف",
    2000: "الفين الفان",
}.items():
    for _w in _words.split():
        AR_NUMBERS[_w] = _value
# Egyptian/Levantine تلت is both ثلاث (3) and ثلث (a third): a count before a
# plural counted noun ("تلت ساعات", "تلت كروت"), a fraction otherwise ("تلت الوقت").
AR_COUNT_OR_SHARE: dict[str, int] = {"تلت": 3}
AR_COUNTED_PLURALS = frozenset(
    [_w for _w, (_u, _n) in AR_UNITS.items() if _n == 0]
    + ["بطاقات", "كروت", "كارتات", "وحدات", "عقد", "اجهزه", "خطوات", "حقب", "دورات", "صور", "عينات"]
    + ["معاملات", "معلمات", "طبقات", "امثله", "معالجات", "دفعات"]
)
AR_SCALES: dict[str, int] = {"مئه": 100, "مائه": 100, "ميه": 100, "الاف": 1000, "الف": 1000}

# Fractions: on their own they are not a value, but they complete a
# duration ("ساعتين ونص", "a day and a half") or a ratio ("ثلث الوقت").
FRACTIONS: dict[str, float] = {
    "half": 0.5,
    "quarter": 0.25,
    "third": 1 / 3,
    "نص": 0.5,
    "نصف": 0.5,
    "ربع": 0.25,
    "ثلث": 1 / 3,
    "تلت": 1 / 3,  # Egyptian/Levantine spelling; see AR_COUNT_OR_SHARE
    # Plurals after a count: "three quarters of an hour", "two thirds of the time".
    "quarters": 0.25,
    "thirds": 1 / 3,
    "ارباع": 0.25,
    "اثلاث": 1 / 3,
}

INFINITY_WORDS = frozenset({"inf", "infinity", "infinite", "∞", "نهايه", "لانهايه", "مالانهايه"})
NAN_WORDS = frozenset({"nan"})
NEGATIVE_WORDS = frozenset({"minus", "negative", "سالب"})

# ---------------------------------------------------------------- never values
# A number right before one of these counts things, it is not a time or ratio.
COUNT_NOUNS = frozenset(
    [
        "gpu",
        "gpus",
        "card",
        "cards",
        "node",
        "nodes",
        "epoch",
        "epochs",
        "step",
        "steps",
        "iteration",
        "iterations",
        "iters",
        "iter",
        "it",
        "its",
        "sample",
        "samples",
        "image",
        "images",
        "imgs",
        "token",
        "tokens",
        "param",
        "params",
        "parameter",
        "parameters",
        "layer",
        "layers",
        "head",
        "heads",
        "worker",
        "workers",
        "core",
        "cores",
        "cpu",
        "cpus",
        "thread",
        "threads",
        "bit",
        "bits",
        "gb",
        "tb",
        "mb",
        "kb",
        "gib",
        "tib",
        "mib",
        "gig",
        "gigs",
        "billion",
        "million",
        "k",
        "b",
        "bn",
        "t",
        "machine",
        "machines",
        "server",
        "servers",
        "instance",
        "instances",
        "rank",
        "ranks",
        "process",
        "processes",
        "people",
        "users",
        "words",
        "px",
        "pixels",
        "fps",
        "tflops",
        "teraflops",
        "w",
        "watt",
        "watts",
        "dim",
        "dims",
        "feature",
        "features",
        "channel",
        "channels",
        "class",
        "classes",
        "batch",
        "batches",
        "example",
        "examples",
        "sequence",
        "sequences",
        "seq",
        "seqs",
        "row",
        "rows",
        "runs",
        "trial",
        "trials",
        "device",
        "devices",
        "chip",
        "chips",
        "replicas",
        "replica",
        "vram",
        "ram",
        "memory",
        "larger",
        "bigger",
        "smaller",
        "more",
        "fewer",
        "less-memory",
        "times-larger",
        "sm",
        "sms",
        "lanes",
        "بطاقه",
        "بطاقات",
        "كرت",
        "كروت",
        "كارت",
        "كارتات",
        "جيبيو",
        "جيبيوهات",
        "وحده",
        "وحدات",
        "عقده",
        "عقد",
        "جهاز",
        "اجهزه",
        "خطوه",
        "خطوات",
        "حقبه",
        "حقب",
        "دورات",
        "صوره",
        "صور",
        "عينه",
        "عينات",
        "معامل",
        "معاملات",
        "معلمه",
        "معلمات",
        "مليار",
        "مليون",
        "الف",
        "جيجا",
        "طبقه",
        "طبقات",
        "رسوميه",
        "مثال",
        "امثله",
        "معالج",
        "معالجات",
        "دفعه",
        "دفعات",
    ]
)
# A number right after one of these is a setting, an id or a version.
COUNT_LABELS = frozenset(
    [
        "batch",
        "bs",
        "lr",
        "rate",
        "seed",
        "id",
        "node",
        "rack",
        "epoch",
        "step",
        "iteration",
        "iter",
        "version",
        "v",
        "cuda",
        "pytorch",
        "torch",
        "python",
        "tf",
        "tensorflow",
        "cudnn",
        "nccl",
        "driver",
        "apex",
        "opset",
        "ubuntu",
        "jax",
        "port",
        "pid",
        "job#",
        "run#",
        "rank",
        "gpu#",
        "layer",
        "top",
        "warmup",
        "warm-up",
        "checkpoint",
        "ckpt",
        "every",
        "dropout",
        "momentum",
        "decay",
        "wd",
        "beta",
        "alpha",
        "gamma",
        "size",
        "dim",
        "hidden",
        "heads",
        "width",
        "depth",
        "resolution",
        "res",
        "img",
        "accuracy",
        "acc",
        "loss",
        "f1",
        "bleu",
        "map",
        "miou",
        "wer",
        "score",
        "utilization",
        "util",
        "temperature",
        "temp",
        "dataset",
        "split",
        "fold#",
        "release",
        "build",
        "commit",
        "pr",
        "issue",
        "ticket",
        "الدفعه",
        "دفعه",
        "التعلم",
        "عقده",
        "العقده",
        "نسخه",
        "النسخه",
        "اصدار",
        "الاصدار",
        "رقم",
        "حجم",
        "الحجم",
        "الدقه",
        "دقه",
    ]
)
# "FP32", "V100"... are words already; these glue a number to a name when spaced.
MONTHS = frozenset(
    [
        "jan",
        "january",
        "feb",
        "february",
        "mar",
        "march",
        "apr",
        "april",
        "may",
        "jun",
        "june",
        "jul",
        "july",
        "aug",
        "august",
        "sep",
        "sept",
        "september",
        "oct",
        "october",
        "nov",
        "november",
        "dec",
        "december",
        "يناير",
        "فبراير",
        "مارس",
        "ابريل",
        "مايو",
        "يونيو",
        "يوليو",
        "اغسطس",
        "سبتمبر",
        "اكتوبر",
        "نوفمبر",
        "ديسمبر",
    ]
)
CLOCK_WORDS = frozenset({"am", "pm", "oclock", "o'clock", "صباحا", "مساء", "مساءا", "الظهر"})

# Durations near these are deadlines, intervals or the past, not the FP32 time.
DURATION_EXCLUDERS_BEFORE = frozenset(
    [
        "deadline",
        "deadlines",
        "due",
        "ddl",
        "within",
        "before",
        "every",
        "each",
        "per",
        "since",
        "remaining",
        "left",
        "budget",
        "submission",
        "checkpoint",
        "checkpoints",
        "warmup",
        "warm-up",
        "eval",
        "evaluation",
        "log",
        "logging",
        "save",
        "saving",
        "موعد",
        "الموعد",
        "التسليم",
        "تسليم",
        "النهائي",
        "مهله",
        "ديدلاين",
        "باقي",
        "متبقي",
        "كل",
        "لكل",
        "منذ",
        "قبل",
        "خلال",
        "يتبقي",
        "تبقي",
        "الديدلاين",
    ]
)
DURATION_EXCLUDERS_AFTER = frozenset(
    [
        "ago",
        "budget",
        "left",
        "remaining",
        "later",
        "per",
        "each",
        "earlier",
        "from",
        "before",
        "after",
        "متبقيه",
        "متبقي",
        "باقيه",
        "باقي",
        "قبل",
        "قادمه",
        "القادمه",
        "الجايه",
        "جايه",
        "الماضيه",
        "الماضي",
        "فات",
    ]
)
# "20 min per epoch, 90 epochs": one epoch's time times the epoch count is the job's.
EPOCH_NOUNS = frozenset(
    ["epoch", "epochs", "حقبه", "حقب", "الحقبه", "الحقب", "ايبوك", "ايبوكات", "ايبوكس", "ابوك"]
)
# Epochs are counted like any other noun ("١٠ ايبوكات", "90 epochs"): one table.
COUNT_NOUNS = COUNT_NOUNS | EPOCH_NOUNS
# "8 min per epoch", "30s/it", "٨ دقائق لكل حقبة": a rate, not the whole job.
RATE_MARKERS = frozenset(["per", "each", "a", "an", "every", "لكل", "كل"])
RATE_NOUNS = frozenset(
    [
        "epoch",
        "epochs",
        "batch",
        "batches",
        "minibatch",
        "step",
        "steps",
        "iteration",
        "iterations",
        "iter",
        "iters",
        "it",
        "sample",
        "samples",
        "image",
        "images",
        "حقبه",
        "دفعه",
        "خطوه",
        "تكرار",
        "عينه",
        "صوره",
    ]
)
# "8 min eval", "10 min warmup", "١٠ دقائق للتقييم": another activity's time.
SIDE_ACTIVITIES = frozenset(
    [
        "eval",
        "evaluation",
        "validation",
        "val",
        "warmup",
        "warm-up",
        "checkpoint",
        "checkpoints",
        "checkpointing",
        "compile",
        "compilation",
        "startup",
        "start-up",
        "تقييم",
        "تحقق",
        "احماء",
    ]
)
# "36 hours per run": "per" names the whole job, so the duration is its time.
WHOLE_RUN_NOUNS = frozenset(
    ["run", "job", "training", "experiment", "trial", "seed", "attempt", "تجربه", "تدريب"]
)
# "next review in 2 days", "الاجتماع بعد يومين": a duration introduced by "in"
# after one of these is when something happens, not how long the job takes.
FUTURE_MARKERS = frozenset({"in", "بعد"})
FUTURE_EVENTS = frozenset(
    [
        "next",
        "meeting",
        "review",
        "demo",
        "sync",
        "standup",
        "presentation",
        "launch",
        "release",
        "call",
        "اجتماع",
        "ميتنج",
        "مراجعه",
        "قادم",
        "قادمه",
        "جاي",
        "جايه",
        "الجاي",
        "الجايه",
    ]
)
# "كم دقيقة" / "how many hours": a question, not a value.
QUESTION_WORDS = frozenset(
    ["كم", "كام", "قديش", "how", "many", "much", "which", "what", "كمان", "اي"]
)

# ---------------------------------------------------------------- ratios
RATIO_LABELS = frozenset(
    [
        "ratio",
        "speedup",
        "speed-up",
        "speedups",
        "factor",
        "reduction",
        "acceleration",
        "accel",
        "gain",
        "نسبه",
        "النسبه",
        "معامل",
        "التخفيض",
        "تخفيض",
        "التسريع",
        "تسريع",
        "معدل",
    ]
)
RATIO_FILLERS = frozenset(
    [
        "=",
        ":",
        "is",
        "of",
        "about",
        "around",
        "approx",
        "approximately",
        "roughly",
        "~",
        "be",
        "will",
        "would",
        "should",
        "expected",
        "expect",
        "estimated",
        "maybe",
        "probably",
        "like",
        "a",
        "an",
        "the",
        "amp",
        "mixed",
        "precision",
        "gives",
        "give",
        "gets",
        "get",
        "got",
        "we",
        "our",
        "my",
        "reported",
        "measured",
        "its",
        "it's",
        "was",
        "from",
        "with",
        "at",
        "هو",
        "هي",
        "حوالي",
        "تقريبا",
        "بحدود",
        "يساوي",
        "المتوقع",
        "المتوقعه",
        "متوقع",
        "عندي",
        "عندنا",
        "يكون",
        "تكون",
        "كان",
        "كانت",
        "الدقه",
        "المختلطه",
        "amp",
        "ال",
        "مع",
    ]
)
TIME_LABELS = frozenset(
    [
        "time",
        "fp32",
        "takes",
        "took",
        "take",
        "taking",
        "duration",
        "baseline",
        "training",
        "runtime",
        "wall",
        "walltime",
        "وقت",
        "الوقت",
        "الزمن",
        "زمن",
        "مده",
        "المده",
        "يستغرق",
        "تستغرق",
        "ياخذ",
        "ياخد",
        "بياخد",
        "بياخذ",
        "يحتاج",
        "التدريب",
        "تدريب",
    ]
)
SPEED_CUES = frozenset(
    [
        "faster",
        "quicker",
        "fast",
        "quick",
        "speed",
        "speeds",
        "speedup",
        "speed-up",
        "throughput",
        "accelerates",
        "accelerate",
        "accelerated",
        "boost",
        "boosts",
        "اسرع",
        "السرعه",
        "سرعه",
        "يسرع",
        "تسرع",
        "بيسرع",
        "تسريع",
        "التسريع",
        "يسرعه",
    ]
)
SLOW_CUES = frozenset(
    ["slower", "longer", "long", "slowdown", "slows", "اطول", "ابطا", "بطء", "يبطئ"]
)
TIME_NOUNS = frozenset(
    ["time", "runtime", "duration", "الوقت", "وقت", "الزمن", "زمن", "المده", "مده"]
)
TIMES_WORDS = {"مره": 1, "مرات": 0, "مرتين": 2, "مرتان": 2}
MULTIPLE_WORDS = {  # words that are a multiple by themselves
    "twice": 2.0,
    "double": 2.0,
    "doubles": 2.0,
    "doubled": 2.0,
    "doubling": 2.0,
    "triple": 3.0,
    "triples": 3.0,
    "tripled": 3.0,
    "thrice": 3.0,
    "ضعف": 2.0,
    "ضعفين": 2.0,
    "ضعفي": 2.0,
    "يضاعف": 2.0,  # "تضاعف السرعة", "بيضاعف السرعة": doubles the speed
    "تضاعف": 2.0,
}
MULTIPLE_PLURALS = frozenset({"اضعاف", "ضعف"})  # N اضعاف = N
DIVIDE_WORDS = frozenset(
    ["divides", "divide", "divided", "dividing", "يقسم", "تقسم", "يقسم", "بيقسم"]
)
HALVING_WORDS = frozenset({"halves", "halved", "halving", "halve", "ينصف"})
FOLD_WORDS = frozenset({"fold", "-fold"})

# Percent meanings (data README conventions 6-9).
PCT_FASTER = frozenset(
    [
        "faster",
        "quicker",
        "speedup",
        "speed-up",
        "speed",
        "speeds",  # "speeds it up 35%", "speeds up training by 35%"
        "sped",
        "accelerates",
        "accelerated",
        "throughput",
        "improvement",
        "improves",
        "improved",
        "boost",
        "gain",
        "acceleration",
        "اسرع",
        "السرعه",
        "سرعه",
        "تسريع",
        "يسرع",
        "تسرع",
        "يسرعه",  # "بيسرّعه ٣٥٪"
        "تسرعه",
        "اسرع",
    ]
)
PCT_SLOWER = frozenset(["slower", "slowdown", "ابطا"])
PCT_LESS = frozenset(
    [
        "يقل",
        "تقل",
        "cut",
        "cuts",
        "cutting",
        "reduce",
        "reduces",
        "reduced",
        "reducing",
        "reduction",
        "save",
        "saves",
        "saved",
        "saving",
        "savings",
        "less",
        "shorter",
        "shrinks",
        "shrink",
        "trims",
        "trim",
        "decrease",
        "decreases",
        "decreased",
        "lower",
        "lowers",
        "fewer",
        "shaves",
        "يقلل",
        "تقلل",
        "يخفض",
        "تخفض",
        "يوفر",
        "توفر",
        "اقل",
        "ينقص",
        "تنقص",
        "تقليل",
        "توفير",
        "تخفيض",
        "يختصر",
        "تختصر",
        "بيقلل",
        "قلل",  # past tense: "قلّل amp الوقت بنسبة ٥٥٪"
        "قللت",
        "خفض",
        "خفضت",
        "وفر",
        "وفرت",
        "اختصر",
        "اختصرت",
        "بيوفر",
        "هيوفر",
        "هيقلل",
    ]
)
PCT_REMAIN = frozenset(
    [
        "takes",
        "take",
        "taking",
        "only",
        "to",
        "drops",
        "drop",
        "falls",
        "fall",
        "down",
        "becomes",
        "الي",
        "يستغرق",
        "تستغرق",
        "ياخذ",
        "ياخد",
        "بياخد",
        "يصبح",
        "يصير",
        "ينخفض",
        "تنخفض",
        "يخلي",  # "بيخلي الوقت النص": makes the time half
        "تخلي",
    ]
)
PCT_MORE = frozenset(
    [
        "longer",
        "more",
        "up",  # "tokens/s up 40%" (a speed, so faster); "time up 40%" (slower)
        "زاد",
        "زادت",
        "ارتفع",
        "ارتفعت",
        "يرتفع",
        "ترتفع",
        "increases",
        "increase",
        "increased",
        "adds",
        "تزيد",
        "يزيد",
        "يزود",
        "تزود",
        "زياده",
        "اطول",
    ]
)
PERCENT_WORDS = frozenset({"percent", "pct", "بالمئه", "بالميه", "%"})

# ---------------------------------------------------------------- intent
ESTIMATE_CUES = frozenset(
    [
        "estimate",
        "estimation",
        "estimated",
        "calculate",
        "calc",
        "compute",
        "predict",
        "prediction",
        "احسب",
        "احسبلي",
        "احسبها",
        "تحسب",
        "تحسبها",
        "حساب",
        "تقدير",
        "قدر",
        "قدرلي",
        "التقدير",
        "المتوقع",
    ]
)
# Canonical models whose name is also an architecture: "Transformer" is NVIDIA's
# translation model only when no other task is named with it.
ARCHITECTURE_MODELS = frozenset(["Transformer"])
# Training frameworks, to prefer a model's published runs in the same one.
FRAMEWORKS: dict[str, str] = {
    **dict.fromkeys(["pytorch", "torch", "بايتورش", "بايتورتش"], "PyTorch"),
    **dict.fromkeys(
        ["tensorflow", "tf", "tf1", "tf2", "keras", "تنسرفلو", "تنسورفلو", "تينسورفلو"],
        "TensorFlow",
    ),
    **dict.fromkeys(["jax", "flax"], "JAX"),
    "mxnet": "MXNet",
    **dict.fromkeys(["paddle", "paddlepaddle"], "PaddlePaddle"),
}
# Recurrent layers are memory-bound: Tensor Cores help them less (facts sheet 5.6).
RECURRENT_WORDS = frozenset(
    ["lstm", "lstms", "bilstm", "convlstm", "gru", "grus", "rnn", "rnns", "recurrent"]
)
# "how long", "كم سيستغرق": asking for a time.
HOW_WORDS = frozenset({"how", "كم", "كام", "قديش", "قد", "شقد"})
DURATION_VERBS = frozenset(
    [
        "long",
        "take",
        "takes",
        "time",
        "سيستغرق",
        "يستغرق",
        "تستغرق",
        "بياخد",
        "هياخد",
        "ياخذ",
        "ياخد",
        "يصير",
        "بيصير",
        "يبقي",
        "هيبقي",
        "الوقت",
        "مده",
    ]
)
LANG_WORDS = frozenset({"lang", "language", "اللغه", "لغه"})
LANG_CHOICES: dict[str, str] = {
    "ar": "ar",
    "arabic": "ar",
    "عربي": "ar",
    "العربيه": "ar",
    "عربيه": "ar",
    "en": "en",
    "english": "en",
    "انجليزي": "en",
    "الانجليزيه": "en",
    "انجليزيه": "en",
    "انكليزي": "en",
}
MEMORY_WORDS = frozenset({"memory", "vram", "ذاكره", "الذاكره"})
# "will a 7B model fit on one A100?", "هل يتسع/يكفيه": with a parameter count, a memory question.
FIT_WORDS = frozenset(
    [
        "fit",
        "fits",
        "fitting",
        "يتسع",
        "تتسع",
        "يسع",
        "يسعه",
        "يكفي",
        "تكفي",
        "يكفيه",
        "تكفيه",
        "يكفيها",
        "تكفيها",
        "بيكفي",
        "بتكفي",
        "يساع",
        "بيساع",
        "يدخل",
        "enough",  # "is one A100 40GB enough for a 3B model?"
        "كافي",
        "كافيه",
    ]
)
OPTIMIZERS: dict[str, str] = {
    "adam": "adam",
    "adamw": "adam",
    "ادم": "adam",
    "lamb": "adam",
    "sgd": "sgd",
    "momentum": "sgd_momentum",
    # Named so the memory answer refuses them (unknown_optimizer) instead of assuming Adam.
    "lion": "lion",
    "adafactor": "adafactor",
    "adagrad": "adagrad",
    "rmsprop": "rmsprop",
    "shampoo": "shampoo",
    "sophia": "sophia",
}

# Latin words that do not make a message English (technical terms in Arabic text).
TECH_WORDS = frozenset(
    [
        "fp32",
        "fp16",
        "bf16",
        "tf32",
        "fp8",
        "amp",
        "gpu",
        "gpus",
        "mixed",
        "precision",
        "cuda",
        "pytorch",
        "tensorflow",
        "nan",
        "inf",
        "h",
        "hrs",
        "hr",
        "min",
        "mins",
        "x",
        "ratio",
        "speedup",
        "batch",
    ]
)

# ---------------------------------------------------------------- Arabic clitics
_PREFIXES = (
    "وبال",
    "فبال",
    "وال",
    "بال",
    "فال",
    "كال",
    "لل",
    "ال",
    "وب",
    "ول",
    "فب",
    "فل",
    "وه",
    "و",
    "ب",
    "ل",
    "ف",
    "ك",
    "ه",
)


@lru_cache(maxsize=8192)
def stems(word: str) -> tuple[str, ...]:
    """The word and what is left after stripping each clitic prefix it may carry."""
    out = [word]
    for p in _PREFIXES:
        if word.startswith(p) and len(word) - len(p) >= 2:
            out.append(word[len(p) :])
    return tuple(out)


def lookup(word: str, table) -> str | None:
    """The first form of ``word`` (itself, then without clitics) found in ``table``."""
    if word in table:
        return word
    for s in stems(word)[1:]:
        if s in table:
            return s
    return None


def has_prefix_article(word: str, stem: str) -> bool:
    """True when the clitics before ``stem`` include the article (الساعات, بالساعات)."""
    return word.endswith(stem) and word[: len(word) - len(stem)].endswith(("ال", "لل"))


# Well-known models the published data has no rows for, by what they are used
# for, so "YOLOv8 on A100" or "llama-2-7b" still narrows the ratio by task
# family. Keys are written without hyphens or underscores ("hifigan", "nnunet");
# the canonical models (BERT, ResNet-50, ...) are names, found before these.
MODEL_WORD_FAMILIES: dict[str, str] = {
    **dict.fromkeys(
        [
            "resnet",
            "resnext",
            "seresnext",
            "wideresnet",
            "vgg",
            "densenet",
            "inception",
            "googlenet",
            "xception",
            "mobilenet",
            "mnasnet",
            "shufflenet",
            "squeezenet",
            "regnet",
            "convnext",
            "nfnet",
            "alexnet",
            "vit",
            "deit",
            "swin",
            "beit",
        ],
        "image_classification",
    ),
    **dict.fromkeys(
        ["yolo", "yolov", "retinanet", "rcnn", "fasterrcnn", "efficientdet", "detr", "fcos"],
        "detection",
    ),
    **dict.fromkeys(
        ["nnunet", "deeplab", "deeplabv", "segformer", "maskformer", "pspnet"], "segmentation"
    ),
    **dict.fromkeys(
        [
            "gpt",
            "llama",
            "mistral",
            "mixtral",
            "qwen",
            "gemma",
            "roberta",
            "electra",
            "albert",
            "distilbert",
            "xlnet",
            "deberta",
            "megatron",
            "t5",
            "bart",
            "pythia",
        ],
        "language_model",
    ),
    **dict.fromkeys(["marian", "mbart", "nllb", "m2m100"], "translation"),
    **dict.fromkeys(
        [
            "whisper",
            "wav2vec",
            "conformer",
            "quartznet",
            "citrinet",
            "deepspeech",
            "rnnt",
            "hubert",
        ],
        "speech_recognition",
    ),
    **dict.fromkeys(["hifigan", "melgan", "fastpitch", "vits", "glowtts"], "tts"),
    **dict.fromkeys(
        ["deepfm", "xdeepfm", "dcn", "dcnv", "vaecf", "sasrec", "bert4rec"], "recommender"
    ),
    **dict.fromkeys(
        ["tft", "informer", "autoformer", "patchtst", "nbeats", "deepar"], "time_series"
    ),
    **dict.fromkeys(["gcn", "graphsage", "schnet", "dimenet", "egnn", "mpnn", "moflow"], "graph"),
}
# What may follow a model stem in the same word: a version or size
# ("resnet101", "yolov8", "vit-b", "t5-large", "efficientdet-d0"), never more
# letters, so "swing" is not Swin and "vitamin" is not ViT.
_MODEL_SUFFIX_WORDS = frozenset(
    [
        "b",
        "l",
        "s",
        "m",
        "h",
        "t",
        "x",
        "xs",
        "xl",
        "xxl",
        "base",
        "large",
        "small",
        "tiny",
        "huge",
        "mini",
        "medium",
        "nano",
        "lm",
        "2d",
        "3d",
    ]
)


def model_word_family(word: str) -> str | None:
    """Task family of a well-known model written as one word, else None."""
    squashed = word.replace("-", "").replace("_", "")
    for end in range(len(squashed), 1, -1):
        family = MODEL_WORD_FAMILIES.get(squashed[:end])
        if family is None:
            continue
        rest = squashed[end:]
        versioned = rest[:1].isdigit() or (rest[:1] in ("v", "d") and rest[1:2].isdigit())
        return family if not rest or versioned or rest in _MODEL_SUFFIX_WORDS else None
    return None
