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

from bot.understanding.lexicon import (
    AR_UNIT_ABBREVIATIONS,
    AR_UNITS,
    ARABIZI_UNITS,
    DURATION_EXCLUDERS_AFTER,
    DURATION_EXCLUDERS_BEFORE,
    EN_UNITS,
    EPOCH_NOUNS,
    FRACTIONS,
    FUTURE_EVENTS,
    FUTURE_MARKERS,
    QUESTION_WORDS,
    RATE_MARKERS,
    RATE_NOUNS,
    SIDE_ACTIVITIES,
    UNIT_HOURS,
    WHOLE_RUN_NOUNS,
    has_prefix_article,
    lookup,
)
from bot.understanding.tokens import ARABIC, NUM, SYM, WORD, Token
from bot.understanding.words import table

RANGE_JOINERS = table("RANGE_JOINERS")
COMPOUND_JOINERS = table("COMPOUND_JOINERS")
UNIT_ORDER = ("sec", "min", "h", "d", "w", "mo", "y")
_EACH_WORDS = table("EACH_WORDS")
_DEADLINE_MARKERS = table("DEADLINE_MARKERS")
_OBLIGATIONS = table("OBLIGATIONS")
_HEDGES = table("HEDGES")


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
    rule: str = "duration"  # which rule read it (Query.read_by)

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
    dot, letter = _at(tokens, j + 1), _at(tokens, j + 2)
    if dot is not None and dot.text == "." and dot.glued and letter is not None and letter.glued:
        return None
    return AR_UNIT_ABBREVIATIONS[tok.text]


def _unit_after_of(tokens: list[Token], j: int) -> str | None:
    """The plural unit in "N د <unit>" (Maghrebi د = "of"), where د is no minute."""
    of, noun = _at(tokens, j), _at(tokens, j + 1)
    if of is None or of.text != "د" or of.role:
        return None
    unit = unit_of(noun, allow_article=True)
    return unit[0] if unit and unit[1] == 0 else None


def _glued_minutes(tokens: list[Token], j: int, smallest: str) -> float | None:
    """ "36h30": the bare number glued after an hour piece is minutes, else None."""
    tok, before = _at(tokens, j), _at(tokens, j - 1)
    if smallest != "h" or tok is None or before is None or before.kind != NUM:
        return None
    if not before.suffix or tok.kind != NUM or not tok.glued or tok.suffix or tok.role:
        return None
    return tok.value if tok.value.is_integer() and 0 <= tok.value < 60 else None


def _at(tokens: list[Token], j: int) -> Token | None:
    return tokens[j] if 0 <= j < len(tokens) else None


def _fraction(tok: Token | None) -> float | None:
    if tok is None or tok.kind != WORD:
        return None
    stem = lookup(tok.text, FRACTIONS) if tok.script == ARABIC else tok.text
    return FRACTIONS.get(stem) if stem else None


def _text(tokens: list[Token], i: int) -> str:
    return tokens[i].text if 0 <= i < len(tokens) else ""


def _piece(tokens: list[Token], i: int) -> tuple[float, str, int, bool] | None:
    """Read one (value, unit, next index, strong) piece at ``i``."""
    n = len(tokens)
    tok = tokens[i]
    if tok.role:
        return None
    if tok.kind == NUM:
        suffix = tok.suffix.lstrip("-")
        if suffix in EN_UNITS:
            return tok.value, EN_UNITS[suffix], i + 1, True
        if suffix:
            return None
        unit = unit_of(tokens[i + 1] if i + 1 < n else None)
        if unit and unit[1] != 2:
            return tok.value, unit[0], i + 2, True
        unit = _unit_after_of(tokens, i + 1)
        if unit:  # Maghrebi "ربعة د السوايع": four of the hours
            return tok.value, unit, i + 3, True
        abbreviated = abbreviated_unit(tokens, i + 1)
        if abbreviated:  # "١٢ س", "٣٠ د"
            return tok.value, abbreviated, i + 2, True
        # "three quarters of an hour", "ثلاث ارباع الساعه"
        frac = _fraction(tokens[i + 1]) if i + 1 < n else None
        if frac:
            k = i + 2 + (_text(tokens, i + 2) == "of")
            k += _text(tokens, k) in ("a", "an")
            unit = unit_of(tokens[k] if k < n else None, allow_article=True)
            if unit and unit[1] != 2:
                return tok.value * frac, unit[0], k + 1, True
        # "2 and a half hours"
        if _text(tokens, i + 1) == "and" and i + 3 < n:
            k = i + 2 + (_text(tokens, i + 2) in ("a", "an"))
            frac = _fraction(tokens[k]) if k < n else None
            unit = unit_of(tokens[k + 1] if k + 1 < n else None)
            if frac and unit:
                return tok.value + frac, unit[0], k + 2, True
        return None
    if tok.kind != WORD:
        return None
    unit = unit_of(tok)
    if unit and unit[1] == 2:
        return 2.0, unit[0], i + 1, True
    if unit and unit[1] == 1 and not _asked(tokens, i):
        return 1.0, unit[0], i + 1, False
    if tok.text in ("a", "an") and i + 1 < n:
        unit = unit_of(tokens[i + 1])
        if unit and unit[1] == 0:
            return 1.0, unit[0], i + 2, False
    frac = _fraction(tok)
    if frac is not None and i + 1 < n:
        # "half a day", "half an hour", "نص ساعة", "ربع ساعة", "a quarter hour"
        k = i + 1 + (_text(tokens, i + 1) in ("a", "an", "of"))
        k += _text(tokens, k) in ("a", "an")
        unit = unit_of(tokens[k] if k < n else None)
        if unit and not _asked(tokens, i):
            return frac, unit[0], k + 1, False
    return None


def _asked(tokens: list[Token], i: int) -> bool:
    """ "كم دقيقة", "how many hours": a unit asked about, not a value."""
    return any(t.text in QUESTION_WORDS for t in tokens[max(0, i - 2) : i] if t.kind == WORD)


def _with_fraction(tokens: list[Token], j: int, value: float) -> tuple[float, int]:
    """ "and a half", "ونص", "و نص", "إلا ربع" after a piece."""
    n = len(tokens)
    word = _text(tokens, j)
    if word == "and":
        k = j + 1 + (_text(tokens, j + 1) in ("a", "an"))
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
    """All durations in the message, left to right (excluded ones flagged)."""
    found: list[Quantity] = []
    i, n = 0, len(tokens)
    while i < n:
        piece = _piece(tokens, i)
        if piece is None:
            i += 1
            continue
        value, unit, j, strong = piece
        value, j = _with_fraction(tokens, j, value)
        hours = value * UNIT_HOURS[unit]
        smallest = unit
        # Compound: "2 days 6 hours", "1h30m", "يومين و٦ ساعات".
        minutes = _glued_minutes(tokens, j, smallest)
        if minutes is not None:
            hours, smallest, j = hours + minutes / 60, "min", j + 1
        while j < n:
            k = j + (_text(tokens, j) in COMPOUND_JOINERS)
            nxt = _piece(tokens, k) if k < n else None
            if nxt is None or UNIT_ORDER.index(nxt[1]) >= UNIT_ORDER.index(smallest):
                break
            v2, u2, j2, s2 = nxt
            v2, j2 = _with_fraction(tokens, j2, v2)
            if _other_activity(tokens, j, j2):
                break  # "36h, 8 min per epoch": the 8 minutes are not part of the 36 h
            hours += v2 * UNIT_HOURS[u2]
            smallest, strong, j = u2, strong or s2, j2
        start = i
        factor = _multiplier(tokens, i)
        if factor is not None:  # "2 x 8 hours" = 16 hours
            (start, times) = factor
            hours *= times
        listed = _listed_before(tokens, i)
        summed = bool(listed) and _epochs_listed(tokens, listed[0], j)
        if summed:
            # "epochs took 10, 11, 12 hours": epochs run one after another, so
            # their times add up to the run's, as a compound's pieces do.
            hours += sum(tokens[k].value for k in listed) * UNIT_HOURS[smallest]
            start, listed = listed[0], []
        q = Quantity(hours / UNIT_HOURS[smallest], smallest, start, j, strong)
        q.per_epoch = not summed and _epoch_time(tokens, i, j)
        # "10, 11, 12 hours per epoch": the "per" after a summed list made it the run's.
        per_epoch_list = summed and _rate_after(tokens, j)
        q.excluded = q.per_epoch or (_excluded(tokens, start, j) and not per_epoch_list)
        for k in listed:  # "10, 11, 12 hours" said of nothing: each one a candidate
            tokens[k].role = "time"
            found.append(Quantity(tokens[k].value, smallest, k, k + 1, excluded=q.excluded))
        prev = found[-1] if found else None
        if prev is not None and prev.end == i - 1 and _text(tokens, i - 1) in RANGE_JOINERS:
            # "يوم أو يومين", "a week or 2 weeks": two candidates, both as written.
            prev.strong = q.strong = True
        partner = _range_partner(tokens, i, smallest)
        if partner is not None:
            partner.excluded = partner.excluded or q.excluded  # "5-6 days ago"
            found.append(partner)
        found.append(q)
        for t in tokens[start:j]:
            t.role = t.role or "time"
        i = j
    return found


def _listed_before(tokens: list[Token], i: int) -> list[int]:
    """ "10, 11, 12 hours": the bare numbers listed before the one at ``i`` that
    share its unit (at least two of them, so "ratio 2, 36 hours" is no list)."""
    if tokens[i].kind != NUM or tokens[i].suffix:
        return []
    listed: list[int] = []
    k = i
    while k >= 2 and tokens[k - 1].text in (",", "and", "و") and tokens[k - 1].kind != NUM:
        first = tokens[k - 2]
        if first.kind != NUM or first.role or first.suffix:
            break
        listed.append(k - 2)
        k -= 2
    return listed[::-1] if len(listed) >= 2 else []


def _epochs_listed(tokens: list[Token], first: int, end: int) -> bool:
    """Epochs named just before a list of times ("epochs took 10, 11, 12 hours") or
    right after it ("10, 11, 12 hours per epoch")."""
    marker, noun = _at(tokens, end), _at(tokens, end + 1)
    if marker is not None and noun is not None and _cue(noun, EPOCH_NOUNS):
        return marker.text == "/" or (marker.kind == WORD and _cue(marker, RATE_MARKERS))
    for k in range(first - 1, max(-1, first - 5), -1):
        if tokens[k].is_boundary:
            return False
        if tokens[k].kind == WORD and _cue(tokens[k], EPOCH_NOUNS):
            return True
    return False


def _other_activity(tokens: list[Token], joiner: int, end: int) -> bool:
    """A compound's next piece that times something else, after a joiner.

    "36h, 30s/it" and "36h and 10 min for eval" are a training time and the
    time of a step or side activity; "1h30m per epoch" stays one duration.
    """
    word = _text(tokens, joiner)
    if word == ",":
        return _rate_after(tokens, end) or _side_activity_after(tokens, end)
    if word in COMPOUND_JOINERS:
        return _side_activity_after(tokens, end)
    return False


def _epoch_time(tokens: list[Token], start: int, end: int) -> bool:
    """ "20 min per epoch", "each epoch takes 20 min", "الحقبة الواحدة تاخذ ساعتين",
    "3 epochs, each ~2h": the time of one epoch, never the whole job's (with the
    epoch count it makes it)."""
    marker, noun = _at(tokens, end), _at(tokens, end + 1)
    if marker is not None and noun is not None and _cue(noun, EPOCH_NOUNS):
        return marker.text == "/" or (marker.kind == WORD and _cue(marker, RATE_MARKERS))
    if _each_of_counted_epochs(tokens, start, end):
        return True
    for k in range(start - 1, max(-1, start - 5), -1):
        tok = tokens[k]
        if tok.is_boundary or (tok.kind == NUM and tok.value != 1):
            return False  # (a 1 is "one epoch", "الحقبة الواحدة")
        if tok.kind == WORD and _cue(tok, EPOCH_NOUNS):
            # "90 epochs take 30 hours" counts epochs: that is the whole job.
            count = _at(tokens, k - 1)
            return count is None or count.kind != NUM or count.value == 1
    return False


def _each_of_counted_epochs(tokens: list[Token], start: int, end: int) -> bool:
    """ "3 epochs, each ~2h", "3 epochs, each taking 2 hours", "3 epochs of 2 hours each",
    "٣ حقب، كل واحدة ساعتين": "each" shares the time out over counted epochs.

    "each" (or كل/لكل) sits just before the duration in its clause or right
    after it; the counted epochs come before it, in the same clause or the
    one before a comma. Bounded look-back: a few tokens, one comma.
    """
    after = _at(tokens, end)
    each = after is not None and after.text in _EACH_WORDS
    commas = 0
    for k in range(start - 1, max(-1, start - 9), -1):
        tok = tokens[k]
        if tok.is_boundary:
            if tok.text != "," or commas or not each:
                return False
            commas += 1
            continue
        if tok.kind == NUM and tok.value != 1:
            return False
        if tok.kind == WORD and tok.text in _EACH_WORDS and not commas:
            each = True
        elif tok.kind == WORD and _cue(tok, EPOCH_NOUNS):
            count = _at(tokens, k - 1)
            if count is None or count.kind != NUM or count.value <= 1:
                return False
            # "each of the 3 epochs takes 2h"; "3 epochs of ~2h" (right before the time)
            each = each or any(t.text in _EACH_WORDS for t in tokens[max(0, k - 4) : k - 1])
            of_time = _text(tokens, k + 1) == "of" and all(
                t.kind == SYM or t.text in _HEDGES for t in tokens[k + 2 : start]
            )
            return each or of_time
    return False


def _rate_after(tokens: list[Token], end: int) -> bool:
    """ "per epoch", "a batch", "/it", "لكل حقبة" right after a duration."""
    marker, noun = _at(tokens, end), _at(tokens, end + 1)
    if marker is None or noun is None or noun.kind != WORD or not _cue(noun, RATE_NOUNS):
        return False
    if marker.kind == SYM:
        return marker.text == "/"
    return marker.kind == WORD and _cue(marker, RATE_MARKERS)


def _side_activity_after(tokens: list[Token], end: int) -> bool:
    """ "8 min eval", "10 min of warmup", "١٠ دقائق للتقييم"."""
    k = end + (_text(tokens, end) in ("of", "for"))
    tok = _at(tokens, k)
    return tok is not None and tok.kind == WORD and _cue(tok, SIDE_ACTIVITIES)


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


def _range_partner(tokens: list[Token], i: int, unit: str) -> Quantity | None:
    """ "100 or 200 hours", "12-15 h": the first number shares the unit."""
    if i < 2 or tokens[i].kind != NUM:
        return None
    joiner, first = tokens[i - 1], tokens[i - 2]
    between = i >= 3 and tokens[i - 3].text in ("between", "بين") and joiner.text in ("and", "و")
    if not (joiner.text in RANGE_JOINERS or between):
        return None
    if first.kind != NUM or first.role or first.suffix:
        return None
    first.role = "time"
    q = Quantity(first.value, unit, i - 2, i - 1)
    q.excluded = _excluded(tokens, i - 2, i - 1)
    return q


_RUN_WORDS = table("RUN_WORDS")


def _names_the_run(tokens: list[Token], end: int) -> bool:
    return any(t.text in _RUN_WORDS for t in tokens[end : end + 2])


def _excluded(tokens: list[Token], start: int, end: int) -> bool:
    """A deadline, interval, saving, future event or past time, by the words around it."""
    if _text(tokens, start - 1) in FUTURE_MARKERS and _event_before(tokens, start - 1):
        return True
    if _text(tokens, start - 1) in _DEADLINE_MARKERS and _obligation_before(tokens, start - 1):
        return True
    j = start - 1
    steps = 0
    while j >= 0 and steps < 4:
        tok = tokens[j]
        if tok.is_boundary or (tok.kind == NUM and tok.role != "price"):
            break
        if tok.text in ("each", "every", "per", "كل") and _text(tokens, j + 1) in WHOLE_RUN_NOUNS:
            break  # "each run takes 8 hours": the time of the whole job
        if tok.kind == WORD and _cue(tok, DURATION_EXCLUDERS_BEFORE):
            # Rule ``budget_of_the_run``: "budget is 30h fp32" names the run's own time.
            return not (_cue(tok, table("RUN_LIMITS")) and _names_the_run(tokens, end))
        if tok.role == "price" and not _names_the_run(tokens, end):
            return True  # "$500 for 3 days": what the money buys, not the job's time
        j -= 1
        steps += 1
    if _rate_after(tokens, end) or _side_activity_after(tokens, end):
        return True
    for step, tok in enumerate(tokens[end : end + 2]):
        if tok.kind == SYM and tok.is_boundary:
            break
        if not step and tok.text in ("per", "each") and _text(tokens, end + 1) in WHOLE_RUN_NOUNS:
            return False  # "36 hours per run": the time of the whole job
        # An Arabic adjective (الجايه، الماضيه) follows its noun at once: in
        # "١٠ ساعات والمراجعه الجايه" it describes the review, not the hours.
        if step and tok.script == ARABIC:
            break
        if tok.kind == WORD and _cue(tok, DURATION_EXCLUDERS_AFTER):
            return True
    return False


def _obligation_before(tokens: list[Token], marker: int) -> bool:
    """ "need it done in", "has to finish in", "لازم يخلص في": a need a few words before."""
    for k in range(marker - 1, max(-1, marker - 5), -1):
        tok = tokens[k]
        if tok.is_boundary or tok.kind == NUM:
            return False
        if tok.kind != WORD:
            continue
        if _cue(tok, _OBLIGATIONS):
            return True
        if tok.text in ("has", "have", "had") and _text(tokens, k + 1) == "to":
            return True
    return False


def _event_before(tokens: list[Token], marker: int) -> bool:
    """ "next review in", "meeting in", "المراجعه الجايه بعد": an event a few words before."""
    for tok in tokens[max(0, marker - 4) : marker][::-1]:
        if tok.is_boundary or tok.kind == NUM:
            return False
        if tok.kind == WORD and _cue(tok, FUTURE_EVENTS):
            return True
    return False


def _cue(tok: Token, table) -> bool:
    if tok.script == ARABIC:
        return lookup(tok.text, table) is not None
    return tok.text in table
