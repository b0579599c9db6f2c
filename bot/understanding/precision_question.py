"""Rule ``precision_question``: which 16-bit format to train in, and loss scaling.

"Is bf16 better than fp16 on A100?", "bf16 or fp16?", "هل bf16 أفضل من fp16؟"
compare the two formats (a comparison word with both named); "do I need loss
scaling with bf16?", "هل أحتاج تحجيم الخسارة مع bf16؟" ask about loss scaling;
"can I use bf16 on V100?", "ينفع bf16 على V100؟" (one format named with a support
word) ask which format the GPU runs, so they get the comparison's answer.
None is an estimate nor off-topic: the bot answers them from the facts sheet.
Only a message without a time or a ratio gets here (see ``without_numbers``).
Words: PRECISION_COMPARE_WORDS, LOSS_SCALING_PHRASES, LOSS_SCALING_WORDS,
PRECISION_SUPPORT_WORDS, PRECISION_SUPPORT_PHRASES, PRECISION_SUPPORT_MODALS,
PRECISION_SUPPORT_VERBS, PRECISION_FAILURE_WORDS, PRECISION_FAILURE_PHRASES.
"""

from __future__ import annotations

from bot.understanding.text.tokens import NUM, WORD, Token, word_in
from bot.understanding.words import mapping, phrases, table

PRECISIONS = mapping("PRECISIONS")
COMPARE_WORDS = table("PRECISION_COMPARE_WORDS")
LOSS_SCALING_WORDS = table("LOSS_SCALING_WORDS")
SUPPORT_WORDS = table("PRECISION_SUPPORT_WORDS")
FAILURE_WORDS = table("PRECISION_FAILURE_WORDS")
_SIXTEEN_BIT = {"fp16", "bf16"}


def precision_topic(tokens: list[Token]) -> str | None:
    """ "loss_scaling", "compare" or None."""
    words = [t for t in tokens if t.kind == WORD]
    if any(word_in(t, LOSS_SCALING_WORDS) for t in words) or _has_phrase(
        words, "LOSS_SCALING_PHRASES"
    ):
        return "loss_scaling"
    named = {PRECISIONS[t.text] for t in words if t.text in PRECISIONS}
    if _SIXTEEN_BIT <= named and (
        any(word_in(t, COMPARE_WORDS) for t in words) or _names_failure(tokens, words)
    ):
        return "compare"
    if len(named & _SIXTEEN_BIT) == 1 and (
        any(word_in(t, SUPPORT_WORDS) for t in words)
        or _has_phrase(words, "PRECISION_SUPPORT_PHRASES")
        or _asks_if_it_runs(words)
    ):
        return "compare"
    return None


_MODALS = table("PRECISION_SUPPORT_MODALS")
_RUN_VERBS = table("PRECISION_SUPPORT_VERBS")
_NOT_SUBJECTS = table("PRECISION_SUPPORT_NOT_SUBJECTS")
_RUN_REACH = 4  # "can a T4 do", "can my old 2080 run": the modal, the card, the verb


def _asks_if_it_runs(words: list[Token]) -> bool:
    """ "can a T4 do bf16 at all?", "could my 2080 run fp16?": a question opened by a
    modal with a verb of running a few words on; not one asked of the bot ("can you
    do bf16 estimates?", PRECISION_SUPPORT_NOT_SUBJECTS)."""
    if len(words) < 2 or not word_in(words[0], _MODALS):
        return False
    if word_in(words[1], _NOT_SUBJECTS):
        return False
    return any(word_in(t, _RUN_VERBS) for t in words[1 : 1 + _RUN_REACH])


def _names_failure(tokens: list[Token], words: list[Token]) -> bool:
    """A numeric failure said ("overflow", "unstable", «بيفيض», "blows up"); "nan" and
    "inf" count though the reader made numbers of them ("fp16 gives nan")."""
    return (
        any(word_in(t, FAILURE_WORDS) for t in words)
        or any(t.kind == NUM and t.text in FAILURE_WORDS for t in tokens)
        or _has_phrase(words, "PRECISION_FAILURE_PHRASES")
    )


def _has_phrase(words: list[Token], table_name: str) -> bool:
    """A phrase of ``table_name``, each word matched as a word (Arabic without its clitics)."""
    for phrase in phrases(table_name):
        n = len(phrase)
        for k in range(len(words) - n + 1):
            if all(word_in(words[k + j], frozenset([phrase[j]])) for j in range(n)):
                return True
    return False
