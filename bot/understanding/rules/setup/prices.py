"""Rule ``currency`` and the price rules: which currency a number is in, and
what the price pays for (an hour, a day, one GPU, a node, the whole run).

Currency words, signs and country adjectives come from CLDR
(:mod:`bot.understanding.rules.setup.currencies`); the words that say whose price it is
and for how long are data here.
"""

from __future__ import annotations

import re

from babel.numbers import is_currency

from bot.models import Price
from bot.understanding.rules.setup.currencies import (
    CURRENCIES,
    CURRENCY_QUALIFIERS,
    CURRENCY_SYMBOLS,
    PREFIXED_SYMBOLS,
    UNSAID,
    may_name,
)
from bot.understanding.text.tokens import ARABIC, NUM, SYM, WORD, Token
from bot.understanding.values.lexicon import LABEL_FILLERS, RATIO_LABELS, lookup
from bot.understanding.values.nearby import at, word_in
from bot.understanding.words import mapping, table

NOT_COUNTRY_ADJECTIVES = table("NOT_COUNTRY_ADJECTIVES")
PRICE_CUES = table("PRICE_CUES")


WHOLE_JOB_WORDS = table("WHOLE_JOB_WORDS")
RUN_PRICE_WORDS = table("RUN_PRICE_WORDS")
NODE_PRICE_WORDS = table("NODE_PRICE_WORDS")
PRICE_SCALES = mapping("PRICE_SCALES")
PRICE_GPU_WORDS = table("PRICE_GPU_WORDS")
PRICE_PERIOD_HOURS: dict[str, float] = mapping("PRICE_PERIOD_HOURS")
PRICE_PERIOD_ADVERBS = table("PRICE_PERIOD_ADVERBS")


_DOT_GROUPED = re.compile(r"\d{1,3}(?:\.\d{3})+")


def join_european_amounts(tokens: list[Token]) -> None:
    """ "€1.234,50", "1.234,50 EUR per day": dots group thousands and the comma
    is the decimal point, when a currency is written with the amount. The three
    tokens become one (the list is rebuilt once, so the pass stays linear).

    Without cents ("1.250 KWD") the dot stays a decimal point: dinars have three.
    """
    kept: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        kept.append(tok)
        if (
            i + 2 < n
            and tok.kind == NUM
            and not tok.suffix
            and _DOT_GROUPED.fullmatch(tok.text)
            and tokens[i + 1].text == ","
            and tokens[i + 1].glued
            and tokens[i + 2].kind == NUM
            and tokens[i + 2].glued
            and len(tokens[i + 2].text) <= 2
            and tokens[i + 2].text.isdigit()
            and _money_around(tokens, i, i + 2)
        ):
            cents = tokens[i + 2]
            tok.text = tok.text.replace(".", "") + "." + cents.text
            tok.value = float(tok.text)
            tok.suffix = cents.suffix
            i += 3
            continue
        i += 1
    if len(kept) != n:
        tokens[:] = kept


def _money_around(tokens: list[Token], first: int, last: int) -> bool:
    """A currency symbol or word just before ``first`` or just after ``last``."""
    before, after = at(tokens, first - 1), at(tokens, last + 1)
    return (
        (before is not None and before.text in CURRENCY_SYMBOLS)
        or tokens[last].suffix in CURRENCIES
        or (before is not None and word_in(before, CURRENCIES) is not None)
        or (after is not None and (after.text in CURRENCIES or word_in(after, CURRENCIES)))
    )


def symbol_after(tokens: list[Token], i: int) -> bool:
    """ "2.5$/h": a currency symbol after the number, not leading the next one ("2 $3")."""
    nxt, after = at(tokens, i + 1), at(tokens, i + 2)
    if nxt is None or nxt.kind != SYM or nxt.text not in CURRENCY_SYMBOLS:
        return False
    return not (after is not None and after.kind == NUM and after.glued)


def after_ratio_label(tokens: list[Token], i: int) -> bool:
    """ "ratio 2", "speedup: 1.8", "النسبة ٢": a labelled ratio is never a price."""
    j = i - 1
    while j >= 0 and tokens[j].text in LABEL_FILLERS:
        j -= 1
    return j >= 0 and word_in(tokens[j], RATIO_LABELS) is not None


def currency_after(tokens: list[Token], i: int) -> bool:
    """A currency right after the number: "10 SAR", "3 دولارات", "5000 Iraqi dinars".

    A symbol leads the number after it ("100 2 $3": the 3 is the price, the 2
    the ratio) unless nothing is glued to it ("2.5$/h")."""
    nxt = at(tokens, i + 1)
    if nxt is not None and nxt.kind == SYM:
        return symbol_after(tokens, i)
    return currency_code(tokens, i + 1, i) is not None or (
        _english_country(tokens, i + 1) is not None and currency_code(tokens, i + 2, i) is not None
    )


def currency_code(tokens: list[Token], j: int, number_at: int) -> str | None:
    """The currency the token at ``j`` names for the number at ``number_at``.

    Currency words and symbols always do. Any other three-letter ISO 4217 code
    ("MAD", "TND", "INR") does only right next to its number with a price cue
    ("at 300 MAD", "5 TND/h"), so "try", "all" or "top" stay words.
    """
    tok = at(tokens, j)
    if tok is None or tok.kind == NUM:
        return None
    if tok.kind == SYM:
        return CURRENCIES.get(tok.text) if tok.text in CURRENCY_SYMBOLS else None
    word = word_in(tok, CURRENCIES)
    if word is not None:
        return CURRENCIES[word]
    if (
        tok.script != ARABIC
        and len(tok.text) == 3
        and abs(j - number_at) == 1
        and tok.text.isalpha()
        and is_currency(tok.text.upper())
        and _price_cue(tokens, number_at)
    ):
        return tok.text.upper()
    return None


def _price_cue(tokens: list[Token], i: int) -> bool:
    """ "at 300 MAD", "price: 5 TND", "300 MAD per hour", "5 TND/h": said as a price."""
    before = tokens[max(i - 3, 0) : i]
    if any(t.text in PRICE_CUES or word_in(t, PRICE_CUES) for t in before):
        return True
    after = tokens[i + 1 : i + 5]
    return any(t.text == "/" for t in after) or any(
        w in PRICE_PERIOD_HOURS for w in _price_clause(tokens, i)
    )


def _english_country(tokens: list[Token], j: int) -> str | None:
    """ "Iraqi", "Saudi": an English country adjective, written before its currency."""
    tok = at(tokens, j)
    if tok is None or tok.kind != WORD or tok.script == ARABIC:
        return None
    return CURRENCY_QUALIFIERS.get(tok.text)


def owned(tokens: list[Token], j: int) -> bool:
    """A currency word right after a bare number is that number's ("10 دينار")."""
    before = at(tokens, j - 1)
    return (
        tokens[j].kind == WORD
        and before is not None
        and before.kind == NUM
        and not before.suffix
        and not after_ratio_label(tokens, j - 1)
    )


def _currency(tokens: list[Token], i: int) -> str | None:
    """The currency written next to the number at ``i`` ("$10", "10 SAR", "ريال سعودي 10").

    A currency word before the number is its own only when no bare number just
    before owns it: in "10 دينار كويتي 20 ساعه" the dinars are the 10's, not the
    20's. Symbols ("€3") always lead their number. A country adjective names the
    country's currency ("دينار عراقي" IQD, "Iraqi dinars" IQD). A currency that
    cannot be told without its country ("ليرة"), or a country the table does not
    know ("دينار صربي"), comes back as the words written: no ISO code, so the
    advice reports the price unreadable instead of billing another country's money.
    """
    if (country := _english_country(tokens, i + 1)) and currency_code(tokens, i + 2, i):
        return _of_country(tokens, i + 2, country, tokens[i + 1 : i + 3])
    for j in (i - 1, i + 1, i - 2):
        tok = at(tokens, j)
        if tok is None:
            continue
        if j < i and owned(tokens, j):
            continue
        if j == i - 2 and _arabic_country(tokens, i - 1) is None:
            continue
        code = _prefixed_symbol(tokens, j) or currency_code(tokens, j, i)
        if code:
            return _qualified(tokens, j, code)
    return None


def _qualified(tokens: list[Token], j: int, code: str) -> str:
    """The currency named at ``j`` with the country adjective after it, if any."""
    country = _arabic_country(tokens, j + 1)
    if country is not None:
        return _of_country(tokens, j, country, tokens[j : j + 2])
    nxt = at(tokens, j + 1)
    unknown_country = tokens[j].kind == WORD and _country_like(nxt)
    if code == UNSAID or unknown_country:
        written = tokens[j : j + 2] if unknown_country else tokens[j : j + 1]
        return " ".join(t.text for t in written)
    return code


def _of_country(tokens: list[Token], j: int, code: str, written: list[Token]) -> str:
    """The country's currency ``code``, if the word at ``j`` may name it ("Iraqi
    dinars"); else the words written ("دينار فلبيني": no ISO code, unreadable)."""
    tok = tokens[j]
    word = tok.text if tok.kind == SYM else word_in(tok, CURRENCIES)
    if word is None or may_name(word, code):
        return code
    return " ".join(t.text for t in written)


def _arabic_country(tokens: list[Token], j: int) -> str | None:
    tok = at(tokens, j)
    if tok is None or tok.kind != WORD:
        return None
    if tok.script != ARABIC:
        return CURRENCY_QUALIFIERS.get(tok.text)  # "dinar iraqi", "SAR saudi"
    word = lookup(tok.text, CURRENCY_QUALIFIERS)
    return CURRENCY_QUALIFIERS[word] if word else None


def _country_like(tok: Token | None) -> bool:
    """ "صربي", "الفلبيني": an Arabic adjective of origin (-ي, -يه) that may be a
    country's, after a currency word; period words and the like are not."""
    if tok is None or tok.kind != WORD or tok.script != ARABIC or tok.role:
        return False
    stem = tok.text.removeprefix("ال")
    if not stem.endswith(("ي", "يه")) or len(stem) < 4:
        return False
    return not (lookup(tok.text, NOT_COUNTRY_ADJECTIVES) or lookup(tok.text, PRICE_PERIOD_HOURS))


def _prefixed_symbol(tokens: list[Token], j: int) -> str | None:
    """ "E£200", "US$3": the currency of a symbol with its country glued before it."""
    sym, before = tokens[j], at(tokens, j - 1)
    if sym.kind != SYM or not sym.glued or before is None or before.kind != WORD:
        return None
    return PREFIXED_SYMBOLS.get((before.text, sym.text))


def _price_clause(tokens: list[Token], i: int) -> list[str]:
    """The words that qualify the price at ``i``: up to six after it, none past
    the next number or the end of its clause ("$30 a day on 8 GPUs" stops at the
    8, "$2.5/h, total 100h" at the comma), and a period adverb just before it
    ("شهرياً ٣٠٠٠ ريال"). "GPU-hour" counts as "GPU" and "hour", and a number
    in a compound ("per 8-GPU node") is part of the words, not the next number."""
    words: list[str] = []
    for tok in tokens[i + 1 : i + 7]:
        if tok.kind == NUM and tok.suffix.startswith("-"):
            words += tok.suffix.split("-")[1:]
            continue
        if tok.kind == NUM or tok.is_boundary:
            break
        words += tok.text.split("-") if tok.kind == WORD else [tok.text]
    words += [t.text for t in tokens[max(i - 2, 0) : i] if t.text in PRICE_PERIOD_ADVERBS]
    return words


def priced_per_period(tokens: list[Token], i: int) -> bool:
    """ "$3/hour", "٣ دولار للساعة", "$30 a day": the price at ``i`` is a rate, so a
    duration said after it ("for 20 hours") is how long the rate is paid, not what
    a sum buys ("$500 for 3 days")."""
    return any(w in PRICE_PERIOD_HOURS for w in _price_clause(tokens, i))


def read_price(tokens: list[Token], i: int) -> Price | None:
    code = _currency(tokens, i)
    if code is None:
        return None
    clause = _price_clause(tokens, i)
    whose = _whose_after(clause) or _whose_before(tokens, i) or _whose_each(tokens, i, clause)
    per_node = whose == "node"
    per_gpu = False if whose in ("node", "job") else True if whose == "gpu" else None
    period = next((PRICE_PERIOD_HOURS[w] for w in clause if w in PRICE_PERIOD_HOURS), None)
    return Price(
        amount=tokens[i].value * PRICE_SCALES.get(tokens[i].suffix, 1.0),
        currency=code,
        per_gpu=per_gpu,
        period_hours=period or 1.0,
        per_node=per_node,
        per_run=period is None and not per_node and _of_the_run(tokens, i, clause),
    )


def _of_the_run(tokens: list[Token], i: int, clause: list[str]) -> bool:
    """ "the whole job costs $500", "$500 in total": the run's own price.

    Only with no period ("$500/h for the job" is hourly) and no "/" after the
    amount; the words may come up to four before it, within its clause.
    """
    if "/" in clause:
        return False
    if any(_price_word(w, RUN_PRICE_WORDS) for w in clause) or _for_the_run(tokens, i):
        return True
    for j in range(i - 1, max(i - 5, -1), -1):
        tok = tokens[j]
        if tok.kind == NUM or tok.is_boundary:
            return False
        if tok.kind == WORD and _price_word(tok.text, RUN_PRICE_WORDS):
            return True
    return False


def _for_the_run(tokens: list[Token], i: int) -> bool:
    """ "$1.5k for a 30h run", "$500 for the whole 30h fp32 run": what the run costs."""
    j = i + 1
    if at(tokens, j) is None or tokens[j].text != "for":
        return False
    j += 1
    while j < len(tokens) and tokens[j].text in ("a", "an", "the", "whole", "entire"):
        j += 1
    duration = at(tokens, j)
    if duration is None or duration.kind != NUM:
        return False
    return any(_price_word(t.text, RUN_PRICE_WORDS) for t in tokens[j + 1 : j + 3])


def _whose_after(clause: list[str]) -> str:
    """ "$25/hour per node", "$500 a day for the cluster", "$2.5 per GPU-hour":
    whose price it is, said after it; what is said after wins over what came before."""
    if any(_price_word(w, NODE_PRICE_WORDS) for w in clause):
        return "node"
    if any(w in WHOLE_JOB_WORDS for w in clause):
        return "job"
    return "gpu" if any(w in PRICE_GPU_WORDS for w in clause) else ""


def _whose_each(tokens: list[Token], i: int, clause: list[str]) -> str:
    """ "4 nodes at $25/hour each", "8 GPUs at $2 each": "each" is the counted
    noun's, the nearest one before the price in its clause."""
    if not any(w in ("each", "apiece", "لكل", "للواحد", "للواحده") for w in clause):
        return ""
    for j in range(i - 1, max(i - 7, -1), -1):
        tok = tokens[j]
        if tok.is_boundary:
            break
        if tok.kind != WORD:
            continue
        if _price_word(tok.text, NODE_PRICE_WORDS) or _price_word(
            tok.text.removesuffix("s"), NODE_PRICE_WORDS
        ):
            return "node"
        if word_in(tok, PRICE_GPU_WORDS):
            return "gpu"
    return ""


def _price_word(word: str, table: frozenset[str]) -> bool:
    return word in table or lookup(word, table) is not None


def _whose_before(tokens: list[Token], i: int) -> str:
    """ "our 8xA100 node costs $25", "the whole node is $25", "سعر السيرفر ٩٠ ريال":
    whose price it is, said up to four words before it ("node", "gpu" or "").

    A noun counted by its own number ("2 nodes $25", "8 GPUs at $2") is not the
    price's owner, and the look stops at a number or a clause boundary.
    """
    for j in range(i - 1, max(i - 5, -1), -1):
        tok = tokens[j]
        if tok.kind == NUM or tok.is_boundary:
            break
        if tok.kind != WORD:
            continue
        owner = (
            "node"
            if _price_word(tok.text, NODE_PRICE_WORDS)
            else "gpu"
            if word_in(tok, PRICE_GPU_WORDS)
            else ""
        )
        count = at(tokens, j - 1)
        if owner and count is not None and count.kind == NUM and not count.suffix:
            break  # "on 2 nodes $25", "8 GPUs at $2" (but "an 8-GPU node costs $25")
        if owner:
            return owner
    return ""
