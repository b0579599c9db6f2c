"""Normalised text -> a flat list of tokens, in one left-to-right pass.

A hand-written scanner instead of regexes: every character is looked at a
bounded number of times, so 100 KB of digits or letters costs the same per
character as a short message. Words keep digits that are glued after letters
(``fp32``, ``a100``, ``resnet-50``), which is what makes "digits inside names"
never a number. Numbers keep what is glued after them (``100h``, ``2x``,
``21-hour``, ``340m``) as a suffix, for the grammar to read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from bot.understanding.values.lexicon import (
    AR_UNIT_ABBREVIATIONS,
    AR_UNITS,
    EN_UNITS,
    RATIO_LABELS,
    lookup,
)
from bot.understanding.words import table

# "40-ish hours", "40ish h": a hedge glued to a number says "about"; the number keeps no
# suffix, so the unit after it (or glued before the hedge) is read as usual.
_HEDGE_SUFFIXES = table("HEDGE_SUFFIXES")
# Rule ``glued_label``: a mixed precision typed against its multiple ("amp2x", "bf16x2").
_MIXED_NAMES = tuple(sorted((w for w in table("MIXED") if w.isascii()), key=len, reverse=True))
_GLUED_MULTIPLE = re.compile(r"\d+(?:[.,]\d+)?x(?![a-z])|x\d")

NUM, WORD, SYM = "num", "word", "sym"
LATIN, ARABIC = "lat", "ar"

# Words that make "36:30" hours and minutes rather than a clock time.
_HOUR_WORDS = frozenset(
    [w for w, unit in EN_UNITS.items() if unit == "h"]
    + [w for w, (unit, _) in AR_UNITS.items() if unit == "h"]
    + [w for w, unit in AR_UNIT_ABBREVIATIONS.items() if unit == "h"]
)

# Marks that end a clause: a cue word never reaches a number across them.
BOUNDARIES = frozenset(".,;?!\n()[]{}|")


@dataclass(slots=True)
class Token:
    kind: str
    text: str
    value: float = 0.0
    suffix: str = ""  # letters glued after a number: "h", "x", "-fold", "m"
    glued: bool = False  # no space before this token
    script: str = ""  # LATIN or ARABIC for words
    role: str = ""  # set by later passes: what this token was taken for
    extra: dict = field(default_factory=dict)

    @property
    def written(self) -> str:
        """The token as written: "36h"; a merged rate ("0.9 s / it") already holds its unit."""
        return self.text if "seconds_per_step" in self.extra else self.text + self.suffix

    @property
    def is_boundary(self) -> bool:
        return self.kind == SYM and self.text in BOUNDARIES


def word_in(tok: Token, table) -> bool:
    """A word token found in ``table`` (Arabic words also without their clitics)."""
    if tok.kind != WORD:
        return False
    if tok.script == ARABIC:
        return lookup(tok.text, table) is not None
    return tok.text in table


def _is_arabic(c: str) -> bool:
    return "\u0621" <= c <= "\u064a" or "\u0671" <= c <= "\u06d3"


def _is_latin(c: str) -> bool:
    return c.isalpha() and not _is_arabic(c)


def _read_number(text: str, i: int, in_list: bool = False) -> tuple[str, int]:
    """Digits, "," thousands groups of exactly three, one decimal part, an exponent.

    A single comma before one or two digits is a decimal comma ("1,5 days",
    "2,50"), unless the number sits in a comma list ("10,11,12").
    """
    j = _digits_end(text, i)
    grouped_end = _thousands_end(text, j)
    if grouped_end == j and not in_list and (end := _decimal_comma_end(text, j)):
        return f"{text[i:j]}.{text[j + 1 : end]}", end
    j = _exponent_end(text, _decimal_end(text, grouped_end))
    return text[i:j].replace(",", ""), j


def _digits_end(text: str, j: int) -> int:
    while j < len(text) and text[j].isdigit():
        j += 1
    return j


def _thousands_end(text: str, j: int) -> int:
    """Thousands groups: ",ddd" not followed by another digit (1,200 is one number)."""
    n = len(text)
    while (
        j + 4 <= n
        and text[j] == ","
        and text[j + 1 : j + 4].isdigit()
        and (j + 4 == n or not text[j + 4].isdigit())
    ):
        j += 4
    return j


def _decimal_end(text: str, j: int) -> int:
    """ ".5" after the digits."""
    if j + 1 < len(text) and text[j] == "." and text[j + 1].isdigit():
        return _digits_end(text, j + 1)
    return j


def _exponent_end(text: str, j: int) -> int:
    """1e308, 7e9, 2.5e-3 (only when digits follow, so "3epochs" is not one)."""
    n = len(text)
    if j >= n or text[j] != "e":
        return j
    k = j + 1 + (j + 1 < n and text[j + 1] in "+-")
    return _digits_end(text, k) if k < n and text[k].isdigit() else j


def _decimal_comma_end(text: str, j: int) -> int:
    """The end of ",5" / ",50" at ``j`` when it is a decimal comma, else 0."""
    n = len(text)
    if j >= n or text[j] != ",":
        return 0
    k = j + 1
    while k < n and k - j <= 3 and text[k].isdigit():
        k += 1
    if not 1 <= k - j - 1 <= 2 or (k < n and text[k].isdigit()):
        return 0
    if k + 1 < n and text[k] in ",." and text[k + 1].isdigit():
        return 0  # "1,5,7" is a list, "1,5.3" is nothing we can read as one number
    return k


# "took 2:15 (h:mm)", «٧:٣٠ (ساعات:دقائق)»: the format written out, anywhere in the message.
_DURATION_FORMAT = re.compile(r"\bh{1,2}:mm\b|(?:ساعات|ساعه|س):(?:دقائق|دقيقه|د)")


@lru_cache(maxsize=8)
def _says_clock_is_a_duration(text: str) -> bool:
    return _DURATION_FORMAT.search(text) is not None


def _hours_and_minutes(text: str, j: int) -> int:
    """The end of ":30" in "36:30 hours": H:MM before an hour word is a duration, else 0;
    so is every H:MM of a message that writes the format out ("2:15 (h:mm)").

    Without either "10:30" stays a clock time for the later passes.
    """
    n = len(text)
    if not (j + 2 < n and text[j] == ":" and text[j + 1 : j + 3].isdigit()):
        return 0
    if text[j + 1] > "5" or (j + 3 < n and (text[j + 3].isdigit() or text[j + 3] == ":")):
        return 0
    if _says_clock_is_a_duration(text):
        return j + 3
    k = j + 3 + (j + 3 < n and text[j + 3] == " ")
    m = k
    while m < n and text[m].isalpha():
        m += 1
    return j + 3 if text[k:m] in _HOUR_WORDS else 0


def tokenize(text: str) -> list[Token]:
    """Split normalised text into number, word and symbol tokens."""
    tokens: list[Token] = []
    n = len(text)
    i = 0
    while i < n:
        c = text[i]
        if c == " ":
            i += 1
            continue
        glued = i > 0 and text[i - 1] != " "
        prev = text[i - 1] if i > 0 else " "
        if _number_starts(text, i, prev):
            tok, i = _number_token(text, i, prev)
            tok.glued = glued
            tokens.append(tok)
            continue
        multiple_sign = not prev.isalnum() or text.endswith(_MIXED_NAMES, 0, i)  # "bf16x2"
        if c in "x×" and i + 1 < n and text[i + 1].isdigit() and multiple_sign:
            tokens.append(Token(SYM, "x", glued=glued))
            i += 1
            continue
        if _is_arabic(c):
            j = i + 1
            while j < n and _is_arabic(text[j]):
                j += 1
            tokens.append(Token(WORD, text[i:j], glued=glued, script=ARABIC))
            i = j
            continue
        if _is_latin(c):
            j = _label_end(text, i, _read_latin_word(text, i))
            word = text[i:j]
            for hedge in _HEDGE_SUFFIXES:  # "days-ish": the unit, hedged
                word = word.removesuffix("-" + hedge) or word
            tokens.append(Token(WORD, word, glued=glued, script=LATIN))
            i = j
            continue
        tokens.append(Token(SYM, "x" if c == "×" else c, glued=glued))
        i += 1
    return tokens


def _digit_at(text: str, i: int) -> bool:
    return i < len(text) and text[i].isascii() and text[i].isdigit()


def _number_starts(text: str, i: int, prev: str) -> bool:
    """A digit, a minus sign before one ("-5", not "v-5") or a leading dot (".25")."""
    c = text[i]
    if c.isascii() and c.isdigit():
        return True
    if c == "-":
        return _digit_at(text, i + 1) and not prev.isalnum()
    return c == "." and _digit_at(text, i + 1) and not prev.isdigit()


def _number_token(text: str, i: int, prev: str) -> tuple[Token, int]:
    """The number token starting at ``i`` (value, suffix) and the index after it."""
    signed = text[i] == "-"
    if text[i] == ".":  # ".25": a fraction only, never a second decimal point
        j = i + 1
        while _digit_at(text, j):
            j += 1
        raw = "0" + text[i:j]
    else:
        in_list = prev == "," and i > 1 and text[i - 2].isdigit()
        raw, j = _read_number(text, i + 1 if signed else i, in_list)
    value = float(raw)
    if (minutes_end := _hours_and_minutes(text, j)) and not signed:
        value += int(text[j + 1 : minutes_end]) / 60
        raw, j = text[i:minutes_end], minutes_end
    if signed:
        value, raw = -value, "-" + raw
    suffix, j = _read_suffix(text, j)
    if suffix.lstrip("-") in _HEDGE_SUFFIXES:
        suffix = ""
    return Token(NUM, raw, value=value, suffix=suffix), _after_hedge(text, j)


def _after_hedge(text: str, j: int) -> int:
    """The index after a hedge glued by a hyphen at ``j`` ("40h-ish", "days-ish"), else ``j``."""
    if j >= len(text) or text[j] != "-":
        return j
    for hedge in _HEDGE_SUFFIXES:
        end = j + 1 + len(hedge)
        if text.startswith(hedge, j + 1) and (end >= len(text) or not _is_latin(text[end])):
            return end
    return j


# "opt-1.3b", "gpt-neo-2.7B", "qwen1.5-0.5b": a model's size in decimals after its name.
_SIZE_AFTER_HYPHEN = re.compile(r"-\d+\.\d+[bm](?![a-z0-9])")


def _read_latin_word(text: str, i: int) -> int:
    """Letters and digits, joined by single inner hyphens or apostrophes; a name ends
    before a decimal size after its hyphen (rule ``size_after_hyphen``), so "opt-1.3b"
    is 1.3 billion parameters, not "opt-1" and 3 billion."""
    n = len(text)
    j = i
    while j < n:
        c = text[j]
        if c == "-" and _SIZE_AFTER_HYPHEN.match(text, j):
            break
        if (
            _is_latin(c)
            or (c.isascii() and c.isdigit())
            or c in "-'"
            and j + 1 < n
            and (_is_latin(text[j + 1]) or text[j + 1].isdigit())
        ):
            j += 1
        else:
            break
    return j


def _label_end(text: str, i: int, j: int) -> int:
    """Rule ``glued_label``: "ratio1.5", "speedup1.8": a ratio label typed against its
    number ends before the digits, so the number is read (names keep theirs: "a100");
    so does a mixed precision typed against its multiple (:func:`_mixed_name_end`)."""
    k = i
    while k < j and _is_latin(text[k]):
        k += 1
    if k < j and text[k].isdigit() and text[i:k] in RATIO_LABELS:
        return k
    return _mixed_name_end(text, i, j)


def _mixed_name_end(text: str, i: int, j: int) -> int:
    """ "amp2x", "amp1.5x", "bf16x2": a mixed precision's name typed against its
    multiple ends before it, so the multiple is read ("a100", "fp32x" keep theirs)."""
    for name in _MIXED_NAMES:
        end = i + len(name)
        if end < j + 1 and text.startswith(name, i) and _GLUED_MULTIPLE.match(text, end):
            return end
    return j


def _read_suffix(text: str, j: int) -> tuple[str, int]:
    """Letters glued to a number: "h", "hrs", "x", "-fold", "-hour", "m"."""
    n = len(text)
    if j < n and text[j] in "x×":
        return "x", j + 1
    k = j
    if k < n and text[k] == "-" and k + 1 < n and _is_latin(text[k + 1]):
        k += 1
    m = k
    while m < n and _is_latin(text[m]):
        m += 1
    if m == k:
        return "", j
    return text[j:m], m
