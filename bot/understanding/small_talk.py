"""Thanks and small talk: "thanks!", "lol", "شكرا", "يعطيك العافية", "هواية شكراً".

A message like this answers the bot; it asks nothing, so it gets a short
"you're welcome", not the usage list (which in Slack would be posted in the
thread for everyone). It is small talk only when every word is one of these
(so "thanks, and for BERT on A100?" or "thanks! 100 2" are still read as
questions: no numbers, no setup) and at least one word thanks or reacts.
Words are compared after normalisation (ة -> ه, alef variants, no diacritics)
and, for Arabic, also without clitics (والعافيه -> العافيه).
"""

from __future__ import annotations

import re

from bot.understanding.lexicon import lookup
from bot.understanding.tokens import ARABIC, NUM, WORD, Token

# Words that thank or react; one of them makes the message small talk.
THANKS_WORDS = frozenset(
    [
        # English
        "thanks",
        "thank",
        "thx",
        "thnx",
        "tnx",
        "ty",
        "tysm",
        "cheers",
        "appreciated",
        "appreciate",
        "lol",
        "lmao",
        "great",
        "awesome",
        "perfect",
        "nice",
        "cool",
        "brilliant",
        # Arabic: MSA, Gulf, Levantine, Egyptian, Iraqi, Maghrebi (normalised spelling)
        "شكرا",
        "شكر",
        "الشكر",
        "مشكور",
        "مشكوره",
        "مشكورين",
        "يعطيك",
        "يعطيكم",
        "العافيه",
        "تسلم",
        "تسلمي",
        "تسلمون",
        "يسلمو",
        "يسلموا",
        "يسلمك",
        "ممنون",
        "ممنونك",
        "متشكر",
        "متشكرين",
        "ميرسي",
        "مرسي",
        "جزاك",
        "جزاكم",
        "بارك",
        "رائع",
        "ممتاز",
        "صحيت",
        "بزاف",
    ]
)

# Words that may come with a thank-you without making it a question.
FILLER_WORDS = frozenset(
    [
        # English
        "a",
        "lot",
        "so",
        "much",
        "very",
        "you",
        "u",
        "again",
        "man",
        "mate",
        "bro",
        "guys",
        "all",
        "ok",
        "okay",
        "k",
        "got",
        "it",
        "bot",
        "mpestimate",
        "for",
        "the",
        "that",
        "this",
        "was",
        "helpful",
        "help",
        "really",
        "million",
        "ton",
        "tons",
        "and",
        "oh",
        "yes",
        "yeah",
        "alright",
        "sure",
        # Arabic
        "ماشي",
        "تمام",
        "طيب",
        "اوك",
        "اوكي",
        "هوايه",
        "كثير",
        "كتير",
        "وايد",
        "بالحيل",
        "جزيلا",
        "جدا",
        "يا",
        "غالي",
        "حبيبي",
        "اخي",
        "اخوي",
        "الله",
        "فيك",
        "فيكم",
        "خير",
        "خيرا",
        "ايدك",
        "الف",
        "على",
        "ع",
        "المساعده",
        "عالمساعده",
        "لك",
        "ليك",
        "والله",
        "اوي",
        "قوي",
        "خلاص",
    ]
)

# Laughter: "haha", "hahaha", "ههههه".
_LAUGHTER = re.compile(r"(?:ha){2,}h?|(?:he){2,}h?|ه{3,}")


def is_small_talk(tokens: list[Token]) -> bool:
    """True when the message only thanks or reacts: no digits, no other words."""
    words = 0
    cue = False
    for tok in tokens:
        if tok.kind == NUM and tok.extra.get("spelled"):
            words += 1  # "ألف شكر", "thanks a million": a way of thanking, not a value
            continue
        if any(c.isdigit() for c in tok.text):
            return False
        if tok.kind not in (WORD, NUM):
            continue  # punctuation, emoji
        words += 1
        kind = _kind(tok)
        if kind is None:
            return False
        cue = cue or kind == "thanks"
    return words > 0 and cue


def _kind(tok: Token) -> str | None:
    text = tok.text
    if _LAUGHTER.fullmatch(text):
        return "thanks"
    if tok.script == ARABIC:
        if lookup(text, THANKS_WORDS) is not None:
            return "thanks"
        return "filler" if lookup(text, FILLER_WORDS) is not None else None
    if text in THANKS_WORDS:
        return "thanks"
    return "filler" if text in FILLER_WORDS else None
