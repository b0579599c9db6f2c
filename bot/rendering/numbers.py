"""Numbers, durations and bidi isolation for replies, formatted with Babel.

Babel formats decimals, groups and lists per locale, but it leaves digits in
Latin script even for Arabic's ``arab`` numbering system, so the optional
Arabic-Indic digits are transliterated here. Durations are rounded the way a
person would say them: minutes for short jobs, hours (and minutes) for a
working day, days and hours for long runs, never "49.99999 hours"; seconds
for jobs under a minute.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from enum import StrEnum
from functools import lru_cache
from typing import Protocol

from babel.core import Locale
from babel.lists import format_list
from babel.numbers import format_currency, format_decimal

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
        places = 1 if abs(value) < 10 else 0
        shown = round(value, places)
        if shown >= 100 > value:  # 99.96% saved is not all of it: say 99.9%
            shown = math.floor(value * 10) / 10
        text = self._format(shown, "#,##0.#") + "%"
        return text.translate(_ARABIC_INDIC) if self.arab else text

    def money(self, amount: float, currency: str) -> str:
        """``amount`` in ``currency`` the locale's way, with that currency's decimals (KWD: 3)."""
        return _money(round(amount, 6), currency, self.lang.value, self.arab)

    def short(self, value: float) -> str:
        """At most one decimal ("1.5", "340"), for a count already scaled to millions etc."""
        return self._format(round(value, 1), "#,##0.#")

    def plural_count(self, value: float) -> int:
        """An integer that selects ``value``'s plural form in a gettext catalog.

        gettext's Plural-Forms take integers only, but "1.5 billion" has a form
        too: CLDR (through Babel) names its category ("other" in Arabic, which
        says "1.5 مليار", not the dual), and a representative integer of that
        category picks the same form from the catalog.
        """
        if value == int(value):
            return int(value)
        category = _locale(self.lang.value).plural_form(value)
        return _CATEGORY_SAMPLE[category]

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


# The smallest integer of each CLDR plural category in the languages we ship
# (Arabic 3-10 is "few", 11-99 "many"; 100 is "other" in both languages).
_CATEGORY_SAMPLE = {"zero": 0, "one": 1, "two": 2, "few": 3, "many": 11, "other": 100}


@lru_cache(maxsize=8)
def _locale(locale: str) -> Locale:
    return Locale.parse(locale)


def _nearest(value: float) -> int:
    """Round half up: 12.5 hours is 13, as people round, not 12 (Python's half-to-even)."""
    return math.floor(value + 0.5)


def shown_seconds(hours: float, *, as_given: bool = False) -> int:
    """The seconds a duration is said as, so sums of said durations add up.

    A time the user gave (or that was computed from what they gave, such as
    25 minutes x 40 epochs) is repeated as given: to the second below an hour,
    to the minute above; it is theirs, not an estimate. An estimate is rounded
    as a person would say it: to the second below a minute, to the minute below
    an hour, to five minutes below 10 hours, to the hour below 10 days, to the
    day above. A saving is said as the difference of the two shown times, so
    "20 hours -> about 13 hours" saves 7 hours, not 7 and a half, and a
    30-second job never "saves 1 minute".
    """
    seconds = hours * 3600
    if seconds <= 0:
        return 0
    if seconds < 60 or (as_given and hours < 1):
        return max(1, _nearest(seconds))  # any positive time is said as at least a second
    if hours < 1 or as_given:
        step = 60
    else:
        step = 5 * 60 if hours < 10 else 3600 if hours < 240 else 24 * 3600
    return _nearest(seconds / step) * step


class Catalog(Protocol):
    """The gettext calls a duration needs (a Babel ``Translations``)."""

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str: ...


def duration(hours: float, fmt: NumberFormat, catalog: Catalog, *, as_given: bool = False) -> str:
    """Say a duration the way people do, with plural forms from the catalog.

    Rounded by :func:`shown_seconds` (estimates to a sensible step, the user's
    own time as given); seconds only below a minute or in a time the user
    gave, hours up to two days, then days and hours. A part of a compound has
    its own plural forms (context "compound"): Arabic says "ساعة واحدة" alone
    but "ساعة و30 دقيقة" in a compound.
    """
    total = shown_seconds(hours, as_given=as_given)
    if total == 0:
        return catalog.ngettext("%(n)s hour", "%(n)s hours", 0) % {"n": fmt.integer(0)}
    if hours * 3600 < 1:  # "0.19 s" is not "1 second"
        return catalog.ngettext("under %(n)s second", "under %(n)s seconds", 1) % {
            "n": fmt.integer(1)
        }
    whole_minutes, seconds = divmod(total, 60)
    whole_hours, minutes = divmod(whole_minutes, 60)
    days, whole_hours = divmod(whole_hours, 24) if total >= 48 * 3600 else (0, whole_hours)
    counts = [
        (n, unit)
        for n, unit in ((days, "d"), (whole_hours, "h"), (minutes, "m"), (seconds, "s"))
        if n
    ]
    if len(counts) == 1:
        ((n, unit),) = counts
        return _alone(unit, n, catalog) % {"n": fmt.integer(n)}
    return fmt.join([_in_compound(unit, n, catalog) % {"n": fmt.integer(n)} for n, unit in counts])


# Literal msgids in each call so `pybabel extract` finds them.
def _alone(unit: str, n: int, catalog: Catalog) -> str:
    return {
        "d": lambda: catalog.ngettext("%(n)s day", "%(n)s days", n),
        "h": lambda: catalog.ngettext("%(n)s hour", "%(n)s hours", n),
        "m": lambda: catalog.ngettext("%(n)s minute", "%(n)s minutes", n),
        "s": lambda: catalog.ngettext("%(n)s second", "%(n)s seconds", n),
    }[unit]()


def _in_compound(unit: str, n: int, catalog: Catalog) -> str:
    return {
        "d": lambda: catalog.npgettext("compound", "%(n)s day", "%(n)s days", n),
        "h": lambda: catalog.npgettext("compound", "%(n)s hour", "%(n)s hours", n),
        "m": lambda: catalog.npgettext("compound", "%(n)s minute", "%(n)s minutes", n),
        "s": lambda: catalog.npgettext("compound", "%(n)s second", "%(n)s seconds", n),
    }[unit]()


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
