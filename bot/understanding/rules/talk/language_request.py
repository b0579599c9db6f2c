"""Rule ``language_request``: "lang ar", "language english", "اللغة عربي" set
the reply language; "lang fr" or a bare "lang" name none the bot speaks and
are answered with the choices ("language model?" is no request at all)."""

from __future__ import annotations

from bot.models import Intent, Lang, Query, Reason
from bot.understanding.text.language import detect_language
from bot.understanding.text.tokens import WORD, Token
from bot.understanding.text.tokens import word_in as _is
from bot.understanding.values.lexicon import LANG_CHOICES, LANG_WORDS, lookup
from bot.understanding.words import table

_NOT_A_LANGUAGE = table("NOT_A_LANGUAGE")


def language_request(
    tokens: list[Token], lang_tokens: list[Token], preferred: Lang | None
) -> Query | None:
    """ "reply in Arabic", "بالعربي": a language choice, known or not."""
    lang_choice = _lang_choice(tokens)
    if lang_choice is not None:
        return Query(intent=Intent.SET_LANG, lang=lang_choice, lang_choice=lang_choice)
    unknown = _unknown_lang_choice(tokens)
    if unknown is None:
        return None
    return Query(
        intent=Intent.SET_LANG,
        lang=detect_language(lang_tokens, preferred),
        reason=Reason.UNKNOWN_LANGUAGE,
        candidates=unknown,
    )


def _lang_choice(tokens: list[Token]) -> Lang | None:
    """ "lang ar", "language english", "اللغة عربي": a preference, nothing else."""
    words = [t for t in tokens if t.kind == WORD]
    if not 2 <= len(words) <= 4 or len(words) != len(tokens) - sum(
        1 for t in tokens if t.kind != WORD and t.text in ":=,."
    ):
        return None
    if not _is(words[0], LANG_WORDS):
        return None
    for w in words[1:]:
        choice = LANG_CHOICES.get(w.text) or LANG_CHOICES.get(lookup(w.text, LANG_CHOICES) or "")
        if choice:
            return Lang(choice)
    return None


def _unknown_lang_choice(tokens: list[Token]) -> list[str] | None:
    """ "lang fr", "lang": a language choice naming no language we speak.

    The words written after the keyword (none for a bare "lang"), else None
    when the message is no language choice at all ("language model?").
    """
    words = [t for t in tokens if t.kind == WORD]
    if not 1 <= len(words) <= 2 or len(words) != len(tokens) or not _is(words[0], LANG_WORDS):
        return None
    rest = [w.text for w in words[1:]]
    if any(lookup(w, _NOT_A_LANGUAGE) for w in rest):
        return None
    return rest
