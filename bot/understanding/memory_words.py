"""What a memory question says about how the GPU is used (rules with names).

* ``memory_by_method``: a method word ("LoRA", "QLoRA", "inference", "serve",
  "للاستدلال", "full fine-tune", «تدريب كامل») with a parameter count (also in
  words: "7 billion", «١٣ مليار») or a model of known size asks about memory,
  unless the message asks how much faster.
* ``memory_follow_up``: after a memory question, a message naming only a setup
  detail (a method, a size, a GPU, a count, a precision) asks about memory again.
* ``memory_setup``: the method (full fine-tune when unsaid; a 4-bit base that
  trains is QLoRA), the recipe (FP32, torch.amp, an FP32 master copy under
  DeepSpeed/ZeRO/Megatron, pure BF16), the precision of frozen or served weights
  ("int4", "8-bit", "٤ بت"), the sharding (DDP, ZeRO-1/2/3, FSDP, CPU offload) and a
  catalog model named ("BERT-large", "gpt2-xl", "llama 2 70b") for its size and shape.

Words live in ``words/*.toml`` (MEMORY_METHODS, WEIGHT_PRECISIONS, BIT_WIDTHS,
SHARDINGS, PURE_WORDS, MASTER_COPY_WORDS, BIT_WORDS, INFERENCE_RUN_WORDS, FULL_WORDS,
FULL_FILLERS, OFFLOAD_WORDS, PARAM_OFFLOAD_WORDS); each rule looks at a token and at
most its two neighbours, so reading stays linear.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.advice.model_sizes import known_keys, model_size, squash
from bot.understanding.precision_question import precision_topic
from bot.understanding.rules.setup.setup_numbers import AR_PARAM_WORDS, PARAM_SUFFIXES
from bot.understanding.text.tokens import NUM, WORD, Token, word_in
from bot.understanding.values.lexicon import ESTIMATE_CUES, SPEED_CUES, lookup, with_slips
from bot.understanding.words import mapping, table

if TYPE_CHECKING:
    from bot.understanding.context import Context

METHODS = with_slips(mapping("MEMORY_METHODS"))  # "infrence", "inferecne" too
WEIGHT_PRECISIONS = mapping("WEIGHT_PRECISIONS")
BIT_WIDTHS = mapping("BIT_WIDTHS")
SHARDINGS = mapping("SHARDINGS")
PURE_WORDS = table("PURE_WORDS")
MASTER_COPY_WORDS = table("MASTER_COPY_WORDS")
BIT_WORDS = table("BIT_WORDS")
RUN_WORDS = table("INFERENCE_RUN_WORDS")
TRAIN_VERBS = table("TRAIN_VERBS")
FULL_WORDS = table("FULL_WORDS")
OFFLOAD_WORDS = table("OFFLOAD_WORDS")
PARAM_OFFLOAD_WORDS = table("PARAM_OFFLOAD_WORDS")
FULL_FILLERS = table("FULL_FILLERS")
_OPTIMIZER_WORDS = frozenset(mapping("OPTIMIZERS"))
_OPTIMIZER_NOUNS = table("BIT_OPTIMIZER_NOUNS")
_MAX_NAME_TOKENS = 3  # "llama 2 70b"
_NAME_SIZE = re.compile(r"[a-z-]\d{1,4}(?:\.\d{1,3})?[bm]$")  # "llama-2-13b", "qwen2.5-7b"


def asks_memory_by_method(tokens: list[Token]) -> bool:
    """Rule ``memory_by_method``: "serve llama-2-70b in fp16 on 2 A100s", "QLoRA 13B",
    "أشغل llama 13b للاستدلال": a method word with a size (a parameter count, a size
    in a model's name, or a model of known size) and no speed word."""
    if any(word_in(t, SPEED_CUES) for t in tokens):
        return False
    if _method_word(tokens, run_is_inference=False) is None:
        return False
    return any(_is_size(tokens, i) for i in range(len(tokens))) or sized_model(tokens) is not None


def memory_setup(
    tokens: list[Token], precision: str | None, baseline: str | None, follows: str | None = None
) -> dict:
    """Rule ``memory_setup``: the Query fields of a memory question (see the module doc).

    ``precision`` and ``baseline`` are what the context pass read (bf16, fp32).
    ``follows`` is the method of the memory question this message follows ("full"
    when it named none): "and in 4-bit?" after serving a model is 4-bit inference,
    after LoRA it is QLoRA. The method is returned only when this message changes it
    (the follow-up carries the thread's otherwise, and says so).

    Quantised weights without a method word: nothing trained, they are served ("13b
    in 8-bit on a 3090?", "70B in 4-bit on a 4090?"); trained, they are a frozen base
    under adapters, since 4- and 8-bit weights take no optimizer step: QLoRA for
    4-bit, LoRA on an INT8 base for 8-bit ("fine-tune 13B in 8-bit").
    """
    bits = _weight_bits(tokens)
    named = _method_word(tokens)
    method = named or (follows if follows != "full" else None)
    if method is None and bits and follows is None and not _trains(tokens):
        method = "inference"
    if method in (None, "lora") and bits == "int4":
        method = "qlora"  # a 4-bit base that trains is QLoRA
    elif method is None and bits == "int8":
        method = "lora"  # an 8-bit base that trains: LoRA on LLM.int8 weights
    weights = bits or _named_precision(tokens)
    if method == "inference" and weights is None:
        weights = precision if precision in ("fp16", "bf16", "fp8") else baseline
    if method == "lora" and bits is None:
        weights = precision if precision in ("fp16", "bf16") else None
    if method == "qlora":
        weights = "nf4"
    return {
        "memory_method": named or (method if method != follows else None),
        "memory_recipe": _recipe(tokens, precision, baseline),
        "weight_precision": weights if method in ("lora", "qlora", "inference") else None,
        "sharding": _sharding(tokens),
        "sized_model": sized_model(tokens),
    }


def catalog_params(tokens: list[Token]) -> float | None:
    """The parameter count of a catalog model named without a count ("BERT-large")."""
    found = model_size(sized_model(tokens))
    return found.params if found else None


def sized_model(tokens: list[Token]) -> str | None:
    """The longest run of one to three name tokens that the model catalog knows."""
    keys = known_keys()
    for i in range(len(tokens)):
        for n in range(min(_MAX_NAME_TOKENS, len(tokens) - i), 0, -1):
            run = tokens[i : i + n]
            if any(t.kind not in (WORD, NUM) for t in run) or run[0].kind != WORD:
                continue
            key = squash("".join(t.written for t in run))
            if key in keys:
                return key
    return None


def _is_size(tokens: list[Token], i: int) -> bool:
    """ "7B", "340M", "1T", a count with its scale in words ("7 billion", "٣٥٠ مليون",
    «١٣ مليار»), or a name ending in its size ("llama-2-13b")."""
    tok = tokens[i]
    if tok.kind == NUM:
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        return tok.suffix in ("b", "m", "t") or (not tok.suffix and _is_scale_word(nxt))
    return tok.kind == WORD and _NAME_SIZE.search(tok.text) is not None


def _is_scale_word(tok: Token | None) -> bool:
    """ "billion", "bn", "million", «مليار», «مليون» (not a one-letter "m": minutes)."""
    if tok is None or tok.kind != WORD:
        return False
    scale = PARAM_SUFFIXES.get(tok.text, 0.0) if len(tok.text) > 1 else 0.0
    return scale >= 1e6 or lookup(tok.text, AR_PARAM_WORDS) is not None


def _method_word(tokens: list[Token], *, run_is_inference: bool = True) -> str | None:
    """The method named; "run", "أشغل" alone (no training word) is inference once the
    message is a memory question (too weak a word to make it one)."""
    found = {METHODS[m] for t in tokens if t.kind == WORD and (m := lookup(t.text, METHODS))}
    for method in ("qlora", "lora", "inference"):  # "QLoRA inference" is still QLoRA
        if method in found:
            return method
    if any(_full_training(tokens, i) for i in range(len(tokens))):
        return "full"
    if not run_is_inference:
        return None
    runs = any(t.kind == WORD and word_in(t, RUN_WORDS) for t in tokens)
    return "inference" if runs and not _trains(tokens) else None


def _trains(tokens: list[Token]) -> bool:
    """A training verb that is not also a run word ("fine-tune", «أدرب»; not "load")."""
    return any(
        t.kind == WORD and word_in(t, TRAIN_VERBS) and not word_in(t, RUN_WORDS) for t in tokens
    )


def _full_training(tokens: list[Token], i: int) -> bool:
    """ "full fine-tune", "fully fine-tuned", "full parameter fine-tuning", "full-finetune",
    «تدريب كامل», «فاين تيون كامل», «تدريب النموذج بالكامل»: a full-training word right
    next to a training verb (one filler such as "parameter" may sit between), so
    "full precision training" and «الدقة الكاملة» name no method."""
    tok = tokens[i]
    if tok.kind != WORD:
        return False
    head, hyphen, rest = tok.text.partition("-")
    if hyphen and head in FULL_WORDS and rest in TRAIN_VERBS:
        return True
    if not word_in(tok, FULL_WORDS):
        return False
    for step in (-1, 1):
        j = i + step
        if 0 <= j < len(tokens) and word_in(tokens[j], FULL_FILLERS):
            j += step
        if 0 <= j < len(tokens) and word_in(tokens[j], TRAIN_VERBS):
            return True
    return False


def _weight_bits(tokens: list[Token]) -> str | None:
    """ "4-bit", "4bit", "8 bits", "٤ بت", "int4", "nf4": quantised weights (not the
    "8-bit" of "8-bit adam", which is the optimizer's)."""
    for i, tok in enumerate(tokens):
        if tok.kind == NUM and tok.text in BIT_WIDTHS and _is_bit_width(tokens, i):
            if not _next_to_optimizer(tokens, i) and BIT_WIDTHS[tok.text] in ("int4", "int8"):
                return BIT_WIDTHS[tok.text]
        elif tok.kind == WORD and WEIGHT_PRECISIONS.get(tok.text) in ("int4", "int8", "nf4"):
            return WEIGHT_PRECISIONS[tok.text]
    return None


def _is_bit_width(tokens: list[Token], i: int) -> bool:
    tok = tokens[i]
    if tok.suffix in BIT_WORDS:
        return True
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    return not tok.suffix and nxt is not None and word_in(nxt, BIT_WORDS)


def _next_to_optimizer(tokens: list[Token], i: int) -> bool:
    near = tokens[max(0, i - 1) : i + 3]
    return any(
        t.kind == WORD
        and (t.text in _OPTIMIZER_WORDS or "adam" in t.text or lookup(t.text, _OPTIMIZER_NOUNS))
        for t in near
    )


def _named_precision(tokens: list[Token]) -> str | None:
    for tok in tokens:
        if tok.kind == WORD and tok.text in WEIGHT_PRECISIONS:
            return WEIGHT_PRECISIONS[tok.text]
    return None


def _recipe(tokens: list[Token], precision: str | None, baseline: str | None) -> str | None:
    """pure BF16 ("pure bf16", "bf16 خالصة"), an FP32 master copy (DeepSpeed, ZeRO,
    Megatron), FP32 when only FP32 is named; else None (torch.amp)."""
    for i, tok in enumerate(tokens):
        if tok.text == "bf16" and any(
            word_in(t, PURE_WORDS) for t in tokens[max(0, i - 1) : i + 2] if t is not tok
        ):
            return "bf16"
    if any(t.text in MASTER_COPY_WORDS or t.text.startswith("zero-") for t in tokens):
        return "master"
    if precision is None and "fp32" in (baseline, _named_precision(tokens)):
        return "fp32"
    return None


def _sharding(tokens: list[Token]) -> str | None:
    """ "FSDP", "ZeRO-3", "zero3", "ZeRO stage 2", "zero 2", "DDP"; with CPU offload
    ("zero-offload", "ZeRO-3 offload", "FSDP cpu offload", "offload_param") the
    offloading variant: the weights offloaded too under ZeRO-3/FSDP or when said."""
    stage = _sharding_stage(tokens)
    if not any(word_in(t, OFFLOAD_WORDS) for t in tokens):
        return stage
    params_too = stage == "zero3" or any(word_in(t, PARAM_OFFLOAD_WORDS) for t in tokens)
    return "zero3_offload" if params_too else "zero2_offload"


def _sharding_stage(tokens: list[Token]) -> str | None:
    for i, tok in enumerate(tokens):
        if tok.kind == WORD and tok.text in SHARDINGS:
            return SHARDINGS[tok.text]
        if tok.text == "zero":  # a number word too: "zero" may have been read as 0
            after = [t for t in tokens[i + 1 : i + 3] if t.text != "stage"]
            if after and after[0].kind == NUM and after[0].text in ("1", "2", "3"):
                return f"zero{after[0].text}"
    return None


def continues_memory(tokens: list[Token], ctx: Context, gpu_named: bool) -> bool:
    """Rule ``memory_follow_up``: after a memory question, a message that names only
    a detail of the setup ("and with LoRA?", "what about QLoRA?", "and for 13B?",
    "and on 8 of them?", "and in bf16?", "وللاستدلال؟", "وعلى H100؟") asks about
    memory again; one that asks about speed or time ("BERT on T4 speedup?", "how
    long?") or compares precisions does not."""
    if any(word_in(t, SPEED_CUES) or word_in(t, ESTIMATE_CUES) for t in tokens):
        return False
    if precision_topic(tokens) is not None:
        return False
    named = (ctx.params, ctx.num_gpus, ctx.precision, ctx.baseline, ctx.optimizer)
    return (
        gpu_named
        or any(value is not None for value in named)
        or _method_word(tokens, run_is_inference=False) is not None
        or _weight_bits(tokens) is not None
        or _named_precision(tokens) is not None
        or _sharding(tokens) is not None
        or sized_model(tokens) is not None
    )
