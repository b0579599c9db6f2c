"""The grammatical case a value takes from its place in a translated sentence.

A catalog entry fixes the words around each placeholder, so the word right
before ``%(mp)s`` in the translation says its case: Arabic «نحو %(mp)s» puts
the duration in the genitive («نحو يومين»), «والتوفير %(saved)s» leaves it
nominative («يومان»). The words that govern the genitive are data
(``governing_words.toml``); a translator who rewords a sentence changes the
case with it, and no code names a sentence.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from enum import StrEnum
from functools import cache
from pathlib import Path

from bot.models import Lang


class Case(StrEnum):
    """The case a duration is worded in (its catalog context)."""

    NOMINATIVE = "nominative"
    GENITIVE = "genitive"


# A value worded once its case is known.
Worded = Callable[[Case], str]

# The word before a placeholder, without isolates, markup or punctuation around it.
_WORD_BEFORE = re.compile(r"([^\s*_~:؛،,.()«»\u2068\u2069]+)[\s*_~\u2068\u2069]*$")


def fill(template: str, values: Mapping[str, object], lang: Lang) -> str:
    """``template % values``, each :data:`Worded` value in the case its place gives it."""

    def said(name: str, value: object) -> object:
        return value(case_at(template, name, lang)) if callable(value) else value

    return template % {name: said(name, value) for name, value in values.items()}


def case_at(template: str, name: str, lang: Lang) -> Case:
    """The case of placeholder ``name`` in ``template``: genitive right after a word
    that governs it, nominative elsewhere (and in languages without case)."""
    at = template.find(f"%({name})s")
    word = _WORD_BEFORE.search(template[: max(at, 0)])
    if at >= 0 and word and word.group(1) in _genitive_words(lang.value):
        return Case.GENITIVE
    return Case.NOMINATIVE


@cache
def _genitive_words(lang: str) -> frozenset[str]:
    with Path(__file__).with_name("governing_words.toml").open("rb") as f:
        table = tomllib.load(f)
    return frozenset(table.get(lang, {}).get("genitive", ()))
