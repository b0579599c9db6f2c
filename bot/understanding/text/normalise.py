"""Text exactly as Slack delivers it -> one canonical, lower-case form.

Everything that is *noise around a value* is removed here, once, so the
tokenizer and the grammar only ever see one spelling: Slack markup and
entities, formatting marks, bidi and zero-width marks, Arabic letter
variants and diacritics, and non-Western digits. The result is idempotent
(normalising twice changes nothing) and every step is linear in the input.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from functools import cache

from babel import Locale, localedata
from babel.numbers import get_territory_currencies

# <@U123>, <@U123|name>, <#C123|name>, <!channel>, <https://x|label>, <https://x>.
# The class excludes both brackets, so a run of "<" never backtracks.
_SLACK_MARKUP = re.compile(r"<([^<>\n]*)>")
# :rocket:, :+1:, :skin-tone-2: (never right after a digit, so 10:30:00 stays a clock).
_EMOJI_CODE = re.compile(r"(?<![0-9a-z]):[a-z0-9_+'-]{1,40}:")
_BARE_URL = re.compile(r"(?:https?://|www\.)\S+")
# Rule ``identifier_underscores``: "wide_resnet50_2", "vit_b_16" are one name
# (an underscore between letters or digits joins, elsewhere it is Slack italics).
_NAME_UNDERSCORE = re.compile(r"(?<=[0-9a-z])_(?=[0-9a-z])")
# Rule ``config_key``: the key of a `key: value` line, as configs and logs print
# them ("train_time: 36h", "fp32_hours = 36", "time_amp: 6h"), is words: its
# underscores are spaces, so "fp32 hours: 36" labels the 36. Only a key (after a
# line start or a separator, before ":" or "=", quoted as JSON quotes it:
# '{"fp32_hours": 20}'); a value keeps its underscores.
# Keys start only after a separator, and "_" splits the parts, so each character
# is tried once.
_CONFIG_KEY = re.compile(
    r"(?:^|(?<=[\s,;{`*>\-\"']))[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?=[\"']?[ \t]*[:=])", re.MULTILINE
)
# A row of a pasted nvidia-smi table ("| N/A 64C P0 389W / 400W | 71234MiB / 81920MiB |
# 99% Default |"): its numbers are the card's telemetry (watts, MiB, degrees, a bus id),
# never the run's time or ratio, and "389W" is no 389 weeks. The numbers go; the card's
# name stays ("| 0 NVIDIA A100-SXM4-80GB On |" still names the GPU).
_SMI_ROW = re.compile(
    r"^[ \t]*\|.*(?:mib|(?<!\d)\d+w[ \t]*/|persistence|default[ \t]*\|).*$", re.MULTILINE
)
_SMI_NUMBER = re.compile(
    r"(?<![\w.-])(?:[0-9a-f]{8}:[0-9a-f]{2}:[0-9a-f]{2}\.\d|\d+(?:\.\d+)?(?:w|mib|c|%)?)(?![\w.-])"
)
_ENTITY = re.compile(r"&(amp|lt|gt);")
_HEART = re.compile(r"(?<![0-9])<3+(?![0-9:])")  # "thanks <3", never "[30:00<36:40]"
# Slack strike-through ("~100h~", and "~~100h~~" as people type it): a value
# the writer withdrew. Opened after a space and closed before one, with no
# space just inside, so "~36h, ratio ~2" (about 36 h, about 2) is left alone.
# The content excludes "~", so each run is scanned once.
_STRIKE = re.compile(r"(?<![^\s(])~+[^~\s](?:[^~\n]*[^~\s])?~+(?![^\s.,;:!?)])")
# Keycap emoji "1️⃣ 2️⃣": list markers, never numbers.
_KEYCAP = re.compile("[0-9#*]\ufe0f?\u20e3")
# "+/-" and "+-" are the plus-minus sign: "36h +/- 2h" is an error bar like "36h ±2h".
_PLUS_MINUS = re.compile(r"\+ ?/ ?-|\+-")

_ENTITIES = {"amp": "&", "lt": "<", "gt": ">"}
# "20h -> 12h", "fp32 10h => amp 6h": an arrow typed as two signs is the arrow "→"
# (the ">" alone is a quote marker, turned into a space below).
_TYPED_ARROW = re.compile(r"[-=]+>")

# Vulgar fractions first: NFKC would turn "1½" into "11⁄2".
# "جي بي يو", "جي بي يوهات", "جيبيوز": GPU spelled out in Arabic letters, written as
# one word (the singular "جيبيو", any plural "جيبيوهات") so it counts like "كروت".
_AR_GPU_SPELLED = re.compile(r"(?<![\u0621-\u064a])جي ?بي ?ي?و(هات|ز|س)?(?![\u0621-\u064a])")
# "384 GPU hours", "48 gpu hrs": one unit word "gpu-hours", never 384 GPUs.
_GPU_HOURS = re.compile(r"\bgpu ?(hours?|hrs?|h)\b")
_FRACTIONS = str.maketrans({"½": ".5", "¼": ".25", "¾": ".75"})
# «بمعامل ١،٧»: the Arabic comma typed for the decimal separator «٫», as "1,7" is a
# decimal comma in English (one or two digits after it, no space, in no list).
_ANY_DIGIT = "0-9\u0660-\u0669\u06f0-\u06f9"
_ARABIC_DECIMAL_COMMA = re.compile(
    rf"(?<![{_ANY_DIGIT}])(?<![{_ANY_DIGIT}]\u060c)([{_ANY_DIGIT}]+)\u060c([{_ANY_DIGIT}]{{1,2}})(?![{_ANY_DIGIT}]|\u060c[{_ANY_DIGIT}])"
)
# "3/4 of a day", "1/2 of an hour": a typed fraction of one unit is its decimal (as "¾"
# is); "2/3 of the time" is a share (read by the ratio rules), and "3/4" alone may be a
# date or a ratio of two counts: both are left.
_TYPED_FRACTION = re.compile(r"(?<![\d/.])([1-9])/([2-9])(?= +of +an?\b)", re.IGNORECASE)


def _typed_fraction(match: re.Match[str]) -> str:
    return f"{int(match.group(1)) / int(match.group(2)):.6g}"


# NFKC spells the rial sign out as the word "ریال", which would make a price
# written with a sign ("15﷼/h") look like Arabic words; the sign is kept as a sign.
_RIAL_SIGN = "\ufdfc"


def _build_table() -> dict[int, str | None]:
    table: dict[int, str | None] = {}
    for i in range(10):
        table[0x0660 + i] = str(i)  # Arabic-Indic digits
        table[0x06F0 + i] = str(i)  # Persian / Urdu digits
    table.update(
        {
            0x066B: ".",  # Arabic decimal separator
            0x066C: ",",  # Arabic thousands separator
            0x060C: ", ",  # Arabic comma: never a thousands separator
            0x061B: ";",
            0x061F: "?",
            0x066A: "%",  # Arabic percent sign
            0x2212: "-",  # minus sign
            0x2010: "-",
            0x2011: "-",
            0x2013: "-",  # en dash, as in "2–3x"
            0x2014: ", ",  # em dash separates clauses
            0x2044: "/",
            0x0640: None,  # tatweel
            0x0623: "\u0627",  # alef variants -> bare alef
            0x0625: "\u0627",
            0x0622: "\u0627",
            0x0671: "\u0627",
            0x0629: "\u0647",  # ta marbuta -> ha
            0x0649: "\u064a",  # alef maqsura -> ya
            0x06A9: "\u0643",  # Persian kaf
            0x06CC: "\u064a",  # Persian ya
            0x00A0: " ",
            0x202F: " ",
            0x2028: "\n",
            0x2029: "\n",
            0x0D: "\n",
            0x09: " ",
            ord("*"): " ",
            ord("`"): " ",
            ord("~"): " ",
            ord("_"): " ",
            ord("<"): " ",
            ord(">"): " ",
            ord("&"): " ",
        }
    )
    # Arabic diacritics (harakat, tanween, shadda, sukun, dagger alef, ...).
    for cp in list(range(0x064B, 0x0660)) + [0x0670, 0x06E1]:
        table[cp] = None
    # Bidi controls, isolates and zero-width characters.
    for cp in [0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x061C, 0xFEFF, 0x2060]:
        table[cp] = None
    for cp in list(range(0x202A, 0x202F)) + list(range(0x2066, 0x206A)):
        table[cp] = None
    for cp in range(0x2000, 0x200B):  # en/em/thin spaces
        table[cp] = " "
    # Control characters other than the newline are noise.
    for cp in list(range(0x20)) + list(range(0x7F, 0xA0)):
        if cp not in table and cp != 0x0A:
            table[cp] = " "
    return table


_TABLE = _build_table()
# Deleted before any pattern runs, so a hidden mark can never split a pattern
# on the first pass and join it on the second.
_INVISIBLE = {cp: None for cp, repl in _TABLE.items() if repl is None}


def _markup(match: re.Match[str]) -> str:
    """Keep what a person reads in a link label; drop ids, pings and URLs."""
    inner = match.group(1)
    if inner[:1] in ("@", "#", "!"):
        return " "
    _, bar, label = inner.partition("|")
    return f" {label} " if bar else " "


def _fold(text: str) -> str:
    """The letters step of :func:`normalise` alone (for data built from CLDR)."""
    return unicodedata.normalize("NFKC", text).lower().translate(_TABLE).strip()


_AR_LETTERS = "\u0621-\u064a"


@cache
def _currency_abbreviations() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, str]]:
    """Arabic currency abbreviations from CLDR, written out so the price reader sees
    the currency word and its country: each Arabic locale's currency symbol that
    is two letters with dots ("ر.س." SAR in ar_SA, "د.ك." KWD, "ج.م." EGP, "د.م."
    MAD), folded as messages are ("د.إ" -> "دا"). Letters two currencies share
    take the default of ``CURRENCY_ABBREVIATION_DEFAULTS`` or are not read.
    (Built on first use: the words package normalises its tables with this module.)
    """
    from bot.understanding.words import ar

    codes: dict[str, set[str]] = defaultdict(set)
    for name in localedata.locale_identifiers():
        if name.startswith("ar_") and (locale := Locale.parse(name)).territory:
            for code in get_territory_currencies(locale.territory)[:1]:
                letters = _fold(locale.currency_symbols.get(code, "")).rstrip(".").split(".")
                if len(letters) == 2 and all(re.fullmatch(f"[{_AR_LETTERS}]", x) for x in letters):
                    codes["".join(letters)].add(code)
    defaults = {_fold(k).replace(".", ""): v for k, v in ar.CURRENCY_ABBREVIATION_DEFAULTS.items()}
    names = Locale.parse("ar").currencies
    words = {
        key: _fold(names[code])
        for key, found in codes.items()
        if (code := next(iter(found)) if len(found) == 1 else defaults.get(key))
    }
    firsts = "".join(sorted({k[0] for k in words}))
    seconds = "".join(sorted({k[1] for k in words}))
    # Not inside a word, nor a longer dotted chain ("أ.م.د." is a title).
    dotted = re.compile(
        rf"(?<![a-z{_AR_LETTERS}])([{firsts}])\. ?([{seconds}])(?![a-z{_AR_LETTERS}]|\.[{_AR_LETTERS}])"
    )
    undotted = "|".join(_fold(w) for w in ar.CURRENCY_ABBREVIATIONS_UNDOTTED)
    bare = re.compile(rf"(?<=[0-9]) ?({undotted})(?![a-z{_AR_LETTERS}])")
    return dotted, bare, words


def _currency_words(text: str) -> str:
    dotted, bare, words = _currency_abbreviations()
    text = dotted.sub(lambda m: f" {words.get(m.group(1) + m.group(2), m.group(0))} ", text)
    return bare.sub(lambda m: f" {words[m.group(1)]} ", text)


@cache
def _percent_phrases() -> re.Pattern[str]:
    """Rule ``percent_phrase``: a percent said in two words after a number is the
    percent sign ("50 per cent", "٥٠ في المية", "٤٠ في المائة"; ``PERCENT_PHRASES``),
    so the ratio rules read it as they read "50%". (Built on first use, as above.)"""
    from bot.understanding.words import ar, en

    spelled = sorted({_fold(p) for lang in (en, ar) for p in lang.PERCENT_PHRASES}, key=len)
    either = "|".join(re.escape(p) for p in reversed(spelled))
    return re.compile(rf"(?<=[0-9]) ?(?:{either})(?![a-z{_AR_LETTERS}])")


def _drop_surrogates(text: str) -> str:
    # Lone surrogates cannot be encoded; they carry no meaning, so drop them.
    return text.encode("utf-8", "ignore").decode("utf-8") if _has_surrogate(text) else text


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def normalise(text: str) -> str:
    """Return the canonical form of one message (lower-case, one space, no markup)."""
    text = _drop_surrogates(text).translate(_FRACTIONS)
    text = _TYPED_FRACTION.sub(_typed_fraction, text)
    text = _ARABIC_DECIMAL_COMMA.sub("\\1\u066b\\2", text)
    text = _RIAL_SIGN.join(unicodedata.normalize("NFKC", part) for part in text.split(_RIAL_SIGN))
    text = text.translate(_INVISIBLE)
    text = _SLACK_MARKUP.sub(_markup, text)
    text = _ENTITY.sub(lambda m: _ENTITIES[m.group(1)], text)
    text = _HEART.sub(" ", text)
    text = _STRIKE.sub(" ", text)
    text = _KEYCAP.sub(" ", text)
    text = _PLUS_MINUS.sub(" ± ", text)
    text = _TYPED_ARROW.sub(" → ", text)
    text = text.lower()
    text = _BARE_URL.sub(" ", text)
    text = _SMI_ROW.sub(lambda m: _SMI_NUMBER.sub(" ", m.group(0)), text)
    text = _EMOJI_CODE.sub(" ", text)
    text = _CONFIG_KEY.sub(lambda m: m.group(0).replace("_", " "), text)
    text = _NAME_UNDERSCORE.sub("-", text)
    text = text.translate(_TABLE)
    text = _GPU_HOURS.sub(r"gpu-\1", text)
    text = _AR_GPU_SPELLED.sub(lambda m: "جيبيوهات" if m.group(1) else "جيبيو", text)
    text = _currency_words(text)
    text = _percent_phrases().sub("%", text)
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)
