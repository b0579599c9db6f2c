"""GPU and model names -> the canonical names of ``bot.models``.

Spellings differ ("a100-80gb", "Tesla T4", "resnet50", "Mask-RCNN", "U-Net",
"rtx 4090", "SSD300"); one key per name (lower case, no hyphens) absorbs most
of them. The name rules (``name_rules.py``) emit candidates; the one resolver
picks the readings that do not overlap (the longer name wins: "rtx 2080 ti"
over "2080 ti", "transformer xl" over "transformer"), and every token of a
chosen name is marked, so the digits of "V100" or "ResNet 50" can never become
a time or a ratio. A name right after a negation ("UNet on A10 (not A100!)")
is marked but not chosen.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.advice.gpus import gpu_variants
from bot.models import CPU_DEVICE
from bot.understanding.resolving.candidates import MEMORY, NAME, Candidate
from bot.understanding.resolving.resolve import resolve
from bot.understanding.rules.names.name_rules import GIGABYTE_WORDS, memory_in_name, name_candidates
from bot.understanding.text.tokens import NUM, WORD, Token, word_in
from bot.understanding.words import table

NEGATIONS = table("NAMES_NEGATIONS")
GPU_NOUNS = table("GPU_NOUNS")


PRECISION_STEMS = table("PRECISION_STEMS")
PRECISION_BITS = ("8", "16", "32")


@dataclass
class Names:
    gpu: str | None = None
    model: str | None = None
    gpu_positions: tuple[int, ...] = ()
    # The memory size written with the first GPU ("A100 40GB", "a100-80gb").
    gpu_memory_gb: float | None = None
    # Every name reading the rules offered, and whether it was chosen (for --explain).
    offered: tuple[tuple[Candidate, bool], ...] = ()


def find_names(tokens: list[Token]) -> Names:
    """Mark name tokens (role "gpu"/"model"/"name") and return the first GPU and model named.

    Precisions spelled in parts are joined first (in place), so every later pass
    reads one token "bf16".
    """
    join_precisions(tokens)
    offered = name_candidates(tokens)
    chosen = resolve(offered).chosen
    for cand in chosen:
        cand.mark(tokens)
    found = _first_named(tokens, chosen)
    picked = {id(c) for c in chosen}
    found.offered = tuple((c, id(c) in picked) for c in offered)
    return found


def _first_named(tokens: list[Token], chosen: list[Candidate]) -> Names:
    """The first GPU (with the memory written with it) and model not negated."""
    found = Names()
    sizes = [c for c in chosen if c.kind == MEMORY]
    gpus = [c for c in chosen if c.kind == NAME and c.role == "gpu" and not _negated(tokens, c)]
    # "from CPU to a T4", "preprocessing on the CPU, training on an A100": the GPU is the device.
    gpus = [c for c in gpus if c.value != CPU_DEVICE] or gpus
    models = [c for c in chosen if c.kind == NAME and c.role == "model" and not _negated(tokens, c)]
    found.gpu_positions = tuple(c.start for c in gpus)
    if gpus:
        first = gpus[0]
        found.gpu = str(first.value)
        found.gpu_memory_gb = memory_in_name(tokens[first.start]) or _size_of(first, sizes)
    if models:
        found.model = str(models[0].value)
    return found


def _size_of(gpu: Candidate, sizes: list[Candidate]) -> float | None:
    """The size just after the card ("A100 40GB", "H100 (80GB)"), else just before it."""
    after = [m for m in sizes if gpu.end <= m.start <= gpu.end + 1]
    before = [m for m in sizes if m.end == gpu.start]
    return float((after or before)[0].value) if after or before else None


def join_precisions(tokens: list[Token]) -> None:
    """ "bf-16", "BF 16", "FP-8", "tf 32" -> one word "bf16", "fp8", "tf32".

    The number of a split spelling is dropped from the list (rebuilt once, so
    the pass stays linear): it is part of the name, never a time or a ratio,
    and nothing stands between "FP32" and the time said of it.
    """
    kept: list[Token] = []
    skip = False
    for i, tok in enumerate(tokens):
        if skip:
            skip = False
            continue
        kept.append(tok)
        if tok.kind != WORD:
            continue
        stem, hyphen, bits = tok.text.partition("-")
        if hyphen and stem in PRECISION_STEMS and bits in PRECISION_BITS:
            tok.text = stem + bits
            continue
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if (
            tok.text in PRECISION_STEMS
            and nxt is not None
            and nxt.kind == NUM
            and not nxt.suffix
            and nxt.text in PRECISION_BITS
        ):
            tok.text += nxt.text
            skip = True
    if len(kept) != len(tokens):
        tokens[:] = kept


def memory_size_alone(tokens: list[Token]) -> float | None:
    """ "will a 7B model fit in 80GB?", "هل يكفي ٨٠ جيجا": a GPU memory size said
    without a GPU name (a memory question only; any size a GPU could have)."""
    found = _memory_sizes(tokens)
    return tokens[found[0][0]].value if found else None


def variant_size_after(tokens: list[Token], names: Names) -> float | None:
    """Rule ``gpu_variant_number``: in a memory question, a bare number right after the
    GPU that is one of its published memory sizes is that variant ("A100 40", «A100 ٤٠»,
    "V100 16"); elsewhere "A100 40" may be 40 hours, so only the memory reading asks."""
    if names.gpu is None or not names.gpu_positions:
        return None
    j = names.gpu_positions[0]
    while j < len(tokens) and tokens[j].role == "gpu":
        j += 1
    tok = tokens[j] if j < len(tokens) else None
    if tok is None or tok.kind != NUM or tok.suffix or tok.role:
        return None
    sizes = {spec.memory_gb for spec in gpu_variants(names.gpu)}
    return tok.value if tok.value in sizes else None


def card_size(tokens: list[Token]) -> float | None:
    """Rule ``card_size``: a memory size said of a card without naming it ("a 16GB
    card", "an 8 gb gpu", «كرت ٨ جيجا», «على كرت بـ ٢٤ جيجا»): it stands for the GPU
    in a question whether a job fits, as "on a T4" does. A GPU noun at most two
    words before the number, or right after the size."""
    for i, end in _memory_sizes(tokens):
        near = [*tokens[max(0, i - 2) : i], *tokens[end : end + 1]]
        if any(t.kind == WORD and word_in(t, GPU_NOUNS) for t in near):
            return tokens[i].value
    return None


def _memory_sizes(tokens: list[Token]) -> list[tuple[int, int]]:
    """(index, end) of each GPU-sized number said in gigabytes ("80GB", "٨٠ جيجا")."""
    out = []
    for i, tok in enumerate(tokens):
        if tok.kind != NUM or not 4 <= tok.value <= 1024:
            continue
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if tok.suffix in ("gb", "g"):
            out.append((i, i + 1))
        elif not tok.suffix and nxt is not None and nxt.text in GIGABYTE_WORDS:
            out.append((i, i + 2))
    return out


def _negated(tokens: list[Token], cand: Candidate) -> bool:
    return any(t.text in NEGATIONS for t in tokens[max(0, cand.start - 2) : cand.start])
