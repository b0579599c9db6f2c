"""The user's own spelling of what the reader read.

The reader works on normalised text (``٥٠ ساعة`` becomes ``50 ساعه``, ``2X``
becomes ``2x``), so the snippets it keeps (``Query.read_by``, ``Query.unused``)
are normalised. A reply that quotes them back quotes the message instead: the
run of the user's words whose normalised form is the snippet.
"""

from __future__ import annotations

import re

from bot.models import Query
from bot.understanding.text.normalise import normalise

# Words are looked for in the first this many (a reply quotes what was read,
# and beyond this the snippet is kept as the reader wrote it).
MAX_WORDS = 2000
# A snippet spans at most this many more words in the message than it has.
EXTRA_WORDS = 3
# What may hang on a word without being part of the value ("(36h),", "«٣٦ ساعة»").
_EDGE = ".,;:!?()[]{}\"'«»“”‘’*_~`،؛؟"
_SPACE = re.compile(r"\s+")
# The parts of a ratio computed from two times ("10 h ÷ 6 h").
_DIVIDED = " ÷ "


def as_written(message: str, said: str) -> str:
    """``said`` (normalised) as ``message`` spells it; ``said`` when not found."""
    if _DIVIDED in said:
        return _DIVIDED.join(as_written(message, part) for part in said.split(_DIVIDED))
    target = _SPACE.sub("", said)
    if not target:
        return said
    words = message.split()[:MAX_WORDS]
    normalised = _normalised_words(message, words)
    span = len(said.split()) + EXTRA_WORDS
    for i in range(len(words)):
        joined = ""
        for j in range(i, min(i + span, len(words))):
            if not normalised[j].strip(_EDGE):
                break  # markup ("<@U1>", ":rocket:") is never quoted back
            joined += normalised[j]
            if joined.strip(_EDGE) == target:
                return _quotable(" ".join(words[i : j + 1]).strip(_EDGE), said)
            if not target.startswith(joined.lstrip(_EDGE)):
                break
        inside = _inside_word(words[i], normalised[i], target)
        if inside is not None:
            return _quotable(inside, said)
    return said


def _quotable(written: str, said: str) -> str:
    """What the user wrote, unless it holds Slack's control characters (a mention, a
    link): then the reader's form, which never can ping anyone."""
    return said if any(c in written for c in "<>&") else written


def _normalised_words(message: str, words: list[str]) -> list[str]:
    """Each word of ``message`` normalised: from one pass over the whole message when
    normalising kept the words apart as they were (the usual case), else word by word."""
    whole = normalise(message).split()
    if len(whole) == len(message.split()):
        return whole[: len(words)]
    return [_SPACE.sub("", normalise(w)) for w in words]


def _inside_word(word: str, normalised: str, target: str) -> str | None:
    """ "ratio=2": a snippet inside one word, where normalising kept its length."""
    at = normalised.find(target)
    if at < 0 or len(normalised) != len(word):
        return None
    return word[at : at + len(target)]


def in_users_spelling(query: Query, message: str) -> Query:
    """``query`` with its quoted snippets spelled as in ``message``."""
    if not query.read_by and not query.unused:
        return query
    read_by = {
        key: [rule, as_written(message, said) if said else said]
        for key, (rule, said) in query.read_by.items()
    }
    unused = [as_written(message, said) for said in query.unused]
    return query.model_copy(update={"read_by": read_by, "unused": unused})
