"""Numbers that describe the setup, never the FP32 time or the ratio: one named
rule each (GPU and node counts, step times, parameter counts, memory sizes,
dates and clock times, ids, labelled settings, prices).

:func:`classify` tries the rules in order; the first that decides gives the
role (``""``: the number may be a value, left to the time and ratio rules).
A rule never writes a role: what it says of another token ("4 x 8": the 8 is a
count; "٤٢٠ مللي ثانية": the seconds word belongs to the step time; "10:30":
the 30 is part of the clock time) it returns as a claim, and
``context.setup_candidates`` turns the decision and its claims into candidates for
the one resolver, ranked by the rule's place in :data:`RULES`.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.understanding.rules.setup.currencies import CURRENCY_SYMBOLS
from bot.understanding.rules.setup.prices import (
    PRICE_SCALES,
    after_ratio_label,
    currency_after,
    currency_code,
    owned,
    symbol_after,
)
from bot.understanding.rules.setup.setup_words import (
    BATCH_SCALES,
    BATCH_WORDS,
    FAMILY_PHRASES,
    FAMILY_WORDS,
)
from bot.understanding.rules.time.dates import (
    clock_after_at,
    clock_or_month_word,
    date_or_clock_digits,
    identifier,
    year,
)
from bot.understanding.text.tokens import NUM, SYM, WORD, Token
from bot.understanding.values.lexicon import (
    AR_SUBSECOND_PREFIXES,
    COUNT_LABELS,
    COUNT_NOUNS,
    EN_UNITS,
    PERCENT_WORDS,
    SUBSECOND_UNITS,
    model_word_family,
)
from bot.understanding.values.nearby import (
    at,
    counted_noun,
    in_table,
    is_duration_at,
    is_time_unit,
    text_at,
    word_in,
)
from bot.understanding.words import mapping, table

GPU_NOUNS = table("GPU_NOUNS")
NODE_NOUNS = table("NODE_NOUNS")
PARAM_SUFFIXES = mapping("PARAM_SUFFIXES")
AR_PARAM_WORDS = mapping("AR_PARAM_WORDS")
MEMORY_SUFFIXES = table("MEMORY_SUFFIXES")
ORDINAL_SUFFIXES = table("ORDINAL_SUFFIXES")
PARAM_NOUNS = table("PARAM_NOUNS")
COUNT_PREPOSITIONS = table("COUNT_PREPOSITIONS")
LABEL_FILLERS = table("LABEL_FILLERS")
THEM_WORDS = table("THEM_WORDS")
MULTIPLE_SAID_OF = table("MULTIPLE_SAID_OF")
SEQUENCE_WORDS = table("SEQUENCE_WORDS")


# What "3D"/"2D" qualifies when written before it: a network, a task, the data.
DIMENSION_NOUNS = table("DIMENSION_NOUNS") | frozenset(
    [phrase for phrase, _ in FAMILY_PHRASES if " " not in phrase] + list(FAMILY_WORDS)
)
DIMENSION_WORDS = table("DIMENSION_WORDS")


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


# A rule's decision: a role, or a role and claims on other tokens (index -> role).
Claims = dict[int, str]
Decision = "str | tuple[str, Claims] | None"
Rule = Callable[[list[Token], int], Decision]


def _tolerance(tokens: list[Token], i: int) -> str | None:
    """ "10h ±1h", "(±10%)": an error bar, never a value."""
    prev = at(tokens, i - 1)
    return "tolerance" if prev is not None and prev.text == "±" else None


def _definite_one(tokens: list[Token], i: int) -> str | None:
    """ "الايبوك الواحد", "الحقبة الواحدة", "الساعة الواحدة": "one" with the article
    qualifies the noun before it ("the single epoch"), and "one" after "each" ("كل
    واحد", "كل وحدة", "each one") stands for it: it is no figure."""
    tok = tokens[i]
    spelled_one = tok.extra.get("spelled") and tok.value == 1
    if not spelled_one:
        return None
    # "كل واحد ساعتين", "each one takes 2h": "one" after "each" stands for the noun.
    each = at(tokens, i - 1)
    return "adjective" if tok.text.startswith("ال") or in_table(each, "EACH_WORDS") else None


def _sized_gpu_count(tokens: list[Token], i: int) -> str | None:
    """ "4 x 80GB GPUs", "8x 80GB", "2x 24GB cards": how many, of what size."""
    return "gpus" if _sized_gpus_after(tokens, i) else None


def _gpu_times_count(tokens: list[Token], i: int) -> str | None:
    """ "A100 x8", "a100 40gb x 8", "H100 ×4": how many of that card."""
    return "gpus" if _times_after_gpu(tokens, i) else None


def _number_times_number(tokens: list[Token], i: int) -> Decision:
    """ "2 x 8 hours" (16 hours, read with the durations), "4 x 8 GPUs" (nodes
    times GPUs), "224 x 224" (a size), "2 x A100": never a speed-up."""
    nxt = at(tokens, i + 1)
    if tokens[i].suffix.lstrip("-") or nxt is None or nxt.text != "x":
        return None
    after = at(tokens, i + 2)
    if is_duration_at(tokens, i + 2):
        return "multiplier"
    if after is not None and after.kind == NUM:
        noun = at(tokens, i + 3)
        if noun is not None and (noun.role == "gpu" or word_in(noun, GPU_NOUNS)):
            return "nodes"
        return "count", ({} if after.role else {i + 2: "count"})
    return "gpus" if after is not None and after.role == "gpu" else None


def _step_time(tokens: list[Token], i: int) -> Decision:
    """ "420 ms", "٤٢٠ مللي ثانية": one step, never the FP32 training time (the
    seconds word after an Arabic "milli" is the step time's too)."""
    if not _subsecond(tokens, i):
        return None
    unit = at(tokens, i + 2)
    spelled = tokens[i + 1] if not tokens[i].suffix else None
    if spelled is not None and word_in(spelled, AR_SUBSECOND_PREFIXES) and is_time_unit(unit):
        return "step_time", {i + 2: "step_time"}
    return "step_time"


def _params_with_noun(tokens: list[Token], i: int) -> str | None:
    """ "340M params": millions, not minutes; "20k iterations": thousands of steps;
    "4k context": a sequence length."""
    nxt = at(tokens, i + 1)
    if tokens[i].suffix.lstrip("-") not in PARAM_SUFFIXES:
        return None
    if word_in(nxt, PARAM_NOUNS):
        return "params"
    # "20k iterations" counts steps, "4k context" is a sequence length: not parameters.
    noun = word_in(nxt, COUNT_NOUNS) or word_in(nxt, SEQUENCE_WORDS)
    return _noun_role(noun) if noun else None


def counts_other_noun(tokens: list[Token], i: int) -> bool:
    """ "8k tokens", "4k context", "context 8k", "2T tokens": a scaled number that counts a noun other
    than parameters, even in a memory question."""
    if _sequence_label_before(tokens, i):
        return True  # "context 8k", «بطول سياق 8k»
    return _params_with_noun(tokens, i) not in (None, "params")


def _sequence_label_before(tokens: list[Token], i: int) -> bool:
    """ "seq 4k", "context 8k", «سياق 8k»: a scaled number labelled a sequence length."""
    return word_in(at(tokens, i - 1), SEQUENCE_WORDS) is not None


def _dimension(tokens: list[Token], i: int) -> str | None:
    """ "nnU-Net 3D", "3D CNN": three-dimensional, not three days."""
    tok = tokens[i]
    if tok.suffix.lstrip("-") == "d" and tok.value in (2, 3) and _dimension_of(tokens, i):
        return "dimension"
    return None


def _glued_multiplier(tokens: list[Token], i: int) -> str | None:
    """ "2x8 hours": 16 hours in all."""
    if tokens[i].suffix.lstrip("-") != "x" or not is_duration_at(tokens, i + 1):
        return None
    return "multiplier" if tokens[i + 1].glued else None


def _scaled_batch(tokens: list[Token], i: int) -> str | None:
    """Rule ``scaled_batch``: "batch 8M", "bs=64k", "batch size of 2.5M": a batch in
    thousands or millions (recommenders train on such batches), not 8 minutes. The
    batch word labels the number directly, over fillers only ("batch 32, took 8m"
    keeps its minutes)."""
    if tokens[i].suffix.lstrip("-") not in BATCH_SCALES:
        return None
    return "setting" if word_in(_label_before(tokens, i), BATCH_WORDS) else None


def _unit_suffix(tokens: list[Token], i: int) -> Decision:
    """What a glued suffix says: "100h" may be a time and "2x" a ratio (unless
    "8x A100"), "1st" a date, "80gb" a memory size, "$1.5k" a price, "7b"
    parameters, "8gpus" a count."""
    suffix = tokens[i].suffix.lstrip("-")
    # "8x A100" counts cards; "0.9x on P100", "1.5x on V100" are ratios: no count is a fraction.
    whole = float(tokens[i].value).is_integer()
    counted = _count_after(tokens, i + 1) if suffix == "x" and whole else None
    if suffix in EN_UNITS or (suffix == "x" and not counted):
        return ""
    if suffix in ORDINAL_SUFFIXES:
        return "date"
    if suffix in MEMORY_SUFFIXES:
        return "memory"
    if suffix in PRICE_SCALES and (_symbol_before(tokens, i) or currency_after(tokens, i)):
        return "price"  # "$1.5k total", "2k EUR a week": thousands of money, not parameters
    if suffix in PARAM_SUFFIXES:
        return "setting" if _sequence_label_before(tokens, i) else "params"
    if counted:
        return counted
    return _noun_role(suffix) if suffix in COUNT_NOUNS else None


def _symbol_before(tokens: list[Token], i: int) -> bool:
    prev = at(tokens, i - 1)
    return prev is not None and prev.kind == SYM and prev.text in CURRENCY_SYMBOLS


def _price(tokens: list[Token], i: int) -> str | None:
    """ "$3", "2.5$/h", "10 SAR", "ريال سعودي 10"; in "ratio 2 SAR 10 per hour" the
    2 is the ratio, the riyals are the 10's."""
    if _symbol_before(tokens, i) or symbol_after(tokens, i):
        return "price"
    if after_ratio_label(tokens, i):
        return None
    if currency_after(tokens, i) or (currency_code(tokens, i - 1, i) and not owned(tokens, i - 1)):
        return "price"
    return None


def _time_unit_after(tokens: list[Token], i: int) -> str | None:
    """ "8 hours", "ثلاث" ending the message: may be a time, left to the durations."""
    nxt = at(tokens, i + 1)
    return "" if is_time_unit(nxt) or tokens[i].extra.get("spelled") and nxt is None else None


def _count_noun_after(tokens: list[Token], i: int) -> str | None:
    """ "8 GPUs", "4 nodes", "90 epochs", "٧ مليار": a count of that noun."""
    nxt = at(tokens, i + 1)
    noun = counted_noun(nxt, COUNT_NOUNS) or counted_noun(nxt, AR_PARAM_WORDS)
    return _noun_role(noun) if noun else None


def _count_of_them(tokens: list[Token], i: int) -> str | None:
    """ "and on 8 of them?", "وعلى ٨ منها؟": a count of what was named before; the
    bot's threads count GPUs (a follow-up inherits which ones)."""
    nxt = at(tokens, i + 1)
    if nxt is not None and nxt.text == "of":
        nxt = at(tokens, i + 2)
    return "gpus" if word_in(nxt, THEM_WORDS) and not tokens[i].suffix else None


# Nouns whose count a `key: value` line gives ("epochs: 90", "num gpus = 4").
_KEYED_COUNT_NOUNS = (
    table("EPOCH_NOUNS") | table("GPU_NOUNS") | table("NODE_NOUNS") | table("STEP_COUNT_NOUNS")
)


# "the number of epochs is 30", «عدد الـ epochs ثلاثون»: a count noun keys its number in
# prose too, after a word for "number of" (and, in English, a copula before the number).
_COUNT_OPENERS = table("COUNT_KEY_OPENERS")
_COUNT_COPULAS = table("COUNT_KEY_COPULAS")
_ARTICLES = table("ARTICLES")  # «عدد الـ epochs»: the article split from a Latin noun


def keyed_noun(tokens: list[Token], i: int, nouns) -> str | None:
    """The count noun of ``nouns`` that keys the number at ``i``: "epochs: 90",
    "steps = 20000", "number of epochs is 30", «عدد الايبوكات ٣٠»; else None."""
    if tokens[i].suffix:
        return None
    sign = at(tokens, i - 1)
    if sign is not None and sign.text in (":", "="):
        return word_in(at(tokens, i - 2), nouns)
    if word_in(sign, _COUNT_COPULAS):  # "number of epochs is 30"
        noun = word_in(at(tokens, i - 2), nouns)
        opened = text_at(tokens, i - 3) == "of" and word_in(at(tokens, i - 4), _COUNT_OPENERS)
        return noun if opened else None
    noun = word_in(sign, nouns)  # «عدد الـ epochs ٣٠»
    k = i - 3 if text_at(tokens, i - 2) in _ARTICLES else i - 2
    return noun if noun and word_in(at(tokens, k), _COUNT_OPENERS) else None


def _count_keyed(tokens: list[Token], i: int) -> str | None:
    """Rule ``count_key``: "epochs: 90", "num_gpus: 4", "steps = 20000", "الايبوكات: ٩٠",
    "the number of epochs is 30", «عدد الـ epochs ثلاثون»: a count noun keying the
    number counts that noun."""
    noun = keyed_noun(tokens, i, _KEYED_COUNT_NOUNS)
    return _noun_role(noun) if noun else None


def _scaled_count(tokens: list[Token], i: int) -> str | None:
    """ "20 thousand steps", "٢٠ الف خطوة": a number times a spelled thousand or
    million counts the noun after them, as the scale word does."""
    scale = at(tokens, i + 1)
    if scale is None or scale.kind != NUM or not scale.extra.get("spelled"):
        return None
    return _count_noun_after(tokens, i + 1) if scale.value in (1e3, 1e6) else None


def _gpu_name_after(tokens: list[Token], i: int) -> str | None:
    """ "8 V100s", "on 8 A100": how many of that card."""
    nxt = at(tokens, i + 1)
    return "gpus" if nxt is not None and nxt.role == "gpu" and _is_gpu_count(tokens, i) else None


def _setting(tokens: list[Token], i: int) -> str | None:
    """ "batch size of 1024", "lr 0.1", "CUDA 12.1"; a percentage is never a setting
    ("made each epoch 20% slower" is a slowdown)."""
    if text_at(tokens, i + 1) in PERCENT_WORDS:
        return None
    return "setting" if _labelled_setting(tokens, i) else None


# The setup-number rules, in the order they are tried (see docs/reading.md).
RULES: tuple[tuple[str, Rule], ...] = (
    ("tolerance", _tolerance),
    ("definite_one", _definite_one),
    ("sized_gpu_count", _sized_gpu_count),
    ("gpu_times_count", _gpu_times_count),
    ("number_times_number", _number_times_number),
    ("step_time", _step_time),
    ("params_with_noun", _params_with_noun),
    ("dimension", _dimension),
    ("glued_multiplier", _glued_multiplier),
    ("scaled_batch", _scaled_batch),
    ("unit_suffix", _unit_suffix),
    ("price", _price),
    ("date_or_clock_digits", date_or_clock_digits),
    ("identifier", identifier),
    ("clock_or_month_word", clock_or_month_word),
    ("clock_after_at", clock_after_at),
    ("year", year),
    ("time_unit_after", _time_unit_after),
    ("count_noun_after", _count_noun_after),
    ("count_of_them", _count_of_them),
    ("count_key", _count_keyed),
    ("scaled_count", _scaled_count),
    ("gpu_name_after", _gpu_name_after),
    ("setting", _setting),
)


def classify(tokens: list[Token], i: int) -> tuple[str, str, Claims]:
    """(role, rule, claims): what a setup number is ("gpus", "batch", "date", ...),
    the rule that decided (role "": it may be a value) and what that rule says of
    other tokens; ("", "", {}) when no rule decides."""
    for name, rule in RULES:
        decision = rule(tokens, i)
        if decision is not None:
            role, claims = (decision, {}) if isinstance(decision, str) else decision
            return role, name, claims
    return "", "", {}


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
    """ "420ms", "900 µs", "٤٢٠ مللي ثانية": a step time."""
    suffix = tokens[i].suffix
    nxt = at(tokens, i + 1)
    if suffix:
        return suffix in SUBSECOND_UNITS
    if nxt is None or nxt.kind != WORD or nxt.role:
        return False
    if nxt.text in SUBSECOND_UNITS:
        return True
    return word_in(nxt, AR_SUBSECOND_PREFIXES) is not None


def _noun_role(noun: str) -> str:
    if noun in GPU_NOUNS:
        return "gpus"
    if noun in NODE_NOUNS:
        return "nodes"
    if noun in AR_PARAM_WORDS or noun in PARAM_SUFFIXES or noun in PARAM_NOUNS:
        return "params"
    return "count"


def _count_after(tokens: list[Token], j: int) -> tuple[str, Claims] | None:
    """ "8x A100", "4x8 GPUs", "2x larger batch": the x joins counts, not a speedup
    (a number glued after the x is a count too)."""
    for k, tok in enumerate(tokens[j : j + 2], start=j):
        if tok.role == "gpu":
            return "gpus", {}
        if tok.text in MULTIPLE_SAID_OF:
            break  # "2x on A100", "2x with amp", "2x w amp": said of a setup, not counting it
        if tok.kind == NUM and tok.glued:
            return "count", {k: "count"}
        noun = word_in(tok, COUNT_NOUNS)
        if noun:
            return _noun_role(noun), {}
        if tok.kind != WORD:
            break
    return None


def _is_gpu_count(tokens: list[Token], i: int) -> bool:
    """ "8 V100s", "on 8 A100", "2 nodes of 8 A100": a count; "100 V100" in a command
    is a time and a GPU."""
    name = tokens[i + 1].text
    prev = at(tokens, i - 1)
    if prev is not None and prev.text == "of":  # "2 nodes of 8 A100"
        return word_in(at(tokens, i - 2), NODE_NOUNS) is not None
    return name.endswith("s") or (prev is not None and prev.text in COUNT_PREPOSITIONS)


def _labelled_setting(tokens: list[Token], i: int) -> bool:
    """ "batch size of 1024", "lr 0.1", "CUDA 12.1", "حجم الدفعة ٥١٢"; the sequence
    length too ("seq 128", "seq len 512", «طول التسلسل ١٢٨»)."""
    tok = _label_before(tokens, i)
    return tok is not None and bool(
        word_in(tok, COUNT_LABELS)
        or word_in(tok, SEQUENCE_WORDS)
        or tok.kind == WORD
        and tok.text in ("gpus", "gpu", "nodes")
    )


def _label_before(tokens: list[Token], i: int) -> Token | None:
    """The word that may label the number at ``i``: the first token before it past at
    most three fillers ("batch size of", "bs ="); None past the fillers' reach."""
    j = i - 1
    while j >= 0 and i - j < 4 and tokens[j].text in LABEL_FILLERS:
        j -= 1
    return tokens[j] if j >= 0 else None
