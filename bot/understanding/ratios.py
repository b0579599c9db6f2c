"""Reduction ratios stated by a marker or a phrase (data README conventions 5-9).

Markers: "2x", "×2.4", "2.1-fold", "١٫٨ مرة" with a speed word, "twice as
fast", "ضعف السرعة", "أسرع بمرتين", "halves the time". Percentages take
their meaning from the nearest cue word: faster (1 + p), slower
(1 / (1 + p)), less time (1 / (1 − p)), takes p of the time (1 / p), more
time (1 / (1 + p)). Fractions do the same ("توفر ثلث الوقت" = 1.5).
Numbers labelled by "ratio"/"النسبة" are read by the grammar in parse.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.understanding.lexicon import (
    DIVIDE_WORDS,
    FOLD_WORDS,
    FRACTIONS,
    HALVING_WORDS,
    HOW_WORDS,
    MULTIPLE_PLURALS,
    MULTIPLE_WORDS,
    PCT_FASTER,
    PCT_LESS,
    PCT_MORE,
    PCT_REMAIN,
    PCT_SLOWER,
    PERCENT_WORDS,
    RATIO_LABELS,
    SLOW_CUES,
    SPEED_CUES,
    TIME_NOUNS,
    TIMES_WORDS,
    lookup,
)
from bot.understanding.rates import is_throughput_word
from bot.understanding.tokens import ARABIC, NUM, SYM, WORD, Token
from bot.understanding.words import table

FASTER, SLOWER, LESS, REMAIN, MORE = "faster", "slower", "less", "remain", "more"
_CATEGORIES = (
    (REMAIN, PCT_REMAIN),
    (LESS, PCT_LESS),
    (FASTER, PCT_FASTER),
    (SLOWER, PCT_SLOWER),
    (MORE, PCT_MORE),
)
# Tokens looked back for a percentage's cue: far enough to pass a count beside
# the figure ("cut the time of 500 steps by 55%", rule ``count_beside_figure``).
_MEANING_BACK = 8
_BY_WORDS = table("BY_WORDS")
_DECREASE_VERBS = table("DECREASE_VERBS")
_AFTER_CATEGORIES = (
    (FASTER, PCT_FASTER),
    (SLOWER, PCT_SLOWER),
    (LESS, PCT_LESS),
    (MORE, frozenset({"longer", "more", "اطول", "اكثر"})),
)


_PRECISION_NOUNS = table("PRECISION_NOUNS")


@dataclass
class RatioCand:
    value: float
    start: int
    text: str
    rule: str = "ratio_marker"  # which rule read it (Query.read_by)


def _has(tok: Token | None, table) -> bool:
    if tok is None or tok.kind != WORD:
        return False
    if tok.script == ARABIC:
        return lookup(tok.text, table) is not None
    return tok.text in table


def _is_speed(tok: Token) -> bool:
    """Rule ``throughput_is_speed``: "faster", "throughput", and a merged rate word
    ("it/s", "samples/sec", "الصور في الثانية"): more of it is a speed-up."""
    return _has(tok, SPEED_CUES) or is_throughput_word(tok)


def _clause(tokens: list[Token], i: int, back: int, ahead: int) -> tuple[list[Token], list[Token]]:
    """Tokens before ``i`` (nearest first) and after it, within the clause."""
    before: list[Token] = []
    for j in range(i - 1, max(-1, i - 1 - back), -1):
        if tokens[j].is_boundary:
            break
        before.append(tokens[j])
    after: list[Token] = []
    for tok in tokens[i + 1 : i + 1 + ahead]:
        if tok.is_boundary:
            break
        after.append(tok)
    return before, after


def percent_to_ratio(p: float, meaning: str) -> float:
    """Convention 6-9: what p percent means for the FP32/mixed time ratio."""
    if meaning == FASTER:
        return 1 + p / 100
    if meaning in (SLOWER, MORE):
        return 1 / (1 + p / 100) if p != -100 else float("inf")
    if meaning == LESS:
        return 1 / (1 - p / 100) if p != 100 else float("inf")
    return 100 / p if p else float("inf")


def _meaning(tokens: list[Token], i: int, end: int) -> str | None:
    """The cue that says what a percentage (or fraction) at ``i``..``end`` means."""
    before, _ = _clause(tokens, i, _MEANING_BACK, 0)
    _, after = _clause(tokens, end - 1, 0, 3)
    for tok in after[:2]:
        for meaning, cues in _AFTER_CATEGORIES:
            if _has(tok, cues):
                if meaning == MORE and any(_is_speed(t) for t in after):
                    return FASTER
                return meaning
    for k, tok in enumerate(before):
        for meaning, cues in _CATEGORIES:
            if _has(tok, cues):
                if meaning == MORE and _said_of_speed(before[k + 1 :]):
                    return FASTER  # "throughput increases 30%", "السرعة بتزيد ٥٠٪"
                if meaning == REMAIN and (
                    any(t.text in _BY_WORDS for t in before[:k]) or _has(tok, _DECREASE_VERBS)
                ):
                    return LESS  # "drops by 40%", "drops 40%" (not "drops to 40%"), "ينخفض ٤٠٪"
                return meaning
    if after and after[0].text in ("of", "من"):
        return REMAIN
    if any(_has(t, TIME_NOUNS) for t in after[:3]) or [t.text for t in after[:2]] == ["as", "long"]:
        return REMAIN
    if any(_has(t, RATIO_LABELS) for t in before):
        return FASTER
    return None


def _said_of_speed(earlier: list[Token]) -> bool:
    """Whether the nearest subject before an increase is a speed rather than a time."""
    for tok in earlier:
        if _has(tok, TIME_NOUNS):
            return False
        if _is_speed(tok) or _has(tok, PCT_FASTER):
            return True
    return False


def _slow_cue(tok: Token, prev: Token | None) -> bool:
    """ "slower", "longer", "as long": the time grows.

    A bare "long" is a slowdown only in "as long" ("2x as long"); in
    "at 2x, how long?" it is the question, not a direction.
    """
    if tok.text in table("SLOW_ADJECTIVES") and tok.script != ARABIC:
        return prev is not None and prev.text == "as"  # "3 times as slow", "2x as long"
    return _has(tok, SLOW_CUES)


def _slowed_by(tokens: list[Token], i: int) -> bool:
    """Rule ``slowed_by``: "slowed down by 1.5x", "slows training by 2x", "بطّأ التدريب ٢x":
    a verb of slowing before the multiple makes it a slowdown, never a speed-up."""
    before, _ = _clause(tokens, i, 4, 0)
    return any(_has(t, table("SLOWING_VERBS")) for t in before)


def _until_question(after: list[Token]) -> list[Token]:
    """The words after a ratio up to a question word: in "بسرعة ٢٫٢ مرة كم المدة؟" and
    "at 2x, how much time?" the time noun is what is asked, not what grows."""
    for k, tok in enumerate(after):
        if _has(tok, HOW_WORDS):
            return after[:k]
    return after


def _speed_direction(tokens: list[Token], i: int, end: int, default: bool) -> float | None:
    """+1 for a speed-up cue near ``i``, -1 for a slowdown or longer time, None for none."""
    before, _ = _clause(tokens, i, 4, 0)
    _, after = _clause(tokens, end - 1, 0, 4)
    after = _until_question(after)
    # Each token with the one written just before it ("as" before "long").
    after_pairs = zip(after, [tokens[end - 1], *after])
    before_pairs = zip(before, [*before[1:], None])
    for tok, prev in [*after_pairs, *before_pairs]:
        if _slow_cue(tok, prev) or _has(tok, TIME_NOUNS):
            return -1.0
        if _is_speed(tok) or _has(tok, RATIO_LABELS):
            return 1.0
    return 1.0 if default else None


def find_ratios(tokens: list[Token]) -> list[RatioCand]:
    """Ratios given by a marker or a phrase; marks the tokens they used."""
    found: list[RatioCand] = []
    n = len(tokens)
    i = 0
    while i < n:
        tok = tokens[i]
        if tok.role:
            i += 1
            continue
        got = _at(tokens, i)
        if got is None:
            i += 1
            continue
        value, end = got
        for t in tokens[i:end]:
            t.role = "ratio"
        partner = _partner(tokens, i)
        if partner is not None:
            found.append(partner)
        found.append(RatioCand(value, i, " ".join(t.written for t in tokens[i:end])))
        i = end
    return found


Found = tuple[float, int]
_NONE: Found = (0.0, -1)  # a rule that decides the token is no ratio (the look ends)


def _at(tokens: list[Token], i: int) -> Found | None:
    """A ratio starting at token ``i``: (value, end index), by the first marker rule
    that decides (:data:`_NUMBER_MARKERS` for a number, :data:`_WORD_MARKERS` for a word)."""
    tok = tokens[i]
    rules = _NUMBER_MARKERS if tok.kind == NUM else _WORD_MARKERS if tok.kind == WORD else ()
    for rule in rules:
        found = rule(tokens, i)
        if found is not None:
            return None if found is _NONE else found
    return None


def _next(tokens: list[Token], i: int) -> Token | None:
    return tokens[i + 1] if i + 1 < len(tokens) else None


def _sign_before(tokens: list[Token], i: int, sign: str) -> bool:
    return bool(i) and tokens[i - 1].kind == SYM and tokens[i - 1].text == sign


def _glued_marker(tokens: list[Token], i: int) -> Found | None:
    """ "2x", "2.1-fold", "×2.4"; any other suffix ("2h") is no ratio."""
    tok = tokens[i]
    if tok.suffix == "x" or tok.suffix.lstrip("-") in FOLD_WORDS:
        return _of_speed(tokens, tok.value, i + 1)
    if tok.suffix:
        return _NONE
    return _of_speed(tokens, tok.value, i + 1) if _sign_before(tokens, i, "x") else None


def _divided_by(tokens: list[Token], i: int) -> Found | None:
    """ "divides the time by 3", "يقسم الوقت على ٣"."""
    if not i or tokens[i - 1].text not in ("by", "علي"):
        return None
    before, _ = _clause(tokens, i - 1, 4, 0)
    return (tokens[i].value, i + 1) if any(_has(t, DIVIDE_WORDS) for t in before) else None


def _marker_word_after(tokens: list[Token], i: int) -> Found | None:
    """ "2 fold", "2 x" (a word x)."""
    nxt = _next(tokens, i)
    if nxt is not None and (nxt.text in FOLD_WORDS or (nxt.text == "x" and nxt.kind == WORD)):
        return _of_speed(tokens, tokens[i].value, i + 2)
    return None


def _share_of_time(tokens: list[Token], i: int) -> Found | None:
    """ "two thirds of the time", "three quarters less time", "2/3 of the time"."""
    frac = _fraction_of(_next(tokens, i))
    if frac:
        meaning = _meaning(tokens, i, i + 2)
        if meaning in (LESS, REMAIN):
            return percent_to_ratio(tokens[i].value * frac * 100, meaning), i + 2
    share = slash_fraction(tokens, i)
    if share is not None:
        meaning = _meaning(tokens, i, i + 3)
        if meaning in (LESS, REMAIN):
            return percent_to_ratio(share * 100, meaning), i + 3
    return None


def _percentage(tokens: list[Token], i: int) -> Found | None:
    """ "40% faster", "%40 أسرع": the nearest cue says what the percentage means."""
    nxt = _next(tokens, i)
    if nxt is not None and (nxt.text in PERCENT_WORDS or (nxt.kind == SYM and nxt.text == "%")):
        first, end = i, i + 2
    elif _sign_before(tokens, i, "%") and tokens[i].glued:
        first, end = i - 1, i + 1
    else:
        return None
    meaning = _meaning(tokens, first, end)
    return (percent_to_ratio(tokens[i].value, meaning), end) if meaning else _NONE


def _times_word_after(tokens: list[Token], i: int) -> Found | None:
    """ "3 times faster", "٣ مرات أسرع", "ثلاثة أضعاف", "٢٫٥ ضعف"."""
    nxt = _next(tokens, i)
    if nxt is None or nxt.kind != WORD:
        return _NONE
    if nxt.script == ARABIC:
        times = lookup(nxt.text, TIMES_WORDS)
    else:
        times = nxt.text if nxt.text == "times" else None
    plural = _has(nxt, MULTIPLE_PLURALS)
    if times is None and not plural:
        return _NONE
    value, end = _with_half(tokens, i + 2, tokens[i].value)
    sign = _speed_direction(tokens, i, end, default=plural)
    return (value if sign > 0 else 1 / value if value else 0.0, end) if sign else _NONE


def _halving(tokens: list[Token], i: int) -> Found | None:
    """ "halves the time", "ينصف"."""
    return (2.0, i + 1) if tokens[i].text in HALVING_WORDS else None


def _times_word(tokens: list[Token], i: int) -> Found | None:
    """ "مرتين أسرع", "أسرع بمرة ونص" (but "مرة" alone is "once")."""
    tok = tokens[i]
    times = lookup(tok.text, TIMES_WORDS) if tok.script == ARABIC else None
    if not (times and TIMES_WORDS[times]):
        return None
    base = float(TIMES_WORDS[times])
    value, end = _with_half(tokens, i + 1, base)
    if base == 1 and value == 1:
        return _NONE
    sign = _speed_direction(tokens, i, end, default=False)
    return (value if sign > 0 else 1 / value, end) if sign else _NONE


def _multiple_word(tokens: list[Token], i: int) -> Found | None:
    """ "twice as fast", "ضعف السرعة"."""
    tok = tokens[i]
    multiple = MULTIPLE_WORDS.get(tok.text) or (
        MULTIPLE_WORDS.get(lookup(tok.text, MULTIPLE_WORDS) or "") if tok.script == ARABIC else None
    )
    if not multiple:
        return None
    sign = _speed_direction(tokens, i, i + 1, default=tok.script == ARABIC)
    return (multiple if sign > 0 else 1 / multiple, i + 1) if sign else _NONE


def _fraction_word(tokens: list[Token], i: int) -> Found | None:
    """ "cuts a third of the time", "توفر ثلث الوقت" ("half precision", "نص دقة" name FP16)."""
    frac = _fraction_of(tokens[i])
    if not frac or _has(_next(tokens, i), _PRECISION_NOUNS):
        return None
    start = i - 1 if i and tokens[i - 1].text in ("a", "one") else i
    meaning = _meaning(tokens, start, i + 1)
    return (percent_to_ratio(frac * 100, meaning), i + 1) if meaning in (LESS, REMAIN) else None


# Rule ``ratio_marker``: what makes a number, or a word, a ratio, tried in order.
_NUMBER_MARKERS = (
    _glued_marker,
    _divided_by,
    _marker_word_after,
    _share_of_time,
    _percentage,
    _times_word_after,
)
_WORD_MARKERS = (_halving, _times_word, _multiple_word, _fraction_word)


def slash_fraction(tokens: list[Token], i: int) -> float | None:
    """ "2/3 of the time", "١/٢ الوقت": a share of the time written with a slash, else None.

    Only when a time noun follows in the clause ("2/3 of the fp32 time"):
    "due 2/3", "2/3 of the runs" and 2/3/2024 stay dates or nothing.
    """
    if i + 2 >= len(tokens):
        return None
    num, slash, den = tokens[i], tokens[i + 1], tokens[i + 2]
    if not (
        num.kind == NUM
        and not num.suffix
        and slash.kind == SYM
        and slash.text == "/"
        and slash.glued
        and den.kind == NUM
        and den.glued
        and not den.suffix
        and den.value > 0
    ):
        return None
    after = tokens[i + 3] if i + 3 < len(tokens) else None
    if after is not None and after.glued and after.kind == SYM and after.text in "/-:":
        return None  # 2/3/2024
    _, clause = _clause(tokens, i + 2, 0, 4)
    if not any(_has(t, TIME_NOUNS) for t in clause):
        return None
    return num.value / den.value


def _fraction_of(tok: Token | None) -> float | None:
    if tok is None or tok.kind != WORD:
        return None
    if tok.script == ARABIC:
        return FRACTIONS.get(lookup(tok.text, FRACTIONS) or "")
    return FRACTIONS.get(tok.text)


def _of_speed(tokens: list[Token], value: float, end: int) -> tuple[float, int]:
    """ "2x" is a speed-up, but "2x slower" / "2x longer" / "2x as long" multiply the time."""
    _, after = _clause(tokens, end - 1, 0, 2)
    after = _until_question(after)
    if value and any(_slow_cue(t, p) for t, p in zip(after, [tokens[end - 1], *after])):
        return 1 / value, end
    start = next((k for k in range(end - 1, -1, -1) if tokens[k].kind == NUM), end - 1)
    if value and _slowed_by(tokens, start):
        return 1 / value, end
    return value, end


def _with_half(tokens: list[Token], j: int, value: float) -> tuple[float, int]:
    """ "مرة ونص" = 1.5 times, "two and a half times"."""
    if j < len(tokens):
        tok = tokens[j]
        if tok.script == ARABIC and tok.text.startswith("و") and tok.text[1:] in FRACTIONS:
            return value + FRACTIONS[tok.text[1:]], j + 1
    return value, j


def _partner(tokens: list[Token], i: int) -> RatioCand | None:
    """ "2-3x", "2 or 3x": the first number is a ratio candidate too."""
    if i < 2:
        return None
    joiner, first = tokens[i - 1], tokens[i - 2]
    if joiner.text not in ("-", "or", "to", "او", "الي") or first.kind != NUM or first.role:
        return None
    if first.suffix:
        return None
    first.role = "ratio"
    return RatioCand(first.value, i - 2, first.text)
