"""Rule ``own_result``: the user's own working-out at the end of a message is no
value of the question.

"our fp32 run is 60hrs, someone said bf16 is ~1.7x. so ~35h?", "so 48 hrs / 2 = 24?",
«التدريب ٤٠ ساعة والنسبة ٢، يعني ٢٠ ساعة؟»: the last number, after a word of
concluding (``RESULT_MARKS``) or an "=" right after a number, with only a question
mark or a word asking to check it (``CHECK_WORDS``) after it, is the answer the user
worked out and wants checked. It is set aside (a ``setup`` candidate, role
"own_result") before the times and ratios are read, so it is never the FP32 time,
and the reply checks it by giving its own figure.
"""

from __future__ import annotations

from bot.understanding.resolving.candidates import SETUP, Candidate
from bot.understanding.text.tokens import NUM, SYM, WORD, Token
from bot.understanding.values.nearby import at, is_time_unit
from bot.understanding.words import table

_RESULT_MARKS = table("RESULT_MARKS")
_CHECK_WORDS = table("CHECK_WORDS")
_HEDGES = table("HEDGES")


def own_results(tokens: list[Token]) -> list[Candidate]:
    """The user's own result, as a candidate to set aside, else none."""
    nums = [k for k, t in enumerate(tokens) if t.kind == NUM]
    if len(nums) < 2:
        return []
    k = nums[-1]
    tok = tokens[k]
    if tok.role or not _concluded(tokens, k) or not _only_checks_after(tokens, k):
        return []
    return [Candidate(SETUP, k, k + 1, tok.value, "own_result", tok.written, role="own_result")]


def _concluded(tokens: list[Token], k: int) -> bool:
    """A word of concluding before ``k`` ("so", «يعني»), past a hedge; or "=" after a
    number ("48 / 2 = 24": arithmetic, not a label as in "fp32=40h")."""
    j = k - 1
    while j >= 0 and tokens[j].text in _HEDGES:
        j -= 1
    mark = at(tokens, j)
    if mark is None:
        return False
    if mark.text == "=":
        before = at(tokens, j - 1)
        return before is not None and (before.kind == NUM or is_time_unit(before))
    return mark.kind == WORD and mark.text in _RESULT_MARKS


def _only_checks_after(tokens: list[Token], k: int) -> bool:
    """Nothing but the number's unit, punctuation and words asking to check it."""
    rest = tokens[k + 1 :]
    if rest and is_time_unit(rest[0]):
        rest = rest[1:]
    return all(t.kind == SYM or t.text in _CHECK_WORDS for t in rest)
