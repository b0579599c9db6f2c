"""Which language to answer in: the one asked for, else the one most words are in.

"answer in Arabic please", "جاوبني بالانجليزي" inside a message choose the
language of that one reply (only "lang ar|en" stores a preference).

Otherwise technical Latin terms (FP32, AMP, GPU and model names, units) do not
make an Arabic sentence English, so they are not counted; single-letter
clitics split off Arabic words (و، ب) are not counted either. In a message with
no Arabic word at all, an English word of the request ("ratio", "hours",
"speedup") still makes it English, whatever the user's preference; only a
message with no words (bare numbers, perhaps with identifiers such as "A100",
"fp16" or "h") gets the user's preferred language, else English.
"""

from __future__ import annotations

from bot.models import Lang
from bot.understanding.text.tokens import ARABIC, WORD, Token, tokenize
from bot.understanding.values.lexicon import LANG_CHOICES, TECH_WORDS, lookup
from bot.understanding.words import table

NEUTRAL_TERMS = table("NEUTRAL_TERMS")
REPLY_VERBS = table("REPLY_VERBS")
PLEASE_WORDS = table("PLEASE_WORDS")
_PLEASE_OR_LEAD = PLEASE_WORDS | {"لو", "من"}  # "لو سمحت", "من فضلك"
_IN = "in"
_AR_IN = "ب"  # "بالعربي": the preposition glued to the language
_AR_LANGUAGE_NOUNS = table("AR_LANGUAGE_NOUNS")
_ARABIC_PARTICLES = table("ARABIC_PARTICLES")


def detect_language(tokens: list[Token], preferred: Lang | None = None) -> Lang:
    requested = requested_language(tokens)
    if requested is not None:
        return requested
    arabic = latin = english_terms = 0
    for tok in tokens:
        if tok.kind != WORD or (len(tok.text) < 2 and tok.text not in _ARABIC_PARTICLES):
            continue  # rule ``arabic_particle``: "و٢؟" is Arabic; "x", "h", "١٢ س" are not
        if tok.script == ARABIC:
            arabic += 1
        elif any(c.isdigit() for c in tok.text) or tok.role in ("gpu", "model", "name"):
            continue  # identifiers: "fp32", "a100", "resnet-50"
        elif not tok.role and tok.text not in TECH_WORDS:
            latin += 1
        elif tok.text not in NEUTRAL_TERMS:
            english_terms += 1  # "ratio", "hours", "speedup": English words all the same
    if arabic == 0 and latin == 0:
        return Lang.EN if english_terms else preferred or Lang.EN
    return Lang.AR if arabic >= latin else Lang.EN


def requested_language(tokens: list[Token]) -> Lang | None:
    """The language a message asks its reply to be in, if it asks.

    A language named after "in" ("in Arabic") or with the preposition glued
    ("بالعربي", "باللغة الإنجليزية") is a request when a reply verb comes just
    before it ("answer in English", "جاوبني بالعربي") or nothing more of the
    clause comes after it but a "please" ("..., in Arabic please", "بالعربي لو
    سمحت"). "a BERT in Arabic on 8 GPUs" names the data, not the reply.
    """
    for i, tok in enumerate(tokens):
        if tok.kind != WORD:
            continue
        choice, start = _language_after_preposition(tokens, i)
        if choice is None:
            continue
        if _verb_before(tokens, start) or _clause_ends_after(tokens, i + 1):
            return Lang(choice)
    return None


def _language_after_preposition(tokens: list[Token], i: int) -> tuple[str | None, int]:
    """The language named at ``i`` with its preposition, and where the phrase starts."""
    tok = tokens[i]
    if tok.script != ARABIC:
        prev = tokens[i - 1] if i else None
        if prev is not None and prev.text == _IN and len(tok.text) > 2:
            return LANG_CHOICES.get(tok.text), i - 1
        return None, i
    prev = tokens[i - 1] if i else None
    if prev is not None and lookup(prev.text, _AR_LANGUAGE_NOUNS):
        return _arabic_choice(tok.text), i - 1
    word = tok.text.removeprefix("و")
    if not word.startswith(_AR_IN) or len(word) < 4:
        return None, i
    return _arabic_choice(word[1:]), i


def _arabic_choice(word: str) -> str | None:
    found = lookup(word, LANG_CHOICES)
    return LANG_CHOICES[found] if found else None


def _verb_before(tokens: list[Token], start: int) -> bool:
    for tok in tokens[max(0, start - 2) : start]:
        if tok.kind == WORD and (tok.text in REPLY_VERBS or lookup(tok.text, REPLY_VERBS)):
            return True
    return False


def _clause_ends_after(tokens: list[Token], j: int) -> bool:
    """Nothing but "please" words (and "لو"/"من" before them) before the clause ends."""
    while j < len(tokens) and tokens[j].kind == WORD and tokens[j].text in _PLEASE_OR_LEAD:
        j += 1
    return j == len(tokens) or tokens[j].is_boundary or tokens[j].text == ":"


def language_of(text: str, preferred: Lang | None = None) -> Lang:
    """The language a raw message is written in (or asks for), for callers that need
    only that: the Slack layer answers a refused request without reading it."""
    return detect_language(tokenize(text), preferred) if text else preferred or Lang.EN
