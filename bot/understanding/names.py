"""GPU and model names -> the canonical names of ``bot.models``.

Spellings differ ("a100-80gb", "Tesla T4", "resnet50", "Mask-RCNN", "U-Net",
"rtx 4090", "SSD300"); one key per name (lower case, no hyphens) absorbs most
of them. Every token that is part of a name is marked, so the digits of
"V100" or "ResNet 50" can never become a time or a ratio. A name right after
a negation ("UNet on A10 (not A100!)") is marked but not chosen.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.models import GPU_NAMES, MODEL_NAMES
from bot.understanding.lexicon import RATIO_LABELS, lookup, model_word_family
from bot.understanding.tokens import ARABIC, NUM, WORD, Token
from bot.understanding.words import mapping, table

GPU_ALIASES: dict[str, str] = {
    "p100": "P100",
    "v100": "V100",
    "v100s": "V100",
    "t4": "T4",
    "a10": "A10",
    "a10g": "A10G",
    "a100": "A100",
    "l4": "L4",
    "l40s": "L40S",
    "h100": "H100",
    "h200": "H200",
    "b200": "B200",
    "mi250x": "MI250X",
    "mi250": "MI250X",
    "mi300x": "MI300X",
    "rtx3090": "RTX 3090",
    "rtx4090": "RTX 4090",
    "rtx2080ti": "RTX 2080 Ti",
    "2080ti": "RTX 2080 Ti",
    "3090": "RTX 3090",
    "4090": "RTX 4090",
    "3090ti": "RTX 3090",
    "4090ti": "RTX 4090",
    "k80": "K80",
    "p40": "P40",
    "p4": "P4",
    "a30": "A30",
    "a40": "A40",
    "l40": "L40",
    "gh200": "GH200",
    "titanv": "TITAN V",
    "titanrtx": "TITAN RTX",
    "a4000": "RTX A4000",
    "a5000": "RTX A5000",
    "a6000": "RTX A6000",
    "rtxa4000": "RTX A4000",
    "rtxa5000": "RTX A5000",
    "rtxa6000": "RTX A6000",
    **{
        f"{lead}{number}{ti}": f"{prefix.upper()} {number}{' Ti' if ti else ''}"
        for prefix, number, ti in (
            *(("gtx", n, "") for n in (1060, 1070, 1080, 1650, 1660)),
            ("gtx", 1080, "ti"),
            ("gtx", 1660, "ti"),
            *(("rtx", n, "") for n in (2060, 2070, 2080, 3060, 3070, 3080, 4060, 4070, 4080)),
            *(("rtx", n, "") for n in (5070, 5080, 5090)),
            *(("rtx", n, "ti") for n in (3060, 3080, 4070, 5070)),
        )
        for lead in (prefix, "")  # "rtx 3080" and "on a 3080"
    },
    # Names the shipped gpu_specs.csv has no row for, read as the listed GPU
    # they are a variant of: A800 and H800 are the export versions of A100 and
    # H100, the same GA100/GH100 chips and memory sizes with slower NVLink
    # (nvidia.com/en-us/data-center/a800/ and the H800 datasheet). Cards that
    # only share a chip (TITAN V's GV100 has 12 GB, RTX A6000's GA102 48 GB,
    # GH200's Hopper 96 GB or more) stay unread: named as their sibling, a
    # reply would say the wrong card and judge memory against the wrong size.
    "a800": "A100",
    "h800": "H100",
}
MODEL_ALIASES: dict[str, str] = mapping("MODEL_ALIASES")
NUMBERED_STEMS = table("NUMBERED_STEMS")
UNLISTED_GPU_LINES: dict[str, str] = mapping("UNLISTED_GPU_LINES")
UNLISTED_GPU_VARIANTS: dict[str, str] = mapping("UNLISTED_GPU_VARIANTS")
GPU_PREFIX_WORDS = table("GPU_PREFIX_WORDS")
SPACED_SERIES = table("SPACED_SERIES")
CARD_LEADERS = table("CARD_LEADERS")
NEGATIONS = table("NAMES_NEGATIONS")

assert set(GPU_ALIASES.values()) <= set(GPU_NAMES)
# Model numbers a card is known by alone ("on a 3080", "2080 Ti").
CARD_NUMBERS = frozenset(float(key) for key in GPU_ALIASES if key.isdigit())
assert set(MODEL_ALIASES.values()) <= set(MODEL_NAMES)


PRECISION_STEMS = table("PRECISION_STEMS")
PRECISION_BITS = ("8", "16", "32")


@dataclass
class Names:
    gpu: str | None = None
    model: str | None = None
    gpu_positions: tuple[int, ...] = ()
    # The memory size written with the first GPU ("A100 40GB", "a100-80gb").
    gpu_memory_gb: float | None = None


def _key(text: str) -> str:
    return text.replace("-", "").replace("'", "").replace(".", "")


def _match(table: dict[str, str], text: str) -> str | None:
    """Full spelling first ("transformer-xl"), then the part before a hyphen ("a100-80gb")."""
    for candidate in (_key(text), _key(text.split("-", 1)[0])):
        if candidate in table:
            return table[candidate]
        if candidate.endswith("s") and candidate[:-1] in table:  # "8 V100s"
            return table[candidate[:-1]]
    return None


def find_names(tokens: list[Token]) -> Names:
    """Mark name tokens (role "gpu"/"model") and return the first GPU and model named.

    Precisions spelled in parts are joined first (in place), so every later pass
    reads one token "bf16".
    """
    join_precisions(tokens)
    found = Names()
    gpu_positions: list[int] = []
    n = len(tokens)
    for i, tok in enumerate(tokens):
        if tok.role:
            continue
        gpu = model = None
        span = 1
        if tok.kind == WORD:
            gpu = _match(GPU_ALIASES, tok.text)
            if gpu is None:
                model = _match(MODEL_ALIASES, tok.text)
            if gpu is None and model is None and i + 1 < n:
                gpu, model, span = _two_token_name(tokens, i)
        elif _bare_card_number(tokens, i):
            ti = "ti" if tok.suffix == "ti" or _ti_after(tokens, i) else ""
            gpu = GPU_ALIASES.get(f"{int(tok.value)}{ti}") or GPU_ALIASES[f"{int(tok.value)}"]
            span = 2 if _ti_after(tokens, i) else 1
        elif _variant_code(tokens, i):
            tok.role = tokens[i + 1].role = "name"
            continue
        elif _glued_to_name(tokens, i):
            tok.role = "name"
            continue
        if gpu is None and model is None:
            continue
        for t in tokens[i : i + span]:
            t.role = "gpu" if gpu else "model"
        if _negated(tokens, i):
            continue
        if gpu:
            gpu_positions.append(i)
            if found.gpu is None:
                found.gpu = gpu
                found.gpu_memory_gb = _memory_size(tokens, i, span) or _memory_before(tokens, i)
        else:
            found.model = found.model or model
    found.gpu_positions = tuple(gpu_positions)
    return found


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


def _bare_card_number(tokens: list[Token], i: int) -> bool:
    """ "2080 Ti", "on a 3090": a model number written without "RTX"."""
    tok = tokens[i]
    if tok.kind != NUM or tok.extra.get("spelled") or tok.value not in CARD_NUMBERS:
        return False
    return tok.suffix == "ti" or _ti_after(tokens, i) or _card_before(tokens, i)


def _ti_after(tokens: list[Token], i: int) -> bool:
    """Rule ``card_number_ti``: "2080 Ti", "3090 ti": the card's own suffix word."""
    return i + 1 < len(tokens) and tokens[i + 1].text == "ti"


def _variant_code(tokens: list[Token], i: int) -> bool:
    """Rule ``variant_code``: "ResNeXt-101 32x8d", "resnext50 32x4d": cardinality x
    width glued after a name with digits, part of the name (not 32x and 8 days)."""
    tok, nxt = tokens[i], tokens[i + 1] if i + 1 < len(tokens) else None
    if tok.kind != NUM or tok.suffix != "x" or nxt is None or nxt.kind != NUM:
        return False
    prev = tokens[i - 1] if i else None
    named = prev is not None and prev.kind == WORD and any(c.isdigit() for c in prev.text)
    return named and nxt.glued and nxt.suffix == "d"


def _glued_to_name(tokens: list[Token], i: int) -> bool:
    """Rule ``name_suffix_number``: "ViT-B/16", "ViT-L/14" (patch size) and "sd1.5",
    "gpt3.5", "llama3.1" (version): a number glued by "/" after a model's name, or by
    "." after a name that ends in a digit, is part of the name, not a value."""
    tok = tokens[i]
    if tok.kind != NUM or not tok.glued or i < 2:
        return False
    sep, name = tokens[i - 1], tokens[i - 2]
    if not sep.glued or name.kind != WORD or name.script == ARABIC:
        return False
    if sep.text == "/":
        return name.role == "model" or model_word_family(name.text) is not None
    stem = name.text.rstrip("0123456789")
    named = len(stem) >= 2 and stem != name.text and stem not in RATIO_LABELS  # not "ratio1.5"
    return sep.text == "." and named


def _card_before(tokens: list[Token], i: int) -> bool:
    """ "on a 3090", "على كرت 3090", "كرتين 4090", "a 24GB 4090": a bare model
    number is the card when a card word, an article or a memory size leads it."""
    if i == 0:
        return False
    prev = tokens[i - 1]
    if prev.text in GPU_PREFIX_WORDS or prev.text in CARD_LEADERS:
        return True
    if prev.kind == WORD and prev.script == ARABIC and lookup(prev.text, CARD_LEADERS):
        return True
    return _memory_before(tokens, i) is not None


def _memory_before(tokens: list[Token], i: int) -> float | None:
    """ "a 24GB 4090", "80 GB A100": a size GPUs are sold with, just before the name."""
    j = i - 1
    if j >= 1 and tokens[j].text == "gb" and tokens[j - 1].kind == NUM:
        j -= 1
    elif j < 0 or tokens[j].suffix not in ("gb", "g"):
        return None
    size = tokens[j]
    if size.kind != NUM or size.value not in _SIZES or size.role not in ("", "gpu"):
        return None
    for t in tokens[j:i]:
        t.role = "gpu"
    return size.value


def _numbered_name(tokens: list[Token], i: int) -> tuple[str | None, str | None, int]:
    """A stem and its number: "resnet 50", "rtx 2080 ti", and cards the table lacks."""
    first, second = tokens[i], tokens[i + 1]
    joined = first.text + f"{second.value:g}" + second.suffix
    if i + 2 < len(tokens) and tokens[i + 2].text == "ti":  # "rtx 2080 ti"
        tokens[i + 2].role = "gpu"
        joined += "ti"
    gpu = _match(GPU_ALIASES, joined)
    model = None if gpu else _match(MODEL_ALIASES, joined)
    if gpu is None and model is None and first.text in UNLISTED_GPU_LINES:
        return _unlisted_card(tokens, i), None, 3 if _variant_after(tokens, i + 2) else 2
    if gpu is None and model is None:
        # "resnet 101": still a name, so the number is not a value.
        first.role = second.role = "name"
        return None, None, 2
    return gpu, model, 2


def _two_token_name(tokens: list[Token], i: int) -> tuple[str | None, str | None, int]:
    """ "resnet 50", "gpt 2", "rtx 3090", "mask r-cnn", "u net", "wide deep", "ssd 300"."""
    first, second = tokens[i], tokens[i + 1]
    if first.text in NUMBERED_STEMS and second.kind == NUM and not second.extra.get("spelled"):
        return _numbered_name(tokens, i)
    if first.text in SPACED_SERIES and second.kind == NUM and not second.glued:
        gpu = None if second.suffix else _match(GPU_ALIASES, first.text + f"{second.value:g}")
        return gpu, None, 2 if gpu else 1
    if first.text in GPU_PREFIX_WORDS and second.kind == WORD:
        return _match(GPU_ALIASES, first.text + second.text), None, 2
    if second.kind == WORD:
        joined = first.text + second.text
        if (first.text, second.text) in (("mask", "r-cnn"), ("mask", "rcnn"), ("u", "net")):
            return None, _match(MODEL_ALIASES, joined), 2
        if first.text == "wide" and second.text in ("deep", "and"):
            return None, "Wide&Deep", 3 if second.text == "and" else 2
        if first.text == "transformer" and second.text == "xl":
            return None, "Transformer-XL", 2
    return None, None, 1


def _variant_after(tokens: list[Token], j: int) -> bool:
    return j < len(tokens) and tokens[j].text in UNLISTED_GPU_VARIANTS


def _unlisted_card(tokens: list[Token], i: int) -> str:
    """Rule ``unlisted_card``: "radeon 8060s" -> "Radeon 8060S", a card the spec table
    lacks, named as its vendor writes it (advice then says it is unknown)."""
    number = tokens[i + 1]
    name = f"{UNLISTED_GPU_LINES[tokens[i].text]} {number.value:g}{number.suffix.upper()}"
    if _variant_after(tokens, i + 2):
        tokens[i + 2].role = "gpu"
        return f"{name} {UNLISTED_GPU_VARIANTS[tokens[i + 2].text]}"
    return name


GIGABYTE_WORDS = table("GIGABYTE_WORDS")
_SIZES = (
    4.0,
    6.0,
    8.0,
    10.0,
    11.0,
    12.0,
    16.0,
    20.0,
    24.0,
    32.0,
    40.0,
    48.0,
    80.0,
    94.0,
    96.0,
    141.0,
    144.0,
    180.0,
    192.0,
)


def _memory_size(tokens: list[Token], i: int, span: int) -> float | None:
    """GB written with the GPU: "a100-80gb", "A100 40GB", "A100 80 GB", "H100 (80GB)".

    Only sizes GPUs are sold with count, so "A100 40GB" is read but a stray
    "A100 7GB" is not taken for the card; the tokens are marked so the size
    can never become a time or a ratio.
    """
    _, _, tail = tokens[i].text.partition("-")
    if tail.endswith("gb") and tail[:-2].isdigit():
        return float(tail[:-2]) if float(tail[:-2]) in _SIZES else None
    j = i + span
    if j < len(tokens) and tokens[j].text in ("(", "-"):
        j += 1
    if j >= len(tokens) or tokens[j].kind != NUM or tokens[j].value not in _SIZES:
        return None
    size = tokens[j]
    if size.suffix in ("gb", "g"):
        size.role = "gpu"
        return size.value
    if size.suffix == "" and j + 1 < len(tokens) and tokens[j + 1].text in GIGABYTE_WORDS:
        size.role = tokens[j + 1].role = "gpu"
        return size.value
    return None


def memory_size_alone(tokens: list[Token]) -> float | None:
    """ "will a 7B model fit in 80GB?", "هل يكفي ٨٠ جيجا": a GPU memory size said
    without a GPU name (a memory question only; any size a GPU could have)."""
    for i, tok in enumerate(tokens):
        if tok.kind != NUM or not 4 <= tok.value <= 1024:
            continue
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if tok.suffix in ("gb", "g") or (
            not tok.suffix and nxt is not None and nxt.text in GIGABYTE_WORDS
        ):
            return tok.value
    return None


def _negated(tokens: list[Token], i: int) -> bool:
    return any(t.text in NEGATIONS for t in tokens[max(0, i - 2) : i])
