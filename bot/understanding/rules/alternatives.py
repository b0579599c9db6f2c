"""Rule ``alternatives``: two numbers offered as alternatives are both candidates.

"40 or 50 hours", "either 2 or 3 days", "takes 40 hours, or maybe 50", "٤٠ ولا
٥٠ ساعة", "يا ٥٠ يا ٦٠ ساعة", "إما ٤٠ أو ٥٠", "النسبة ١٫٥ والا ٢": the writer is
unsure which, so the reader keeps both and the reply asks (``ambiguous``),
never silently taking the first; hedged guesses too ("maybe 1.5 maybe 2", "٤٠
ساعة ويمكن ٥٠", «يا ١٫٥ يا ٢»). The words are data (``ALTERNATIVE_JOINERS``,
``ALTERNATIVE_OPENERS``, ``ALTERNATIVE_SOFTENERS``, ``ALTERNATIVE_DOUBTS``,
``ALTERNATIVE_ANDS``, ``ALTERNATIVE_PAUSES`` in ``words/*.toml``; a question mark
is such a pause: "1.5? maybe 2", "is it 1.5? or 2?", «١٫٥؟ يمكن ٢»); the durations, the labels, the ratio
markers and the bare guesses (``position.by_alternatives``) share this one test of
what stands between two numbers.
"""

from __future__ import annotations

from itertools import pairwise

from bot.understanding.text.tokens import NUM, Token
from bot.understanding.values.nearby import word_in
from bot.understanding.words import table

JOINERS = table("ALTERNATIVE_JOINERS")
OPENERS = table("ALTERNATIVE_OPENERS")
SOFTENERS = table("ALTERNATIVE_SOFTENERS")
DOUBTS = table("ALTERNATIVE_DOUBTS")
ANDS = table("ALTERNATIVE_ANDS")
PAUSES = table("ALTERNATIVE_PAUSES")
# At most this many tokens stand between two alternatives ("40 hours, or maybe 50").
_GAP = 4


def offered_between(
    tokens: list[Token], start: int, end: int, joiners=JOINERS, opened: bool = False
) -> bool:
    """Whether ``tokens[start:end]`` (what stands between two numbers) offers the
    second as an alternative to the first: one joiner or a word of doubt, with at
    most commas, an "and" and softening words beside it ("or", ", or maybe", "ولا",
    "أو يمكن", "يعني أو", "40 hrs, maybe 50", "40 hours and maybe 50", "٤٠ ساعة ويمكن
    ٥٠", "ratio of 1.5 maybe 2"). A word that opens and is said again after the
    second number opens a pair of its own unless the first was ``opened`` too:
    "maybe 1.5 maybe 2", "يا ١٫٥ يا ٢" are a pair, "100 maybe 1.5 maybe 2", "١٠٠ يا
    ١٫٥ يا ٢" are 100 and that pair."""
    between = tokens[start:end]
    if not between or len(between) > _GAP:
        return False
    joined = doubt = False
    for tok in between:
        if tok.text in PAUSES or tok.text in ANDS:
            continue
        if tok.text in joiners and not joined:
            joined = True
        elif word_in(tok, SOFTENERS) is not None or word_in(tok, DOUBTS) is not None:
            doubt = doubt or word_in(tok, DOUBTS) is not None
        else:
            return False
    return (joined or doubt) and (opened or not opens_a_pair(tokens, end))


def opens_a_pair(tokens: list[Token], i: int) -> bool:
    """«١٠٠ يا ١٫٥ يا ٢», "100 maybe 1.5 maybe 2": a word that opens alternatives (a
    joiner such as «يا», or a word of doubt) right before the number at ``i`` and
    said again right after it opens the pair of that number and the next; it
    offers nothing before it."""
    before = tokens[i - 1] if i > 0 else None
    again = tokens[i + 1] if i + 1 < len(tokens) else None
    if before is None or again is None or again.text != before.text:
        return False
    if before.text in JOINERS:
        return word_in(before, OPENERS) is not None
    return word_in(before, DOUBTS) is not None


def partner_before(tokens: list[Token], i: int, joiners=JOINERS) -> int | None:
    """The index of a bare number offered as an alternative before the number at ``i``."""
    for k in range(i - 2, max(-1, i - 2 - _GAP), -1):
        tok = tokens[k]
        if tok.kind == NUM:
            offered = offered_between(tokens, k + 1, i, joiners, opened_before(tokens, k))
            return k if offered else None
    return None


def partner_after(tokens: list[Token], end: int, opened: bool = False) -> int | None:
    """The index of a bare number offered as an alternative after a value ending at
    ``end`` ("40 hours, or 50", "٤٠ ساعة أو يمكن ٥٠"; "maybe 1.5 maybe 2" when the
    value was ``opened`` by a word of doubt)."""
    for k in range(end + 1, min(len(tokens), end + 1 + _GAP)):
        tok = tokens[k]
        if tok.kind == NUM:
            return k if offered_between(tokens, end, k, opened=opened) else None
    return None


def opened_before(tokens: list[Token], start: int) -> bool:
    """ "either 1.5", "maybe 1.5", "إما ١٫٥", "يا ١٫٥", "يمكن ١٫٥": a word of doubt or
    one that opens alternatives right before the value starting at ``start``."""
    tok = tokens[start - 1] if start > 0 else None
    return word_in(tok, OPENERS) is not None or word_in(tok, DOUBTS) is not None


def offers_alternatives(tokens: list[Token], i: int) -> bool:
    """Whether the word at ``i`` only hedges or offers alternatives of a time or a
    ratio, so it keeps a command bare: a word of doubt, one that opens alternatives
    or a joiner ("100 1.5 or 2", "100h, maybe 1.5", «١٠٠ يا ١٫٥ يا ٢»), unless a number
    beside it is read as something else ("4 or 8 GPUs", "batch 32 or 64")."""
    tok = tokens[i]
    if tok.text not in JOINERS and not any(word_in(tok, t) for t in (OPENERS, DOUBTS)):
        return False
    beside = (tokens[k] for k in (i - 1, i + 1) if 0 <= k < len(tokens))
    return not any(t.kind == NUM and t.role not in ("", "time", "ratio") for t in beside)


def alike_words_offered(tokens: list[Token], found: list) -> list:
    """«يا ضعف يا ضعفين», "twice or two times": two values written in words (no
    digits) that the word tables give the same number, offered as alternatives of
    each other. The writer meant two amounts the tables cannot tell apart, so both
    stay (``found``: objects with ``value``, ``start``, ``end``, ``text``) and the
    reply asks which, as written. Empty when there are none."""
    for a, b in pairwise(sorted(found, key=lambda r: r.start)):
        worded = not any(c.isdigit() for c in a.text + b.text)
        end = max(a.end, a.start + 1)
        alike = worded and a.value == b.value and a.text != b.text and end <= b.start
        if alike and offered_between(tokens, end, b.start, opened=opened_before(tokens, a.start)):
            return [a, b]
    return []
