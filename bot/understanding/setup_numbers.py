"""Numbers that describe the setup, never the FP32 time or the ratio: one named
rule each (GPU and node counts, step times, parameter counts, memory sizes,
dates and clock times, ids, labelled settings, prices).

:func:`classify` tries the rules in order; the first that decides gives the
role (``""``: the number may be a value, left to the time and ratio rules).
"""

from __future__ import annotations

import re

from bot.understanding.currencies import CURRENCY_SYMBOLS
from bot.understanding.lexicon import (
    AR_SUBSECOND_PREFIXES,
    CLOCK_WORDS,
    COUNT_LABELS,
    COUNT_NOUNS,
    EN_UNITS,
    MONTHS,
    SUBSECOND_UNITS,
    model_word_family,
)
from bot.understanding.nearby import at, is_duration_at, is_time_unit, word_in
from bot.understanding.prices import (
    PRICE_SCALES,
    after_ratio_label,
    currency_after,
    currency_code,
    owned,
    symbol_after,
)
from bot.understanding.ratios import slash_fraction
from bot.understanding.setup_words import FAMILY_PHRASES, FAMILY_WORDS
from bot.understanding.tokens import NUM, SYM, WORD, Token

GPU_NOUNS = frozenset(
    [
        "gpu",
        "gpus",
        "card",
        "cards",
        "بطاقه",
        "بطاقات",
        "كرت",
        "كروت",
        "كارت",
        "كارتات",  # Iraqi and Gulf plural
        "جيبيو",
        "جيبيوهات",
        "وحده",
        "وحدات",
        "رسوميه",
    ]
)


NODE_NOUNS = frozenset(
    ["node", "nodes", "machine", "machines", "server", "servers", "عقده", "عقد", "جهاز", "اجهزه"]
)


PARAM_SUFFIXES = {
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
    "m": 1e6,
    "million": 1e6,
    "k": 1e3,
    "t": 1e12,
}


AR_PARAM_WORDS = {"مليار": 1e9, "مليون": 1e6}


MEMORY_SUFFIXES = frozenset(["gb", "tb", "mb", "kb", "gib", "tib", "mib", "g"])


ORDINAL_SUFFIXES = frozenset(["st", "nd", "rd", "th", "am", "pm"])


PARAM_NOUNS = frozenset(
    ["param", "params", "parameter", "parameters", "weights", "معامل", "معاملات", "معلمه", "معلمات"]
)


COUNT_PREPOSITIONS = frozenset(
    ["on", "with", "using", "across", "over", "x", "علي", "عبر", "باستخدام", "ب"]
)


LABEL_FILLERS = frozenset(
    ["size", "of", "=", ":", "is", "global", "per", "local", "micro", "mini", "total"]
)


# What "3D"/"2D" qualifies when written before it: a network, a task, the data.
DIMENSION_NOUNS = frozenset(
    [
        "cnn",
        "cnns",
        "conv",
        "convnet",
        "convolution",
        "convolutions",
        "convolutional",
        "medical",
        "model",
        "models",
        "volume",
        "volumes",
        "volumetric",
        "image",
        "images",
        "scan",
        "scans",
        "data",
        "network",
        "networks",
        "net",
        "nets",
        "unet",
        "u-net",
    ]
    + [phrase for phrase, _ in FAMILY_PHRASES if " " not in phrase]
    + list(FAMILY_WORDS)
)


DIMENSION_WORDS = frozenset(["ابعاد", "ثلاثي", "ثنائي"])  # "ثلاثي الأبعاد 3D"


_TENTHS = re.compile(r"\d+\.\d")  # one decimal digit: a quantity, never minutes


def _date_or_clock(tokens: list[Token], i: int) -> bool:
    """ "10:30", "10:30:15", "01/05/2024", "2024-05-01": marks the numbers after ``i``.

    Numbers glued by ":" or "/" are a clock time or a date; glued by "-" only
    when there are three of them ("12-15h" is a range, "2024-05-01" a date).
    """
    if slash_fraction(tokens, i) is not None:
        return False  # "2/3 of the time": a share, read with the ratios
    chain: list[Token] = []
    seps: set[str] = set()
    j = i + 1
    while j + 1 < len(tokens):
        sep, num = tokens[j], tokens[j + 1]
        if not (
            sep.kind == SYM and sep.glued and sep.text in ":/-" and num.kind == NUM and num.glued
        ):
            break
        if num.suffix or (seps and sep.text not in seps):
            break
        seps.add(sep.text)
        chain.append(num)
        j += 2
    if not chain or (seps == {"-"} and len(chain) < 2):
        return False
    for num in chain:
        num.role = num.role or "date"
    return True


def _dimension_of(tokens: list[Token], i: int) -> bool:
    """ "3D U-Net", "3D segmentation", "3D medical", "ثلاثي الأبعاد 3D": a dimension.

    The adjective comes before what it qualifies (a network, a task, the data),
    or after a model's name ("nnU-Net 3D") or "الأبعاد"; "takes 3d" is days.
    """
    nxt, prev = at(tokens, i + 1), at(tokens, i - 1)
    return (
        _model_word(prev)
        or _model_word(nxt)
        or word_in(nxt, DIMENSION_NOUNS) is not None
        or word_in(prev, DIMENSION_WORDS) is not None
    )


def _model_word(tok: Token | None) -> bool:
    """A model's name: canonical (role set by names), or well known to the lexicon."""
    if tok is None or tok.kind != WORD:
        return False
    return tok.role in ("model", "name") or model_word_family(tok.text) is not None


def classify(tokens: list[Token], i: int) -> str:
    """What a setup number is ("gpus", "batch", "date", ...), or "" when it may be a value."""
    tok = tokens[i]
    nxt, prev = at(tokens, i + 1), at(tokens, i - 1)
    suffix = tok.suffix.lstrip("-")
    if prev is not None and prev.text == "±":
        return "tolerance"  # "10h ±1h", "(±10%)": an error bar, never a value
    if _sized_gpus_after(tokens, i):
        return "gpus"  # "4 x 80GB GPUs", "8x 80GB", "2x 24GB cards": how many, of what size
    if _times_after_gpu(tokens, i):
        return "gpus"  # "A100 x8", "a100 40gb x 8", "H100 ×4": how many of that card
    if not suffix and nxt is not None and nxt.text == "x":
        after = at(tokens, i + 2)
        if is_duration_at(tokens, i + 2):
            return "multiplier"  # "2 x 8 hours": 16 hours in all, read with the durations
        if after is not None and after.kind == NUM:
            # "4 x 8 GPUs" (nodes times GPUs), "224 x 224" (a size): never a speed-up.
            noun = at(tokens, i + 3)
            if noun is not None and (noun.role == "gpu" or word_in(noun, GPU_NOUNS)):
                return "nodes"
            after.role = after.role or "count"
            return "count"
        if after is not None and after.role == "gpu":
            return "gpus"  # "2 x A100"
    if _subsecond(tokens, i):
        return "step_time"  # "420 ms": one step, never the FP32 training time
    if suffix in PARAM_SUFFIXES and (word_in(nxt, COUNT_NOUNS) or word_in(nxt, PARAM_NOUNS)):
        return "params"  # "340M params": millions, not minutes
    if suffix == "d" and tok.value in (2, 3) and _dimension_of(tokens, i):
        return "dimension"  # "nnU-Net 3D", "3D CNN": three-dimensional, not three days
    if suffix == "x" and is_duration_at(tokens, i + 1) and tokens[i + 1].glued:
        return "multiplier"  # "2x8 hours"
    if suffix in EN_UNITS or (suffix == "x" and not _count_after(tokens, i + 1)):
        return ""  # "100h" is a time, "2x" a ratio unless "8x A100"
    if suffix in ORDINAL_SUFFIXES:
        return "date"
    if suffix in MEMORY_SUFFIXES:
        return "memory"
    if suffix in PRICE_SCALES and (
        (prev is not None and prev.kind == SYM and prev.text in CURRENCY_SYMBOLS)
        or currency_after(tokens, i)
    ):
        return "price"  # "$1.5k total", "2k EUR a week": thousands of money, not parameters
    if suffix in PARAM_SUFFIXES:
        return "params"
    if suffix == "x":
        return _count_after(tokens, i + 1)
    if suffix in COUNT_NOUNS:
        return _noun_role(suffix)
    if prev is not None and prev.kind == SYM and prev.text in CURRENCY_SYMBOLS:
        return "price"
    if symbol_after(tokens, i):
        return "price"  # "2.5$/h"
    # "ratio 2 SAR 10 per hour": the 2 is the ratio, the riyals are the 10's.
    if not after_ratio_label(tokens, i) and (
        currency_after(tokens, i) or (currency_code(tokens, i - 1, i) and not owned(tokens, i - 1))
    ):
        return "price"
    # Clock times, dates, ids, products like 224x224.
    if _date_or_clock(tokens, i):
        return "date"
    if prev is not None and prev.kind == SYM and prev.text in "#@" and tok.glued:
        return "id"
    if word_in(nxt, CLOCK_WORDS) or word_in(prev, MONTHS) or word_in(nxt, MONTHS):
        return "date"
    if (
        prev is not None
        and prev.text in ("at",)
        and not is_time_unit(nxt)
        and not (nxt is not None and nxt.text in ("times", "x"))
        and not word_in(nxt, COUNT_NOUNS)  # "at 8 GPUs"
        and not _TENTHS.fullmatch(tok.text)  # "at 2.5": no clock reads so (2.30 does)
    ):
        return "clock"  # "at 10", but "clocks in at 14 hr" is a duration, "at 2 times" a ratio
    if (
        prev is not None
        and prev.kind == WORD
        and prev.text in ("الساعه",)
        and not is_time_unit(nxt)
    ):
        return "clock"
    if (
        1900 <= tok.value <= 2100
        and tok.value == int(tok.value)
        and not is_time_unit(nxt)
        and prev is not None
        and prev.text in ("in", "since", "year", "عام", "سنه", "في")
    ):
        return "date"
    if is_time_unit(nxt) or tok.extra.get("spelled") and nxt is None:
        return ""
    noun = word_in(nxt, COUNT_NOUNS) or word_in(nxt, AR_PARAM_WORDS)
    if noun:
        return _noun_role(noun)
    if nxt is not None and nxt.role == "gpu" and _is_gpu_count(tokens, i):
        return "gpus"
    if _labelled_setting(tokens, i):
        return "setting"
    return ""


def _times_after_gpu(tokens: list[Token], i: int) -> bool:
    """Rule ``gpu_times_count``: "A100 x8", "a100 40gb x 8", "H100 × 4": a bare number
    after "x" or "×" right after a GPU name (or its memory size) counts the cards; it is
    no speed-up. A comma before "x2" keeps it a ratio ("on A100, x2")."""
    tok, sign, card = tokens[i], at(tokens, i - 1), at(tokens, i - 2)
    if tok.suffix or sign is None or sign.text not in ("x", "×", "*") or card is None:
        return False
    if is_time_unit(at(tokens, i + 1)):
        return False  # "A100 x 2 days"
    return card.role == "gpu"


def _sized_gpus_after(tokens: list[Token], i: int) -> bool:
    """ "4 x 80GB", "8x 80GB": a count times a GPU memory size."""
    tok = tokens[i]
    j = i + 1 if tok.suffix == "x" else i + 2
    nxt = at(tokens, i + 1)
    if tok.suffix not in ("", "x") or (not tok.suffix and (nxt is None or nxt.text != "x")):
        return False
    size = at(tokens, j)
    return size is not None and size.kind == NUM and size.suffix in ("gb", "g")


def _subsecond(tokens: list[Token], i: int) -> bool:
    """ "420ms", "900 µs", "٤٢٠ مللي ثانية": a step time (the seconds word is taken too)."""
    suffix = tokens[i].suffix
    nxt = at(tokens, i + 1)
    if suffix:
        return suffix in SUBSECOND_UNITS
    if nxt is None or nxt.kind != WORD or nxt.role:
        return False
    if nxt.text in SUBSECOND_UNITS:
        return True
    if word_in(nxt, AR_SUBSECOND_PREFIXES) is None:
        return False
    unit = at(tokens, i + 2)
    if unit is not None and is_time_unit(unit):
        unit.role = "step_time"
    return True


def _noun_role(noun: str) -> str:
    if noun in GPU_NOUNS:
        return "gpus"
    if noun in NODE_NOUNS:
        return "nodes"
    if noun in AR_PARAM_WORDS or noun in PARAM_SUFFIXES or noun in PARAM_NOUNS:
        return "params"
    return "count"


def _count_after(tokens: list[Token], j: int) -> str:
    """ "8x A100", "4x8 GPUs", "2x larger batch": the x joins counts, not a speedup."""
    for tok in tokens[j : j + 2]:
        if tok.role == "gpu":
            return "gpus"
        if tok.kind == NUM and tok.glued:
            tok.role = "count"
            return "count"
        noun = word_in(tok, COUNT_NOUNS)
        if noun:
            return _noun_role(noun)
        if tok.kind != WORD:
            break
    return ""


def _is_gpu_count(tokens: list[Token], i: int) -> bool:
    """ "8 V100s", "on 8 A100", "2 nodes of 8 A100": a count; "100 V100" in a command
    is a time and a GPU."""
    name = tokens[i + 1].text
    prev = at(tokens, i - 1)
    if prev is not None and prev.text == "of":  # "2 nodes of 8 A100"
        return word_in(at(tokens, i - 2), NODE_NOUNS) is not None
    return name.endswith("s") or (prev is not None and prev.text in COUNT_PREPOSITIONS)


def _labelled_setting(tokens: list[Token], i: int) -> bool:
    """ "batch size of 1024", "lr 0.1", "CUDA 12.1", "حجم الدفعة ٥١٢"."""
    j = i - 1
    steps = 0
    while j >= 0 and steps < 4:
        tok = tokens[j]
        if tok.kind == WORD and (
            word_in(tok, COUNT_LABELS) or tok.text in ("gpus", "gpu", "nodes")
        ):
            return True
        if tok.text in LABEL_FILLERS:
            j -= 1
            steps += 1
            continue
        return False
    return False
