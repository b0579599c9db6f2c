"""Rule ``fp32_and_mixed_times``: two times, one said of FP32 and one of mixed
precision, are the FP32 time and (their quotient) the ratio.

"fp32 takes 10 h, amp takes 6 h"; a time said first of no precision is the FP32
baseline of a mixed one that follows ("training takes 30h, with amp 20h",
"التدريب ٣٠ ساعة، مع الـ AMP صار ٢٠ ساعة"); a change in a message that names a
mixed precision goes from FP32 to mixed ("with amp it went from 10h to 6h",
"نزل من ١٠ ساعات ل ٦"), also said by "down to" or an arrow alone ("amp brought 20h
down to 12h", "20h → 12h with bf16"). A joiner ends the clause a precision is looked for in:
"2 hours in fp32 and 1 hour with amp"; a precision followed by ":" or "=" labels
the time after it ("fp32=40h amp=25h"). Rule ``measured_pair_for_job``: such a pair
beside a third time said of neither precision measured the ratio of that job, and
so does a baseline and its mixed time, or a change, followed by a third time ("with amp
it went from 20h to 12h, how about a 60h run?", "التدريب ٣٦ ساعة، ومع الـ amp يصير ٢٠
ساعة، كم لو ١٠٠ ساعة؟").
"""

from __future__ import annotations

from itertools import pairwise

from bot.understanding.rules.rate.rate_precision import precision_of
from bot.understanding.rules.time.durations import Quantity
from bot.understanding.text.tokens import ARABIC, NUM, Token
from bot.understanding.words import table

_FROM_WORDS = table("FROM_WORDS")
_TO_WORDS = table("TO_WORDS")
_CHANGE_MARKS = table("CHANGE_MARKS")
_LABEL_SIGNS = frozenset(":=")
_BEFORE, _AFTER = 8, 3  # tokens looked at before and after a time for its precision


def fp32_and_mixed(tokens: list[Token], times: list[Quantity]) -> tuple[Quantity, Quantity] | None:
    """Two times, one said of FP32 and the other of mixed precision, else None."""
    marks = [time_precision(tokens, q) for q in times]
    # A change goes from FP32 to mixed, the mixed precision said anywhere ("with amp it
    # went from 10h to 6h"), FP32 at most at its first end ("amp cut our fp32 run from
    # 48h to 36h").
    agrees = "fp32" not in marks or marks == ["fp32", ""]
    if marks == ["", "mixed"] or (agrees and _change_with_mixed(tokens, times)):
        marks = ["fp32", "mixed"]
    if sorted(marks) == ["fp32", "mixed"]:
        return _sharing_units(times[marks.index("fp32")], times[marks.index("mixed")])
    return None


def _sharing_units(a: Quantity, b: Quantity) -> tuple[Quantity, Quantity]:
    """Two times of one pair, a bare one in the other's unit: "from 90 min to 60",
    «٩٠ دقيقة بالـ fp32 و ٦٠ مع amp» (never 90 minutes against 60 hours)."""
    for bare, said in ((a, b), (b, a)):
        if not bare.unit_said and said.unit_said:
            bare.unit = said.unit
    return a, b


def measured_pair_and_job(
    tokens: list[Token], times: list[Quantity]
) -> tuple[Quantity, Quantity, Quantity] | None:
    """Rule ``measured_pair_for_job``: (FP32 time, mixed time, the job's FP32 time) when
    two of three times are said of FP32 and of mixed precision and the third of
    neither: a small experiment measured the ratio and the job is to be estimated
    ("fp32: 12h / amp: 7h, how much for a 100h job?", "جربت ساعتين بالـfp32 وساعة
    مع amp، كم للتدريب الكامل ١٠٠ ساعة؟")."""
    marks = [time_precision(tokens, q) for q in times]
    if sorted(marks) == ["", "fp32", "mixed"]:
        return times[marks.index("fp32")], times[marks.index("mixed")], times[marks.index("")]
    pair = fp32_and_mixed(tokens, times[:2]) if marks[2] != "mixed" else None
    return (*pair, times[2]) if pair is not None else None


def epoch_time_change(tokens: list[Token], durations: list[Quantity]) -> list[Quantity]:
    """Rule ``epoch_time_change``: an epoch's time that mixed precision changed ("amp
    cut our epoch time from 10 min to 6 min", «وقت الـ epoch نزل من ١٠ دقائق لـ ٦ مع
    amp», "before amp an epoch took 24 min, now it's 15") is a measured pair, both ends
    one epoch's: the two times, else none. A
    lone epoch time is no time of the job, but such a pair measured its ratio; a
    bare number at its far end («لـ ٦») is in the near end's unit."""
    for first, second in pairwise(durations):
        if first.per_epoch and (
            _change_with_mixed(tokens, [first, second]) or _before_and_now(tokens, first, second)
        ):
            second.per_epoch = True
            return list(_sharing_units(first, second))
    return []


def _before_and_now(tokens: list[Token], first: Quantity, second: Quantity) -> bool:
    """ "before amp an epoch took 24 min, now it's 15", «قبل الـ bf16 كان الـ epoch
    ساعتين، دلوقتي ساعة وربع»: the epoch's time before the mixed precision, then since."""
    return [time_precision(tokens, first), time_precision(tokens, second)] == ["fp32", "mixed"]


def _change_with_mixed(tokens: list[Token], times: list[Quantity]) -> bool:
    """ "from 10h to 6h", "من ١٠ ساعات الى ٦", "20h down to 12h", "20h → 12h" in a
    message that names a mixed precision (``CHANGE_MARKS`` need no "from" before)."""
    first, second = times
    before = tokens[max(0, first.start - 2) : first.start]
    between = tokens[first.end : second.start]
    said = any(t.text in _CHANGE_MARKS for t in between) or (
        any(t.text in _FROM_WORDS for t in before) and any(t.text in _TO_WORDS for t in between)
    )
    return (
        said
        and 0 < len(between) <= 2
        and any(_precision_at(tokens, j) == "mixed" for j in range(len(tokens)))
    )


def time_precision(tokens: list[Token], q: Quantity) -> str:
    """The precision ("fp32" or "mixed") named nearest to a time in its clause; a
    time glued to «و» («ونص ثانية بالـ bf16») opens its clause, so none before it."""
    joiners = table("CLAUSE_JOINERS")
    best, best_distance = "", 99
    first = q.start - 1 if _glued_and(tokens[q.start]) else max(-1, q.start - 1 - _BEFORE)
    for step, j in enumerate(range(q.start - 1, first, -1), 1):
        if tokens[j].is_boundary or tokens[j].kind == NUM or tokens[j].text in joiners:
            break
        mark = _precision_at(tokens, j)
        if mark and all(t.text in _LABEL_SIGNS for t in tokens[j + 1 : q.start]) and step > 1:
            return mark  # "fp32=40h amp=25h", "FP32: 40h": the precision labels its time
        if mark:
            best, best_distance = mark, step
            break
    for step, tok in enumerate(tokens[q.end : q.end + _AFTER], 1):
        if tok.is_boundary or tok.kind == NUM or step >= best_distance or tok.text in joiners:
            break
        mark = _precision_at(tokens, q.end + step - 1)
        if mark and _glued_and(tok):
            break  # "٢٠ ساعة وبعده ١٢ ساعة": a word glued to «و» opens the next time's clause
        if mark:
            return mark
    return best


def _glued_and(tok: Token) -> bool:
    return tok.script == ARABIC and tok.text.startswith("و") and len(tok.text) > 1


def _precision_at(tokens: list[Token], j: int) -> str:
    """The precision a word at ``j`` names, read as the rates read it
    (:func:`precision_of`): "without amp", "بدون amp", "من غير amp" are FP32."""
    return precision_of(tokens, j)
