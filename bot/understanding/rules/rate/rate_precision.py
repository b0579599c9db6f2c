"""Rule ``rate_precision``: which precision a rate is said of, FP32 or mixed.

The nearest precision word in the rate's clause ("0.9 s/it in fp32", "with amp
0.5 s/it"; before wins a tie), else the nearest earlier on its pasted progress
line ("fp32: 100%|███| 1000/1000 [.., 5.0it/s]"). "without amp", "بدون amp",
and a negation said alone after a mixed precision ("... vs 1.1 it/s without")
are FP32; "معاه" (with it) said alone is the mixed one. A precision the user asks
about ("... 0.85 s/step, what would bf16 give me?") is never the rate's, but said
right before the rate ("how fast is amp at 0.5 s/it"). Used by ``step_rate``, ``step_time_partner`` and the records'
``measurement_pair``.

Rule ``precision_arrow``: an arrow right after a precision that opens its clause
labels the value after it, as a colon does ("fp32 → 9 hours. amp → 5 hours").
"""

from __future__ import annotations

from bot.understanding.resolving.candidates import STEP_TIME, THROUGHPUT
from bot.understanding.text.tokens import ARABIC, NUM, SYM, WORD, Token
from bot.understanding.values.lexicon import lookup
from bot.understanding.values.nearby import at, in_table
from bot.understanding.words import table

_SEARCH = 12  # tokens looked at around a rate for its precision, in its clause
_LINE_SEARCH = 64  # ... and back across a progress line ("fp32:\nEpoch 0: 100%|███| ...")
_FP32 = table("FP32")
_MIXED = table("MIXED")


_BARE_ONLY_BEFORE_NOUN = frozenset(["full"])


def _noun_after(tokens: list[Token], j: int) -> bool:
    return in_table(at(tokens, j + 1), "PRECISION_NOUNS")


def is_rate(tok: Token) -> bool:
    return tok.kind == NUM and tok.role in (STEP_TIME, THROUGHPUT)


def precision_of(tokens: list[Token], j: int) -> str:
    """ "fp32" or "mixed" for a precision word at ``j``; "without amp" / "بدون amp" is FP32,
    and so is a negation said alone of the precision named before ("... vs 1.1 it/s without")."""
    tok = tokens[j]
    if tok.kind != WORD:
        return ""
    if in_table(tok, "BARE_NEGATIONS") and not (
        j + 1 < len(tokens) and precision_of(tokens, j + 1)
    ):
        return "fp32"  # "1.1 it/s without", "وبدونه ١٫١ it/s": without the mixed precision
    if tok.text in _FP32:
        # "full precision" is FP32; "the full training is 100 hours" names no precision.
        return "" if tok.text in _BARE_ONLY_BEFORE_NOUN and not _noun_after(tokens, j) else "fp32"
    if in_table(tok, "WITH_IT") or in_table(tok, "NOW_WORDS") and _before_it_said(tokens, j):
        # "... و١٫١ ثانية معاه": with the mixed precision named before; «قبل الـ amp كان
        # ٢٤ ساعة، هلق صار ١٥»: "now", after the run before it.
        return "mixed"
    if not (tok.text in _MIXED or lookup(tok.text, _MIXED)):
        return ""
    negated = in_table(_word_before(tokens, j), "NEGATIONS") or _before(tokens, j)
    return "fp32" if negated else "mixed"


_BEFORE_REACH = 4  # «قبل ما نشغّل الـ amp»: before, what, we turn on, the, amp


def _before(tokens: list[Token], j: int) -> bool:
    """ "before" a few words ahead of the precision at ``j`` in its clause ("before we
    turned on amp", «قبل ما نفعّل الـ bf16»): the run before it was turned on."""
    for k in range(j - 1, max(-1, j - 1 - _BEFORE_REACH), -1):
        if tokens[k].kind != WORD:
            return False
        if in_table(tokens[k], "BEFORE_WORDS"):
            return True
    return False


_NOW_REACH = 24  # tokens back from "now" to its "before amp": a clause or two


def _before_it_said(tokens: list[Token], j: int) -> bool:
    """A mixed precision with "before" on it a clause or two earlier ("before amp",
    «قبل الـ amp»): the run since is the mixed one."""
    return any(
        tokens[k].kind == WORD and lookup(tokens[k].text, _MIXED) and _before(tokens, k)
        for k in range(max(0, j - _NOW_REACH), j)
    )


_ARROW = "→"  # "->" and "=>" are written as it (``normalise``)


def precision_arrows(tokens: list[Token]) -> list[Token]:
    """Rule ``precision_arrow``: "fp32 → 9 hours. amp → 5 hours", «الـ fp32 → ٩ ساعات»
    are "fp32: 9 hours": an arrow right after a precision that opens its clause is
    the label's colon, so the times and rates after it read as labelled ones do. An
    arrow after a number stays a change ("12h → 7h", "fp32 10h → amp 6h", "12h fp32
    → 7h amp") and ends a clause (``CLAUSE_JOINERS``), and one between two
    precisions ("fp32 → bf16") is a change of precision."""
    return [
        Token(SYM, ":", glued=tok.glued) if _labelling_arrow(tokens, j) else tok
        for j, tok in enumerate(tokens)
    ]


def _labelling_arrow(tokens: list[Token], j: int) -> bool:
    if tokens[j].kind != SYM or tokens[j].text != _ARROW:
        return False
    k = j - 1 - in_table(at(tokens, j - 1), "PRECISION_NOUNS")  # "mixed precision →"
    if k < 0 or not precision_of(tokens, k):
        return False
    if j + 1 >= len(tokens) or precision_of(tokens, j + 1):
        return False  # "fp32 → bf16": from one precision to the other
    return _opens_clause(tokens, k)


def _opens_clause(tokens: list[Token], k: int) -> bool:
    """No number in the clause before the precision at ``k`` (in "12h fp32 → 7h amp"
    the fp32 is the 12h's, and the arrow the change)."""
    for tok in reversed(tokens[:k]):
        if tok.is_boundary or in_table(tok, "CLAUSE_JOINERS"):
            return True
        if tok.kind == NUM:
            return False
    return True


def _word_before(tokens: list[Token], j: int) -> Token | None:
    """The word before ``j``, past an article written apart («بدون الـ amp», «قبل الـ amp»)."""
    k = j - 1
    if k > 0 and in_table(tokens[k], "ARTICLES"):
        k -= 1
    return at(tokens, k)


def precision_near(tokens: list[Token], i: int) -> str:
    """The precision a rate at ``i`` is said of: nearest in its clause (before wins a
    tie), else the nearest earlier on its line ("fp32: 100%|███| 1000/1000 [.., 5.0it/s]")."""
    before, distance = _said_before(tokens, i)
    return (
        _said_after(tokens, i, distance)
        or before
        or _only_one_on_its_line(tokens, i)
        or _earlier_on_line(tokens, i)
    )


def _said_before(tokens: list[Token], i: int) -> tuple[str, int]:
    """The nearest precision before the rate in its clause, and how far back it is."""
    for step in range(1, _SEARCH):
        j = i - step
        if j < 0 or tokens[j].is_boundary or is_rate(tokens[j]):
            break
        if mark := precision_of(tokens, j):
            return mark, step
        if in_table(tokens[j], "CLAUSE_JOINERS") or change_glued_to_and(tokens[j]):
            break
    return "", _SEARCH + 1


def _said_after(tokens: list[Token], i: int, within: int) -> str:
    """A precision after the rate in its clause, nearer than ``within``."""
    for step in range(1, min(within, _SEARCH)):
        j = i + step
        if j >= len(tokens) or tokens[j].is_boundary or is_rate(tokens[j]):
            break
        if change_glued_to_and(tokens[j]):
            break  # "... 1200 tok/s in fp32 وبقت 2100 مع bf16": the bf16 is the next clause's
        if (mark := precision_of(tokens, j)) and not asked_about(tokens, j):
            return mark
        if in_table(tokens[j], "CLAUSE_JOINERS"):
            break  # "1s/step - loss: 0.4 and with amp 500ms/step": amp is the next clause's
    return ""


_CHANGE_TABLES = ("RATE_NEW_WORDS", "RATE_CHANGE_VERBS")


def change_glued_to_and(tok: Token) -> bool:
    """A word of what a rate became with «و» glued to it («وبقت», «وصارت», «وزادت»): the
    «و» opens the new value's clause, as one written apart does (``CLAUSE_JOINERS``),
    so «... بالـ fp32 وبقت ٢١٠٠ مع الـ bf16» says the 2100 of bf16. A word that starts
    with «و» itself («وصلت») is no such word."""
    if tok.kind != WORD or tok.script != ARABIC or not tok.text.startswith("و"):
        return False
    return any(tok.text not in table(name) and in_table(tok, name) for name in _CHANGE_TABLES)


def _only_one_on_its_line(tokens: list[Token], i: int) -> str:
    """A pasted progress line with one rate and one precision written anywhere on
    it, before or after the rate: "Epoch 1: 45%|███| 450/1000 [03:12<03:55,
    2.34it/s, loss=0.41] fp32" (the next line's precision is that line's)."""
    start, end = i, i + 1
    while start > max(0, i - _LINE_SEARCH) and tokens[start - 1].text != "\n":
        start -= 1
    while end < min(len(tokens), i + _LINE_SEARCH) and tokens[end].text != "\n":
        end += 1
    line = range(start, end)
    if sum(is_rate(tokens[j]) for j in line) != 1:
        return ""
    said = {mark for j in line if (mark := precision_of(tokens, j)) and not asked_about(tokens, j)}
    return said.pop() if len(said) == 1 else ""


def _earlier_on_line(tokens: list[Token], i: int) -> str:
    for j in range(i - 1, max(-1, i - _LINE_SEARCH), -1):
        if is_rate(tokens[j]):
            break
        if (mark := precision_of(tokens, j)) and not (
            _trails_rate(tokens, j) or asked_about(tokens, j)
        ):
            return mark
    return ""


_ASKED_SEARCH = 8  # words looked back from a precision for the question it is in


def asked_about(tokens: list[Token], j: int) -> bool:
    """The precision at ``j`` is the one the user asks about, not the one a rate was
    measured in: a question word or "if" before it in its clause ("what would bf16
    give me", "how much faster with amp", «كم ياخذ بالـ bf16», «لو شغلت mixed
    precision»; ``ASKED_PRECISION_LEADS``)."""
    for k in range(j - 1, max(-1, j - _ASKED_SEARCH), -1):
        tok = tokens[k]
        if tok.is_boundary or tok.kind == NUM:
            return False
        if in_table(tok, "ASKED_PRECISION_LEADS"):
            return True
    return False


def _trails_rate(tokens: list[Token], j: int) -> bool:
    """ "... 2.50it/s] fp32 and ... 5.00it/s] amp": a precision written right after a
    rate (only marks between) is that rate's, not the next line's."""
    k = j - 1
    while k >= 0 and tokens[k].kind == SYM:
        k -= 1
    return k >= 0 and is_rate(tokens[k])
