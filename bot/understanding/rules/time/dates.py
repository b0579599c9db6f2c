"""Setup-number rules for dates, clock times, years and ids: "10:30",
"01/05/2024", "3 May", "at 10", "in 2024", "#42". A number they mark is never
the FP32 time or the ratio."""

from __future__ import annotations

import re

from bot.understanding.rules.ratio.ratio_cues import slash_fraction
from bot.understanding.text.tokens import NUM, SYM, WORD, Token
from bot.understanding.values.lexicon import (
    CLOCK_WORDS,
    COUNT_NOUNS,
    EN_UNITS,
    LABEL_FILLERS,
    MONTHS,
    PERCENT_WORDS,
)
from bot.understanding.values.nearby import at, is_time_unit, mixed_precision_at, text_at, word_in
from bot.understanding.words import table

_TENTHS = re.compile(r"\d+\.\d")  # one decimal digit: a quantity, never minutes


def _date_or_clock(tokens: list[Token], i: int) -> list[int]:
    """ "10:30", "10:30:15", "01/05/2024", "2024-05-01": the numbers after ``i`` that
    are part of the same date or clock time (none: it is not one).

    Numbers glued by ":" or "/" are a clock time or a date; glued by "-" only
    when there are three of them ("12-15h" is a range, "2024-05-01" a date).
    """
    if slash_fraction(tokens, i) is not None:
        return []  # "2/3 of the time": a share, read with the ratios
    chain: list[int] = []
    seps: set[str] = set()
    j = i + 1
    while j + 1 < len(tokens):
        sep, num = tokens[j], tokens[j + 1]
        if not (
            sep.kind == SYM and sep.glued and sep.text in ":/-" and num.kind == NUM and num.glued
        ):
            break
        if num.suffix or (seps and sep.text not in seps):
            break
        seps.add(sep.text)
        chain.append(j + 1)
        j += 2
    if seps == {"-"} and len(chain) < 2:
        return []
    if seps == {"/"} and len(chain) == 1 and is_time_unit(at(tokens, chain[0] + 1)):
        return []  # "40/50 hours", "٤٠/٥٠ ساعة": two times offered, read by the durations
    return chain


_ELAPSED_CUES = table("ELAPSED_CUES")
_FINISH_VERBS = table("FINISH_VERBS")
_FINISH_IN = table("FINISH_IN")


def elapsed_clock(tokens: list[Token], i: int) -> tuple[float, int] | None:
    """Rule ``elapsed_clock``: (hours, next index) of "7:30:00" after a word of how
    long something ran ("took 7:30:00", "training time: 1:02:03", "استغرق ٧:٣٠:٠٠"),
    as Python and most trainers print an elapsed time. Three parts only: "10:30"
    alone stays a clock time."""
    chain = _date_or_clock(tokens, i)
    if len(chain) != 2 or any(tokens[j - 1].text != ":" for j in chain):
        return None
    minutes, seconds = (tokens[j].value for j in chain)
    if tokens[i].suffix or minutes >= 60 or seconds >= 60:
        return None
    if not _after_elapsed_cue(tokens, i):
        return None
    return tokens[i].value + minutes / 60 + seconds / 3600, chain[-1] + 1


def _finished_in(tokens: list[Token], k: int) -> bool:
    """Rule ``finished_in``: "in" at ``k`` after a verb of finishing a word or two
    before ("finished in", "done training in", «انتهى التدريب في»): the clock after
    is how long the run took ("finished at 7:30:00" stays a clock)."""
    if not word_in(tokens[k], _FINISH_IN):
        return False
    return any(word_in(tokens[j], _FINISH_VERBS) for j in range(max(0, k - 2), k))


def _after_elapsed_cue(tokens: list[Token], i: int) -> bool:
    """An elapsed-time word before ``i``, past label marks, or the days of Python's
    "1 day, 3:04:05" (the clock adds to them)."""
    k = i - 1
    while k >= 0 and tokens[k].text in LABEL_FILLERS:
        k -= 1
    if k >= 0 and (word_in(tokens[k], _ELAPSED_CUES) or _finished_in(tokens, k)):
        return True
    days = at(tokens, i - 2)
    return text_at(tokens, i - 1) == "," and days is not None and EN_UNITS.get(days.text) == "d"


def date_or_clock_digits(tokens: list[Token], i: int) -> tuple[str, dict[int, str]] | None:
    """ "10:30", "01/05/2024", "2024-05-01": a date, and so are the numbers after it
    (not an elapsed time, :func:`elapsed_clock`)."""
    chain = _date_or_clock(tokens, i)
    if not chain or elapsed_clock(tokens, i) is not None:
        return None
    return "date", {j: "date" for j in chain if not tokens[j].role}


def identifier(tokens: list[Token], i: int) -> str | None:
    """ "#42", "@3": an id."""
    prev = at(tokens, i - 1)
    glued_id = prev is not None and prev.kind == SYM and prev.text in "#@"
    return "id" if glued_id and tokens[i].glued else None


def clock_or_month_word(tokens: list[Token], i: int) -> str | None:
    """ "10 o'clock", "3 May", "May 3"."""
    nxt, prev = at(tokens, i + 1), at(tokens, i - 1)
    if word_in(nxt, CLOCK_WORDS) or word_in(prev, MONTHS) or word_in(nxt, MONTHS):
        return "date"
    return None


def clock_after_at(tokens: list[Token], i: int) -> str | None:
    """ "at 10", "الساعه ٣": a clock time; but "clocks in at 14 hr" is a duration,
    "at 2 times" a ratio, "at 8 GPUs" a count, "at 65% of the fp32 time" a share,
    and "at 2.5" no clock time (no clock reads so; "2.30" does)."""
    tok, nxt, prev = tokens[i], at(tokens, i + 1), at(tokens, i - 1)
    if prev is None or is_time_unit(nxt):
        return None
    if prev.kind == WORD and prev.text == "الساعه":
        return "clock"
    if prev.text != "at" or (nxt is not None and nxt.text in ("times", "x")):
        return None
    if mixed_precision_at(tokens, i - 1):
        return None  # "with amp at 2": the ratio
    if (
        word_in(nxt, COUNT_NOUNS)
        or _TENTHS.fullmatch(tok.text)
        or text_at(tokens, i + 1) in PERCENT_WORDS
    ):
        return None
    return "clock"


def year(tokens: list[Token], i: int) -> str | None:
    """ "in 2024", "عام ٢٠٢٣": a year."""
    tok, nxt, prev = tokens[i], at(tokens, i + 1), at(tokens, i - 1)
    if not (1900 <= tok.value <= 2100 and tok.value == int(tok.value)) or is_time_unit(nxt):
        return None
    return "date" if prev is not None and prev.text in _YEAR_LEADS else None


_YEAR_LEADS = table("YEAR_LEADS")
