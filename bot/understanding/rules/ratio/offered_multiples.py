"""Rule ``offered_multiple``: a multiple offered as an alternative to a ratio is a ratio too.

The speed word is said once, for both alternatives: "twice or three times as
fast", "أسرع ضعفين أو ثلاثة", "1.5x or 2", "التسريع يا مرة ونص يا مرتين", "amp
gives 1.5x, maybe 2". The partner takes the direction of the ratio it is offered
with (a slowdown stays one). Two multiples offered together with no speed word
and no other ratio in the message ("يا مرة ونص يا مرتين والتدريب ٤٠ ساعة") are
speed-ups: a multiple with its half, or a pair of them, counts no tries; "once"
("مرة أو مرتين", "once or twice") stays a count and is never read.

Each partner is one more ``ratio`` candidate for the one resolver; two ratios left
make the reply ask which one is meant (rule ``alternatives``).
"""

from __future__ import annotations

from bot.understanding.rules.alternatives import offered_between, opened_before
from bot.understanding.rules.ratio.ratio_cues import has_cue, slowdown, speed_direction, with_half
from bot.understanding.text.tokens import ARABIC, NUM, WORD, Token
from bot.understanding.values.lexicon import COUNT_NOUNS, MULTIPLE_WORDS, TIMES_WORDS, lookup
from bot.understanding.values.nearby import is_time_unit

# How far a partner may stand from the ratio it is offered with ("1.5x, or maybe 2").
_REACH = 5


def offered_partners(tokens: list[Token], found: list) -> list[tuple[float, int, int]]:
    """(value, start, end) of each multiple offered as an alternative to a ratio in
    ``found`` (objects with ``value``, ``start``, ``end``), or, with none found, of
    two multiples offered together."""
    taken = {k for r in found for k in range(r.start, max(r.end, r.start + 1))}
    out: list[tuple[float, int, int]] = []
    for r in found:
        end = max(r.end, r.start + 1)
        after = _after(tokens, end, taken, opened_before(tokens, r.start))
        for value, start, stop in (_before(tokens, r.start, taken), after):
            if stop < 0:
                continue
            out.append((slowdown(value) if 0 < r.value < 1 else value, start, stop))
            taken.update(range(start, stop))
    return out or ([] if found else _pair(tokens, taken))


def _multiple_at(tokens: list[Token], j: int) -> tuple[float, int] | None:
    """(value, end) of a multiple written as a word at ``j``: "twice", "ضعفين", "مرتين",
    "مرة ونص" (1.5); "مرة" alone is "once", no multiple."""
    tok = tokens[j]
    if tok.kind != WORD or tok.role:
        return None
    if tok.script == ARABIC:
        times = lookup(tok.text, TIMES_WORDS)
        if times is not None and TIMES_WORDS[times]:
            value, end = with_half(tokens, j + 1, float(TIMES_WORDS[times]))
            return (value, end) if value != 1 else None
        multiple = lookup(tok.text, MULTIPLE_WORDS)
    else:
        multiple = tok.text if tok.text in MULTIPLE_WORDS else None
    return (float(MULTIPLE_WORDS[multiple]), j + 1) if multiple else None


_NO = (0.0, -1, -1)


def _before(tokens: list[Token], start: int, taken: set[int]) -> tuple[float, int, int]:
    """A word multiple offered before the ratio at ``start`` ("twice or three times")."""
    for j in range(start - 2, max(-1, start - 2 - _REACH), -1):
        if j in taken:
            return _NO
        got = _multiple_at(tokens, j)
        if got is not None:
            value, end = got
            free = not taken & set(range(j, end))
            offered = offered_between(tokens, end, start, opened=opened_before(tokens, j))
            return (value, j, end) if free and offered else _NO
    return _NO


def _after(tokens: list[Token], end: int, taken: set[int], opened: bool) -> tuple[float, int, int]:
    """A word multiple or a bare number offered after a ratio ending at ``end``
    ("ضعفين أو ثلاثة", "1.5x or 2", "مرة ونص يا مرتين", "maybe 1.5x maybe 2")."""
    for j in range(end + 1, min(len(tokens), end + 1 + _REACH)):
        if j in taken:
            return _NO
        got = _multiple_at(tokens, j) or _bare_number(tokens, j)
        if got is not None:
            value, stop = got
            return (value, j, stop) if offered_between(tokens, end, j, opened=opened) else _NO
    return _NO


def _bare_number(tokens: list[Token], j: int) -> tuple[float, int] | None:
    """A number with nothing of its own: no suffix, no role, no unit or counted noun after."""
    tok = tokens[j]
    if tok.kind != NUM or tok.suffix or tok.role or tok.value <= 0:
        return None
    nxt = tokens[j + 1] if j + 1 < len(tokens) else None
    if nxt is not None and nxt.kind == WORD and (is_time_unit(nxt) or has_cue(nxt, COUNT_NOUNS)):
        return None
    return tok.value, j + 1


def _pair(tokens: list[Token], taken: set[int]) -> list[tuple[float, int, int]]:
    """Two word multiples offered together, with no speed word: both speed-ups,
    unless a slowdown or time noun is said of them ("يا مرة ونص يا مرتين")."""
    j, n = 0, len(tokens)
    while j < n:
        first = _multiple_at(tokens, j) if j not in taken else None
        if first is None:
            j += 1
            continue
        value, end = first
        for k in range(end + 1, min(n, end + 1 + _REACH)):
            second = _multiple_at(tokens, k)
            opened = opened_before(tokens, j)
            if second is None or not offered_between(tokens, end, k, opened=opened):
                continue
            sign = speed_direction(tokens, j, second[1], default=True)
            if sign is None:
                break
            pick = (lambda v: v) if sign > 0 else slowdown
            return [(pick(value), j, end), (pick(second[0]), k, second[1])]
        j = end
    return []
