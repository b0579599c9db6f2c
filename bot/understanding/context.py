"""Numbers that describe the setup, never the FP32 time or the ratio.

Counts (8 GPUs, 4 nodes, 90 epochs, batch 256, 340M params), versions
(CUDA 12.1), ids, clock times, dates and prices are marked here, before the
grammar looks for times and ratios. What they say is kept as context for the
advice: GPU count, batch sizes, parameter count, price, plus the task family,
the mixed-precision type, the baseline and the optimizer named in words.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from babel.numbers import is_currency

from bot.models import Price
from bot.understanding.currencies import (
    CURRENCIES,
    CURRENCY_QUALIFIERS,
    CURRENCY_SYMBOLS,
    PREFIXED_SYMBOLS,
    UNSAID,
    may_name,
)
from bot.understanding.lexicon import (
    AR_SUBSECOND_PREFIXES,
    AR_UNITS,
    CLOCK_WORDS,
    COUNT_LABELS,
    COUNT_NOUNS,
    EN_UNITS,
    EPOCH_NOUNS,
    FRAMEWORKS,
    MONTHS,
    OPTIMIZERS,
    RATIO_LABELS,
    RECURRENT_WORDS,
    SUBSECOND_UNITS,
    lookup,
    model_word_family,
)
from bot.understanding.ratios import slash_fraction
from bot.understanding.tokens import ARABIC, NUM, SYM, WORD, Token

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
# Arabic duals: two GPUs or two nodes in one word ("على بطاقتين A10", "عقدتين").
GPU_DUALS = frozenset(
    ["بطاقتين", "بطاقتان", "كرتين", "كرتان", "كارتين", "كارتان", "وحدتين", "وحدتان"]
)
NODE_DUALS = frozenset(
    ["عقدتين", "عقدتان", "جهازين", "جهازان", "سيرفرين", "سيرفران", "خادمين", "خادمان"]
)
# "8 GPUs per node", "8 GPUs x 4 nodes", "٨ بطاقات لكل عقدة": a count per node.
PER_NODE_WORDS = frozenset(["per", "each", "x", "/", "لكل", "كل"])
# "2 nodes, 16 GPUs in total", "بإجمالي ١٦ بطاقة": the GPU count is all of them.
TOTAL_WORDS = frozenset(["total", "overall", "altogether", "اجمالي", "مجموع", "المجموع"])
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

# After a currency word, Arabic adjectives ending in -ي/-يه that are no country:
# "٥ دولار يومي", "١٠ ريال إضافي". Any other such adjective is taken for a country
# the table does not know ("دينار صربي"), and the price is not billed in the default.
NOT_COUNTRY_ADJECTIVES = frozenset(
    [
        "يومي",
        "يوميه",
        "شهري",
        "شهريه",
        "سنوي",
        "اسبوعي",
        "ساعي",
        "اضافي",
        "اضافيه",
        "تقريبي",
        "تقريبيه",
        "اجمالي",
        "كلي",
        "حالي",
        "فعلي",
        "عادي",
        "يعني",
        "حوالي",
        "اللي",
        "بالتالي",
        "تالي",
        "شوي",
    ]
)
# Words that make a number with a three-letter code a price ("at 300 MAD", "5 TND/h").
PRICE_CUES = frozenset(
    ["at", "@", "price", "cost", "costs", "rate", "pay", "paying", "سعر", "بسعر", "تكلفه"]
)
RATIO_LABEL_FILLERS = frozenset(["=", ":", "is", "of", "~", "about", "around"])
# After the price: "$500 a day for the cluster", "$2,000 total" (billed once).
WHOLE_JOB_WORDS = frozenset(["cluster", "total", "job", "all"])
# "the whole FP32 run costs $500", "total cost $500", "التدريب كامل يكلف ٥٠٠ دولار":
# with no period said, a price of the run itself (Arabic forms through ``lookup``).
RUN_PRICE_WORDS = frozenset(
    [
        "run",
        "job",
        "training",
        "total",
        "overall",
        "altogether",
        "اجمالي",
        "الاجمالي",
        "كامل",
        "كله",
    ]
)
# "$25/hour per node", "our 8xA100 node costs $25/hour", "سعر السيرفر ٩٠ ريال":
# one machine's price, billed once per node (Arabic forms through ``lookup``).
NODE_PRICE_WORDS = frozenset(
    ["instance", "node", "machine", "server", "box", "vm", "جهاز", "سيرفر", "خادم", "عقده"]
)
# "$1.5k", "$2M": an amount in thousands or millions.
PRICE_SCALES = {"k": 1e3, "m": 1e6}
# "$2.5 per GPU-hour", "١٠ ريال لكل بطاقة": the price is said to be each GPU's.
PRICE_GPU_WORDS = frozenset(
    ["gpu", "gpus", "card", "بطاقه", "للبطاقه", "البطاقه", "كرت", "للكرت", "الكرت", "كارت"]
)
# Hours a price pays for: "$30/day" is 30/24 an hour ("month" is 730 h, a 12th of a year).
PRICE_PERIOD_HOURS: dict[str, float] = {
    **dict.fromkeys(
        ["h", "hr", "hrs", "hour", "hourly", "ساعه", "الساعه", "للساعه", "بالساعه"], 1.0
    ),
    **dict.fromkeys(["day", "daily", "يوم", "اليوم", "لليوم", "باليوم", "يوميا", "يومي"], 24.0),
    **dict.fromkeys(
        ["week", "weekly", "wk", "اسبوع", "الاسبوع", "للاسبوع", "بالاسبوع", "اسبوعيا"], 168.0
    ),
    **dict.fromkeys(["month", "monthly", "mo", "شهر", "الشهر", "للشهر", "بالشهر", "شهريا"], 730.0),
}
# Adverbs that may lead the price: "شهرياً ٣٠٠٠ ريال", "daily $500".
PRICE_PERIOD_ADVERBS = frozenset(
    ["hourly", "daily", "weekly", "monthly", "يوميا", "اسبوعيا", "شهريا"]
)

FAMILY_PHRASES: tuple[tuple[str, str], ...] = (
    ("text-to-speech", "tts"),
    ("text to speech", "tts"),
    ("vocoder", "tts"),
    ("speech synthesis", "tts"),
    ("تحويل النص الي كلام", "tts"),
    ("تحويل النص الى كلام", "tts"),
    ("توليد الكلام", "tts"),
    ("تركيب الكلام", "tts"),
    ("speech recognition", "speech_recognition"),
    ("التعرف علي الكلام", "speech_recognition"),
    ("التعرف على الكلام", "speech_recognition"),
    ("التعرف على الصوت", "speech_recognition"),
    ("image classification", "image_classification"),
    ("vision transformer", "image_classification"),
    ("classification", "image_classification"),
    ("classifier", "image_classification"),
    ("تصنيف", "image_classification"),
    ("object detection", "detection"),
    ("detection", "detection"),
    ("detector", "detection"),
    ("كشف", "detection"),
    ("اكتشاف الاجسام", "detection"),
    ("segmentation", "segmentation"),
    ("تجزئه", "segmentation"),
    ("تقطيع", "segmentation"),
    ("language model", "language_model"),
    ("نموذج لغوي", "language_model"),
    ("نموذج لغه", "language_model"),
    ("النماذج اللغويه", "language_model"),
    ("translation", "translation"),
    ("ترجمه", "translation"),
    ("recommend", "recommender"),
    ("توصيه", "recommender"),
    ("التوصيات", "recommender"),
    ("time series", "time_series"),
    ("time-series", "time_series"),
    ("forecasting", "time_series"),
    ("السلاسل الزمنيه", "time_series"),
    ("سلاسل زمنيه", "time_series"),
    ("molecul", "graph"),
    ("graph", "graph"),
    ("جزيئ", "graph"),
    ("الرسوم البيانيه", "graph"),
    ("مخطط", "graph"),
    ("named entity", "language_model"),
    ("speech model", "speech_recognition"),
    ("speech", "speech_recognition"),
)
FAMILY_WORDS = {
    "lm": "language_model",
    "llm": "language_model",
    "llms": "language_model",
    "asr": "speech_recognition",
    "tts": "tts",
    "nmt": "translation",
    "seq2seq": "translation",
    "gnn": "graph",
    "gnns": "graph",
    "recsys": "recommender",
    "ner": "language_model",
}
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
PRECISIONS = {
    "fp16": "fp16",
    "float16": "fp16",
    "half": "fp16",
    "bf16": "bf16",
    "bfloat16": "bf16",
    "fp8": "fp8",
    "float8": "fp8",
}
OFF_BEFORE = frozenset(["without", "no", "disable", "disabled", "disabling", "بدون", "دون"])
OFF_AFTER = frozenset(["off", "disabled", "مغلق", "معطل", "مطفي"])
BATCH_WORDS = frozenset({"batch", "bs", "batch-size", "batchsize", "الدفعه", "دفعه"})
AMP_QUALIFIERS = frozenset(["amp", "mixed", "fp16", "bf16", "fp8", "المختلطه", "half"])


@dataclass
class Context:
    num_gpus: int | None = None
    batch_fp32: int | None = None
    batch_amp: int | None = None
    price: Price | None = None
    params: float | None = None
    optimizer: str | None = None
    family: str | None = None
    precision: str | None = None
    baseline: str | None = None
    framework: str | None = None
    architecture: str | None = None
    epochs: float | None = None  # "90 epochs": with one epoch's time, the job's time
    dimensions: int | None = None  # "3D U-Net": a three-dimensional model


def _is_time_unit(tok: Token | None) -> bool:
    if tok is None or tok.kind != WORD:
        return False
    if tok.script == ARABIC:
        return lookup(tok.text, AR_UNITS) is not None
    return tok.text in EN_UNITS


def _is_duration_at(tokens: list[Token], j: int) -> bool:
    """A number with a time unit at ``j``: "8 hours", "8h", "٨ ساعات"."""
    tok = _at(tokens, j)
    if tok is None or tok.kind != NUM or tok.role:
        return False
    suffix = tok.suffix.lstrip("-")
    return suffix in EN_UNITS if suffix else _is_time_unit(_at(tokens, j + 1))


def _at(tokens: list[Token], i: int) -> Token | None:
    return tokens[i] if 0 <= i < len(tokens) else None


def _word_in(tok: Token | None, table) -> str | None:
    if tok is None or tok.kind != WORD:
        return None
    return (
        lookup(tok.text, table)
        if tok.script == ARABIC
        else (tok.text if tok.text in table else None)
    )


def mark_context(tokens: list[Token], *, sizes_are_params: bool = False) -> Context:
    """Mark setup numbers (role set) and read the context they describe.

    ``sizes_are_params``: in a memory question "340M" is a parameter count,
    never 340 minutes.
    """
    _join_european_amounts(tokens)
    ctx = Context()
    gpus: _Count | None = None
    nodes: _Count | None = None
    epochs: list[float] = []
    # "8 V100 40h": with the time written with its unit, a number before a GPU
    # can only be how many ("100 V100" alone stays a time and a GPU).
    timed = any(_is_duration_at(tokens, j) for j in range(len(tokens)))
    for i, tok in enumerate(tokens):
        if tok.kind == WORD and not tok.role:
            dual = _dual_count(tok)  # "على بطاقتين", "عقدتين": two, said in one word
            if dual == "gpus" and gpus is None:
                gpus = _Count(2, i)
            elif dual == "nodes" and nodes is None:
                nodes = _Count(2, i)
        if tok.kind != NUM or tok.role:
            continue
        if sizes_are_params and tok.suffix in PARAM_SUFFIXES:
            role = "params"
        else:
            role = _classify(tokens, i)
        # "memory 70B adam 64 H100", "8 V100 40h": a count ("ratio 2 A100" keeps its ratio)
        if (
            not role
            and (sizes_are_params or timed)
            and _gpu_after(tokens, i)
            and not _after_ratio_label(tokens, i)
        ):
            role = "gpus"
        if not role:
            continue
        tok.role = role
        if role == "gpus" and gpus is None:
            gpus = _Count(int(tok.value), i) if 1 <= tok.value < math.inf else None
        elif role == "nodes" and nodes is None:
            nodes = _Count(int(tok.value), i) if 1 <= tok.value < math.inf else None
        elif role == "params" and ctx.params is None:
            ctx.params = _param_value(tokens, i)
        elif role == "price" and ctx.price is None:
            ctx.price = _price(tokens, i)
        elif role == "dimension" and ctx.dimensions is None:
            ctx.dimensions = int(tok.value)
        if role == "count" and tok.value != 1 and _word_in(_at(tokens, i + 1), EPOCH_NOUNS):
            epochs.append(tok.value)  # (a 1 is "one epoch", a unit, not a count)
    if sizes_are_params and ctx.params is None:
        ctx.params = _size_in_name(tokens)
    ctx.epochs = epochs[0] if len(epochs) == 1 and 1 < epochs[0] < math.inf else None
    ctx.num_gpus = _gpu_total(tokens, gpus, nodes)
    if ctx.price is not None and ctx.price.per_node and nodes is not None:
        ctx.price = ctx.price.model_copy(update={"nodes": nodes.value})
    _read_batches(tokens, ctx)
    _read_words(tokens, ctx)
    return ctx


_TENTHS = re.compile(r"\d+\.\d")  # one decimal digit: a quantity, never minutes
_DOT_GROUPED = re.compile(r"\d{1,3}(?:\.\d{3})+")


def _join_european_amounts(tokens: list[Token]) -> None:
    """ "€1.234,50", "1.234,50 EUR per day": dots group thousands and the comma
    is the decimal point, when a currency is written with the amount. The three
    tokens become one (the list is rebuilt once, so the pass stays linear).

    Without cents ("1.250 KWD") the dot stays a decimal point: dinars have three.
    """
    kept: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        kept.append(tok)
        if (
            i + 2 < n
            and tok.kind == NUM
            and not tok.suffix
            and _DOT_GROUPED.fullmatch(tok.text)
            and tokens[i + 1].text == ","
            and tokens[i + 1].glued
            and tokens[i + 2].kind == NUM
            and tokens[i + 2].glued
            and len(tokens[i + 2].text) <= 2
            and tokens[i + 2].text.isdigit()
            and _money_around(tokens, i, i + 2)
        ):
            cents = tokens[i + 2]
            tok.text = tok.text.replace(".", "") + "." + cents.text
            tok.value = float(tok.text)
            tok.suffix = cents.suffix
            i += 3
            continue
        i += 1
    if len(kept) != n:
        tokens[:] = kept


def _money_around(tokens: list[Token], first: int, last: int) -> bool:
    """A currency symbol or word just before ``first`` or just after ``last``."""
    before, after = _at(tokens, first - 1), _at(tokens, last + 1)
    return (
        (before is not None and before.text in CURRENCY_SYMBOLS)
        or tokens[last].suffix in CURRENCIES
        or (before is not None and _word_in(before, CURRENCIES) is not None)
        or (after is not None and (after.text in CURRENCIES or _word_in(after, CURRENCIES)))
    )


# The size that ends a model's name: "llama-2-13b", "qwen2.5-7b" (letters or a
# hyphen before it, so "2-13b" is read as 13B and a bare "13b" is not a name).
_NAME_SIZE = re.compile(r"[a-z-](\d{1,4}(?:\.\d{1,3})?)([bm])$")


def _size_in_name(tokens: list[Token]) -> float | None:
    """ "memory for Llama 7B", "will llama-2-13b fit": the parameter count a
    model's name carries, when no count was written on its own."""
    for tok in tokens:
        if tok.kind == NUM and tok.role == "name" and tok.suffix in ("b", "m"):
            return tok.value * PARAM_SUFFIXES[tok.suffix]
        if tok.kind == WORD and (found := _NAME_SIZE.search(tok.text)):
            return float(found.group(1)) * PARAM_SUFFIXES[found.group(2)]
    return None


@dataclass(frozen=True)
class _Count:
    value: int
    at: int  # token index, to tell "64 GPUs (8 nodes x 8)" from "2 nodes of 8 GPUs"


def _dual_count(tok: Token) -> str:
    """ "بطاقتين", "كرتين", "عقدتين": an Arabic dual counts two GPUs or nodes."""
    if tok.script != ARABIC:
        return ""
    if lookup(tok.text, GPU_DUALS):
        return "gpus"
    return "nodes" if lookup(tok.text, NODE_DUALS) else ""


def _gpu_after(tokens: list[Token], i: int) -> bool:
    nxt = _at(tokens, i + 1)
    return not tokens[i].suffix and nxt is not None and nxt.role == "gpu"


def _gpu_total(tokens: list[Token], gpus: _Count | None, nodes: _Count | None) -> int | None:
    """All the GPUs: the GPU count times the nodes when it is counted per node.

    A GPU count said after the nodes ("2 nodes of 8 A100", "4 nodes x 8 GPUs",
    "على عقدتين في كل واحدة ٨ بطاقات") is per node unless called the total; one
    said before them is the total ("64 A100s (8 nodes x 8)", "16 GPUs on 2
    nodes") unless a per-node word follows it ("8 GPUs per node, 4 nodes").
    """
    if gpus is None:
        return None
    if nodes is None:
        return gpus.value
    near = tokens[max(gpus.at - 2, 0) : gpus.at + 4]
    after = tokens[gpus.at + 1 : gpus.at + 4]
    said_per_node = any(t.text in PER_NODE_WORDS or _word_in(t, PER_NODE_WORDS) for t in after)
    if gpus.at > nodes.at:
        per_node = not any(_word_in(t, TOTAL_WORDS) for t in near) and (
            said_per_node or _linked_to_nodes(tokens[nodes.at + 1 : gpus.at])
        )
    else:
        per_node = said_per_node
    return gpus.value * nodes.value if per_node else gpus.value


# Words that tie a GPU count to the nodes before it: "2 nodes of 8", "4 nodes x 8
# GPUs", "4 nodes with 8 GPUs each", "عقدتين في كل واحدة ٨ بطاقات".
NODE_LINKS = frozenset(["of", "x", "×", "with", "each", "per", "في", "كل", "فيها", "بكل"])


def _linked_to_nodes(between: list[Token]) -> bool:
    """Whether a GPU count after the nodes is per node: tied to them by a link
    word in the same clause, or said with nothing between ("2 nodes 8 GPUs").
    "4 nodes, 32 H100s" is a second fact, the total, not 32 per node."""
    last_break = max(
        (k for k, t in enumerate(between) if t.is_boundary or t.text in ("and", "و")), default=-1
    )
    if last_break < 0:
        return True
    return any(t.text in NODE_LINKS for t in between[last_break + 1 :])


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
    nxt, prev = _at(tokens, i + 1), _at(tokens, i - 1)
    return (
        _model_word(prev)
        or _model_word(nxt)
        or _word_in(nxt, DIMENSION_NOUNS) is not None
        or _word_in(prev, DIMENSION_WORDS) is not None
    )


def _model_word(tok: Token | None) -> bool:
    """A model's name: canonical (role set by names), or well known to the lexicon."""
    if tok is None or tok.kind != WORD:
        return False
    return tok.role in ("model", "name") or model_word_family(tok.text) is not None


def _classify(tokens: list[Token], i: int) -> str:
    """What a setup number is ("gpus", "batch", "date", ...), or "" when it may be a value."""
    tok = tokens[i]
    nxt, prev = _at(tokens, i + 1), _at(tokens, i - 1)
    suffix = tok.suffix.lstrip("-")
    if prev is not None and prev.text == "±":
        return "tolerance"  # "10h ±1h", "(±10%)": an error bar, never a value
    if _sized_gpus_after(tokens, i):
        return "gpus"  # "4 x 80GB GPUs", "8x 80GB", "2x 24GB cards": how many, of what size
    if _times_after_gpu(tokens, i):
        return "gpus"  # "A100 x8", "a100 40gb x 8", "H100 ×4": how many of that card
    if not suffix and nxt is not None and nxt.text == "x":
        after = _at(tokens, i + 2)
        if _is_duration_at(tokens, i + 2):
            return "multiplier"  # "2 x 8 hours": 16 hours in all, read with the durations
        if after is not None and after.kind == NUM:
            # "4 x 8 GPUs" (nodes times GPUs), "224 x 224" (a size): never a speed-up.
            noun = _at(tokens, i + 3)
            if noun is not None and (noun.role == "gpu" or _word_in(noun, GPU_NOUNS)):
                return "nodes"
            after.role = after.role or "count"
            return "count"
        if after is not None and after.role == "gpu":
            return "gpus"  # "2 x A100"
    if _subsecond(tokens, i):
        return "step_time"  # "420 ms": one step, never the FP32 training time
    if suffix in PARAM_SUFFIXES and (_word_in(nxt, COUNT_NOUNS) or _word_in(nxt, PARAM_NOUNS)):
        return "params"  # "340M params": millions, not minutes
    if suffix == "d" and tok.value in (2, 3) and _dimension_of(tokens, i):
        return "dimension"  # "nnU-Net 3D", "3D CNN": three-dimensional, not three days
    if suffix == "x" and _is_duration_at(tokens, i + 1) and tokens[i + 1].glued:
        return "multiplier"  # "2x8 hours"
    if suffix in EN_UNITS or (suffix == "x" and not _count_after(tokens, i + 1)):
        return ""  # "100h" is a time, "2x" a ratio unless "8x A100"
    if suffix in ORDINAL_SUFFIXES:
        return "date"
    if suffix in MEMORY_SUFFIXES:
        return "memory"
    if suffix in PRICE_SCALES and (
        (prev is not None and prev.kind == SYM and prev.text in CURRENCY_SYMBOLS)
        or _currency_after(tokens, i)
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
    if _symbol_after(tokens, i):
        return "price"  # "2.5$/h"
    # "ratio 2 SAR 10 per hour": the 2 is the ratio, the riyals are the 10's.
    if not _after_ratio_label(tokens, i) and (
        _currency_after(tokens, i)
        or (_currency_code(tokens, i - 1, i) and not _owned(tokens, i - 1))
    ):
        return "price"
    # Clock times, dates, ids, products like 224x224.
    if _date_or_clock(tokens, i):
        return "date"
    if prev is not None and prev.kind == SYM and prev.text in "#@" and tok.glued:
        return "id"
    if _word_in(nxt, CLOCK_WORDS) or _word_in(prev, MONTHS) or _word_in(nxt, MONTHS):
        return "date"
    if (
        prev is not None
        and prev.text in ("at",)
        and not _is_time_unit(nxt)
        and not (nxt is not None and nxt.text in ("times", "x"))
        and not _word_in(nxt, COUNT_NOUNS)  # "at 8 GPUs"
        and not _TENTHS.fullmatch(tok.text)  # "at 2.5": no clock reads so (2.30 does)
    ):
        return "clock"  # "at 10", but "clocks in at 14 hr" is a duration, "at 2 times" a ratio
    if (
        prev is not None
        and prev.kind == WORD
        and prev.text in ("الساعه",)
        and not _is_time_unit(nxt)
    ):
        return "clock"
    if (
        1900 <= tok.value <= 2100
        and tok.value == int(tok.value)
        and not _is_time_unit(nxt)
        and prev is not None
        and prev.text in ("in", "since", "year", "عام", "سنه", "في")
    ):
        return "date"
    if _is_time_unit(nxt) or tok.extra.get("spelled") and nxt is None:
        return ""
    noun = _word_in(nxt, COUNT_NOUNS) or _word_in(nxt, AR_PARAM_WORDS)
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
    tok, sign, card = tokens[i], _at(tokens, i - 1), _at(tokens, i - 2)
    if tok.suffix or sign is None or sign.text not in ("x", "×", "*") or card is None:
        return False
    if _is_time_unit(_at(tokens, i + 1)):
        return False  # "A100 x 2 days"
    return card.role == "gpu"


def _sized_gpus_after(tokens: list[Token], i: int) -> bool:
    """ "4 x 80GB", "8x 80GB": a count times a GPU memory size."""
    tok = tokens[i]
    j = i + 1 if tok.suffix == "x" else i + 2
    nxt = _at(tokens, i + 1)
    if tok.suffix not in ("", "x") or (not tok.suffix and (nxt is None or nxt.text != "x")):
        return False
    size = _at(tokens, j)
    return size is not None and size.kind == NUM and size.suffix in ("gb", "g")


def _subsecond(tokens: list[Token], i: int) -> bool:
    """ "420ms", "900 µs", "٤٢٠ مللي ثانية": a step time (the seconds word is taken too)."""
    suffix = tokens[i].suffix
    nxt = _at(tokens, i + 1)
    if suffix:
        return suffix in SUBSECOND_UNITS
    if nxt is None or nxt.kind != WORD or nxt.role:
        return False
    if nxt.text in SUBSECOND_UNITS:
        return True
    if _word_in(nxt, AR_SUBSECOND_PREFIXES) is None:
        return False
    unit = _at(tokens, i + 2)
    if unit is not None and _is_time_unit(unit):
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
        noun = _word_in(tok, COUNT_NOUNS)
        if noun:
            return _noun_role(noun)
        if tok.kind != WORD:
            break
    return ""


def _is_gpu_count(tokens: list[Token], i: int) -> bool:
    """ "8 V100s", "on 8 A100", "2 nodes of 8 A100": a count; "100 V100" in a command
    is a time and a GPU."""
    name = tokens[i + 1].text
    prev = _at(tokens, i - 1)
    if prev is not None and prev.text == "of":  # "2 nodes of 8 A100"
        return _word_in(_at(tokens, i - 2), NODE_NOUNS) is not None
    return name.endswith("s") or (prev is not None and prev.text in COUNT_PREPOSITIONS)


def _labelled_setting(tokens: list[Token], i: int) -> bool:
    """ "batch size of 1024", "lr 0.1", "CUDA 12.1", "حجم الدفعة ٥١٢"."""
    j = i - 1
    steps = 0
    while j >= 0 and steps < 4:
        tok = tokens[j]
        if tok.kind == WORD and (
            _word_in(tok, COUNT_LABELS) or tok.text in ("gpus", "gpu", "nodes")
        ):
            return True
        if tok.text in LABEL_FILLERS:
            j -= 1
            steps += 1
            continue
        return False
    return False


def _symbol_after(tokens: list[Token], i: int) -> bool:
    """ "2.5$/h": a currency symbol after the number, not leading the next one ("2 $3")."""
    nxt, after = _at(tokens, i + 1), _at(tokens, i + 2)
    if nxt is None or nxt.kind != SYM or nxt.text not in CURRENCY_SYMBOLS:
        return False
    return not (after is not None and after.kind == NUM and after.glued)


def _after_ratio_label(tokens: list[Token], i: int) -> bool:
    """ "ratio 2", "speedup: 1.8", "النسبة ٢": a labelled ratio is never a price."""
    j = i - 1
    while j >= 0 and tokens[j].text in RATIO_LABEL_FILLERS:
        j -= 1
    return j >= 0 and _word_in(tokens[j], RATIO_LABELS) is not None


def _currency_after(tokens: list[Token], i: int) -> bool:
    """A currency right after the number: "10 SAR", "3 دولارات", "5000 Iraqi dinars".

    A symbol leads the number after it ("100 2 $3": the 3 is the price, the 2
    the ratio) unless nothing is glued to it ("2.5$/h")."""
    nxt = _at(tokens, i + 1)
    if nxt is not None and nxt.kind == SYM:
        return _symbol_after(tokens, i)
    return _currency_code(tokens, i + 1, i) is not None or (
        _english_country(tokens, i + 1) is not None and _currency_code(tokens, i + 2, i) is not None
    )


def _currency_code(tokens: list[Token], j: int, number_at: int) -> str | None:
    """The currency the token at ``j`` names for the number at ``number_at``.

    Currency words and symbols always do. Any other three-letter ISO 4217 code
    ("MAD", "TND", "INR") does only right next to its number with a price cue
    ("at 300 MAD", "5 TND/h"), so "try", "all" or "top" stay words.
    """
    tok = _at(tokens, j)
    if tok is None or tok.kind == NUM:
        return None
    if tok.kind == SYM:
        return CURRENCIES.get(tok.text) if tok.text in CURRENCY_SYMBOLS else None
    word = _word_in(tok, CURRENCIES)
    if word is not None:
        return CURRENCIES[word]
    if (
        tok.script != ARABIC
        and len(tok.text) == 3
        and abs(j - number_at) == 1
        and tok.text.isalpha()
        and is_currency(tok.text.upper())
        and _price_cue(tokens, number_at)
    ):
        return tok.text.upper()
    return None


def _price_cue(tokens: list[Token], i: int) -> bool:
    """ "at 300 MAD", "price: 5 TND", "300 MAD per hour", "5 TND/h": said as a price."""
    before = tokens[max(i - 3, 0) : i]
    if any(t.text in PRICE_CUES or _word_in(t, PRICE_CUES) for t in before):
        return True
    after = tokens[i + 1 : i + 5]
    return any(t.text == "/" for t in after) or any(
        w in PRICE_PERIOD_HOURS for w in _price_clause(tokens, i)
    )


def _english_country(tokens: list[Token], j: int) -> str | None:
    """ "Iraqi", "Saudi": an English country adjective, written before its currency."""
    tok = _at(tokens, j)
    if tok is None or tok.kind != WORD or tok.script == ARABIC:
        return None
    return CURRENCY_QUALIFIERS.get(tok.text)


def _owned(tokens: list[Token], j: int) -> bool:
    """A currency word right after a bare number is that number's ("10 دينار")."""
    before = _at(tokens, j - 1)
    return (
        tokens[j].kind == WORD
        and before is not None
        and before.kind == NUM
        and not before.suffix
        and not _after_ratio_label(tokens, j - 1)
    )


def _currency(tokens: list[Token], i: int) -> str | None:
    """The currency written next to the number at ``i`` ("$10", "10 SAR", "ريال سعودي 10").

    A currency word before the number is its own only when no bare number just
    before owns it: in "10 دينار كويتي 20 ساعه" the dinars are the 10's, not the
    20's. Symbols ("€3") always lead their number. A country adjective names the
    country's currency ("دينار عراقي" IQD, "Iraqi dinars" IQD). A currency that
    cannot be told without its country ("ليرة"), or a country the table does not
    know ("دينار صربي"), comes back as the words written: no ISO code, so the
    advice reports the price unreadable instead of billing another country's money.
    """
    if (country := _english_country(tokens, i + 1)) and _currency_code(tokens, i + 2, i):
        return _of_country(tokens, i + 2, country, tokens[i + 1 : i + 3])
    for j in (i - 1, i + 1, i - 2):
        tok = _at(tokens, j)
        if tok is None:
            continue
        if j < i and _owned(tokens, j):
            continue
        if j == i - 2 and _arabic_country(tokens, i - 1) is None:
            continue
        code = _prefixed_symbol(tokens, j) or _currency_code(tokens, j, i)
        if code:
            return _qualified(tokens, j, code)
    return None


def _qualified(tokens: list[Token], j: int, code: str) -> str:
    """The currency named at ``j`` with the country adjective after it, if any."""
    country = _arabic_country(tokens, j + 1)
    if country is not None:
        return _of_country(tokens, j, country, tokens[j : j + 2])
    nxt = _at(tokens, j + 1)
    unknown_country = tokens[j].kind == WORD and _country_like(nxt)
    if code == UNSAID or unknown_country:
        written = tokens[j : j + 2] if unknown_country else tokens[j : j + 1]
        return " ".join(t.text for t in written)
    return code


def _of_country(tokens: list[Token], j: int, code: str, written: list[Token]) -> str:
    """The country's currency ``code``, if the word at ``j`` may name it ("Iraqi
    dinars"); else the words written ("دينار فلبيني": no ISO code, unreadable)."""
    tok = tokens[j]
    word = tok.text if tok.kind == SYM else _word_in(tok, CURRENCIES)
    if word is None or may_name(word, code):
        return code
    return " ".join(t.text for t in written)


def _arabic_country(tokens: list[Token], j: int) -> str | None:
    tok = _at(tokens, j)
    if tok is None or tok.kind != WORD:
        return None
    if tok.script != ARABIC:
        return CURRENCY_QUALIFIERS.get(tok.text)  # "dinar iraqi", "SAR saudi"
    word = lookup(tok.text, CURRENCY_QUALIFIERS)
    return CURRENCY_QUALIFIERS[word] if word else None


def _country_like(tok: Token | None) -> bool:
    """ "صربي", "الفلبيني": an Arabic adjective of origin (-ي, -يه) that may be a
    country's, after a currency word; period words and the like are not."""
    if tok is None or tok.kind != WORD or tok.script != ARABIC or tok.role:
        return False
    stem = tok.text.removeprefix("ال")
    if not stem.endswith(("ي", "يه")) or len(stem) < 4:
        return False
    return not (lookup(tok.text, NOT_COUNTRY_ADJECTIVES) or lookup(tok.text, PRICE_PERIOD_HOURS))


def _prefixed_symbol(tokens: list[Token], j: int) -> str | None:
    """ "E£200", "US$3": the currency of a symbol with its country glued before it."""
    sym, before = tokens[j], _at(tokens, j - 1)
    if sym.kind != SYM or not sym.glued or before is None or before.kind != WORD:
        return None
    return PREFIXED_SYMBOLS.get((before.text, sym.text))


_OPTIMIZER_NOUNS = frozenset(["optimizer", "optimiser", "optim"])
# Words that come before "optimizer" without naming one ("the optimizer states",
# "zero optimizer sharding", "including optimizer").
_NOT_OPTIMIZER_NAMES = frozenset(
    [
        "the",
        "a",
        "an",
        "my",
        "our",
        "your",
        "their",
        "its",
        "this",
        "that",
        "which",
        "what",
        "whose",
        "same",
        "default",
        "any",
        "some",
        "no",
        "with",
        "without",
        "and",
        "or",
        "is",
        "uses",
        "using",
        "use",
        "of",
        "for",
        "in",
        "on",
        "including",
        "include",
        "includes",
        "plus",
        "per",
        "each",
        "every",
        "zero",
        "sharded",
        "sharding",
        "offload",
        "offloaded",
        "cpu",
        "gpu",
        "fp32",
        "fp16",
        "bf16",
        "mixed",
        "precision",
        "full",
        "whole",
        "model",
        "training",
        "how",
        "much",
        "does",
        "do",
        "the",
    ]
)


def _adam_variant(tokens: list[Token]) -> str | None:
    """ "8-bit adam", "paged adamw": Adam named with a word that changes its state size."""
    for i, tok in enumerate(tokens[1:], start=1):
        if tok.kind != WORD or OPTIMIZERS.get(tok.text) != "adam":
            continue
        prev = tokens[i - 1]
        if prev.kind == NUM and prev.suffix.lstrip("-") == "bit":
            return f"{prev.text}-bit {tok.text}"
        if prev.text == "paged":
            return f"paged {tok.text}"
    return None


def _other_optimizer(tokens: list[Token]) -> str | None:
    """An optimizer the bot has no memory figures for, named so that the answer
    refuses it instead of assuming Adam: "adamw8bit", "paged_adamw", "muon
    optimizer", "optimizer: muon", "optimizer is muon" (only when no known
    optimizer is named; "optimizer states" or "zero optimizer" name none)."""
    for i, tok in enumerate(tokens):
        word = tok.text
        if tok.kind != WORD or word in _NOT_OPTIMIZER_NAMES or word in _OPTIMIZER_NOUNS:
            continue
        if word.startswith(("adam", "paged")) and word not in OPTIMIZERS:
            return word  # 8-bit and paged Adam keep other state sizes than Adam's 12 bytes
        nxt, prev, before = _at(tokens, i + 1), _at(tokens, i - 1), _at(tokens, i - 2)
        if nxt is not None and nxt.text in _OPTIMIZER_NOUNS:
            return word  # "muon optimizer"
        if (
            prev is not None
            and prev.text in (":", "=", "is")
            and before is not None
            and before.text in _OPTIMIZER_NOUNS
        ):
            return word  # "optimizer: muon", "optimizer is muon"
    return None


def _price_clause(tokens: list[Token], i: int) -> list[str]:
    """The words that qualify the price at ``i``: up to six after it, none past
    the next number or the end of its clause ("$30 a day on 8 GPUs" stops at the
    8, "$2.5/h, total 100h" at the comma), and a period adverb just before it
    ("شهرياً ٣٠٠٠ ريال"). "GPU-hour" counts as "GPU" and "hour", and a number
    in a compound ("per 8-GPU node") is part of the words, not the next number."""
    words: list[str] = []
    for tok in tokens[i + 1 : i + 7]:
        if tok.kind == NUM and tok.suffix.startswith("-"):
            words += tok.suffix.split("-")[1:]
            continue
        if tok.kind == NUM or tok.is_boundary:
            break
        words += tok.text.split("-") if tok.kind == WORD else [tok.text]
    words += [t.text for t in tokens[max(i - 2, 0) : i] if t.text in PRICE_PERIOD_ADVERBS]
    return words


def _price(tokens: list[Token], i: int) -> Price | None:
    code = _currency(tokens, i)
    if code is None:
        return None
    clause = _price_clause(tokens, i)
    whose = _whose_after(clause) or _whose_before(tokens, i) or _whose_each(tokens, i, clause)
    per_node = whose == "node"
    per_gpu = False if whose in ("node", "job") else True if whose == "gpu" else None
    period = next((PRICE_PERIOD_HOURS[w] for w in clause if w in PRICE_PERIOD_HOURS), None)
    return Price(
        amount=tokens[i].value * PRICE_SCALES.get(tokens[i].suffix, 1.0),
        currency=code,
        per_gpu=per_gpu,
        period_hours=period or 1.0,
        per_node=per_node,
        per_run=period is None and not per_node and _of_the_run(tokens, i, clause),
    )


def _of_the_run(tokens: list[Token], i: int, clause: list[str]) -> bool:
    """ "the whole job costs $500", "$500 in total": the run's own price.

    Only with no period ("$500/h for the job" is hourly) and no "/" after the
    amount; the words may come up to four before it, within its clause.
    """
    if "/" in clause:
        return False
    if any(_price_word(w, RUN_PRICE_WORDS) for w in clause) or _for_the_run(tokens, i):
        return True
    for j in range(i - 1, max(i - 5, -1), -1):
        tok = tokens[j]
        if tok.kind == NUM or tok.is_boundary:
            return False
        if tok.kind == WORD and _price_word(tok.text, RUN_PRICE_WORDS):
            return True
    return False


def _for_the_run(tokens: list[Token], i: int) -> bool:
    """ "$1.5k for a 30h run", "$500 for the whole 30h fp32 run": what the run costs."""
    j = i + 1
    if _at(tokens, j) is None or tokens[j].text != "for":
        return False
    j += 1
    while j < len(tokens) and tokens[j].text in ("a", "an", "the", "whole", "entire"):
        j += 1
    duration = _at(tokens, j)
    if duration is None or duration.kind != NUM:
        return False
    return any(_price_word(t.text, RUN_PRICE_WORDS) for t in tokens[j + 1 : j + 3])


def _whose_after(clause: list[str]) -> str:
    """ "$25/hour per node", "$500 a day for the cluster", "$2.5 per GPU-hour":
    whose price it is, said after it; what is said after wins over what came before."""
    if any(_price_word(w, NODE_PRICE_WORDS) for w in clause):
        return "node"
    if any(w in WHOLE_JOB_WORDS for w in clause):
        return "job"
    return "gpu" if any(w in PRICE_GPU_WORDS for w in clause) else ""


def _whose_each(tokens: list[Token], i: int, clause: list[str]) -> str:
    """ "4 nodes at $25/hour each", "8 GPUs at $2 each": "each" is the counted
    noun's, the nearest one before the price in its clause."""
    if not any(w in ("each", "apiece", "لكل", "للواحد", "للواحده") for w in clause):
        return ""
    for j in range(i - 1, max(i - 7, -1), -1):
        tok = tokens[j]
        if tok.is_boundary:
            break
        if tok.kind != WORD:
            continue
        if _price_word(tok.text, NODE_PRICE_WORDS) or _price_word(
            tok.text.removesuffix("s"), NODE_PRICE_WORDS
        ):
            return "node"
        if _word_in(tok, PRICE_GPU_WORDS):
            return "gpu"
    return ""


def _price_word(word: str, table: frozenset[str]) -> bool:
    return word in table or lookup(word, table) is not None


def _whose_before(tokens: list[Token], i: int) -> str:
    """ "our 8xA100 node costs $25", "the whole node is $25", "سعر السيرفر ٩٠ ريال":
    whose price it is, said up to four words before it ("node", "gpu" or "").

    A noun counted by its own number ("2 nodes $25", "8 GPUs at $2") is not the
    price's owner, and the look stops at a number or a clause boundary.
    """
    for j in range(i - 1, max(i - 5, -1), -1):
        tok = tokens[j]
        if tok.kind == NUM or tok.is_boundary:
            break
        if tok.kind != WORD:
            continue
        owner = (
            "node"
            if _price_word(tok.text, NODE_PRICE_WORDS)
            else "gpu"
            if _word_in(tok, PRICE_GPU_WORDS)
            else ""
        )
        count = _at(tokens, j - 1)
        if owner and count is not None and count.kind == NUM and not count.suffix:
            break  # "on 2 nodes $25", "8 GPUs at $2" (but "an 8-GPU node costs $25")
        if owner:
            return owner
    return ""


def _param_value(tokens: list[Token], i: int) -> float:
    tok = tokens[i]
    scale = PARAM_SUFFIXES.get(tok.suffix, 1.0)
    nxt = _at(tokens, i + 1)
    word = _word_in(nxt, AR_PARAM_WORDS)
    if word:
        scale = AR_PARAM_WORDS[word]
    elif nxt is not None and nxt.text in ("billion", "million"):
        scale = PARAM_SUFFIXES[nxt.text]
    return tok.value * scale


def _read_batches(tokens: list[Token], ctx: Context) -> None:
    """ "batch 112 in FP32, 256 with AMP" -> batch_fp32=112, batch_amp=256."""
    found: list[tuple[int, str]] = []
    found_at = 0
    for i, tok in enumerate(tokens):
        if tok.kind != NUM or not math.isfinite(tok.value):  # "batch inf" is no batch size
            continue
        if tok.role == "setting" and _after_batch_word(tokens, i):
            pass
        elif not (
            found
            and i - found_at <= 6
            and tok.role in ("", "setting")
            and not tok.suffix
            and not _is_time_unit(_at(tokens, i + 1))
            and _qualifier(tokens, i)
        ):
            continue
        found_at = i
        tok.role = "batch"
        found.append((int(tok.value), _qualifier(tokens, i)))
        if len(found) == 2:
            break
    for value, qualifier in found:
        if qualifier == "amp" and ctx.batch_amp is None:
            ctx.batch_amp = value
        elif qualifier == "fp32" and ctx.batch_fp32 is None or ctx.batch_fp32 is None:
            ctx.batch_fp32 = value
        elif ctx.batch_amp is None:
            ctx.batch_amp = value
    if len(found) == 1 and not found[0][1]:
        ctx.batch_amp = ctx.batch_fp32


def _after_batch_word(tokens: list[Token], i: int) -> bool:
    return any(
        t.text in BATCH_WORDS or (t.script == ARABIC and lookup(t.text, BATCH_WORDS))
        for t in tokens[max(0, i - 4) : i]
    )


def _qualifier(tokens: list[Token], i: int) -> str:
    for tok in tokens[i + 1 : i + 4]:
        if tok.is_boundary:
            break
        if tok.text in ("fp32", "tf32"):
            return "fp32"
        if tok.text in AMP_QUALIFIERS:
            return "amp"
    return ""


def _turned_off(words: list[str], i: int) -> bool:
    """ "without TF32", "TF32 disabled", "بدون TF32": the baseline is strict FP32."""
    before = words[i - 1] if i else ""
    after = words[i + 1] if i + 1 < len(words) else ""
    return before in OFF_BEFORE or after in OFF_AFTER


def _read_words(tokens: list[Token], ctx: Context) -> None:
    """Task family, precision, baseline and optimizer named in words."""
    words = [t.text for t in tokens if t.kind == WORD]
    text = " " + " ".join(words) + " "
    for phrase, code in FAMILY_PHRASES:
        if phrase in text:
            ctx.family = code
            break
    for i, word in enumerate(words):
        if ctx.family is None and word in FAMILY_WORDS:
            ctx.family = FAMILY_WORDS[word]
        precise_half = word != "half" or (i + 1 < len(words) and words[i + 1] == "precision")
        if ctx.precision is None and word in PRECISIONS and precise_half:
            ctx.precision = PRECISIONS[word]
        if ctx.framework is None:
            ctx.framework = FRAMEWORKS.get(word)
        if word in RECURRENT_WORDS:
            ctx.architecture = "recurrent"
        if word == "tf32":
            ctx.baseline = "fp32" if _turned_off(words, i) else "tf32"
        elif word == "fp32" and i and words[i - 1] in ("true", "pure", "strict", "real"):
            ctx.baseline = ctx.baseline or "fp32"
        opt = OPTIMIZERS.get(word)
        if opt and ctx.optimizer in (None, "sgd"):
            ctx.optimizer = "sgd_momentum" if word == "sgd" and "momentum" in words else opt
    if ctx.optimizer is None:
        ctx.optimizer = _other_optimizer(tokens)
    elif ctx.optimizer == "adam" and (variant := _adam_variant(tokens)):
        ctx.optimizer = variant  # "8-bit adam", "paged adamw": not Adam's 12 bytes of state
    # Task words win; a well-known model the data lacks still says its task.
    if ctx.family is None:
        ctx.family = next(
            (
                f
                for t in tokens
                if t.kind == WORD and t.role in ("", "name") and (f := model_word_family(t.text))
            ),
            None,
        )
