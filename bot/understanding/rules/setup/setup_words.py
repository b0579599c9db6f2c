"""What the words of a message say about the setup: the task family, the
mixed-precision type, the FP32 baseline (TF32 or strict), the optimizer, the
framework, and the batch sizes said with a precision."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from bot.understanding.resolving.candidates import COUNT, Candidate
from bot.understanding.resolving.resolve import resolve
from bot.understanding.text.tokens import ARABIC, NUM, WORD, Token
from bot.understanding.values.lexicon import (
    FRAMEWORKS,
    OPTIMIZERS,
    RECURRENT_WORDS,
    lookup,
    model_word_family,
)
from bot.understanding.values.nearby import at, is_time_unit
from bot.understanding.words import mapping, table

if TYPE_CHECKING:
    from bot.understanding.context import Context


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


FAMILY_WORDS = mapping("FAMILY_WORDS")
PRECISIONS = mapping("PRECISIONS")
OFF_BEFORE = table("OFF_BEFORE")
OFF_AFTER = table("OFF_AFTER")
BATCH_WORDS = table("BATCH_WORDS")
# "batch 8M", "bs 64k": the scale a batch size is said in.
BATCH_SCALES = mapping("BATCH_SCALES")
RUN_EVIDENCE = mapping("RUN_EVIDENCE")
# Which evidence about the run wins when a message says several things: a run said to
# wait on its input is input-bound however busy it was said to be elsewhere.
RUN_ORDER = ("input_bound", "small_model", "pure_fp16", "busy")
AMP_QUALIFIERS = table("AMP_QUALIFIERS")
_OPTIMIZER_NOUNS = table("OPTIMIZER_NOUNS")
_NOT_OPTIMIZER_NAMES = table("NOT_OPTIMIZER_NAMES")


def _adam_variant(tokens: list[Token]) -> str | None:
    """ "8-bit adam", "adamw 8bit", "paged adamw": Adam named with a word that changes
    its state size (or where it lives)."""
    for i, tok in enumerate(tokens):
        if tok.kind != WORD or OPTIMIZERS.get(tok.text) != "adam":
            continue
        prev, nxt = at(tokens, i - 1), at(tokens, i + 1)
        for bits, text in ((prev, "{bits}-bit {adam}"), (nxt, "{adam} {bits}-bit")):
            if bits is not None and bits.kind == NUM and bits.suffix.lstrip("-") == "bit":
                return text.format(bits=bits.text, adam=tok.text)
        if prev is not None and prev.text == "paged":
            return f"paged {tok.text}"
    return None


_BIT_OPTIMIZER_NOUNS = table("BIT_OPTIMIZER_NOUNS")
_BIT_WORDS = table("BIT_WORDS")


def _eight_bit_optimizer(tokens: list[Token]) -> str | None:
    """ "an 8-bit optimizer", "8 bit optimizers", "محسن 8 بت", "وبمحسن ٨ بت": 8 bits
    with an optimizer noun beside it is bitsandbytes' 8-bit Adam."""
    for i, tok in enumerate(tokens):
        if tok.kind != NUM or tok.value != 8:
            continue
        after = at(tokens, i + 1)
        if tok.suffix.lstrip("-") != "bit" and not (after is not None and after.text in _BIT_WORDS):
            continue
        near = tokens[max(0, i - 1) : i + 3]
        if any(t.kind == WORD and lookup(t.text, _BIT_OPTIMIZER_NOUNS) for t in near):
            return "8-bit adam"
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
        nxt, prev, before = at(tokens, i + 1), at(tokens, i - 1), at(tokens, i - 2)
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


def read_batches(tokens: list[Token], ctx: Context) -> None:
    """ "batch 112 in FP32, 256 with AMP" -> batch_fp32=112, batch_amp=256."""
    found = _batch_numbers(tokens)
    for value, qualifier in found:
        if qualifier == "amp" and ctx.batch_amp is None:
            ctx.batch_amp = value
        elif qualifier == "fp32" and ctx.batch_fp32 is None or ctx.batch_fp32 is None:
            ctx.batch_fp32 = value
        elif ctx.batch_amp is None:
            ctx.batch_amp = value
    if len(found) == 1 and not found[0][1]:
        ctx.batch_amp = ctx.batch_fp32


def _batch_numbers(tokens: list[Token]) -> list[tuple[int, str]]:
    """Rule ``batch_with_precision``: the batch setting, and a second number said of
    the other precision within six tokens ("batch 112 in FP32, 256 with AMP"), with
    the precision each is said of. Each is a ``count`` candidate (role "batch",
    its precision kept); the resolver chooses and only the chosen are marked."""
    cands = _batch_candidates(tokens)
    chosen = resolve(cands).chosen
    for cand in chosen:
        cand.mark(tokens)
    return [(int(c.value), c.precision) for c in chosen]


def _batch_candidates(tokens: list[Token]) -> list[Candidate]:
    found: list[Candidate] = []
    for i, tok in enumerate(tokens):
        if tok.kind != NUM or not math.isfinite(tok.value) or tok.value < 1:
            continue  # "batch inf", "batch -1", "batch 0" are no batch size
        labelled = tok.role == "setting" and _after_batch_word(tokens, i)
        near = found and i - found[-1].start <= 6 and _second_batch(tokens, i, found[-1].start)
        if not (labelled or near):
            continue
        qualifier = _qualifier(tokens, i)
        found.append(
            Candidate(
                COUNT,
                i,
                i + 1,
                float(int(tok.value * BATCH_SCALES.get(tok.suffix.lstrip("-"), 1.0))),
                "batch_with_precision",
                tok.written,
                precision=qualifier,
                role="batch",
            )
        )
        if len(found) == 2:
            break
    return found


def _second_batch(tokens: list[Token], i: int, first: int) -> bool:
    """A bare number said of a precision ("256 with AMP"), not a time; after a batch in
    millions it may share the scale ("batch 8M in FP32 and 10M with AMP")."""
    tok = tokens[i]
    scaled = tokens[first].suffix.lstrip("-") in BATCH_SCALES
    shares_scale = scaled and tok.suffix.lstrip("-") in BATCH_SCALES
    return (
        (tok.role in ("", "setting") or shares_scale and tok.role == "params")
        and (not tok.suffix or shares_scale)
        and not is_time_unit(at(tokens, i + 1))
        and bool(_qualifier(tokens, i))
    )


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


def read_words(tokens: list[Token], ctx: Context) -> None:
    """Task family, precision, baseline, framework and optimizer named in words."""
    words = [t.text for t in tokens if t.kind == WORD]
    ctx.family = _family(tokens, words)
    ctx.run = _run(tokens)
    for i, word in enumerate(words):
        _precision_and_baseline(words, i, ctx)
        if ctx.framework is None:
            ctx.framework = FRAMEWORKS.get(word) or FRAMEWORKS.get(word.split("-", 1)[0])
        if word in RECURRENT_WORDS:
            ctx.architecture = "recurrent"
        opt = OPTIMIZERS.get(word)
        if opt and ctx.optimizer in (None, "sgd"):
            ctx.optimizer = "sgd_momentum" if word == "sgd" and "momentum" in words else opt
    if "ngc" in words and ctx.baseline is None:
        ctx.baseline = "tf32"  # NVIDIA's NGC containers run FP32 matmuls in TF32
    if ctx.optimizer is None:
        ctx.optimizer = _eight_bit_optimizer(tokens) or _other_optimizer(tokens)
    elif ctx.optimizer == "adam" and (variant := _adam_variant(tokens)):
        ctx.optimizer = variant  # "8-bit adam", "paged adamw": not Adam's 12 bytes of state


def _run(tokens: list[Token]) -> str | None:
    """What the message says about how busy the run keeps the GPU ("DALI", "100%
    utilisation", "data loading is the bottleneck", "tiny model", "pure fp16"): a
    RUN_EVIDENCE phrase, matched on whole tokens."""
    text = " " + " ".join(t.text for t in tokens) + " "
    found = {code for phrase, code in RUN_EVIDENCE.items() if f" {phrase} " in text}
    return next((code for code in RUN_ORDER if code in found), None)


def _family(tokens: list[Token], words: list[str]) -> str | None:
    """The task family: a task phrase, then a task word ("llm", "asr"), then a
    well-known model the data lacks ("yolov8": detection)."""
    text = " " + " ".join(words) + " "
    phrase = next((code for phrase, code in FAMILY_PHRASES if phrase in text), None)
    if phrase is not None:
        return phrase
    word = next((FAMILY_WORDS[w] for w in words if w in FAMILY_WORDS), None)
    if word is not None:
        return word
    return next(
        (
            f
            for t in tokens
            if t.kind == WORD and t.role in ("", "name") and (f := model_word_family(t.text))
        ),
        None,
    )


def _precision_and_baseline(words: list[str], i: int, ctx: Context) -> None:
    """ "bf16", "half precision" (not "half a day"); "TF32" on or off, "pure fp32"."""
    word = words[i]
    precise_half = word != "half" or (i + 1 < len(words) and words[i + 1] == "precision")
    if ctx.precision is None and word in PRECISIONS and precise_half:
        ctx.precision = PRECISIONS[word]
    if word == "tf32":
        ctx.baseline = "fp32" if _turned_off(words, i) else "tf32"
    elif word == "fp32" and i and words[i - 1] in ("true", "pure", "strict", "real"):
        ctx.baseline = ctx.baseline or "fp32"
