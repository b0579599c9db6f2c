"""Looking at the tokens around a number: the token at an index, a word of a
table (Arabic words through their clitic-free forms), a time unit."""

from __future__ import annotations

from bot.understanding.text.tokens import ARABIC, NUM, SYM, WORD, Token
from bot.understanding.values.lexicon import AR_UNITS, EN_UNITS, has_prefix_article, lookup
from bot.understanding.words import table


def is_time_unit(tok: Token | None) -> bool:
    if tok is None or tok.kind != WORD:
        return False
    if tok.script == ARABIC:
        return lookup(tok.text, AR_UNITS) is not None
    return tok.text in EN_UNITS


def is_duration_at(tokens: list[Token], j: int) -> bool:
    """A number with a time unit at ``j``: "8 hours", "8h", "٨ ساعات"."""
    tok = at(tokens, j)
    if tok is None or tok.kind != NUM or tok.role:
        return False
    suffix = tok.suffix.lstrip("-")
    return suffix in EN_UNITS if suffix else is_time_unit(at(tokens, j + 1))


def at(tokens: list[Token], i: int) -> Token | None:
    return tokens[i] if 0 <= i < len(tokens) else None


def word_in(tok: Token | None, table) -> str | None:
    if tok is None or tok.kind != WORD:
        return None
    return (
        lookup(tok.text, table)
        if tok.script == ARABIC
        else (tok.text if tok.text in table else None)
    )


def text_at(tokens: list[Token], i: int) -> str:
    """The text of the token at ``i``, or "" past either end."""
    return tokens[i].text if 0 <= i < len(tokens) else ""


def in_table(tok: Token | None, name: str) -> bool:
    """A word of the word table ``name`` (Arabic words also without their clitics)."""
    if tok is None or tok.kind != WORD:
        return False
    words = table(name)
    return tok.text in words or (tok.script == ARABIC and lookup(tok.text, words) is not None)


def is_sym(tok: Token | None, text: str) -> bool:
    return tok is not None and tok.kind == SYM and tok.text == text


def mixed_precision_at(tokens: list[Token], j: int) -> bool:
    """Rule ``mixed_precision_at``: "at" right after a mixed precision labels the
    ratio after it: "what with amp at 1.9?", "bf16 at 2" (never a clock time), and so
    does «بـ» (``PRECISION_AT``): «طيب والـ amp بـ ١٫٨؟»."""
    return (
        1 <= j < len(tokens)
        and in_table(tokens[j], "PRECISION_AT")
        and in_table(tokens[j - 1], "MIXED")
    )


def names_mixed_precision(tokens: list[Token], j: int) -> bool:
    """The word at ``j`` ends the name of a mixed precision: "amp", "bf16", "mixed
    precision", «الدقة المختلطة» (``MIXED``, or ``PRECISION_NOUNS`` after one)."""
    if in_table(tokens[j], "MIXED"):
        return True
    return j >= 1 and in_table(tokens[j], "PRECISION_NOUNS") and in_table(tokens[j - 1], "MIXED")


def counted_noun(tok: Token | None, words) -> str | None:
    """The entry of ``words`` that ``tok`` is, as the noun a number before it counts:
    "8 GPUs", «٣ معاملات». A noun glued to «و» or carrying «ال» its entry lacks
    («يومين أو ثلاثة والمعامل ٢»: "and the ratio") opens a phrase of its own, since
    Arabic counts with a bare noun, so it counts nothing."""
    noun = word_in(tok, words)
    if noun is None or tok.script != ARABIC:
        return noun
    glued = has_prefix_article(tok.text, noun) or (
        tok.text.startswith("و") and not noun.startswith("و")
    )
    return None if glued else noun
