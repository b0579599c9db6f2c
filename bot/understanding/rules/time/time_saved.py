"""Rule ``time_saved``: a time that mixed precision takes off the run is no time of
either run, but the FP32 run less it is the mixed one.

"amp saves 12 hours on our 48h fp32 run", "cut 12 hours off a 48-hour run", "fp32
takes 48h and amp shaves 12 hours off", «الـ amp وفر ١٢ ساعة من تدريب ٤٨ ساعة»: the
ratio is 48 / (48 - 12) = 1.33, never 48 / 12. A saving word right before the time
(``PCT_LESS``, hedges and "by" between) or one of ``TIME_SAVED_AFTER`` right after it
("12 hours off", "١٢ ساعة أقل") marks it; "cut it to 12 hours" is what the run became
(``TO_WORDS``), read by ``fp32_and_mixed_times``.
"""

from __future__ import annotations

from bot.understanding.rules.time.durations import Quantity
from bot.understanding.text.tokens import WORD, Token
from bot.understanding.values.lexicon import PCT_LESS
from bot.understanding.values.nearby import at, in_table, word_in
from bot.understanding.words import table

_SAVED_AFTER = table("TIME_SAVED_AFTER")
_REACH = 3  # words looked back for the saving word: "saves us about", «وفر لنا حوالي»


def time_saved(tokens: list[Token], times: list[Quantity]) -> tuple[Quantity, Quantity] | None:
    """(the FP32 time, the time saved) when one of two times is a saving and smaller
    than the other, else None."""
    if len(times) != 2:
        return None
    marks = [_is_saved(tokens, q) for q in times]
    if marks.count(True) != 1:
        return None
    saved, whole = (times[0], times[1]) if marks[0] else (times[1], times[0])
    return (whole, saved) if 0 < saved.hours < whole.hours else None


def _is_saved(tokens: list[Token], q: Quantity) -> bool:
    if word_in(at(tokens, q.end), _SAVED_AFTER):
        return True
    for k in range(q.start - 1, max(-1, q.start - 1 - _REACH), -1):
        tok = tokens[k]
        if tok.kind != WORD or in_table(tok, "TO_WORDS"):
            return False
        if word_in(tok, PCT_LESS):
            return True
        if not (in_table(tok, "HEDGES") or in_table(tok, "BY_WORDS") or in_table(tok, "SAVED_FOR")):
            return False
    return False
