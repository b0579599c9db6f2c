"""Rule ``chatter_around_command``: greetings and thanks around a bare command.

"hello, 80 1.5", "60 2 ty", "quick one: 64h and 1.9", "مرحبا، ٨٠ ١٫٥",
"سؤال سريع: ٦٤ ساعة و ١٫٩ لو سمحت": the words at either end that only greet,
fill or thank (``words.*.CHATTER``) are dropped before reading, so what is
left reads as the command it is. Rule ``address_after_chatter``: the words
that address someone (``words.*.ADDRESS_WORDS``: "boss", "mate", «يا باشا»,
«يا غالي») are chatter too where they follow one of those phrases ("thanks
boss, 100 2", «تسلم يا غالي، ٥٠ ساعة و ١.٥», "60 2 cheers mate"), and only
there: alone they may be part of the question. Only when digits remain: "thanks!" and
"ألف شكر" stay small talk. The language is still detected on the whole
message (a greeting in Arabic asks for an Arabic reply).
"""

from __future__ import annotations

from functools import cache

from bot.understanding.text.tokens import NUM, SYM, Token
from bot.understanding.words import phrases, table

_PUNCTUATION = frozenset(",:;!.-—?،")
_ADDRESS = table("ADDRESS_WORDS")


@cache
def _by_end_word() -> tuple[dict[str, list[tuple[str, ...]]], dict[str, list[tuple[str, ...]]]]:
    """Chatter phrases indexed by first and by last word (longest first), so each end
    token is checked against the few phrases that can start or end there."""
    first: dict[str, list[tuple[str, ...]]] = {}
    last: dict[str, list[tuple[str, ...]]] = {}
    for phrase in phrases("CHATTER"):
        first.setdefault(phrase[0], []).append(phrase)
        last.setdefault(phrase[-1], []).append(phrase)
    return first, last


def _phrase_at(tokens: list[Token], i: int, step: int) -> int:
    """Tokens a chatter phrase covers starting at ``i`` (reading in ``step``'s direction)."""
    tok = tokens[i]
    if tok.kind == SYM and tok.text in _PUNCTUATION:
        return 1
    first, last = _by_end_word()
    for phrase in (first if step > 0 else last).get(tok.text, ()):
        n = len(phrase)
        lo = i if step > 0 else i - n + 1
        if (
            lo >= 0
            and lo + n <= len(tokens)
            and tuple(t.text for t in tokens[lo : lo + n]) == phrase
        ):
            return n
    return 0


def _address_run(tokens: list[Token], i: int, step: int, stop: int) -> int:
    """How many address words ("boss", «يا غالي») run from ``i`` in ``step``'s direction
    (never past ``stop``)."""
    n = 0
    while i != stop and tokens[i].text in _ADDRESS:
        n, i = n + 1, i + step
    return n


def _address_at_end(tokens: list[Token], start: int, end: int) -> int:
    """The address words ending at ``end`` when a chatter phrase comes just before
    them ("100 2 thanks boss"), else 0."""
    n = _address_run(tokens, end - 1, -1, start - 1)
    if n and end - n > start and _phrase_at(tokens, end - n - 1, -1):
        return n
    return 0


def strip_chatter(tokens: list[Token]) -> list[Token]:
    """The tokens without chatter at either end, or all of them when no digits remain."""
    start, end = 0, len(tokens)
    while start < end and (
        n := _phrase_at(tokens, start, 1) or (start and _address_run(tokens, start, 1, end))
    ):
        start += n
    while end > start and (
        n := _phrase_at(tokens, end - 1, -1) or _address_at_end(tokens, start, end)
    ):
        end -= n
    if (start, end) == (0, len(tokens)) or not any(t.kind == NUM for t in tokens[start:end]):
        return tokens
    return tokens[start:end]
