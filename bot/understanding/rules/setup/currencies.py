"""Currency words, symbols and country adjectives, built from Babel's CLDR data.

CLDR names every currency in English and Arabic, in the singular and in each
plural form ("Saudi Riyal", "Saudi riyals"; "جنيه مصري", "جنيهان مصريان",
"جنيهات مصرية"), and gives its symbols ("€", "₩", "A$", "US$"). Each name is a
head word (riyal, ريال) and the country adjective that qualifies it (Saudi,
written before it in English; سعودي, after it in Arabic). So:

- a head word alone names the one currency CLDR gives it ("euro", "yen",
  "يوان"), or, when CLDR gives it to several, the default chosen in the words
  modules (``CURRENCY_DEFAULTS``: "dollar" USD, "دينار" KWD), or none
  (:data:`UNSAID`: the price is kept unreadable and the reply asks which);
- a country adjective names its country's currency ("Iraqi", "عراقي" IQD);
- a lone currency sign names its currency, a sign with letters glued before
  it ("A$", "HK$", "E£") the country's.

Only currencies some territory uses as legal tender today are read (CLDR's
territory data): no historical ones ("Austrian Schilling"), no gold or test codes.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterator

from babel import Locale
from babel.numbers import get_currency_name, get_territory_currencies

from bot.understanding.text.normalise import normalise
from bot.understanding.words import LANGUAGES, en

UNSAID = "?"  # a currency word that names no currency without its country

# Counts that select every CLDR plural category of each language (English one
# and other; Arabic zero, one, two, few, many and other).
_PLURAL_COUNTS = {"en": (1, 2), "ar": (0, 1, 2, 3, 11, 100)}


def _legal_tender() -> frozenset[str]:
    """The currencies some territory uses as legal tender today."""
    territories = Locale.parse("en").territories
    return frozenset(code for t in territories for code in get_territory_currencies(t, tender=True))


_CURRENT = _legal_tender()


def _names(language: str) -> Iterator[tuple[str, list[str]]]:
    """(code, words) for every CLDR name of every current currency, normalised."""
    locale = Locale.parse(language)
    for code in sorted(_CURRENT & set(locale.currencies)):
        counts = _PLURAL_COUNTS[language]
        forms = {normalise(get_currency_name(code, n, locale)) for n in counts}
        forms.add(normalise(locale.currencies[code]))
        for form in forms:
            yield code, form.split()


def _head_and_country(language: str, words: list[str]) -> tuple[str, list[str]]:
    """English writes the country first ("saudi riyal"), Arabic after ("ريال سعودي")."""
    if language == "en":
        return words[-1], words[:-1]
    return words[0], words[1:]


def _both_genders(adjective: str) -> list[str]:
    """ "سعودي" and "سعوديه" (ta marbuta folded) alike: "ريال سعودي", "ليرة سورية"."""
    if adjective.endswith("يه"):
        return [adjective, adjective[:-1]]
    return [adjective, adjective + "ه"] if adjective.endswith("ي") else [adjective]


def _arabic_stem(head: str, heads: dict[str, set[str]]) -> str | None:
    """ "دولارا" (accusative, "٥٠ دولارا"), "ديناران" (dual): the head they inflect."""
    for ending in ("ان", "ين", "ا"):
        if head.endswith(ending) and head[: -len(ending)] in heads:
            return head[: -len(ending)]
    return None


def _country_words(country: list[str], language: str) -> list[str]:
    """The one word said next to the head: "saudi" (riyal), "سعودي" (ريال)."""
    word = country[-1] if language == "en" else country[0]
    return _both_genders(word) if language == "ar" else [word]


def _short_arabic(head: str) -> bool:
    """ "ين" (yen), "بير" (birr): an Arabic head of three letters or fewer is
    found inside everyday words once a clitic is stripped ("بين" between,
    "كبير" big), so it is never read as a currency."""
    return len(head) <= 3 and not head.isascii()


def _unique(table: dict[str, set[str]]) -> dict[str, str]:
    return {word: next(iter(codes)) for word, codes in table.items() if len(codes) == 1}


def _read_cldr_names() -> tuple[dict[str, set[str]], dict[str, str], dict[str, str]]:
    """Head words -> their codes; country adjectives -> the code they name.

    An adjective that is a country's whole name wins over one that ends a longer
    one: "Sudanese" is SDG, though "South Sudanese pound" ends with it too.
    """
    heads: dict[str, set[str]] = defaultdict(set)
    whole: dict[str, set[str]] = defaultdict(set)
    part: dict[str, set[str]] = defaultdict(set)
    for language in ("en", "ar"):
        for code, words in _names(language):
            head, country = _head_and_country(language, words)
            heads[head].add(code)
            if country:
                for word in _country_words(country, language):
                    (whole if len(country) == 1 else part)[word].add(code)
    stems = {h: s for h in heads if (s := _arabic_stem(h, heads))}
    return heads, _unique(part) | _unique(whole), stems


def _build() -> tuple[dict[str, str], dict[str, str], dict[str, frozenset[str]]]:
    """(currency words, country adjectives) mapped to an ISO code or UNSAID, and
    the codes CLDR names with each head word."""
    heads, qualifiers, stems = _read_cldr_names()
    for module in LANGUAGES:
        for word, code in module.CURRENCY_COUNTRY_EXTRAS.items():
            qualifiers |= dict.fromkeys(_both_genders(normalise(word)), code)
    defaults = {normalise(w): c for m in LANGUAGES for w, c in m.CURRENCY_DEFAULTS.items()}
    needing_country = {normalise(w) for m in LANGUAGES for w in m.CURRENCY_WORDS_NEEDING_COUNTRY}
    words = {
        head: next(iter(codes)) if len(codes) == 1 else UNSAID
        for head, codes in heads.items()
        if head not in needing_country and not _short_arabic(head)
    } | defaults
    words |= {head: words[stem] for head, stem in stems.items() if stem in words}
    words |= {code: code.upper() for code in en.CURRENCY_CODES_ALWAYS}
    named = {head: frozenset(codes) for head, codes in heads.items()}
    named |= {head: named[stem] for head, stem in stems.items()}
    return words, qualifiers, named


def _is_sign(char: str) -> bool:
    return unicodedata.category(char) == "Sc"


def _build_symbols() -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """Lone signs ("€", "₩") and signs with country letters ("A$", "US$", "UK£")."""
    lone: dict[str, set[str]] = defaultdict(set)
    prefixed: dict[tuple[str, str], str] = {}
    for language in ("en", "ar"):
        for code, symbol in Locale.parse(language).currency_symbols.items():
            if code not in _CURRENT or not symbol or not _is_sign(symbol[-1]):
                continue
            letters, sign = symbol[:-1].lower(), symbol[-1]
            if not letters:
                lone[sign].add(code)
            elif letters.isalpha():
                prefixed[(letters, sign)] = code
    signs = {sign: next(iter(codes)) for sign, codes in lone.items() if len(codes) == 1}
    extras = {
        (written[:-1], written[-1]): code for written, code in en.PREFIXED_SYMBOL_EXTRAS.items()
    }
    return signs | en.CURRENCY_SYMBOL_EXTRAS, prefixed | extras


_WORDS, CURRENCY_QUALIFIERS, _NAMED_BY = _build()
_SIGNS, PREFIXED_SYMBOLS = _build_symbols()
# Every word, code and lone sign that names a currency -> its ISO code (or UNSAID).
CURRENCIES: dict[str, str] = _WORDS | _SIGNS
CURRENCY_SYMBOLS = frozenset(_SIGNS)


def may_name(word: str, code: str) -> bool:
    """Whether the currency ``code`` of a country adjective may be called ``word``.

    "دينار عراقي" is the Iraqi dinar, but "دينار فلبيني" names no currency (the
    Philippine one is the peso), so the price is kept unreadable. A word CLDR
    does not list as a name (an ISO code, a sign, "دنانير") is not judged.
    """
    codes = _NAMED_BY.get(word)
    return codes is None or code in codes
