"""Which language to answer in: the one most of the words are written in.

Technical Latin terms (FP32, AMP, GPU and model names, units) do not make an
Arabic sentence English, so they are not counted; single-letter clitics split
off Arabic words (و، ب) are not counted either. A message with no words at
all (bare numbers) gets the user's preferred language, else English.
"""

from __future__ import annotations

from bot.models import Lang
from bot.understanding.lexicon import TECH_WORDS
from bot.understanding.tokens import ARABIC, WORD, Token


def detect_language(tokens: list[Token], preferred: Lang | None = None) -> Lang:
    arabic = latin = 0
    for tok in tokens:
        if tok.kind != WORD or len(tok.text) < 2:
            continue
        if tok.script == ARABIC:
            arabic += 1
        elif not tok.role and tok.text not in TECH_WORDS and not any(c.isdigit() for c in tok.text):
            latin += 1
    if arabic == 0 and latin == 0:
        return preferred or Lang.EN
    return Lang.AR if arabic >= latin else Lang.EN
