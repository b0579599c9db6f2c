"""The reader's words as data, one file per language (``en.toml``, ``ar.toml``).

Each file holds plain tables written as people spell the words: arrays (word
lists) and tables (word -> value: a unit, a number, a currency code). The
loader merges a table across languages and normalises every entry the way
messages are normalised (lower case, bare alef, ta marbuta as ha), so the
rules compare normalised tokens with normalised data:

- :func:`table` gives a word list as a frozenset,
- :func:`phrases` gives it as word tuples, longest first,
- :func:`mapping` gives a word -> value table as a dict,
- :func:`known_words` gives every word any table holds (a word none holds is
  unknown to the reader: "Frobnitz" in "a Frobnitz 9000 GPU" names something).

``en`` and ``ar`` are the raw files, for code that reads one language.
A word's language is its script: symbols and Latin words live in ``en.toml``.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from types import SimpleNamespace

from bot.understanding.text.normalise import normalise


def _load(language: str) -> SimpleNamespace:
    with (Path(__file__).parent / f"{language}.toml").open("rb") as f:
        return SimpleNamespace(**tomllib.load(f))


en = _load("en")
ar = _load("ar")
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


def mapping(name: str) -> dict:
    """Word -> value table ``name`` of every language, keys (and word-list values)
    normalised; a fresh dict, in file order."""
    return {
        normalise(k): [normalise(w) for w in v] if isinstance(v, list) else v
        for lang in LANGUAGES
        for k, v in getattr(lang, name, {}).items()
    }


@cache
def known_words() -> frozenset[str]:
    """Every single word of every table in every language, normalised (keys and
    values of word -> value tables too)."""
    out: set[str] = set()
    for lang in LANGUAGES:
        for entries in vars(lang).values():
            items = entries.items() if isinstance(entries, dict) else [(e, None) for e in entries]
            for key, value in items:
                for entry in [key, *(value if isinstance(value, list) else [value])]:
                    if isinstance(entry, str):
                        out.update(normalise(entry).split())
    return frozenset(out)
