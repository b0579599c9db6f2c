"""What a new user asks before giving any number: a greeting, "how much faster is
mixed precision?", "how much will it cost?", "كم بيوفر علي؟".

* ``greeting``: a message of greetings and chatter alone ("hi", "السلام عليكم",
  "هلا") gets a short hello with one example, never the usage list.
* ``speed_question``: a speed word asked of no setup ("what speedup can I expect?",
  "كم أسرع الدقة المختلطة؟") gets the typical range and a published example, and
  so does whether it pays off (rule ``worth_question``: "is mixed precision worth
  it?", «هل تستاهل الدقة المختلطة؟»).
* ``cost_question``: a cost word without numbers ("how much will it cost?",
  "كم التكلفة؟") gets one line naming what a cost needs.
* ``definition_question``: what mixed precision is ("what is mixed precision?",
  «يعني ايه mixed precision؟») gets a two-line definition with one example; a
  speed word in it makes it the speed question ("what is the speedup of amp?").
* ``saving_question``: what it saves ("how much time will it save?", "كم بيوفر
  علي؟") is an estimate missing its FP32 time (reason ``no_numbers``).

Only "help" / "مساعدة" (and an empty command) asks for the whole usage.
"""

from __future__ import annotations

from bot.understanding.text.tokens import NUM, SYM, WORD, Token, word_in
from bot.understanding.values.lexicon import SPEED_CUES
from bot.understanding.words import phrases, table

_CHATTER = phrases("CHATTER")
# (kind, the words that ask it), tried in order; read once, not per message.
_QUESTION_WORDS = (
    ("cost_question", table("COST_WORDS")),
    ("saving_question", table("SAVING_WORDS")),
)
# Rule ``worth_question``: whether it pays off is answered as the speed question.
_SPEED_WORDS = SPEED_CUES | table("WORTH_WORDS")
_DEFINITION_PHRASES = phrases("DEFINITION_PHRASES")
_DEFINITION_TOPIC = table("DEFINITION_TOPIC_WORDS")


def greeting(tokens: list[Token]) -> bool:
    """Rule ``greeting``: every word is a greeting or chatter, one at least greets."""
    texts = [t.text for t in tokens if t.kind != SYM]
    if not texts or any(t.kind == NUM for t in tokens):
        return False
    greeted, k = False, 0
    while k < len(texts):
        n, greets = _phrase_at(texts, k)
        if not n:
            return False
        greeted, k = greeted or greets, k + n
    return greeted


def _phrase_at(texts: list[str], k: int) -> tuple[int, bool]:
    """Words a greeting or chatter phrase covers at ``k`` (longest first), and
    whether it greets."""
    tagged = [(p, True) for p in phrases("GREETINGS")] + [(p, False) for p in _CHATTER]
    for phrase, greets in sorted(tagged, key=lambda pg: len(pg[0]), reverse=True):
        if tuple(texts[k : k + len(phrase)]) == phrase:
            return len(phrase), greets
    return 0, False


def first_question(words: list[Token]) -> str | None:
    """ "cost_question", "saving_question", "speed_question" or "definition_question"
    for a message without numbers or a named setup that asks about cost, a saving,
    speed or what mixed precision is; else None."""
    for kind, asking in _QUESTION_WORDS:
        if any(word_in(t, asking) for t in words):
            return kind
    if any(t.kind == WORD and word_in(t, _SPEED_WORDS) for t in words):
        return "speed_question"
    if _asks_definition(words):
        return "definition_question"
    return None


def _asks_definition(words: list[Token]) -> bool:
    """Rule ``definition_question``: a what-is phrase and a word naming the topic."""
    texts = [t.text for t in words]
    asked = any(
        tuple(texts[k : k + len(p)]) == p for p in _DEFINITION_PHRASES for k in range(len(texts))
    )
    return asked and any(word_in(t, _DEFINITION_TOPIC) for t in words)
