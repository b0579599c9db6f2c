"""Rule ``alternatives``: two numbers offered as alternatives are both candidates.

"40 or 50 hours", "either 2 or 3 days", "takes 40 hours, or maybe 50", "٤٠ ولا
٥٠ ساعة", "يا ٥٠ يا ٦٠ ساعة", "إما ٤٠ أو ٥٠", "النسبة ١٫٥ والا ٢": the writer is
unsure which, so the reader keeps both and the reply asks (``ambiguous``),
never silently taking the first. The words are data (``ALTERNATIVE_JOINERS``,
``ALTERNATIVE_OPENERS``, ``ALTERNATIVE_SOFTENERS`` in ``words/*.toml``); the
durations, the labels and the ratio markers share this one test of what stands
between two numbers.
"""

from __future__ import annotations

from bot.understanding.text.tokens import NUM, Token
from bot.understanding.values.nearby import word_in
from bot.understanding.words import table

JOINERS = table("ALTERNATIVE_JOINERS")
OPENERS = table("ALTERNATIVE_OPENERS")
SOFTENERS = table("ALTERNATIVE_SOFTENERS")
DOUBTS = table("ALTERNATIVE_DOUBTS")
ANDS = table("ALTERNATIVE_ANDS")
# At most this many tokens stand between two alternatives ("40 hours, or maybe 50").
_GAP = 4


def offered_between(tokens: list[Token], start: int, end: int, joiners=JOINERS) -> bool:
    """Whether ``tokens[start:end]`` (what stands between two numbers) offers the
    second as an alternative to the first: one joiner, with at most a comma and
    softening words beside it ("or", ", or maybe", "ولا", "أو يمكن", "يعني أو"),
    or a word of doubt after a comma or an "and" ("40 hrs, maybe 50", "٤٠ ساعة، يمكن
    ٥٠", "40 hours and maybe 50", "٤٠ ساعة ويمكن ٥٠", "وممكن")."""
    between = tokens[start:end]
    if not between or len(between) > _GAP:
        return False
    joined = paused = doubt = False
    for tok in between:
        if tok.text == "," or tok.text in ANDS:
            paused = True
        elif tok.text in joiners and not joined:
            joined = True
        elif word_in(tok, SOFTENERS) is not None or word_in(tok, DOUBTS) is not None:
            doubt = doubt or word_in(tok, DOUBTS) is not None
            paused = paused or _glued_and(tok)
        else:
            return False
    return joined or (paused and doubt)


def _glued_and(tok: Token) -> bool:
    """ «ويمكن», «وممكن»: a softening word with «و» glued before it ("and maybe")."""
    word = word_in(tok, SOFTENERS) or word_in(tok, DOUBTS)
    return tok.text != word and tok.text.startswith("و") and not word.startswith("و")


def partner_before(tokens: list[Token], i: int, joiners=JOINERS) -> int | None:
    """The index of a bare number offered as an alternative before the number at ``i``."""
    for k in range(i - 2, max(-1, i - 2 - _GAP), -1):
        tok = tokens[k]
        if tok.kind == NUM:
            return k if offered_between(tokens, k + 1, i, joiners) else None
    return None


def partner_after(tokens: list[Token], end: int) -> int | None:
    """The index of a bare number offered as an alternative after a value ending at
    ``end`` ("40 hours, or 50", "٤٠ ساعة أو يمكن ٥٠")."""
    for k in range(end + 1, min(len(tokens), end + 1 + _GAP)):
        tok = tokens[k]
        if tok.kind == NUM:
            return k if offered_between(tokens, end, k) else None
    return None


def opened_at(tok: Token | None) -> bool:
    """ "either", "إما", "يا": a word that opens the first of two alternatives."""
    return word_in(tok, OPENERS) is not None
