"""The words of a setting phrase: "at $3/h", "on 4 GPUs", "per GPU-hour",
«بسعر ٣ دولار للساعة على ٤ كروت».

A message of numbers, names, units and these words, with a price or a GPU count
read among them, is still a bare command: "48h 2
at $3/h" and «١٠ ساعات ٢ بسعر ٣ دولار للساعة» read their 2 by position, as "48h 2"
does (rule ``position``); before, a price or a GPU count made the bare ratio unused.
The words come from the setup rules' own tables, plus SETTING_JOINERS (the small
words that tie a setting to the rest: "per", "each", «لكل»).
"""

from __future__ import annotations

from bot.understanding.rules.setup.currencies import CURRENCIES
from bot.understanding.rules.setup.prices import PRICE_CUES, PRICE_GPU_WORDS, PRICE_PERIOD_HOURS
from bot.understanding.rules.setup.setup_numbers import COUNT_PREPOSITIONS, GPU_NOUNS, NODE_NOUNS
from bot.understanding.text.tokens import Token, word_in
from bot.understanding.words import table

SETTING_WORDS = (
    PRICE_CUES
    | PRICE_GPU_WORDS
    | GPU_NOUNS
    | NODE_NOUNS
    | COUNT_PREPOSITIONS
    | frozenset(PRICE_PERIOD_HOURS)
    | frozenset(CURRENCIES)
    | table("SETTING_JOINERS")
)


# Roles of the numbers a setting phrase is read around: without one of them the words
# set nothing ("36h, at 2.5?": 2.5 may be a price or a ratio, so it stays unused).
SETTING_ROLES = frozenset({"price", "gpus", "count", "nodes"})


def setting_words_read(tokens: list[Token]) -> bool:
    """Whether a setting phrase was read: a number has a price or GPU-count role."""
    return any(t.role in SETTING_ROLES for t in tokens)


def in_setting_phrase(tok: Token) -> bool:
    """Whether the word is one a setting phrase is made of (Arabic without its clitics)."""
    return word_in(tok, SETTING_WORDS)
