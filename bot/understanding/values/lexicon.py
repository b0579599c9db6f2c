"""The words the grammar knows, in English and Arabic (normalised spellings).

Arabic entries are written after normalisation (bare alef, ta marbuta as ha,
no diacritics), and :func:`lookup` strips the clitics a word may carry
(و، ب، ل، ف، ك، ال، بال، لل ...), so one entry covers "الساعات", "بالساعات"
and "وساعات". Everything here is data; the grammar lives in the other modules.
"""

from __future__ import annotations

from functools import lru_cache

from bot.models import HOURS_PER_UNIT, TimeUnit
from bot.understanding.words import mapping, table

# ---------------------------------------------------------------- time units
# One unit table for the whole bot: each unit code's length in hours is the
# models' (HOURS_PER_UNIT, what replies are written in), plus the units a
# message may use that replies do not (seconds, fortnights, months: 730 h, a 12th
# of a year). The words for each unit are data in words/en.toml and words/ar.toml.
UNIT_CODES: dict[str, TimeUnit] = {
    "min": TimeUnit.MINUTES,
    "h": TimeUnit.HOURS,
    "d": TimeUnit.DAYS,
    "w": TimeUnit.WEEKS,
    "y": TimeUnit.YEARS,
}
UNIT_HOURS: dict[str, float] = {
    "sec": 1 / 3600,
    **{code: HOURS_PER_UNIT[unit] for code, unit in UNIT_CODES.items()},
    "fn": 2 * HOURS_PER_UNIT[TimeUnit.WEEKS],
    "mo": HOURS_PER_UNIT[TimeUnit.YEARS] / 12,
}

EN_UNITS: dict[str, str] = {
    word: code for code, words in mapping("UNIT_WORDS").items() for word in words
}
_NOT_UNIT_SLIPS = table("NOT_UNIT_SLIPS")


def _slips(word: str) -> set[str]:
    dropped = {word[:k] + word[k + 1 :] for k in range(1, len(word))}
    swapped = {word[:k] + word[k + 1] + word[k] + word[k + 2 :] for k in range(1, len(word) - 1)}
    return {w for w in dropped | swapped if len(w) >= 3}


def with_slips(words: dict[str, str], min_length: int = 6) -> dict[str, str]:
    """``words`` and a typing slip of each Latin word of ``min_length`` letters or more
    (one letter dropped or two swapped: "infrence", "inferecne", "enogh"), the words
    themselves winning over any slip that spells one of them."""
    out = dict(words)
    for word, value in words.items():
        if len(word) >= min_length and word.isascii() and word.isalpha():
            for slip in _slips(word):
                out.setdefault(slip, value)
    return out


for _w, _unit in list(EN_UNITS.items()):
    if len(_w) >= 4 and _w.isalpha():
        for _slip in _slips(_w) - _NOT_UNIT_SLIPS:
            EN_UNITS.setdefault(_slip, _unit)

# Arabic unit words: stem -> (unit, how many it says on its own). Singular
# forms say "one" when standing alone (يوم كامل), duals say two, plurals say
# nothing without a number; Arabizi ("sa3a", "yomein") the same.


def _said_units(*tables: tuple[str, int]) -> dict[str, tuple[str, int]]:
    """word -> (unit code, count said) from word tables of unit code -> words."""
    return {
        word: (code, said)
        for name, said in tables
        for code, words in mapping(name).items()
        for word in words
    }


AR_UNITS = _said_units(("UNIT_WORDS_ONE", 1), ("UNIT_WORDS_TWO", 2), ("UNIT_WORDS_MANY", 0))
ARABIZI_UNITS = _said_units(
    ("ARABIZI_UNIT_WORDS_ONE", 1), ("ARABIZI_UNIT_WORDS_TWO", 2), ("ARABIZI_UNIT_WORDS_MANY", 0)
)

SUBSECOND_UNITS = table("SUBSECOND_UNITS")
# "٤٢٠ مللي ثانية": the prefix word before ثانية.
AR_SUBSECOND_PREFIXES = frozenset(["مللي", "ملي", "ميلي", "ميلى", "مايكرو", "ميكرو"])

AR_UNIT_ABBREVIATIONS: dict[str, str] = mapping("AR_UNIT_ABBREVIATIONS")
EN_NUMBERS: dict[str, int] = mapping("EN_NUMBERS")
EN_SCALES: dict[str, int] = mapping("EN_SCALES")
DETERMINERS = table("DETERMINERS")

AR_NUMBERS: dict[str, int] = {
    word: int(value) for value, words in mapping("AR_NUMBER_WORDS").items() for word in words
}
AR_TEEN_HEADS: dict[str, int] = {
    word: int(value) for value, words in mapping("AR_TEEN_HEADS").items() for word in words
}
AR_COUNT_OR_SHARE: dict[str, int] = mapping("AR_COUNT_OR_SHARE")
AR_COUNTED_PLURALS = frozenset(
    [_w for _w, (_u, _n) in AR_UNITS.items() if _n == 0]
    + ["بطاقات", "كروت", "كارتات", "وحدات", "عقد", "اجهزه", "خطوات", "حقب", "دورات", "صور", "عينات"]
    + ["معاملات", "معلمات", "طبقات", "امثله", "معالجات", "دفعات"]
)
AR_SCALES: dict[str, int] = mapping("AR_SCALES")

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
    # With "its": "بيصير نصه" (becomes its half), "ربعه", "تلته".
    "نصه": 0.5,
    "نصها": 0.5,
    "نصفه": 0.5,
    "نصفها": 0.5,
    "ربعه": 0.25,
    "ثلثه": 1 / 3,
    "تلته": 1 / 3,
    # MSA's indefinite accusative after a unit ("ساعتين ونصفاً", "يوماً وربعاً"): the
    # tanween is dropped on load, its alif stays. Not «ثلثا»: that is also "two thirds".
    "نصفا": 0.5,
    "ربعا": 0.25,
}

INFINITY_WORDS = table("INFINITY_WORDS")
NAN_WORDS = table("NAN_WORDS")
NEGATIVE_WORDS = table("NEGATIVE_WORDS")

# ---------------------------------------------------------------- never values
# A number right before one of these counts things, it is not a time or ratio.
COUNT_NOUNS = table("COUNT_NOUNS")
COUNT_LABELS = table("COUNT_LABELS")
MONTHS = table("MONTHS")
CLOCK_WORDS = table("CLOCK_WORDS")

DURATION_EXCLUDERS_BEFORE = table("DURATION_EXCLUDERS_BEFORE")
DURATION_EXCLUDERS_AFTER = table("DURATION_EXCLUDERS_AFTER")
EPOCH_NOUNS = table("EPOCH_NOUNS")
# Epochs are counted like any other noun ("١٠ ايبوكات", "90 epochs"): one table.
COUNT_NOUNS = COUNT_NOUNS | EPOCH_NOUNS
RATE_MARKERS = table("RATE_MARKERS")
RATE_NOUNS = table("RATE_NOUNS")
SIDE_ACTIVITIES = table("SIDE_ACTIVITIES")
WHOLE_RUN_NOUNS = table("WHOLE_RUN_NOUNS")
FUTURE_MARKERS = table("FUTURE_MARKERS")
FUTURE_EVENTS = table("FUTURE_EVENTS")
QUESTION_WORDS = table("QUESTION_WORDS")

RATIO_LABELS = table("RATIO_LABELS")
TIME_LABELS = table("TIME_LABELS")
SPEED_CUES = table("SPEED_CUES")
SLOW_CUES = table("SLOW_CUES")
TIME_NOUNS = table("TIME_NOUNS")
TIMES_WORDS = mapping("TIMES_WORDS")
MULTIPLE_WORDS = mapping("MULTIPLE_WORDS")
MULTIPLE_PLURALS = table("MULTIPLE_PLURALS")
DIVIDE_WORDS = table("DIVIDE_WORDS")
HALVING_WORDS = table("HALVING_WORDS") | table("HALVING_VERBS")
FOLD_WORDS = table("FOLD_WORDS")

PCT_FASTER = table("PCT_FASTER")
PCT_SLOWER = table("PCT_SLOWER")
# A verb of cutting takes its object as a suffix in dialect: "يخفضه للنص", "ينزلها للنص".
_OBJECT_PRONOUNS = ("ه", "ها")
_LESS_VERBS = table("PCT_LESS") | table("PCT_LESS_DIALECT")
PCT_LESS = _LESS_VERBS | {v + p for v in _LESS_VERBS if not v.isascii() for p in _OBJECT_PRONOUNS}
PCT_REMAIN = table("PCT_REMAIN") | table("PCT_REMAIN_DIALECT")
PCT_MORE = table("PCT_MORE")
PERCENT_WORDS = table("PERCENT_WORDS")

ESTIMATE_CUES = table("ESTIMATE_CUES")
# Canonical models whose name is also an architecture: "Transformer" is NVIDIA's
# translation model only when no other task is named with it.
ARCHITECTURE_MODELS = frozenset(["Transformer"])
FRAMEWORKS: dict[str, str] = mapping("FRAMEWORKS")
RECURRENT_WORDS = table("RECURRENT_WORDS")
HOW_WORDS = table("HOW_WORDS")
DURATION_VERBS = table("DURATION_VERBS")
# What may stand between a label and its value: "ratio = 2", "took about 7:30:00".
LABEL_FILLERS = frozenset(["=", ":", "is", "of", "~", "about", "around"])
LANG_WORDS = table("LANG_WORDS")
LANG_CHOICES: dict[str, str] = mapping("LANG_CHOICES")
MEMORY_WORDS = table("MEMORY_WORDS")
FIT_WORDS = frozenset(with_slips({w: w for w in table("FIT_WORDS")}))  # "enogh" too
OPTIMIZERS: dict[str, str] = mapping("OPTIMIZERS")

TECH_WORDS = table("TECH_WORDS")

# ---------------------------------------------------------------- Arabic clitics
_PREFIXES = (
    "ولل",  # "وللاستدلال": and + for the
    "فلل",
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


# «تسريعه ١٫٥», «نسبتها ٢»: a possessive pronoun glued to a noun's end.
_PRONOUN_SUFFIXES = table("PRONOUN_SUFFIXES")


def _without_pronoun(word: str) -> tuple[str, ...]:
    """``word`` without a possessive suffix, a taa marbuta restored where the suffix
    had opened it («نسبته» → «نسبه», as normalised); empty when it has none."""
    for suffix in _PRONOUN_SUFFIXES:
        base = word[: -len(suffix)]
        if word.endswith(suffix) and len(base) >= 3:
            return (base, base[:-1] + "ه") if base.endswith("ت") else (base,)
    return ()


def lookup(word: str, table) -> str | None:
    """The first form of ``word`` found in ``table``: itself, then without its clitic
    prefixes, then without a possessive suffix too («وتسريعه» is «تسريع»'s)."""
    if word in table:
        return word
    forms = stems(word)
    for s in forms[1:]:
        if s in table:
            return s
    for s in forms:
        for bare in _without_pronoun(s):
            if bare in table:
                return bare
    return None


def has_prefix_article(word: str, stem: str) -> bool:
    """True when the clitics before ``stem`` include the article (الساعات, بالساعات)."""
    return word.endswith(stem) and word[: len(word) - len(stem)].endswith(("ال", "لل"))


MODEL_WORD_FAMILIES: dict[str, str] = mapping("MODEL_WORD_FAMILIES")
_MODEL_SUFFIX_WORDS = table("MODEL_SUFFIX_WORDS")


# The longest model stem in MODEL_WORD_FAMILIES: a longer prefix is never looked up,
# so a 100 KB identifier costs one pass, not one slice per character.
_LONGEST_MODEL_STEM = max(map(len, MODEL_WORD_FAMILIES), default=0)


def model_word_family(word: str) -> str | None:
    """Task family of a well-known model written as one word, else None."""
    squashed = word.replace("-", "").replace("_", "")
    for end in range(min(len(squashed), _LONGEST_MODEL_STEM), 1, -1):
        family = MODEL_WORD_FAMILIES.get(squashed[:end])
        if family is None:
            continue
        rest = squashed[end:]
        versioned = rest[:1].isdigit() or (rest[:1] in ("v", "d") and rest[1:2].isdigit())
        return family if not rest or versioned or rest in _MODEL_SUFFIX_WORDS else None
    return None
