"""What kind of question a message is, beyond its numbers (rules with names).

* ``memory_by_setup``: billions of parameters with a GPU or a training verb
  ask about memory ("13B on 4 A100 40GB?", "أقدر أدرب 7B على 4090؟").
* ``off_topic_question``: a question about training quality gets one line
  saying what the bot does ("best lr for bf16?", "هل bf16 يغير الدقة النهائية؟").
* ``name_unused_numbers``: an answered estimate names the numbers no rule took.
"""

from __future__ import annotations

from bot.models import Intent, Query, Reason
from bot.understanding.durations import unit_of
from bot.understanding.lexicon import ESTIMATE_CUES, FIT_WORDS, MEMORY_WORDS, SPEED_CUES
from bot.understanding.tokens import NUM, WORD, Token, word_in
from bot.understanding.words import phrases, table

UNUSED_SHOWN = 3  # the reply names at most this many unused numbers


def sized_on_gpu(tokens: list[Token], gpu_named: bool) -> bool:
    """Rule ``memory_by_setup``: "13B on 4 A100 40GB?", "can I train a 3B on a 24GB
    3090?", "أقدر أدرب 7B على 4090؟": billions of parameters with a GPU or a
    training verb ask whether it fits, as "fit" does."""
    billions = any(
        t.kind == NUM
        and (t.suffix == "b" or (k + 1 < len(tokens) and word_in(tokens[k + 1], table("BILLIONS"))))
        for k, t in enumerate(tokens)
    )
    trains = any(t.kind == WORD and word_in(t, table("TRAIN_VERBS")) for t in tokens)
    return billions and (gpu_named or trains)


def _about_quality(words: list[Token]) -> bool:
    texts = [t.text for t in words]
    return any(word_in(t, table("OFF_TOPIC_WORDS")) for t in words) or any(
        texts[k : k + len(p)] == list(p)
        for p in phrases("OFF_TOPIC_PHRASES")
        for k in range(len(texts))
    )


def _topical(tok: Token) -> bool:
    """A word of what the bot answers: time, speed, memory, cost, the bot itself."""
    return any(
        word_in(tok, t)
        for t in (table("TOPIC_WORDS"), SPEED_CUES, MEMORY_WORDS, FIT_WORDS, ESTIMATE_CUES)
    ) or (len(tok.text) > 1 and unit_of(tok, allow_article=True) is not None)


def off_topic(tokens: list[Token], words: list[Token]) -> bool:
    """Rule ``off_topic_question``: a question about training quality (OFF_TOPIC_*)
    with no number and no word of what the bot answers ("will bf16 change my
    final accuracy?", "best lr for bf16?", "هل bf16 يغير الدقة النهائية؟") gets one
    line saying what the bot does; "what can you do?" still gets the usage."""
    if not words or any(t.kind == NUM for t in tokens) or not _about_quality(words):
        return False
    asked = any(t.text == "?" for t in tokens) or word_in(words[0], table("QUESTION_LEADS"))
    return asked and not any(_topical(t) for t in words)


def with_unused(query: Query, tokens: list[Token]) -> Query:
    """Rule ``name_unused_numbers``: an answered estimate names the numbers no rule
    took ("36h, at 2.5?": 2.5), so none is dropped silently. Ambiguous readings
    list their candidates instead."""
    if query.intent != Intent.ESTIMATE or query.reason in (Reason.AMBIGUOUS, Reason.TOO_LONG):
        return query
    unused = [t.written for t in tokens if t.kind == NUM and not t.role]
    if not unused:
        return query
    return query.model_copy(update={"unused": unused[:UNUSED_SHOWN]})
