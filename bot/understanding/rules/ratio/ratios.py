"""Reduction ratios stated by a marker or a phrase (data README conventions 5-9).

Markers: "2x", "×2.4", "2.1-fold", "١٫٨ مرة" with a speed word, "twice as
fast", "ضعف السرعة", "أسرع بمرتين", "halves the time". Percentages take
their meaning from the nearest cue word: faster (1 + p), slower
(1 / (1 + p)), less time (1 / (1 − p)), takes p of the time (1 / p), more
time (1 / (1 + p)). Fractions do the same ("توفر ثلث الوقت" = 1.5).
Numbers labelled by "ratio"/"النسبة" are read by the grammar in parse.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.understanding.resolving.candidates import RATIO, Candidate
from bot.understanding.resolving.resolve import resolve
from bot.understanding.rules.alternatives import JOINERS as ALTERNATIVES
from bot.understanding.rules.alternatives import partner_before
from bot.understanding.rules.ratio.offered_multiples import offered_partners
from bot.understanding.rules.ratio.ratio_cues import (
    LESS,
    REMAIN,
    clause_around,
    fraction_of,
    has_cue,
    meaning_of,
    of_speed,
    percent_to_ratio,
    slash_fraction,
    slowdown,
    speed_direction,
    with_half,
)
from bot.understanding.text.tokens import ARABIC, NUM, SYM, WORD, Token
from bot.understanding.values.lexicon import (
    COUNT_NOUNS,
    DIVIDE_WORDS,
    EN_UNITS,
    FOLD_WORDS,
    HALVING_WORDS,
    MULTIPLE_PLURALS,
    MULTIPLE_WORDS,
    PERCENT_WORDS,
    TIMES_WORDS,
    lookup,
)
from bot.understanding.values.nearby import is_time_unit
from bot.understanding.words import table

_PRECISION_NOUNS = table("PRECISION_NOUNS")
_RANGE = frozenset(["-", "to", "الي"])  # "2-3x", "2 to 3x": a range gives two candidates


@dataclass
class RatioCand:
    value: float
    start: int
    text: str
    rule: str = "ratio_marker"  # which rule read it (Query.read_by)
    end: int = -1  # exclusive; -1: the one token at ``start``


def find_ratios(tokens: list[Token]) -> list[RatioCand]:
    """Ratios given by a marker or a phrase: the scan emits one ``ratio`` candidate
    per marker (and its range partner, "2-3x"), the one resolver picks them, and
    only then are their tokens marked."""
    found = _scan(tokens)
    found += [
        RatioCand(value, start, " ".join(t.written for t in tokens[start:end]), end=end)
        for value, start, end in offered_partners(tokens, found)
    ]
    if not found:
        return found
    cands = [
        Candidate(RATIO, r.start, max(r.end, r.start + 1), r.value, r.rule, r.text, role="ratio")
        for r in found
    ]
    picked = {id(c) for c in resolve(cands).chosen}
    for cand in cands:
        if id(cand) in picked:
            cand.mark(tokens)
    chosen = [r for r, c in zip(found, cands, strict=True) if id(c) in picked]
    return sorted(chosen, key=lambda r: r.start)  # alternatives are listed as written


def _scan(tokens: list[Token]) -> list[RatioCand]:
    found: list[RatioCand] = []
    taken: set[int] = set()  # tokens a marker read, so a range never takes one twice
    n = len(tokens)
    i = 0
    while i < n:
        got = None if tokens[i].role else _at(tokens, i)
        if got is None:
            i += 1
            continue
        value, end = got
        partner = _partner(tokens, i, taken)
        if partner is not None:
            found.append(partner)
        text = " ".join(t.written for t in tokens[i:end])
        found.append(RatioCand(value, i, text, end=end))
        taken.update(range(i, end))
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
        return of_speed(tokens, tok.value, i + 1)
    if tok.suffix:
        return _NONE
    return of_speed(tokens, tok.value, i + 1) if _sign_before(tokens, i, "x") else None


def _divided_by(tokens: list[Token], i: int) -> Found | None:
    """ "divides the time by 3", "يقسم الوقت على ٣", "40h ÷ 1.8"; "/" after a time
    with its unit ("48 hrs / 2", "48h/2"), never a counter ("epoch 1/20")."""
    if _sign_before(tokens, i, "÷") and not tokens[i].suffix:
        return tokens[i].value, i + 1
    if _sign_before(tokens, i, "/") and not tokens[i].suffix and _time_at(tokens, i - 2):
        return tokens[i].value, i + 1
    if not i or tokens[i - 1].text not in ("by", "علي"):
        return None
    before, _ = clause_around(tokens, i - 1, 4, 0)
    return (tokens[i].value, i + 1) if any(has_cue(t, DIVIDE_WORDS) for t in before) else None


def _time_at(tokens: list[Token], j: int) -> bool:
    """A time unit at ``j``, as a word ("hrs") or glued to its number ("48h")."""
    if j < 0:
        return False
    tok = tokens[j]
    return is_time_unit(tok) or (tok.kind == NUM and tok.suffix.lstrip("-") in EN_UNITS)


def _marker_word_after(tokens: list[Token], i: int) -> Found | None:
    """ "2 fold", "2 x" (a word x)."""
    nxt = _next(tokens, i)
    if nxt is not None and (nxt.text in FOLD_WORDS or (nxt.text == "x" and nxt.kind == WORD)):
        return of_speed(tokens, tokens[i].value, i + 2)
    return None


def _share_of_time(tokens: list[Token], i: int) -> Found | None:
    """ "two thirds of the time", "three quarters less time", "2/3 of the time"."""
    frac = fraction_of(_next(tokens, i))
    if frac:
        meaning = meaning_of(tokens, i, i + 2)
        if meaning in (LESS, REMAIN):
            return percent_to_ratio(tokens[i].value * frac * 100, meaning), i + 2
    share = slash_fraction(tokens, i)
    if share is not None:
        meaning = meaning_of(tokens, i, i + 3)
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
    meaning = meaning_of(tokens, first, end)
    return (percent_to_ratio(tokens[i].value, meaning), end) if meaning else _NONE


def _times_word_after(tokens: list[Token], i: int) -> Found | None:
    """ "3 times faster", "٣ مرات أسرع", "ثلاثة أضعاف", "٢٫٥ ضعف", "طلع ٠٫٩ مرة"."""
    nxt = _next(tokens, i)
    if nxt is None or nxt.kind != WORD:
        return _NONE
    if nxt.script == ARABIC:
        times = lookup(nxt.text, TIMES_WORDS)
    else:
        times = nxt.text if nxt.text == "times" else None
    plural = has_cue(nxt, MULTIPLE_PLURALS)
    if times is None and not plural:
        return _NONE
    value, end = with_half(tokens, i + 2, tokens[i].value)
    # A fraction of times counts no tries: "طلع ٠٫٩ مرة", "1.5 times" are multiples.
    sign = speed_direction(tokens, i, end, default=plural or not float(value).is_integer())
    return (value if sign > 0 else slowdown(value) if value else 0.0, end) if sign else _NONE


def _halving(tokens: list[Token], i: int) -> Found | None:
    """ "halves the time", "ينصف", "الـ amp ينص الوقت", "وتنصّف" (with its clitics)."""
    return (2.0, i + 1) if has_cue(tokens[i], HALVING_WORDS) else None


def _times_word(tokens: list[Token], i: int) -> Found | None:
    """ "مرتين أسرع", "أسرع بمرة ونص" (but "مرة" alone is "once")."""
    tok = tokens[i]
    times = lookup(tok.text, TIMES_WORDS) if tok.script == ARABIC else None
    if not (times and TIMES_WORDS[times]):
        return None
    base = float(TIMES_WORDS[times])
    value, end = with_half(tokens, i + 1, base)
    if base == 1 and value == 1:
        return _NONE
    sign = speed_direction(tokens, i, end, default=False)
    return (value if sign > 0 else slowdown(value), end) if sign else _NONE


def _multiple_word(tokens: list[Token], i: int) -> Found | None:
    """ "twice as fast", "ضعف السرعة"."""
    tok = tokens[i]
    multiple = MULTIPLE_WORDS.get(tok.text) or (
        MULTIPLE_WORDS.get(lookup(tok.text, MULTIPLE_WORDS) or "") if tok.script == ARABIC else None
    )
    if not multiple:
        return None
    sign = speed_direction(tokens, i, i + 1, default=tok.script == ARABIC)
    return (multiple if sign > 0 else 1 / multiple, i + 1) if sign else _NONE


def _fraction_word(tokens: list[Token], i: int) -> Found | None:
    """ "cuts a third of the time", "توفر ثلث الوقت" ("half precision", "نص دقة" name FP16)."""
    frac = fraction_of(tokens[i])
    if not frac or has_cue(_next(tokens, i), _PRECISION_NOUNS):
        return None
    start = i - 1 if i and tokens[i - 1].text in ("a", "one") else i
    meaning = meaning_of(tokens, start, i + 1)
    return (percent_to_ratio(frac * 100, meaning), i + 1) if meaning in (LESS, REMAIN) else None


def _unbounded_speed(tokens: list[Token], i: int) -> Found | None:
    """Rule ``unbounded_speed``: "infinitely faster", "أسرع بشكل لانهائي": an infinite
    number said of speed is an infinite ratio (refused as ``not_finite``)."""
    if not math.isinf(tokens[i].value):
        return None
    sign = speed_direction(tokens, i, i + 1, default=False)
    return (math.inf if sign > 0 else 0.0, i + 1) if sign else None


_FASTER_BY = table("FASTER_BY_CUES")
_FASTER_FILLERS = table("FASTER_BY_FILLERS")
# "increases the speed by 1.6", «كيزيد السرعة ب ١٫٦»: the speed itself, then "by", is
# a comparative of speed too (a speed with no "by" may be a rate: "speed 1.6 it/s").
_SPEED_BY_NOUNS = table("SPEED_BY_NOUNS")
_BY = table("FASTER_BY_BY")


def _faster_by(tokens: list[Token], i: int) -> Found | None:
    """Rule ``faster_by``: "amp is faster by 1.5", "speeds it up by 1.8", "أسرع بـ١٫٥",
    "بيسرّع التدريب ١٫٥", "boosts speed by 1.6", «يزيد السرعة ب ١٫٦»: a bare number
    above 1 right after a comparative of speed (fillers between) is the ratio. A unit,
    percentage or counted noun after it makes it something else, read by its own rule."""
    tok, nxt = tokens[i], _next(tokens, i)
    if tok.suffix or tok.value <= 1 or (nxt is not None and nxt.kind == WORD and _counted(nxt)):
        return None
    by = False
    for k in range(i - 1, max(-1, i - 5), -1):
        before = tokens[k]
        if before.kind != WORD:
            return None
        if has_cue(before, _FASTER_BY) or (by and has_cue(before, _SPEED_BY_NOUNS)):
            return tok.value, i + 1
        if not has_cue(before, _FASTER_FILLERS):
            return None
        by = by or has_cue(before, _BY)
    return None


def _counted(tok: Token) -> bool:
    return has_cue(tok, COUNT_NOUNS) or is_time_unit(tok) or has_cue(tok, PERCENT_WORDS)


# Rule ``ratio_marker``: what makes a number, or a word, a ratio, tried in order.
_NUMBER_MARKERS = (
    _unbounded_speed,
    _glued_marker,
    _divided_by,
    _marker_word_after,
    _share_of_time,
    _percentage,
    _faster_by,
    _times_word_after,
)
_WORD_MARKERS = (_halving, _times_word, _multiple_word, _fraction_word)


def _partner(tokens: list[Token], i: int, taken: set[int]) -> RatioCand | None:
    """ "2-3x", "2 or 3x", "١٫٥ ولا ٢ مرة": the first number is a ratio candidate too
    (rule ``alternatives``)."""
    k = partner_before(tokens, i, _RANGE | ALTERNATIVES) if i >= 2 else None
    if k is None or k in taken:
        return None
    first = tokens[k]
    if first.kind != NUM or first.role or first.suffix:
        return None
    return RatioCand(first.value, k, first.text)
