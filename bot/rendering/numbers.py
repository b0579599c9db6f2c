"""Numbers, durations and bidi isolation for replies, formatted with Babel.

Babel formats decimals, groups and lists per locale, but it leaves digits in
Latin script even for Arabic's ``arab`` numbering system, so the optional
Arabic-Indic digits are transliterated here. Durations are rounded the way a
person would say them: minutes for short jobs, hours (and minutes) for a
working day, days and hours for long runs, never "49.99999 hours".
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from enum import StrEnum
from functools import lru_cache

from babel.lists import format_list
from babel.numbers import format_compact_decimal, format_currency, format_decimal

from bot.models import Lang

FSI = "\u2068"  # first-strong isolate
PDI = "\u2069"  # pop directional isolate

_ARABIC_INDIC = str.maketrans("0123456789%", "٠١٢٣٤٥٦٧٨٩٪")


class Digits(StrEnum):
    """Digit shapes for Arabic replies: Western by default, Arabic-Indic on request."""

    LATN = "latn"
    ARAB = "arab"


Plural = Callable[[str, str, int], str]


class NumberFormat:
    """Locale-aware number formatting for one reply language and digit style."""

    def __init__(self, lang: Lang, digits: Digits | str = Digits.LATN) -> None:
        self.lang = lang
        # Digit shapes are an Arabic-reply option; English always uses Western digits.
        self.arab = lang is Lang.AR and Digits(digits) is Digits.ARAB

    def number(self, value: float) -> str:
        """Two significant decimals below 10, one below 100, none above."""
        places = 2 if abs(value) < 10 else 1 if abs(value) < 100 else 0
        pattern = "#,##0." + "#" * places if places else "#,##0"
        return self._format(round(value, places), pattern)

    def integer(self, value: int) -> str:
        return self._format(value, "#,##0")

    def percent(self, value: float) -> str:
        """``value`` is already in percent (50 -> "50%")."""
        text = self._format(round(value, 1 if abs(value) < 10 else 0), "#,##0.#") + "%"
        return text.translate(_ARABIC_INDIC) if self.arab else text

    def money(self, amount: float, currency: str) -> str:
        """``amount`` in ``currency`` the locale's way, with that currency's decimals (KWD: 3)."""
        return _money(round(amount, 6), currency, self.lang.value, self.arab)

    def compact(self, value: float) -> str:
        """Big counts the way people say them: "7B", "1.5B", "340M" / "7 مليار", "340 مليون"."""
        return _compact(value, self.lang.value, self.arab)

    def span(self, low: float, high: float) -> str:
        return f"{self.number(low)}–{self.number(high)}"

    def join(self, items: list[str]) -> str:
        """ "a, b and c" / "a وb وc" from the locale's list patterns."""
        return _listed(tuple(items), self.lang.value) if items else ""

    def _format(self, value: float, pattern: str) -> str:
        return _formatted(value, pattern, self.lang.value, self.arab)


@lru_cache(maxsize=1024)
def _listed(items: tuple[str, ...], locale: str) -> str:
    return format_list(list(items), locale=locale)


@lru_cache(maxsize=4096)
def _formatted(value: float, pattern: str, locale: str, arab: bool) -> str:
    """Babel re-parses locale and pattern on every call; replies repeat small numbers."""
    system = "arab" if arab else "latn"
    text = format_decimal(value, format=pattern, locale=locale, numbering_system=system)
    return text.translate(_ARABIC_INDIC) if arab else text


# CLDR's currencySpacing (a no-break space between a letter symbol such as
# "SAR" and the digits) which Babel's format_currency does not apply.
_LETTER_THEN_DIGIT = re.compile(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")


@lru_cache(maxsize=1024)
def _money(amount: float, currency: str, locale: str, arab: bool) -> str:
    system = "arab" if arab else "latn"
    text = format_currency(amount, currency, locale=locale, numbering_system=system)
    text = _LETTER_THEN_DIGIT.sub("\u00a0", text)
    return text.translate(_ARABIC_INDIC) if arab else text


@lru_cache(maxsize=1024)
def _compact(value: float, locale: str, arab: bool) -> str:
    system = "arab" if arab else "latn"
    text = format_compact_decimal(value, locale=locale, fraction_digits=1, numbering_system=system)
    return text.translate(_ARABIC_INDIC) if arab else text


def _nearest(value: float) -> int:
    """Round half up: 12.5 hours is 13, as people round, not 12 (Python's half-to-even)."""
    return math.floor(value + 0.5)


def duration(
    hours: float,
    fmt: NumberFormat,
    ngettext: Plural,
    gettext: Callable[[str], str],
    *,
    as_given: bool = False,
) -> str:
    """Say a duration the way people do, with plural forms from the catalog.

    Results are rounded as estimates are (whole hours from 10 hours up);
    ``as_given`` repeats a time the user wrote closer to how they wrote it
    (12.5 hours is "12 hours and 30 minutes", to the quarter hour below 2 days).
    """

    # Literal msgids in each call so `pybabel extract` finds them.
    def minutes(n: int) -> str:
        return ngettext("%(n)s minute", "%(n)s minutes", n) % {"n": fmt.integer(n)}

    def hours_(n: int) -> str:
        return ngettext("%(n)s hour", "%(n)s hours", n) % {"n": fmt.integer(n)}

    def days(n: int) -> str:
        return ngettext("%(n)s day", "%(n)s days", n) % {"n": fmt.integer(n)}

    if hours <= 0:
        return hours_(0)
    if hours * 60 < 0.5:
        return gettext("less than a minute")
    if hours < 1:
        return minutes(max(1, _nearest(hours * 60)))
    if hours < 10 or (as_given and hours < 48):
        # Nearest five minutes ("1 hour and 15 minutes", never "1.2345 hours"), or
        # the nearest quarter hour for a longer time the user gave.
        step = 5 if hours < 10 else 15
        whole, rest = divmod(_nearest(hours * 60 / step) * step, 60)
        return fmt.join([hours_(whole), minutes(rest)]) if rest else hours_(whole)
    if hours < 48:
        return hours_(_nearest(hours))
    if hours < 240:
        whole_days, rest = divmod(_nearest(hours), 24)
        return fmt.join([days(whole_days), hours_(rest)]) if rest else days(whole_days)
    return days(_nearest(hours / 24))


# A run of Latin-script text (terms, names, Western digits with their units and
# signs) that must keep its own direction inside an Arabic sentence. Escaped
# entities (&lt; &gt; &amp;) belong to the run they sit in. Code spans are
# isolated whole; Slack links and URLs are left untouched so they stay links.
_ENTITY = r"&(?:amp|lt|gt);"
_RUN_START = rf"(?:{_ENTITY}|[A-Za-z0-9])"
_RUN_CHAR = rf"(?:{_ENTITY}|[A-Za-z0-9.,;%×+\-–/&'_!@])"
_SEGMENT = re.compile(
    r"(?P<code>`[^`\n]*`)"
    r"|(?P<link><[^>\n]*>|https?://\S+)"
    rf"|(?P<latin>{_RUN_START}{_RUN_CHAR}*(?: {_RUN_START}{_RUN_CHAR}*)*)"
)
# Sentence punctuation after a run stays outside it (but not an entity's ";").
_TRAILING = re.compile(r"(?:(?<!&lt)(?<!&gt)(?<!&amp)[.,:;])+$")


@lru_cache(maxsize=2048)  # notes and help lines repeat in every reply
def isolate_latin(text: str, *, arab_digits: bool = False) -> str:
    """Wrap Latin runs of an Arabic line in FSI ... PDI so they do not reorder.

    With ``arab_digits`` a run of bare numbers (no letters: "16", "1.2–2.5")
    is written in Arabic-Indic digits instead, which needs no isolate; digits
    inside names (FP32, A100, ResNet-50) and code spans stay as typed.
    """

    def wrap(match: re.Match[str]) -> str:
        if match.lastgroup == "link":
            return match.group()
        run = match.group()
        stripped = _TRAILING.sub("", run)
        tail = run[len(stripped) :]
        if arab_digits and match.lastgroup == "latin" and not _LETTER.search(stripped):
            return _to_arabic_indic(stripped) + tail
        return f"{FSI}{stripped}{PDI}{tail}"

    return _SEGMENT.sub(wrap, text)


_LETTER = re.compile(r"[A-Za-z]")
_SEPARATOR_BETWEEN_DIGITS = re.compile(r"(?<=\d)([.,])(?=\d)")


def _to_arabic_indic(run: str) -> str:
    run = _SEPARATOR_BETWEEN_DIGITS.sub(lambda m: "٫" if m.group(1) == "." else "٬", run)
    return run.translate(_ARABIC_INDIC)
