"""Durations: "100h", "2 days 6 hours", "1h30m", "يومين و٦ ساعات", "ساعة إلا ربع".

A duration is built from pieces (a number with a unit, a dual like ساعتين,
a lone singular unit like "يوم كامل" or "a week") that add up while the
units get smaller, each optionally completed by a fraction ("and a half",
"ونص", "إلا ربع"). Durations that are deadlines, intervals or the past
("deadline in 3 days", "every 2 hours", "3 days ago") are marked but not
offered as the FP32 time.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.understanding.resolving.candidates import TIME, Candidate
from bot.understanding.resolving.resolve import resolve
from bot.understanding.rules.alternatives import JOINERS as ALTERNATIVES
from bot.understanding.rules.alternatives import (
    offered_between,
    opened_before,
    partner_after,
    partner_before,
)
from bot.understanding.rules.time.dates import elapsed_clock
from bot.understanding.rules.time.other_durations import (
    epoch_time,
    epochs_listed,
    excluded,
    other_activity,
    rate_after,
    step_time,
)
from bot.understanding.text.tokens import ARABIC, NUM, WORD, Token
from bot.understanding.values.lexicon import (
    AR_UNIT_ABBREVIATIONS,
    AR_UNITS,
    ARABIZI_UNITS,
    COUNT_NOUNS,
    EN_UNITS,
    FRACTIONS,
    QUESTION_WORDS,
    UNIT_HOURS,
    has_prefix_article,
    lookup,
)
from bot.understanding.values.nearby import at, counted_noun, text_at, word_in
from bot.understanding.words import table

RANGE_JOINERS = table("RANGE_JOINERS")
TIME_RANGE_JOINERS = table("TIME_RANGE_JOINERS")
TIME_RANGE_OPENERS = table("TIME_RANGE_OPENERS")
COMPOUND_JOINERS = table("COMPOUND_JOINERS")
UNIT_ORDER = ("sec", "min", "h", "d", "w", "fn", "mo", "y")
# What joins a number to the duration after it: a range, an alternative, "40/50 hours".
_PARTNER_JOINERS = RANGE_JOINERS | TIME_RANGE_JOINERS | ALTERNATIVES | {"/"}
# How far apart two guesses at one time may be ("an hour or 5" at most).
_GUESS_SPREAD = 5


@dataclass
class Quantity:
    """A duration as written: ``value`` in ``unit`` (the smallest unit used)."""

    value: float
    unit: str
    start: int
    end: int  # exclusive token index
    strong: bool = True  # a written number, not just "a week"
    excluded: bool = False
    # One epoch's time ("20 min per epoch"): never the job's, but with the epoch count it is.
    per_epoch: bool = False
    # One step's time ("a step is 1.5 minutes"): a step time (rates.py), never the job's.
    per_step: bool = False
    rule: str = "duration"  # which rule read it (Query.read_by)
    said: str = ""  # what it was worked out from, when not its span ("0.9 s/it × 20000")
    # The high end of a range whose low end is the duration before it ("30-40 hours",
    # "بين ٣٠ و٤٠ ساعة"): rule ``time_range`` answers at both ends (parse.py).
    ranged: bool = False
    # False for a bare number labelled a time ("FP32 time: 40", "from 90 min to 60"):
    # hours by default, or the unit of the time it is paired with (fp32_and_mixed.py).
    unit_said: bool = True

    @property
    def hours(self) -> float:
        return self.value * UNIT_HOURS[self.unit]


def unit_of(tok: Token | None, allow_article: bool = False) -> tuple[str, int] | None:
    """(unit, count said by the word itself) for a unit word, else None."""
    if tok is None or tok.kind != WORD or tok.role:
        return None
    if tok.script == ARABIC:
        stem = lookup(tok.text, AR_UNITS)
        if stem is None or (not allow_article and has_prefix_article(tok.text, stem)):
            return None
        return AR_UNITS[stem]
    unit = EN_UNITS.get(tok.text)
    return (unit, 0) if unit else ARABIZI_UNITS.get(tok.text)


def abbreviated_unit(tokens: list[Token], j: int) -> str | None:
    """The unit of an Arabic abbreviation at ``j`` ("س", "سا", "د"), else None.

    Read only after a number (the caller's job) and never when a dot and
    another letter follow: "١٠ د.ك" is ten Kuwaiti dinars, not ten minutes.
    """
    tok = tokens[j] if j < len(tokens) else None
    if tok is None or tok.kind != WORD or tok.role or tok.text not in AR_UNIT_ABBREVIATIONS:
        return None
    dot, letter = at(tokens, j + 1), at(tokens, j + 2)
    if dot is not None and dot.text == "." and dot.glued and letter is not None and letter.glued:
        return None
    return AR_UNIT_ABBREVIATIONS[tok.text]


def _unit_after_of(tokens: list[Token], j: int) -> str | None:
    """The plural unit in "N د <unit>" (Maghrebi د = "of"), where د is no minute."""
    of, noun = at(tokens, j), at(tokens, j + 1)
    if of is None or of.text != "د" or of.role:
        return None
    unit = unit_of(noun, allow_article=True)
    return unit[0] if unit and unit[1] == 0 else None


def _glued_minutes(tokens: list[Token], j: int, smallest: str) -> float | None:
    """ "36h30": the bare number glued after an hour piece is minutes, else None."""
    tok, before = at(tokens, j), at(tokens, j - 1)
    if smallest != "h" or tok is None or before is None or before.kind != NUM:
        return None
    if not before.suffix or tok.kind != NUM or not tok.glued or tok.suffix or tok.role:
        return None
    return tok.value if tok.value.is_integer() and 0 <= tok.value < 60 else None


def _fraction(tok: Token | None) -> float | None:
    if tok is None or tok.kind != WORD:
        return None
    stem = lookup(tok.text, FRACTIONS) if tok.script == ARABIC else tok.text
    return FRACTIONS.get(stem) if stem else None


Piece = tuple[float, str, int, bool]  # value, unit, next index, strong (a number was written)


def _piece(tokens: list[Token], i: int) -> Piece | None:
    """Read one (value, unit, next index, strong) piece at ``i``."""
    tok = tokens[i]
    if tok.role:
        return None
    if tok.kind == NUM:
        return _number_piece(tokens, i)
    return _word_piece(tokens, i) if tok.kind == WORD else None


def _number_piece(tokens: list[Token], i: int) -> Piece | None:
    """ "8h", "8 hours", "٨ ساعات", "ربعة د السوايع", "١٢ س", "3 quarters of an hour"."""
    tok, nxt = tokens[i], at(tokens, i + 1)
    elapsed = elapsed_clock(tokens, i)
    if elapsed is not None:  # "took 7:30:00"
        return elapsed[0], "h", elapsed[1], True
    suffix = tok.suffix.lstrip("-")
    if suffix in EN_UNITS:
        return tok.value, EN_UNITS[suffix], i + 1, True
    if suffix:
        return None
    unit = unit_of(nxt)
    if unit and unit[1] != 2:
        return tok.value, unit[0], i + 2, True
    unit = _unit_after_of(tokens, i + 1)
    if unit:  # Maghrebi "ربعة د السوايع": four of the hours
        return tok.value, unit, i + 3, True
    abbreviated = abbreviated_unit(tokens, i + 1)
    if abbreviated:  # "١٢ س", "٣٠ د"
        return tok.value, abbreviated, i + 2, True
    return _fraction_of_unit(tokens, i) or _share_of_unit(tokens, i) or _and_a_fraction(tokens, i)


def _share_of_unit(tokens: list[Token], i: int) -> Piece | None:
    """ "3/4 of a day", "¾ of a day", "0.5 of an hour": a number below one, "of", a unit."""
    if not 0 < tokens[i].value < 1 or text_at(tokens, i + 1) != "of":
        return None
    k = i + 2 + (text_at(tokens, i + 2) in ("a", "an", "the"))
    unit = unit_of(at(tokens, k))
    return (tokens[i].value, unit[0], k + 1, True) if unit and unit[1] != 2 else None


def _fraction_of_unit(tokens: list[Token], i: int) -> Piece | None:
    """ "three quarters of an hour", "ثلاث ارباع الساعه"."""
    frac = _fraction(at(tokens, i + 1))
    if not frac:
        return None
    k = i + 2 + (text_at(tokens, i + 2) == "of")
    k += text_at(tokens, k) in ("a", "an")
    unit = unit_of(at(tokens, k), allow_article=True)
    return (tokens[i].value * frac, unit[0], k + 1, True) if unit and unit[1] != 2 else None


def _and_a_fraction(tokens: list[Token], i: int) -> Piece | None:
    """ "2 and a half hours"."""
    if text_at(tokens, i + 1) != "and" or i + 3 >= len(tokens):
        return None
    k = i + 2 + (text_at(tokens, i + 2) in ("a", "an"))
    frac = _fraction(at(tokens, k))
    unit = unit_of(at(tokens, k + 1))
    return (tokens[i].value + frac, unit[0], k + 2, True) if frac and unit else None


def _word_piece(tokens: list[Token], i: int) -> Piece | None:
    """ "يومين" (two), "يوم" (one, unless asked about), "an hour", "half a day",
    "نص ساعة", "a quarter hour": a unit word that says how many itself."""
    tok = tokens[i]
    unit = unit_of(tok)
    if unit and unit[1] == 2:
        return 2.0, unit[0], i + 1, True
    if unit and unit[1] == 1 and not _asked(tokens, i):
        one = at(tokens, i + 1)
        if one is not None and one.kind == NUM and one.extra.get("spelled") and one.value == 1:
            return 1.0, unit[0], i + 2, True  # "يوم واحد", "ساعة واحدة": the number follows
        return 1.0, unit[0], i + 1, False
    if tok.text in ("a", "an") and i + 1 < len(tokens):
        unit = unit_of(tokens[i + 1])
        if unit and unit[1] == 0:
            return 1.0, unit[0], i + 2, False
    if unit and _bare_singular(tokens, i):
        return 1.0, unit[0], i + 1, False
    frac = _fraction(tok)
    if frac is None or i + 1 >= len(tokens):
        return None
    k = i + 1 + (text_at(tokens, i + 1) in ("a", "an", "of"))
    k += text_at(tokens, k) in ("a", "an")
    unit = unit_of(at(tokens, k))
    return (frac, unit[0], k + 1, False) if unit and not _asked(tokens, i) else None


def _bare_singular(tokens: list[Token], i: int) -> bool:
    """ "week 2", "day 1.5": a singular English unit opening a clause, a bare number
    after it, is one of that unit (as "أسبوع ٢" is), the number left to the ratio."""
    tok, nxt, prev = tokens[i], at(tokens, i + 1), at(tokens, i - 1)
    return (
        tok.script != ARABIC
        and len(tok.text) > 2
        and not tok.text.endswith("s")
        and (prev is None or prev.is_boundary)
        and nxt is not None
        and nxt.kind == NUM
        and not nxt.suffix
        and not nxt.role
    )


def _asked(tokens: list[Token], i: int) -> bool:
    """ "كم دقيقة", "how many hours", "بكم ساعة", "لكم يوم": a unit asked about, not a
    value (a question word with its clitics, "بكم", "وكم", is still one)."""
    return any(word_in(t, QUESTION_WORDS) for t in tokens[max(0, i - 2) : i])


def _with_fraction(tokens: list[Token], j: int, value: float) -> tuple[float, int]:
    """ "and a half", "ونص", "و نص", "إلا ربع" after a piece."""
    n = len(tokens)
    word = text_at(tokens, j)
    if word == "and":
        k = j + 1 + (text_at(tokens, j + 1) in ("a", "an"))
        frac = _fraction(tokens[k]) if k < n else None
        if frac:
            return value + frac, k + 1
    if word in ("و",) and j + 1 < n:
        frac = _fraction(tokens[j + 1])
        if frac:
            return value + frac, j + 2
    if word.startswith("و") and j < n and tokens[j].script == ARABIC:
        frac = _fraction(tokens[j])
        if frac and word[1:] in FRACTIONS:
            return value + frac, j + 1
    if word in ("الا", "غير") and j + 1 < n:
        frac = _fraction(tokens[j + 1])
        if frac:
            return value - frac, j + 2
    return value, j


def find_durations(tokens: list[Token]) -> list[Quantity]:
    """All durations in the message, left to right (excluded ones flagged).

    The scan emits one ``time`` candidate per duration (rule ``duration``, the
    range partner and each listed number their own); the one resolver picks
    them, and only then are their tokens marked.
    """
    found = _DurationScan(tokens).run()
    if not found:
        return found
    cands = [
        Candidate(TIME, q.start, max(q.end, q.start + 1), q.hours, q.rule, role="time")
        for q in found
    ]
    picked = {id(c) for c in resolve(cands).chosen}
    for cand in cands:
        if id(cand) in picked:
            cand.mark(tokens, keep_roles=True)  # "2 x 8 hours": the 2 stays the multiplier
    return [q for q, c in zip(found, cands, strict=True) if id(c) in picked]


class _DurationScan:
    """One left-to-right pass over the pieces; ``taken`` holds the tokens already
    read as a duration, so a range or a list never takes one twice."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.found: list[Quantity] = []
        self.taken: set[int] = set()

    def run(self) -> list[Quantity]:
        i, n = 0, len(self.tokens)
        while i < n:
            piece = _piece(self.tokens, i)
            i = self._read(i, piece) if piece is not None else i + 1
        return self.found

    def _read(self, i: int, piece: Piece) -> int:
        tokens = self.tokens
        hours, smallest, j, strong = _compound(tokens, i, piece)
        start = i
        factor = _multiplier(tokens, i)
        if factor is not None:  # "2 x 8 hours" = 16 hours
            start, times = factor
            hours *= times
        listed = _listed_before(tokens, i, self.taken)
        summed = bool(listed) and epochs_listed(tokens, listed[0], j)
        if summed:
            # "epochs took 10, 11, 12 hours": epochs run one after another, so
            # their times add up to the run's, as a compound's pieces do.
            hours += sum(tokens[k].value for k in listed) * UNIT_HOURS[smallest]
            start, listed = listed[0], []
        q = Quantity(hours / UNIT_HOURS[smallest], smallest, start, j, strong)
        q.per_epoch = not summed and epoch_time(tokens, i, j)
        q.per_step = not (summed or q.per_epoch) and step_time(tokens, i, j, hours)
        # "10, 11, 12 hours per epoch": the "per" after a summed list made it the run's.
        per_epoch_list = summed and rate_after(tokens, j)
        q.excluded = (
            q.per_epoch or q.per_step or (excluded(tokens, start, j) and not per_epoch_list)
        )
        for k in listed:  # "10, 11, 12 hours" said of nothing: each one a candidate
            self._add(Quantity(tokens[k].value, smallest, k, k + 1, excluded=q.excluded))
        self._join_range(i, q)
        self._add(q)
        guess, opened = q, opened_before(tokens, q.start)
        while (after := _alternative_after(tokens, guess, q, self.taken, opened)) is not None:
            # "40 hours, maybe 50, maybe 60": each guess offered after the one before.
            self._add(after)
            guess, opened = after, opened_before(tokens, after.start)
        return j

    def _join_range(self, i: int, q: Quantity) -> None:
        """ "يوم أو يومين", "a week or 2 weeks": two candidates, both as written;
        "100 or 200 hours", "12-15 h": the first number shares the unit."""
        prev = self.found[-1] if self.found else None
        joiners = _PARTNER_JOINERS
        if prev is not None and prev.end < i and offered_between(self.tokens, prev.end, i, joiners):
            prev.strong = q.strong = True
            q.ranged = _joins_a_range(self.tokens, prev, i)
        partner = _range_partner(self.tokens, i, q.unit, self.taken)
        if partner is not None:
            partner.excluded = partner.excluded or q.excluded  # "5-6 days ago"
            q.ranged = _joins_a_range(self.tokens, partner, i)
            self._add(partner)

    def _add(self, q: Quantity) -> None:
        self.found.append(q)
        self.taken.update(range(q.start, q.end))


def _compound(tokens: list[Token], i: int, piece: Piece) -> tuple[float, str, int, bool]:
    """(hours, smallest unit, next index, strong) of the duration starting with
    ``piece``: its fraction, then smaller pieces that add up ("2 days 6 hours",
    "1h30m", "36h30", "يومين و٦ ساعات"). A unit completed by a fraction says how much
    as a number does ("an hour and a quarter", «ساعة وربع»): it is strong, a time
    of its own beside another ("ساعتين fp32 و ساعة وربع amp")."""
    value, unit, j, strong = piece
    whole = value
    value, j = _with_fraction(tokens, j, value)
    strong = strong or value != whole
    hours, smallest = value * UNIT_HOURS[unit], unit
    minutes = _glued_minutes(tokens, j, smallest)
    if minutes is not None:
        hours, smallest, j = hours + minutes / 60, "min", j + 1
    n = len(tokens)
    while j < n:
        joined = text_at(tokens, j) in COMPOUND_JOINERS
        k = j + (joined or (text_at(tokens, j) == "," and elapsed_clock(tokens, j + 1) is not None))
        nxt = _piece(tokens, k) if k < n else None
        if nxt is None or UNIT_ORDER.index(nxt[1]) >= UNIT_ORDER.index(smallest):
            break
        v2, u2, j2, s2 = nxt
        v2, j2 = _with_fraction(tokens, j2, v2)
        if other_activity(tokens, j, j2):
            break  # "36h, 8 min per epoch": the 8 minutes are not part of the 36 h
        hours += v2 * UNIT_HOURS[u2]
        smallest, strong, j = u2, strong or s2, j2
    return hours, smallest, j, strong


def _listed_before(tokens: list[Token], i: int, taken: set[int]) -> list[int]:
    """ "10, 11, 12 hours": the bare numbers listed before the one at ``i`` that
    share its unit (at least two of them, so "ratio 2, 36 hours" is no list)."""
    if tokens[i].kind != NUM or tokens[i].suffix:
        return []
    listed: list[int] = []
    k = i
    while k >= 2 and tokens[k - 1].text in (",", "and", "و") and tokens[k - 1].kind != NUM:
        first = tokens[k - 2]
        if first.kind != NUM or first.role or first.suffix or k - 2 in taken:
            break
        listed.append(k - 2)
        k -= 2
    return listed[::-1] if len(listed) >= 2 else []


def _multiplier(tokens: list[Token], i: int) -> tuple[int, float] | None:
    """ "2 x 8 hours", "2x8h": (where the product starts, the count), else None.

    The context pass marks the count (role "multiplier") only when a duration
    follows its "x"; GPU counts ("2 x A100", "4 x 8 GPUs") never get here.
    """
    if i >= 2 and tokens[i - 1].text == "x" and tokens[i - 2].role == "multiplier":
        return i - 2, tokens[i - 2].value
    if i >= 1 and tokens[i - 1].role == "multiplier" and tokens[i - 1].suffix == "x":
        return i - 1, tokens[i - 1].value
    return None


def _range_partner(tokens: list[Token], i: int, unit: str, taken: set[int]) -> Quantity | None:
    """ "100 or 200 hours", "12-15 h", "٤٠ ولا ٥٠ ساعة", "either 2 or 3 days": the first
    number shares the unit (rule ``alternatives``)."""
    if i < 2 or tokens[i].kind != NUM:
        return None
    joiner = tokens[i - 1]
    between = i >= 3 and tokens[i - 3].text in ("between", "بين") and joiner.text in ("and", "و")
    k = i - 2 if between else partner_before(tokens, i, _PARTNER_JOINERS)
    if k is None:
        return None
    first = tokens[k]
    if first.kind != NUM or first.role or first.suffix or k in taken:
        return None
    q = Quantity(first.value, unit, k, k + 1)
    q.excluded = excluded(tokens, k, k + 1)
    return q


def _joins_a_range(tokens: list[Token], low: Quantity, i: int) -> bool:
    """Rule ``time_range``: the duration ``low`` and the one at ``i`` are the ends of one
    range, not alternatives: one range word stands between them ("30-40 hours", "2 to 3
    days", «من يومين لـ ٣ أيام», «٣٠ إلى ٤٠ ساعة»), or an "and" after "between" («بين ٣٠
    و٤٠ ساعة»). "or", "/" and the words of doubt offer alternatives (rule ``alternatives``)."""
    between = tokens[low.end : i]
    if len(between) != 1:
        return False
    if between[0].text in TIME_RANGE_JOINERS:
        return True
    opener = at(tokens, low.start - 1)
    return (
        between[0].text in ("and", "و")
        and opener is not None
        and (opener.text in TIME_RANGE_OPENERS)
    )


def _alternative_after(
    tokens: list[Token], guess: Quantity, q: Quantity, taken: set[int], opened: bool
) -> Quantity | None:
    """ "takes 40 hours, or maybe 50", "٤٠ ساعة أو يمكن ٥٠": a bare number offered
    as an alternative after the duration ``q`` (or after the last ``guess`` at it)
    shares its unit (rule ``alternatives``). A number with a unit or a counted noun
    after it is a reading of its own."""
    k = partner_after(tokens, guess.end, opened)
    if k is None or k in taken:
        return None
    tok, nxt = tokens[k], at(tokens, k + 1)
    if tok.role or tok.suffix or (nxt is not None and nxt.kind == WORD and _counts(nxt)):
        return None
    if not _same_order(q.value, tok.value):
        return None  # "takes 100 hours, maybe 1.5": no second guess at the time
    # "a day or two", «يومين أو ثلاثة»: a unit said without a digit is as meant as
    # the number offered beside it, so both stay candidates and the reply asks.
    q.strong = True
    return Quantity(tok.value, q.unit, k, k + 1, excluded=q.excluded)


def _same_order(a: float, b: float) -> bool:
    """Two guesses at one time lie near each other ("40 hours, maybe 50", "a day or
    two"); a number many times smaller or larger is something else."""
    low, high = sorted((abs(a), abs(b)))
    return low > 0 and high <= _GUESS_SPREAD * low


def _counts(tok: Token) -> bool:
    """A word after a number that says what it counts (a unit, "epochs", "GPUs")."""
    return unit_of(tok) is not None or counted_noun(tok, COUNT_NOUNS) is not None
