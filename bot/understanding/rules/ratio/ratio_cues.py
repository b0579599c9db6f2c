"""The cues around a ratio: what a percentage or a share means (faster, less
time, the time that remains, more work per second), and whether a multiple
speeds the run up or slows it down ("2x slower", "slowed down by 1.5x",
"أبطأ مرتين"). Used by the ratio markers in :mod:`bot.understanding.rules.ratio.ratios`."""

from __future__ import annotations

from bot.understanding.text.tokens import ARABIC, NUM, SYM, WORD, Token
from bot.understanding.values.lexicon import (
    FRACTIONS,
    HOW_WORDS,
    PCT_FASTER,
    PCT_LESS,
    PCT_MORE,
    PCT_REMAIN,
    PCT_SLOWER,
    RATIO_LABELS,
    SLOW_CUES,
    SPEED_CUES,
    TIME_NOUNS,
    lookup,
)
from bot.understanding.values.rate_units import is_throughput_word
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


def has_cue(tok: Token | None, table) -> bool:
    if tok is None or tok.kind != WORD:
        return False
    if tok.script == ARABIC:
        return lookup(tok.text, table) is not None
    return tok.text in table


def _is_speed(tok: Token) -> bool:
    """Rule ``throughput_is_speed``: "faster", "throughput", and a merged rate word
    ("it/s", "samples/sec", "الصور في الثانية"): more of it is a speed-up."""
    return has_cue(tok, SPEED_CUES) or is_throughput_word(tok)


def clause_around(
    tokens: list[Token], i: int, back: int, ahead: int
) -> tuple[list[Token], list[Token]]:
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


def meaning_of(tokens: list[Token], i: int, end: int) -> str | None:
    """The cue that says what a percentage (or fraction) at ``i``..``end`` means:
    a cue right after it, else the nearest before it, else what follows ("of the
    time", "as long"), else a ratio label before it."""
    before, _ = clause_around(tokens, i, _MEANING_BACK, 0)
    _, after = clause_around(tokens, end - 1, 0, 3)
    meaning = _meaning_after(after) or _meaning_before(before)
    if meaning is not None:
        return meaning
    if after and after[0].text in ("of", "من"):
        return REMAIN
    if any(has_cue(t, TIME_NOUNS) for t in after[:3]) or [t.text for t in after[:2]] == [
        "as",
        "long",
    ]:
        return REMAIN
    return FASTER if any(has_cue(t, RATIO_LABELS) for t in before) else None


def _meaning_after(after: list[Token]) -> str | None:
    """ "40% faster", "30% more it/s": a cue in the two tokens after the figure."""
    for tok in after[:2]:
        for meaning, cues in _AFTER_CATEGORIES:
            if has_cue(tok, cues):
                return FASTER if meaning == MORE and any(_is_speed(t) for t in after) else meaning
    return None


def _meaning_before(before: list[Token]) -> str | None:
    """ "cuts 40%", "throughput increases 30%", "drops by 40%": the nearest cue before."""
    for k, tok in enumerate(before):
        for meaning, cues in _CATEGORIES:
            if not has_cue(tok, cues):
                continue
            if meaning == MORE and (_said_of_speed(before[k + 1 :]) or _said_of_speed(before[:k])):
                # "throughput increases 30%", "السرعة بتزيد ٥٠٪", "bumps tokens/s by 60%"
                return FASTER
            if meaning == REMAIN and (
                any(t.text in _BY_WORDS for t in before[:k]) or has_cue(tok, _DECREASE_VERBS)
            ):
                return LESS  # "drops by 40%", "drops 40%" (not "drops to 40%"), "ينخفض ٤٠٪"
            return meaning
    return None


def _said_of_speed(earlier: list[Token]) -> bool:
    """Whether the nearest subject before an increase is a speed rather than a time."""
    for tok in earlier:
        if has_cue(tok, TIME_NOUNS):
            return False
        if _is_speed(tok) or has_cue(tok, PCT_FASTER):
            return True
    return False


def _slow_cue(tok: Token, prev: Token | None) -> bool:
    """ "slower", "longer", "as long": the time grows.

    A bare "long" is a slowdown only in "as long" ("2x as long"); in
    "at 2x, how long?" it is the question, not a direction.
    """
    if tok.text in table("SLOW_ADJECTIVES") and tok.script != ARABIC:
        return prev is not None and prev.text == "as"  # "3 times as slow", "2x as long"
    return has_cue(tok, SLOW_CUES)


def _slowed_by(tokens: list[Token], i: int) -> bool:
    """Rule ``slowed_by``: "slowed down by 1.5x", "slows training by 2x", "بطّأ التدريب ٢x":
    a verb of slowing before the multiple makes it a slowdown, never a speed-up."""
    before, _ = clause_around(tokens, i, 4, 0)
    return any(has_cue(t, table("SLOWING_VERBS")) for t in before)


def _until_question(after: list[Token]) -> list[Token]:
    """The words after a ratio up to a question word: in "بسرعة ٢٫٢ مرة كم المدة؟" and
    "at 2x, how much time?" the time noun is what is asked, not what grows."""
    for k, tok in enumerate(after):
        if has_cue(tok, HOW_WORDS):
            return after[:k]
    return after


def speed_direction(tokens: list[Token], i: int, end: int, default: bool) -> float | None:
    """+1 for a speed-up cue near ``i``, -1 for a slowdown or longer time, None for none."""
    before, _ = clause_around(tokens, i, 4, 0)
    _, after = clause_around(tokens, end - 1, 0, 4)
    after = _until_question(after)
    # Each token with the one written just before it ("as" before "long").
    after_pairs = zip(after, [tokens[end - 1], *after])
    before_pairs = zip(before, [*before[1:], None])
    for tok, prev in [*after_pairs, *before_pairs]:
        if _slow_cue(tok, prev) or has_cue(tok, TIME_NOUNS):
            return -1.0
        if _is_speed(tok) or has_cue(tok, RATIO_LABELS):
            return 1.0
    return 1.0 if default else None


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
    _, clause = clause_around(tokens, i + 2, 0, 4)
    if not any(has_cue(t, TIME_NOUNS) for t in clause):
        return None
    return num.value / den.value


def fraction_of(tok: Token | None) -> float | None:
    if tok is None or tok.kind != WORD:
        return None
    if tok.script == ARABIC:
        return FRACTIONS.get(lookup(tok.text, FRACTIONS) or "")
    return FRACTIONS.get(tok.text)


def slowdown(value: float) -> float:
    """Rule ``stated_slowdown``: the ratio of a multiple said with a slowdown cue.

    "2x slower" multiplies the time (ratio 0.5); "0.9x slower", "أبطأ ٠٫٩ مرة",
    "slowed to 0.9x" already state the speed, below 1, so they stay 0.9: a factor
    below 1 said of a slowdown is never turned into a speed-up.
    """
    return value if 0 < value < 1 else 1 / value


def of_speed(tokens: list[Token], value: float, end: int) -> tuple[float, int]:
    """ "2x" is a speed-up, but "2x slower" / "2x longer" / "2x as long" multiply the time."""
    _, after = clause_around(tokens, end - 1, 0, 2)
    after = _until_question(after)
    if value and any(_slow_cue(t, p) for t, p in zip(after, [tokens[end - 1], *after])):
        return slowdown(value), end
    start = next((k for k in range(end - 1, -1, -1) if tokens[k].kind == NUM), end - 1)
    if value and _slowed_by(tokens, start):
        return slowdown(value), end
    return value, end


def with_half(tokens: list[Token], j: int, value: float) -> tuple[float, int]:
    """ "مرة ونص" = 1.5 times, "two and a half times"."""
    if j < len(tokens):
        tok = tokens[j]
        if tok.script == ARABIC and tok.text.startswith("و") and tok.text[1:] in FRACTIONS:
            return value + FRACTIONS[tok.text[1:]], j + 1
    return value, j
