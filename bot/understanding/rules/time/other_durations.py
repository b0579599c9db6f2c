"""Durations that are not the FP32 run's time: one epoch's ("20 min per epoch"),
a rate's ("30s/it"), a side activity's ("10 min warmup"), a deadline's ("due
in 3 days", "لازم يخلص خلال يومين"). :func:`excluded` tells them apart; a
duration it excludes is never read as the time to estimate."""

from __future__ import annotations

from bot.understanding.rules.rate.rate_precision import precision_of
from bot.understanding.rules.setup.prices import priced_per_period
from bot.understanding.text.tokens import ARABIC, NUM, SYM, WORD, Token
from bot.understanding.values.lexicon import (
    DURATION_EXCLUDERS_AFTER,
    DURATION_EXCLUDERS_BEFORE,
    EPOCH_NOUNS,
    FUTURE_EVENTS,
    FUTURE_MARKERS,
    RATE_MARKERS,
    RATE_NOUNS,
    SIDE_ACTIVITIES,
    WHOLE_RUN_NOUNS,
    lookup,
)
from bot.understanding.values.nearby import at, text_at
from bot.understanding.words import table

_EACH_WORDS = table("EACH_WORDS")
_DEADLINE_MARKERS = table("DEADLINE_MARKERS")
_OBLIGATIONS = table("OBLIGATIONS")
_HEDGES = table("HEDGES")
_PER_UNIT_PREPOSITIONS = table("PER_UNIT_PREPOSITIONS")
_ARTICLES = table("ARTICLES")
_NEGATIONS = table("NEGATIONS")
_RUN_TOTAL_WORDS = table("RUN_TOTAL_WORDS")
_TIMES_SIGNS = table("TIMES_SIGNS")
_TAKING = table("DURATION_VERBS") - {"long", "time", "الوقت", "مده"}
_STEP_NOUNS = table("STEP_TIME_LEADERS")
_COPULAS = table("SAID_OF_COPULAS")
_SAID_OF_REACH = 4  # words back from a duration to the noun it is said of
_STEP_HOURS_MAX = 1.0  # no training step takes an hour (rule per_step_time)


def epochs_listed(tokens: list[Token], first: int, end: int) -> bool:
    """Epochs named just before a list of times ("epochs took 10, 11, 12 hours") or
    right after it ("10, 11, 12 hours per epoch")."""
    if per_epoch_after(tokens, end):
        return True
    for k in range(first - 1, max(-1, first - 5), -1):
        if tokens[k].is_boundary:
            return False
        if tokens[k].kind == WORD and _cue(tokens[k], EPOCH_NOUNS):
            return True
    return False


def other_activity(tokens: list[Token], joiner: int, end: int) -> bool:
    """A compound's next piece that times something else, after a joiner.

    "36h, 30s/it" and "36h and 10 min for eval" are a training time and the
    time of a step or side activity; "1h30m per epoch" stays one duration.
    """
    word = text_at(tokens, joiner)
    if word == ",":
        return rate_after(tokens, end) or _side_activity_after(tokens, end)
    if word in table("COMPOUND_JOINERS"):
        return _side_activity_after(tokens, end)
    return False


def epoch_time(tokens: list[Token], start: int, end: int) -> bool:
    """ "20 min per epoch", "each epoch takes 20 min", "الحقبة الواحدة تاخذ ساعتين",
    "3 epochs, each ~2h": the time of one epoch, never the whole job's (with the
    epoch count it makes it)."""
    if per_epoch_after(tokens, end):
        return True
    if _times_counted_epochs(tokens, start, end):
        return True
    if _each_of_counted_epochs(tokens, start, end):
        return True
    return _said_of_one(tokens, start, EPOCH_NOUNS)


def step_time(tokens: list[Token], start: int, end: int, hours: float) -> bool:
    """Rule ``per_step_time``: "1.5 min per step", "each step takes 2 minutes", "a step
    is 1.5 minutes", «كل خطوة تاخذ ٣ ثواني», «تستغرق الخطوة الواحدة دقيقتين»: the time
    of one step, said as one epoch's is (the same words, a step noun,
    ``STEP_TIME_LEADERS``); never the job's, but with the step count it makes it.
    A training step takes seconds or minutes: an hour or more is a step of a plan
    ("next step: train for 20 hours", «الخطوة الجاية التدريب ٢٠ ساعة»), the job's."""
    if hours >= _STEP_HOURS_MAX:
        return False
    return per_epoch_after(tokens, end, _STEP_NOUNS) or _said_of_one(tokens, start, _STEP_NOUNS)


def _said_of_one(tokens: list[Token], start: int, nouns) -> bool:
    """A noun of the unit (epoch, step) a few words before the duration in its
    clause, counted by no number above one: "each epoch takes 20 min", "a step is
    1.5 minutes", «الخطوة الواحدة دقيقتين». "90 epochs take 30 hours" counts them:
    that is the whole job. An epoch counter before ("Epoch 5/20 takes 35 min") times
    that epoch (read first, as one epoch's); a step counter («الخطوة ٢٠٠/١٠٠٠ والتدريب
    ياخذ ٣ ساعات») only says where a log is, and its numbers stop the look-back. A
    copula (``SAID_OF_COPULAS``: "is", «هو») adds nothing to how far the noun may be:
    «زمن الخطوة الواحدة بدقة FP32 هو ١٫٢ ثانية»."""
    reach = _SAID_OF_REACH
    for k in range(start - 1, max(-1, start - 1 - 2 * _SAID_OF_REACH), -1):
        tok = tokens[k]
        if tok.kind == WORD and _cue(tok, _COPULAS):
            continue  # "a step in fp32 is 1.2 s": the copula is no word of the reach
        reach -= 1
        if reach < 0:
            return False
        if epoch_counter_at(tokens, k) is not None:
            return True  # "Epoch 5/20 takes 35 min": the time of that epoch
        if tok.is_boundary or (tok.kind == NUM and tok.value != 1):
            return False  # (a 1 is "one epoch", "الحقبة الواحدة")
        if tok.kind == WORD and _cue(tok, nouns):
            count = at(tokens, k - 1)
            return count is None or count.kind != NUM or count.value == 1
    return False


def _times_counted_epochs(tokens: list[Token], start: int, end: int) -> bool:
    """Rule ``epochs_times_duration``: "25 epochs x 18 min", "20 min × 30 epochs",
    «٤٠ ايبوك × ١٥ دقيقة»: a duration multiplied by a count of epochs is one
    epoch's (the count makes the run's)."""
    if text_at(tokens, start - 1) in _TIMES_SIGNS and _counted_epochs_end(tokens, start - 2):
        return True
    return text_at(tokens, end) in _TIMES_SIGNS and _counted_epochs_end(tokens, end + 2)


def _counted_epochs_end(tokens: list[Token], k: int) -> bool:
    """An epoch noun at ``k`` counted by a number above one just before it: "30 epochs"."""
    count = at(tokens, k - 1)
    return (
        _epoch_noun(at(tokens, k)) and count is not None and count.kind == NUM and count.value > 1
    )


def per_epoch_after(tokens: list[Token], end: int, nouns=EPOCH_NOUNS) -> bool:
    """ "per epoch", "/epoch", "each epoch", "٣ ساعات للايبوك" right after a duration;
    after a preposition (``PER_UNIT_PREPOSITIONS``) the epoch with an article or
    "each": "in each epoch", "for every epoch", «في الـ epoch», «في كل epoch», and in
    Arabic the noun alone: «في الحقبة», «في ايبوك». ``nouns`` names the unit: a step
    is said the same way ("1.5 min per step", «دقيقة للخطوة», «دقيقتين في كل خطوة»)."""
    marker = at(tokens, end)
    if marker is None:
        return False
    if marker.kind == WORD and _cue(marker, _PER_UNIT_PREPOSITIONS):
        nxt = at(tokens, end + 1)
        if _epoch_noun(nxt, nouns):
            return marker.script == ARABIC
        if nxt is None or not (nxt.text in _ARTICLES or _cue(nxt, RATE_MARKERS)):
            return False
        return _epoch_noun(at(tokens, end + 2), nouns)
    if _epoch_noun(at(tokens, end + 1), nouns):
        return marker.text == "/" or (marker.kind == WORD and _cue(marker, RATE_MARKERS))
    return _glued_per_epoch(marker, nouns)


def _epoch_noun(tok: Token | None, nouns=EPOCH_NOUNS) -> bool:
    return tok is not None and tok.kind == WORD and _cue(tok, nouns)


def epoch_counter_at(tokens: list[Token], k: int) -> float | None:
    """The epoch count of a log's counter whose last number is at ``k`` ("Epoch 5/20",
    «الحقبة ٢/١٠»: 20, 10), else None."""
    tok, slash, noun = at(tokens, k), at(tokens, k - 1), at(tokens, k - 3)
    if tok is None or tok.kind != NUM or slash is None or slash.text != "/":
        return None
    first = at(tokens, k - 2)
    return tok.value if first is not None and first.kind == NUM and _epoch_noun(noun) else None


def log_epochs(tokens: list[Token]) -> float | None:
    """The epoch count of the one log counter in a message ("Epoch 5/20": 20)."""
    found = {n for k in range(len(tokens)) if (n := epoch_counter_at(tokens, k)) is not None}
    return found.pop() if len(found) == 1 else None


def asks_run_total(tokens: list[Token]) -> bool:
    """The message asks for the whole run's time: "total time", "the whole thing",
    «الوقت الكامل», «كل التدريب» (``RUN_TOTAL_WORDS``; "each"/«كل» before a word of
    the whole run, ``WHOLE_RUN_NOUNS``)."""
    for k, tok in enumerate(tokens):
        if tok.kind == WORD and _cue(tok, _RUN_TOTAL_WORDS):
            return True
        nxt = at(tokens, k + 1)
        if tok.text in ("كل", "all") and nxt is not None and _cue(nxt, WHOLE_RUN_NOUNS):
            return True
    return False


def _glued_per_epoch(tok: Token, nouns=EPOCH_NOUNS) -> bool:
    """ "٣ ساعات للايبوك", "ساعتين للحقبة", «دقيقة للخطوة»: a rate marker glued to the noun."""
    if tok.kind != WORD or tok.script != ARABIC:
        return False
    return any(tok.text.startswith(p) and tok.text[len(p) :] in nouns for p in RATE_MARKERS)


def _each_of_counted_epochs(tokens: list[Token], start: int, end: int) -> bool:
    """ "3 epochs, each ~2h", "3 epochs, each taking 2 hours", "3 epochs of 2 hours each",
    "٣ حقب، كل واحدة ساعتين": "each" shares the time out over counted epochs.

    "each" (or كل/لكل) sits just before the duration in its clause or right
    after it; the counted epochs come before it, in the same clause or the
    one before a comma. Bounded look-back: a few tokens, one comma.
    """
    after = at(tokens, end)
    each = after is not None and after.text in _EACH_WORDS
    commas = 0
    for k in range(start - 1, max(-1, start - 9), -1):
        tok = tokens[k]
        if tok.is_boundary:
            if tok.text != "," or commas or not each:
                return False
            commas += 1
        elif tok.kind == NUM and tok.value != 1:
            return False
        elif tok.kind == WORD and tok.text in _EACH_WORDS and not commas:
            each = True
        elif tok.kind == WORD and _cue(tok, EPOCH_NOUNS):
            return _shared_over_epochs(tokens, k, start, each)
    return False


def _shared_over_epochs(tokens: list[Token], k: int, start: int, each: bool) -> bool:
    """The epoch noun at ``k`` is counted (more than one) and "each" shares the time
    out: "each of the 3 epochs takes 2h"; or "3 epochs of ~2h" right before the time."""
    count = at(tokens, k - 1)
    if count is None or count.kind != NUM or count.value <= 1:
        return False
    each = each or any(t.text in _EACH_WORDS for t in tokens[max(0, k - 4) : k - 1])
    of_time = text_at(tokens, k + 1) == "of" and all(
        t.kind == SYM or t.text in _HEDGES for t in tokens[k + 2 : start]
    )
    return each or of_time


def rate_after(tokens: list[Token], end: int) -> bool:
    """ "per epoch", "a batch", "/it", "لكل حقبة" right after a duration."""
    marker, noun = at(tokens, end), at(tokens, end + 1)
    if marker is None or noun is None or noun.kind != WORD or not _cue(noun, RATE_NOUNS):
        return False
    if marker.kind == SYM:
        return marker.text == "/"
    return marker.kind == WORD and _cue(marker, RATE_MARKERS)


def _side_activity_after(tokens: list[Token], end: int) -> bool:
    """ "8 min eval", "10 min of warmup", "١٠ دقائق للتقييم"."""
    k = end + (text_at(tokens, end) in ("of", "for"))
    tok = at(tokens, k)
    return tok is not None and tok.kind == WORD and _cue(tok, SIDE_ACTIVITIES)


_RUN_WORDS = table("RUN_WORDS")


def _names_the_run(tokens: list[Token], end: int) -> bool:
    return any(t.text in _RUN_WORDS for t in tokens[end : end + 2])


def excluded(tokens: list[Token], start: int, end: int) -> bool:
    """A deadline, interval, saving, future event or past time, by the words around it."""
    if text_at(tokens, start - 1) in FUTURE_MARKERS and _event_before(tokens, start - 1):
        return True
    marker = at(tokens, start - 1)
    if (
        marker is not None
        and _cue(marker, _DEADLINE_MARKERS)
        and _obligation_before(tokens, start - 1)
    ):
        return True
    said_before = _excluded_by_words_before(tokens, start, end)
    if said_before is not None:
        return said_before
    if rate_after(tokens, end) or _side_activity_after(tokens, end):
        return True
    return _excluded_by_words_after(tokens, end)


def _excluded_by_words_before(tokens: list[Token], start: int, end: int) -> bool | None:
    """Up to four words before, within the clause: "saves 3 hours", "$500 for 3
    days"; None when they say nothing ("each run takes 8 hours" is the job's)."""
    if _paid_at_a_rate(tokens, start):
        return None
    run_named = False  # "السيرفر ب ٩ دولار بالساعة والتدريب ٢٠ ساعة": the training's time
    for j in range(start - 1, max(start - 5, -1), -1):
        tok = tokens[j]
        if tok.is_boundary or (tok.kind == NUM and tok.role != "price"):
            return None
        # "at $2/hr takes 3 days": the verb of taking says the time is the job's own.
        run_named = run_named or (tok.kind == WORD and _cue(tok, _RUN_WORDS | _TAKING))
        if tok.text in ("each", "every", "per", "كل") and text_at(tokens, j + 1) in WHOLE_RUN_NOUNS:
            return None  # "each run takes 8 hours": the time of the whole job
        if tok.kind == WORD and _cue(tok, DURATION_EXCLUDERS_BEFORE):
            if _cue(tok, _NEGATIONS) and _precision_after(tokens, j):
                return None  # "before amp it was 10h", «قبل الـ amp كان ١٠ ساعات»: the FP32 run
            # Rule ``budget_of_the_run``: "budget is 30h fp32" names the run's own time.
            return not (_cue(tok, table("RUN_LIMITS")) and _names_the_run(tokens, end))
        if tok.role == "price" and not (run_named or _names_the_run(tokens, end)):
            return True  # "$500 for 3 days": what the money buys, not the job's time
    return None


_RATE_WORDS = frozenset({"per", "each", "every", "a", "an", "for", "/"})


def _precision_after(tokens: list[Token], j: int) -> bool:
    """A mixed precision named right after ``j``, past an article written apart."""
    k = j + 1 + (text_at(tokens, j + 1) in _ARTICLES)
    return k < len(tokens) and precision_of(tokens, k) == "fp32"


def _paid_at_a_rate(tokens: list[Token], start: int) -> bool:
    """ "$3/hour for 20 hours", "$2.5 per GPU-hour for 40 hours", "٣ دولار للساعة
    لمدة ٢٠ ساعة": a price per period, then a duration in the same clause, is how
    long the rate is paid: the run's time. Only the price's own words may stand
    between ("per", "GPU-hour", "for"); "$3/h, saves 3 hours" keeps its cue."""
    for j in range(start - 1, max(start - 8, -1), -1):
        tok = tokens[j]
        if tok.role == "price":
            return priced_per_period(tokens, j)
        if tok.is_boundary or tok.kind == NUM:
            return False
        if tok.text not in _RATE_WORDS and _cue(tok, DURATION_EXCLUDERS_BEFORE):
            return False
    return False


def _excluded_by_words_after(tokens: list[Token], end: int) -> bool:
    """The two words after: "3 hours ago", "10 minutes later" ("36 hours per run"
    is the job's time)."""
    for step, tok in enumerate(tokens[end : end + 2]):
        if tok.kind == SYM and tok.is_boundary:
            break
        if not step and tok.text in ("per", "each") and text_at(tokens, end + 1) in WHOLE_RUN_NOUNS:
            return False  # "36 hours per run": the time of the whole job
        # An Arabic adjective (الجايه، الماضيه) follows its noun at once: in
        # "١٠ ساعات والمراجعه الجايه" it describes the review, not the hours.
        if step and tok.script == ARABIC:
            break
        if tok.kind == WORD and _cue(tok, DURATION_EXCLUDERS_AFTER):
            return True
    return False


def _obligation_before(tokens: list[Token], marker: int) -> bool:
    """ "need it done in", "has to finish in", "لازم يخلص في": a need a few words before.
    A marker opening a clause after a comma looks into the clause it adds to: "I need
    results by Friday, within 48 hours" ("training is done within 2 hours" names no need)."""
    if text_at(tokens, marker - 1) == ",":
        marker -= 1
    for k in range(marker - 1, max(-1, marker - 5), -1):
        tok = tokens[k]
        if tok.is_boundary or tok.kind == NUM:
            return False
        if tok.kind != WORD:
            continue
        if _cue(tok, _OBLIGATIONS):
            return True
        if tok.text in ("has", "have", "had") and text_at(tokens, k + 1) == "to":
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
