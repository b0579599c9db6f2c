"""Number words, infinity, NaN and spelled-out signs -> number tokens.

Runs after the tokenizer so the grammar only has to deal with one kind of
number: "a hundred", "twenty-four", "خمسة وعشرين", "مية", "صفر", "سالب ٣",
"ما لا نهاية" and "NaN" all become number tokens with a value.
"""

from __future__ import annotations

import math

from bot.understanding.text.tokens import ARABIC, LATIN, NUM, WORD, Token
from bot.understanding.values.lexicon import (
    AR_COUNT_OR_SHARE,
    AR_COUNTED_PLURALS,
    AR_NUMBERS,
    AR_SCALES,
    AR_TEEN_HEADS,
    COUNT_NOUNS,
    DETERMINERS,
    EN_NUMBERS,
    EN_SCALES,
    EN_UNITS,
    FOLD_WORDS,
    FRACTIONS,
    INFINITY_WORDS,
    NAN_WORDS,
    NEGATIVE_WORDS,
    has_prefix_article,
    lookup,
)
from bot.understanding.words import mapping, table

_ARABIZI_DIGITS = table("ARABIZI_DIGITS")
_UNBOUNDED = table("UNBOUNDED_WORDS")
_LONE_SCALES = mapping("LONE_SCALES")
_NUMBER_FRACTIONS = table("NUMBER_FRACTIONS")
# What a lone digit may carry glued after it and still be a number ("3days", "8gpus",
# "2fold", "7b", "3rd"): every short suffix, and these longer words.
_NUMBER_SUFFIXES = EN_UNITS.keys() | COUNT_NOUNS | FOLD_WORDS | {"times", "gpu", "gpus"}


def _word_value(tok: Token) -> tuple[int, bool] | None:
    """(value, is_scale) of a single number word, or None."""
    if tok.kind != WORD:
        return None
    if tok.script == ARABIC:
        stem = lookup(tok.text, AR_NUMBERS)
        if stem is not None:
            return AR_NUMBERS[stem], stem in AR_SCALES and AR_NUMBERS[stem] >= 100
        stem = lookup(tok.text, AR_SCALES)
        return (AR_SCALES[stem], True) if stem else None
    if tok.text in EN_NUMBERS:
        return EN_NUMBERS[tok.text], False
    if tok.text in EN_SCALES:
        return EN_SCALES[tok.text], True
    if "-" in tok.text:  # twenty-four
        parts = tok.text.split("-")
        if len(parts) == 2 and all(p in EN_NUMBERS for p in parts):
            return EN_NUMBERS[parts[0]] + EN_NUMBERS[parts[1]], False
    return None


def _is_joiner(tok: Token) -> bool:
    return tok.kind == WORD and tok.text in ("and", "و")


def _read_words(tokens: list[Token], i: int) -> tuple[float, int] | None:
    """Read a spelled number starting at ``i``; return (value, next index).

    Parts add up while they get smaller ("one hundred twenty four") or, in
    Arabic order, when a unit comes before its ten ("خمسة وعشرين", "ثلاثة عشر");
    "hundred"/"thousand" multiply what came before.
    """
    start = _first_word(tokens, i)
    if start is None:
        return None
    first, i = start
    total, current, last, n = 0, first, first, len(tokens)
    while i < n:
        part = _next_part(tokens, i)
        if part is None:
            break
        value, is_scale, j = part
        if is_scale and value == 1000:
            total, current = total + (current or 1) * 1000, 0
        elif is_scale and value == 100 and 0 < current < 100:
            current *= 100
        elif value < last or (last < 10 and value >= 20 and value % 10 == 0 and value < 100):
            current += value
        elif value == 10 and 2 < last < 10 and j == i and current == last:
            current += value  # "ثلاثة عشر" = 13: a unit then the ten, no joiner
        else:
            break
        last, i = value, j + 1
    value = float(total + current)
    if total == 0 and current < 1000 and (decimal := _spoken_decimals(tokens, i, value)):
        return decimal
    return value, i


def _first_word(tokens: list[Token], i: int) -> tuple[int, int] | None:
    """The first part's value and the index after it ("a hundred", "a dozen")."""
    if tokens[i].kind == WORD and tokens[i].text in ("a", "an"):
        nxt = _word_value(tokens[i + 1]) if i + 1 < len(tokens) else None
        if not nxt or not (nxt[1] or tokens[i + 1].text == "dozen"):
            return None
        return nxt[0], i + 2
    teen = _teen(tokens, i)
    if teen is not None:
        return teen, i + 2
    first = _word_value(tokens[i])
    return None if first is None else (first[0], i + 1)


def _teen(tokens: list[Token], i: int) -> int | None:
    """MSA's 11 or 12 at ``i``: a head of AR_TEEN_HEADS then the ten («اثنتا عشرة»)."""
    if i + 1 >= len(tokens) or tokens[i].script != ARABIC:
        return None
    head = lookup(tokens[i].text, AR_TEEN_HEADS)
    ten = _word_value(tokens[i + 1])
    if head is None or ten is None or ten != (10, False):
        return None
    return 10 + AR_TEEN_HEADS[head]


def _next_part(tokens: list[Token], i: int) -> tuple[int, bool, int] | None:
    """(value, is a scale, its index) of the part at ``i``, after a joiner ("and",
    "و") or with "و" glued to it ("وعشرين")."""
    j = i + 1 if _is_joiner(tokens[i]) else i
    wv = _word_value(tokens[j]) if j < len(tokens) else None
    if wv is None and tokens[i].script == ARABIC and tokens[i].text.startswith("و"):
        wv = _word_value(Token(WORD, tokens[i].text[1:], script=ARABIC))
        j = i
    return None if wv is None else (wv[0], wv[1], j)


def _spoken_decimals(tokens: list[Token], i: int, value: float) -> tuple[float, int] | None:
    """ "one point five", "واحد فاصلة خمسة": spoken decimals, one digit word at a time."""
    n = len(tokens)
    if not (i + 1 < n and tokens[i].text in ("point", "فاصله")):
        return None
    digits = ""
    j = i + 1
    while j < n and (wv := _word_value(tokens[j])) is not None and wv[0] < 10:
        digits += str(wv[0])
        j += 1
    return (float(f"{int(value)}.{digits}"), j) if digits else None


def merge_number_words(tokens: list[Token]) -> list[Token]:
    """Replace spelled numbers, signs and infinities with number tokens."""
    out: list[Token] = []
    tokens = [_arabizi_word(t) for t in tokens]
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        if tok.kind == WORD:
            special = _special(tokens, i)
            if special is not None:
                value, j = special
                out.append(_num(tokens, i, j, value))
                i = j
                continue
            lone = None if out and out[-1].kind == NUM else _lone_scale(tokens, i)
            if lone is not None:
                value, j = lone
                out.append(_num(tokens, i, j, value, spelled=True))
                i = j
                continue
            couple = _couple(tokens, i)
            if couple is not None:
                out.append(_num(tokens, i, couple, 2.0, spelled=True))
                i = couple
                continue
            count = _count_before_plural(tokens, i)
            if count is not None:
                out.append(_num(tokens, i, i + 1, count, spelled=True))
                i += 1
                continue
            read = None if _is_pronoun_one(tokens, i) else _read_words(tokens, i)
            if read is not None:
                value, j = read
                out.append(_num(tokens, i, j, value, spelled=True))
                i = j
                continue
        elif tok.kind == "sym" and tok.text == "∞":
            out.append(_num(tokens, i, i + 1, math.inf))
            i += 1
            continue
        out.append(tok)
        i += 1
    return _apply_negative_words(_with_fractions(out))


def _with_fractions(tokens: list[Token]) -> list[Token]:
    """Rule ``number_and_a_fraction``: a number completed by a half or a quarter is
    one number ("ratio 2 and a half", "speedup one and a half", «التسريع واحد ونص»,
    «النسبة ٢ وربع»; ``NUMBER_FRACTIONS``), as a unit's number is ("2 and a half
    hours" is 2.5 hours either way)."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        bare = tok.kind == NUM and not tok.suffix and math.isfinite(tok.value) and tok.value >= 0
        end, frac = _fraction_after(tokens, i + 1) if bare else (i + 1, 0.0)
        if frac:  # "2h and a half" is left to the durations: its unit is glued
            out.append(_num(tokens, i, end, tok.value + frac, bool(tok.extra.get("spelled"))))
            i = end
            continue
        out.append(tok)
        i += 1
    return out


def _fraction_after(tokens: list[Token], j: int) -> tuple[int, float]:
    """(index after it, value) of "and a half", "and a quarter", "ونص", "و نص" at ``j``."""
    words = [t.text if t.kind == WORD else "" for t in tokens[j : j + 3]]
    if words[:1] == ["and"]:
        k = 1 + (words[1:2] in (["a"], ["an"]))
        word = words[k] if k < len(words) else ""
    elif words[:1] == ["و"]:
        k, word = 1, words[1] if len(words) > 1 else ""
    elif words and words[0].startswith("و") and tokens[j].script == ARABIC:
        k, word = 0, words[0][1:]
    else:
        return j, 0.0
    return (j + k + 1, FRACTIONS[word]) if word in _NUMBER_FRACTIONS else (j, 0.0)


def _arabizi_word(tok: Token) -> Token:
    """ "3ndi", "3ala": a digit glued before Latin letters that make no unit is a letter."""
    suffix = tok.suffix
    if (
        tok.kind != NUM
        or tok.text not in _ARABIZI_DIGITS
        or len(suffix) < 3
        or not suffix.isalpha()
        or suffix in _NUMBER_SUFFIXES
    ):
        return tok
    return Token(WORD, tok.text + suffix, glued=tok.glued, script=LATIN)


def _is_pronoun_one(tokens: list[Token], i: int) -> bool:
    """ "the fp32 one", "the big one", "that one": "one" stands for a noun, it counts nothing.

    It is a pronoun when a determiner opens its noun phrase (a few words back,
    within the clause) and nothing after it carries the quantity on: "one
    hour", "one GPU", "one and a half", "one hundred" stay numbers. A quantity with its
    unit right after is what the pronoun's noun measured ("the bf16 one 9h 30m").
    """
    if tokens[i].text != "one":
        return False
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    measured = nxt is not None and nxt.kind == NUM and bool(nxt.suffix)
    carried = nxt is not None and (nxt.kind != WORD or _counts_on(nxt.text))
    if nxt is not None and not nxt.is_boundary and carried and not measured:
        return False
    for tok in tokens[max(0, i - 4) : i][::-1]:
        if tok.is_boundary:
            return False
        if tok.kind == WORD and tok.text in DETERMINERS:
            return True
    return False


def _lone_scale(tokens: list[Token], i: int) -> tuple[float, int] | None:
    """Rule ``lone_scale``: "a million", "بمليون", "مليار": a scale of a million or more
    that opens a quantity is that many ("a million times faster" is a ratio, refused
    as too large). After a number ("7 million params", "٢٠ مليون خطوة") it stays the
    scale the parameter and count rules read."""
    k = i + (tokens[i].text in ("a", "one") and i + 1 < len(tokens))
    tok = tokens[k]
    if tok.kind != WORD:
        return None
    word = lookup(tok.text, _LONE_SCALES) if tok.script == ARABIC else tok.text
    value = _LONE_SCALES.get(word or "")
    return (float(value), k + 1) if value else None


def _couple(tokens: list[Token], i: int) -> int | None:
    """ "a couple of days", "couple hours": two of what follows; the index after "of".

    Only before a word (the counted noun): "a couple" alone stays words. "a few"
    is no number at all: how many it means is anyone's guess.
    """
    k = i + (tokens[i].text == "a")
    if k >= len(tokens) or tokens[k].text != "couple":
        return None
    j = k + 1 + (k + 1 < len(tokens) and tokens[k + 1].text == "of")
    nxt = tokens[j] if j < len(tokens) else None
    return j if nxt is not None and nxt.kind == WORD else None


def _count_before_plural(tokens: list[Token], i: int) -> float | None:
    """ "تلت ساعات" = 3 hours; "تلت الوقت", "تلت ساعه" stay a third (read as a fraction)."""
    tok = tokens[i]
    if tok.script != ARABIC:
        return None
    stem = lookup(tok.text, AR_COUNT_OR_SHARE)
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    if stem is None or nxt is None or nxt.kind != WORD or nxt.script != ARABIC:
        return None
    plural = lookup(nxt.text, AR_COUNTED_PLURALS)
    if plural is None or has_prefix_article(nxt.text, plural):
        return None
    return float(AR_COUNT_OR_SHARE[stem])


def _counts_on(word: str) -> bool:
    """A word after "one" that makes it a quantity: a unit, a singular counted noun, "and"."""
    if word in ("and", "point", "half", "quarter", "third") or word in EN_SCALES:
        return True
    # "one" agrees with a singular noun: "one GPU", "one epoch"; "the big one runs" is a verb.
    return word in EN_UNITS or (word in COUNT_NOUNS and not word.endswith("s"))


def _special(tokens: list[Token], i: int) -> tuple[float, int] | None:
    """NaN, infinity in words ("ما لا نهاية", "لا نهائي", "infinity")."""
    text = tokens[i].text
    if text in NAN_WORDS:
        return math.nan, i + 1
    if text in INFINITY_WORDS or text in _UNBOUNDED or lookup(text, _UNBOUNDED):
        return math.inf, i + 1
    # ما لا نهايه / لا نهايه / لا نهائي
    j = i
    if text == "ما" and i + 1 < len(tokens) and tokens[i + 1].text == "لا":
        j = i + 1
    if tokens[j].text == "لا" and j + 1 < len(tokens) and tokens[j + 1].text in ("نهايه", "نهائي"):
        return math.inf, j + 2
    return None


def _num(tokens: list[Token], i: int, j: int, value: float, spelled: bool = False) -> Token:
    text = " ".join(t.text for t in tokens[i:j])
    tok = Token(NUM, text, value=value, glued=tokens[i].glued)
    if spelled:
        tok.extra["spelled"] = True
    return tok


def _apply_negative_words(tokens: list[Token]) -> list[Token]:
    """ "minus 3", "سالب ٣" -> a negative number token."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if (
            tok.kind == WORD
            and lookup(tok.text, NEGATIVE_WORDS)
            and i + 1 < len(tokens)
            and tokens[i + 1].kind == NUM
        ):
            nxt = tokens[i + 1]
            nxt.value = -nxt.value
            nxt.text = "-" + nxt.text
            out.append(nxt)
            i += 2
            continue
        out.append(tok)
        i += 1
    return out
