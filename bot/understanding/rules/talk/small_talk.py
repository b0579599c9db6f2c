"""Thanks and small talk: "thanks!", "lol", "شكرا", "يعطيك العافية", "هواية شكراً".

A message like this answers the bot; it asks nothing, so it gets a short
"you're welcome", not the usage list (which in Slack would be posted in the
thread for everyone). It is small talk only when every word is one of these
(so "thanks, and for BERT on A100?" or "thanks! 100 2" are still read as
questions: no numbers, no setup) and at least one word thanks, wishes well or
reacts; which of those it is chooses the reply ("الله يعافيك" to "يعطيك العافية").
Words are compared after normalisation (ة -> ه, alef variants, no diacritics)
and, for Arabic, also without clitics (والعافيه -> العافيه).
"""

from __future__ import annotations

import re

from bot.understanding.text.tokens import ARABIC, NUM, WORD, Token
from bot.understanding.values.lexicon import lookup
from bot.understanding.words import table

THANKS_WORDS = table("THANKS_WORDS")
WELLNESS_WORDS = table("WELLNESS_WORDS")
REACTION_WORDS = table("REACTION_WORDS")

# Words that may come with a thank-you without making it a question ("thanks a lot
# man", «شكرا يا معلم»): fillers, intensifiers and the ways people address someone.
FILLER_WORDS = table("THANKS_FILLER_WORDS") | table("ADDRESS_WORDS")

# Laughter: "haha", "hahaha", "ههههه".
_LAUGHTER = re.compile(r"(?:ha){2,}h?|(?:he){2,}h?|ه{3,}")


def small_talk_kind(tokens: list[Token]) -> str | None:
    """ "thanks", "wellness" or "reaction" when the message only thanks, wishes
    well or reacts (no digits, no other words); None for anything else."""
    words = 0
    kinds: set[str] = set()
    for tok in tokens:
        if tok.kind == NUM and tok.extra.get("spelled"):
            words += 1  # "ألف شكر", "thanks a million": a way of thanking, not a value
            continue
        if any(c.isdigit() for c in tok.text):
            return None
        if tok.kind not in (WORD, NUM):
            continue  # punctuation, emoji
        words += 1
        kind = _kind(tok)
        if kind is None:
            return None
        kinds.add(kind)
    if not words:
        return None
    return next((k for k in ("thanks", "wellness", "reaction") if k in kinds), None)


def _kind(tok: Token) -> str | None:
    text = tok.text
    if _LAUGHTER.fullmatch(text):
        return "reaction"
    for kind, words in (
        ("thanks", THANKS_WORDS),
        ("wellness", WELLNESS_WORDS),
        ("reaction", REACTION_WORDS),
        ("filler", FILLER_WORDS),
    ):
        if text in words or (tok.script == ARABIC and lookup(text, words) is not None):
            return kind
    return None
