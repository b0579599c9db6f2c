"""The name rules: each reads one way a GPU or model is written and emits a
typed candidate (kind ``name`` or ``memory``, its token span, the canonical
name, the rule's name), for :func:`bot.understanding.rules.names.names.find_names` to
resolve.

Rules (docs/reading.md): ``gpu_alias`` / ``model_alias`` ("a100-80gb",
"resnet50", "بيرت"), ``numbered_name`` ("resnet 50", "rtx 2080 ti"; a known stem
with an unknown number, "resnet 101", is still a name), ``unlisted_card``
("Radeon 8060S"), ``spaced_series`` ("v 100"), ``gpu_prefix_word`` ("tesla t4"),
``spaced_model_name`` ("mask r-cnn", "u net", "wide and deep"),
``bare_card_number`` / ``card_number_ti`` ("on a 3090", "2080 Ti"),
``variant_code`` ("ResNeXt-101 32x8d"), ``name_suffix_number`` ("ViT-B/16",
"sd1.5"), ``gpu_memory_size`` ("A100 40GB", "a 24GB 4090") and ``cpu_device``
("on CPU", «على المعالج»: the job runs on a CPU, read where no GPU is named).
"""

from __future__ import annotations

from bot.models import CPU_DEVICE, GPU_NAMES, MODEL_NAMES
from bot.understanding.resolving.candidates import MEMORY, NAME, Candidate
from bot.understanding.text.tokens import ARABIC, NUM, WORD, Token
from bot.understanding.values.lexicon import RATIO_LABELS, lookup, model_word_family
from bot.understanding.values.nearby import at
from bot.understanding.words import known_words, mapping, table

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
CPU_DEVICE_WORDS = table("CPU_DEVICE_WORDS")
CPU_DEVICE_LEADS = table("CPU_DEVICE_LEADS")
CPU_DEVICE_DETERMINERS = table("CPU_DEVICE_DETERMINERS")
CPU_ONLY_WORDS = table("CPU_ONLY_WORDS")
CPU_NOT_DEVICE_AFTER = table("CPU_NOT_DEVICE_AFTER")

assert set(GPU_ALIASES.values()) <= set(GPU_NAMES)
# Model numbers a card is known by alone ("on a 3080", "2080 Ti").
CARD_NUMBERS = frozenset(float(key) for key in GPU_ALIASES if key.isdigit())
assert set(MODEL_ALIASES.values()) <= set(MODEL_NAMES)


GIGABYTE_WORDS = table("GIGABYTE_WORDS")
GPU_NOUNS = table("GPU_NOUNS")
# Memory sizes GPUs are sold with, in GB: a stray "A100 7GB" is no card's size.
SIZES = frozenset([4, 6, 8, 10, 11, 12, 16, 20, 24, 32, 40, 48, 80, 94, 96, 141, 144, 180, 192])
# Spelled apart, and naming a model: "mask r-cnn", "u net", "transformer xl".
_SPACED_MODELS = {("mask", "r-cnn"), ("mask", "rcnn"), ("u", "net"), ("transformer", "xl")}


def _key(text: str) -> str:
    return text.replace("-", "").replace("'", "").replace(".", "")


def _match(aliases: dict[str, str], text: str) -> str | None:
    """Full spelling first ("transformer-xl"), then the part before a hyphen ("a100-80gb")."""
    for key in (_key(text), _key(text.split("-", 1)[0])):
        if key in aliases:
            return aliases[key]
        if key.endswith("s") and key[:-1] in aliases:  # "8 V100s"
            return aliases[key[:-1]]
    return None


def _name(
    tokens: list[Token], i: int, end: int, value: str, rule: str, role: str, priority: int = 0
) -> Candidate:
    text = tokens[i].written if end == i + 1 else " ".join(t.written for t in tokens[i:end])
    return Candidate(NAME, i, end, value, rule, text, priority, role=role)


def _gpu(tokens: list[Token], i: int, end: int, gpu: str | None, rule: str) -> Candidate | None:
    return None if gpu is None else _name(tokens, i, end, gpu, rule, "gpu")


def _model(tokens: list[Token], i: int, end: int, model: str | None, rule: str) -> Candidate | None:
    return None if model is None else _name(tokens, i, end, model, rule, "model")


def name_candidates(tokens: list[Token]) -> list[Candidate]:
    """Every name reading that starts at a token no earlier pass took, with the
    memory size written with each card. Each rule looks at a bounded window, so
    the pass is linear."""
    out: list[Candidate] = []
    for i, tok in enumerate(tokens):
        if tok.role:
            continue
        if tok.kind == WORD:
            rules = _WORD_RULES if tok.text in _STARTS_TWO_WORD_NAMES else _ONE_WORD_RULES
        else:
            rules = _NUMBER_RULES if tok.kind == NUM else ()
        for rule in rules:
            cand = rule(tokens, i)
            if cand is not None:
                out.append(cand)
                out.extend(_memory_of(tokens, cand))
    return out


def _alias(tokens: list[Token], i: int) -> Candidate | None:
    """Rules ``gpu_alias`` and ``model_alias``: one word that names a GPU or a model."""
    text = tokens[i].text
    gpu = _match(GPU_ALIASES, text)
    if gpu is not None:
        return _gpu(tokens, i, i + 1, gpu, "gpu_alias")
    return _model(tokens, i, i + 1, _match(MODEL_ALIASES, text), "model_alias")


def _numbered_name(tokens: list[Token], i: int) -> Candidate | None:
    """Rules ``numbered_name`` and ``unlisted_card``: a stem and its number,
    "resnet 50", "rtx 2080 ti", and cards the table lacks ("radeon 8060s")."""
    first, second = tokens[i], at(tokens, i + 1)
    if first.text not in NUMBERED_STEMS or second is None or second.kind != NUM:
        return None
    if second.extra.get("spelled"):
        return None
    joined = first.text + f"{second.value:g}" + second.suffix
    end = i + 2
    if _ti_after(tokens, i + 1):  # "rtx 2080 ti"
        joined, end = joined + "ti", end + 1
    gpu = _match(GPU_ALIASES, joined)
    model = None if gpu else _match(MODEL_ALIASES, joined)
    if gpu or model:
        return _gpu(tokens, i, end, gpu, "numbered_name") or _model(
            tokens, i, end, model, "numbered_name"
        )
    if first.text in UNLISTED_GPU_LINES:
        return _unlisted_card(tokens, i, i + 2)  # "GTX 980 Ti": its variant word
    # "resnet 101": still a name, so the number is not a value; a word that names
    # a model alone ("unet 3d") keeps its name (the lower priority).
    return _name(tokens, i, end, "", "numbered_name", "name", priority=-1)


def _unlisted_card(tokens: list[Token], i: int, end: int) -> Candidate:
    """Rule ``unlisted_card``: "radeon 8060s" -> "Radeon 8060S", a card the spec table
    lacks, named as its vendor writes it (advice then says it is unknown)."""
    number = tokens[i + 1]
    name = f"{UNLISTED_GPU_LINES[tokens[i].text]} {number.value:g}{number.suffix.upper()}"
    variant = at(tokens, end)
    if variant is not None and variant.text in UNLISTED_GPU_VARIANTS:
        name, end = f"{name} {UNLISTED_GPU_VARIANTS[variant.text]}", end + 1
    return _name(tokens, i, end, name, "unlisted_card", "gpu")


def _spaced_series(tokens: list[Token], i: int) -> Candidate | None:
    """Rule ``spaced_series``: "v 100", "Tesla P 100": a series letter apart from its number."""
    first, second = tokens[i], at(tokens, i + 1)
    if first.text not in SPACED_SERIES or second is None or second.kind != NUM:
        return None
    if second.glued or second.suffix:
        return None
    return _gpu(
        tokens, i, i + 2, _match(GPU_ALIASES, first.text + f"{second.value:g}"), "spaced_series"
    )


def _prefixed_gpu(tokens: list[Token], i: int) -> Candidate | None:
    """Rules ``gpu_prefix_word`` and ``unlisted_card``: "tesla t4", "nvidia a100",
    "titan rtx"; "Quadro P6000", "Tesla M60": a card line and a model code the
    table lacks is that card, named as its vendor writes it (advice says it is
    unknown). A code that names a listed card alone ("tesla v100s") is left to it."""
    first, second = tokens[i], at(tokens, i + 1)
    if first.text not in GPU_PREFIX_WORDS or second is None or second.kind != WORD:
        return None
    gpu = _match(GPU_ALIASES, first.text + second.text)
    if gpu is None and first.text in UNLISTED_GPU_LINES and _unlisted_code(second.text):
        name = f"{UNLISTED_GPU_LINES[first.text]} {second.written.upper()}"
        return _name(tokens, i, i + 2, name, "unlisted_card", "gpu")
    return _gpu(tokens, i, i + 2, gpu, "gpu_prefix_word")


def _unlisted_code(text: str) -> bool:
    """A model code ("p6000", "m60", "mi100") that names no listed card alone."""
    return _is_model_code(text) and _match(GPU_ALIASES, text) is None


def _is_model_code(text: str) -> bool:
    """A card's model code: a few letters, then its number ("p6000", "m60", "mi100")."""
    letters = text.rstrip("0123456789")
    return 1 <= len(letters) <= 2 and letters.isalpha() and 2 <= len(text) - len(letters) <= 5


def _spaced_model(tokens: list[Token], i: int) -> Candidate | None:
    """Rule ``spaced_model_name``: "mask r-cnn", "u net", "transformer xl", "wide and deep"."""
    first, second = tokens[i], at(tokens, i + 1)
    if second is None or second.kind != WORD:
        return None
    if (first.text, second.text) in _SPACED_MODELS:
        model = _match(MODEL_ALIASES, first.text + second.text)
        return _model(tokens, i, i + 2, model, "spaced_model_name")
    if first.text == "wide" and second.text in ("deep", "and"):
        end = i + 3 if second.text == "and" else i + 2
        return _model(tokens, i, end, "Wide&Deep", "spaced_model_name")
    return None


def _bare_card(tokens: list[Token], i: int) -> Candidate | None:
    """Rules ``bare_card_number`` and ``card_number_ti``: "on a 3090", "2080 Ti": a
    model number written without "RTX"."""
    tok = tokens[i]
    if tok.extra.get("spelled") or tok.value not in CARD_NUMBERS:
        return None
    ti_word = _ti_after(tokens, i)
    if not (tok.suffix == "ti" or ti_word or _card_before(tokens, i)):
        return None
    number = f"{int(tok.value)}"
    gpu = GPU_ALIASES.get(number + "ti") if tok.suffix == "ti" or ti_word else None
    rule = "card_number_ti" if tok.suffix == "ti" or ti_word else "bare_card_number"
    return _gpu(tokens, i, i + 2 if ti_word else i + 1, gpu or GPU_ALIASES[number], rule)


def _ti_after(tokens: list[Token], i: int) -> bool:
    """ "2080 Ti", "3090 ti": the card's own suffix word."""
    return i + 1 < len(tokens) and tokens[i + 1].text == "ti"


def _variant_code(tokens: list[Token], i: int) -> Candidate | None:
    """Rule ``variant_code``: "ResNeXt-101 32x8d", "resnext50 32x4d": cardinality x
    width glued after a name with digits, part of the name (not 32x and 8 days)."""
    tok, nxt, prev = tokens[i], at(tokens, i + 1), at(tokens, i - 1)
    if tok.suffix != "x" or nxt is None or nxt.kind != NUM or not nxt.glued or nxt.suffix != "d":
        return None
    named = prev is not None and prev.kind == WORD and any(c.isdigit() for c in prev.text)
    return _name(tokens, i, i + 2, "", "variant_code", "name") if named else None


def _glued_to_name(tokens: list[Token], i: int) -> Candidate | None:
    """Rule ``name_suffix_number``: "ViT-B/16", "ViT-L/14" (patch size) and "sd1.5",
    "gpt3.5", "llama3.1" (version): a number glued by "/" after a model's name, or by
    "." after a name that ends in a digit, is part of the name, not a value."""
    tok = tokens[i]
    if not tok.glued or i < 2:
        return None
    sep, name = tokens[i - 1], tokens[i - 2]
    if not sep.glued or name.kind != WORD or name.script == ARABIC:
        return None
    if sep.text == "/":
        named = name.role == "model" or model_word_family(name.text) is not None
    else:
        stem = name.text.rstrip("0123456789")
        named = sep.text == "." and len(stem) >= 2 and stem != name.text
        named = named and stem not in RATIO_LABELS  # not "ratio1.5"
    return _name(tokens, i, i + 1, "", "name_suffix_number", "name") if named else None


def _unknown_card(tokens: list[Token], i: int) -> Candidate | None:
    """Rule ``unknown_card_name``: "a Frobnitz 9000 GPU", "on my Zorbo 7 card": after
    an article or a card word, a word the reader does not know, then a number and a
    GPU noun, is a card's name the table lacks, never 9,000 GPUs: the GPU, so the
    reply says it does not know that card instead of asking which GPU."""
    word, lead, noun = at(tokens, i - 1), at(tokens, i - 2), at(tokens, i + 1)
    if tokens[i].suffix or word is None or word.kind != WORD or word.role:
        return None
    if word.script == ARABIC or word.text in known_words() or any(c.isdigit() for c in word.text):
        return None
    if lead is None or lead.text not in CARD_LEADERS or noun is None or noun.text not in GPU_NOUNS:
        return None
    name = f"{word.text.title()} {tokens[i].value:g}"
    return _name(tokens, i - 1, i + 1, name, "unknown_card_name", "gpu")


def _card_before(tokens: list[Token], i: int) -> bool:
    """ "on a 3090", "على كرت 3090", "كرتين 4090", "a 24GB 4090", "two 4090s": a bare
    model number is the card when a card word, an article, a memory size or a count
    (with "x", or before the plural) leads it."""
    if i == 0:
        return False
    prev = tokens[i - 1]
    if prev.text in GPU_PREFIX_WORDS or prev.text in CARD_LEADERS:
        return True
    if prev.kind == WORD and prev.script == ARABIC and lookup(prev.text, CARD_LEADERS):
        return True
    if _counted(prev) and (prev.suffix == "x" or tokens[i].suffix == "s"):
        return True  # "2x 4090", "two 4090s", "8 3090s": cards counted
    return _size_before(tokens, i) is not None


def _counted(tok: Token) -> bool:
    return tok.kind == NUM and tok.suffix in ("", "x") and tok.value in range(1, 1025)


def _size_before(tokens: list[Token], i: int) -> int | None:
    """ "a 24GB 4090", "80 GB A100": where a size GPUs are sold with starts, just
    before the name at ``i``."""
    j = i - 1
    if j >= 1 and tokens[j].text == "gb" and tokens[j - 1].kind == NUM:
        j -= 1
    elif j < 0 or tokens[j].suffix not in ("gb", "g"):
        return None
    size = tokens[j]
    if size.kind != NUM or size.value not in SIZES or size.role not in ("", "gpu"):
        return None
    return j


def memory_in_name(tok: Token) -> float | None:
    """ "a100-80gb": the size written inside the name's own word."""
    _, _, tail = tok.text.partition("-")
    if tail.endswith("gb") and tail[:-2].isdigit():
        return float(tail[:-2]) if float(tail[:-2]) in SIZES else None
    return None


def _memory_of(tokens: list[Token], cand: Candidate) -> list[Candidate]:
    """Rule ``gpu_memory_size``: GB written with the GPU: "A100 40GB", "A100 80 GB",
    "H100 (80GB)", else before it: "a 24GB 4090" (only sizes GPUs are sold with)."""
    if cand.role != "gpu" or memory_in_name(tokens[cand.start]) is not None:
        return []
    j = cand.end + (text_is(tokens, cand.end, ("(", "-")))
    size = at(tokens, j)
    end = None
    if size is not None and size.kind == NUM and size.value in SIZES:
        if size.suffix in ("gb", "g"):
            end = j + 1
        elif size.suffix == "" and text_is(tokens, j + 1, GIGABYTE_WORDS):
            end = j + 2
    if end is None:
        j = _size_before(tokens, cand.start)
        end = cand.start
    if j is None or end is None:
        return []
    text = " ".join(t.written for t in tokens[j:end])
    return [Candidate(MEMORY, j, end, tokens[j].value, "gpu_memory_size", text, role="gpu")]


def text_is(tokens: list[Token], i: int, words) -> bool:
    return 0 <= i < len(tokens) and tokens[i].text in words


def _cpu_device(tokens: list[Token], i: int) -> Candidate | None:
    """Rule ``cpu_device``: "on CPU", "using my Xeon", "cpu-only", «على المعالج فقط».

    "CPU" is also a word of GPU jobs ("CPU offload", "CPU-bound", "CPU RAM"), so
    it names the device only where the sentence puts the job on it: after a word
    like "on" or before "only". ``find_names`` prefers any GPU named beside it."""
    tok = tokens[i]
    if tok.text not in CPU_DEVICE_WORDS:
        return None
    after = at(tokens, i + 1)
    if after is not None and after.text in CPU_NOT_DEVICE_AFTER:
        return None
    j = i - 1
    while j >= 0 and tokens[j].text in CPU_DEVICE_DETERMINERS and j > i - 3:
        j -= 1
    led = j >= 0 and tokens[j].text in CPU_DEVICE_LEADS
    only = tok.text.endswith("-only") or (after is not None and after.text in CPU_ONLY_WORDS)
    return _gpu(tokens, i, i + 1, CPU_DEVICE, "cpu_device") if led or only else None


_WORD_RULES = (_alias, _numbered_name, _spaced_series, _prefixed_gpu, _spaced_model, _cpu_device)
_ONE_WORD_RULES = (_alias, _cpu_device)
# The words a name of two or more words can start with (the other word rules read
# nothing else), so most words are tried by _alias alone.
_STARTS_TWO_WORD_NAMES = (
    NUMBERED_STEMS
    | SPACED_SERIES
    | GPU_PREFIX_WORDS
    | {first for first, _ in _SPACED_MODELS}
    | {"wide"}
)
_NUMBER_RULES = (_bare_card, _variant_code, _glued_to_name, _unknown_card)
