"""The reader's word lists as data, one module per language (``en``, ``ar``).

Each language module holds plain tables written as people spell the words;
:func:`table` merges a table across languages and normalises every entry
the way messages are normalised (lower case, bare alef, ta marbuta as ha),
so the rules compare normalised tokens with normalised data. Phrases are
kept as tuples of words.
"""

from __future__ import annotations

from functools import cache

from bot.understanding.normalise import normalise
from bot.understanding.words import ar, en

LANGUAGES = (en, ar)


@cache
def table(name: str) -> frozenset[str]:
    """One-word entries of table ``name`` in every language, normalised."""
    out: set[str] = set()
    for lang in LANGUAGES:
        out.update(normalise(w) for w in getattr(lang, name, ()))
    return frozenset(out)


@cache
def phrases(name: str) -> tuple[tuple[str, ...], ...]:
    """Entries of table ``name`` as word tuples, longest first (for longest-match)."""
    out = {tuple(normalise(p).split()) for lang in LANGUAGES for p in getattr(lang, name, ())}
    return tuple(sorted((p for p in out if p), key=len, reverse=True))
