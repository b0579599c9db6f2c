"""Numbers, durations and bidi isolation for replies, formatted with Babel.

Babel formats decimals, groups and lists per locale, but it leaves digits in
Latin script even for Arabic's ``arab`` numbering system, so the optional
Arabic-Indic digits are transliterated here. Durations are said in the unit
the user wrote the FP32 time in (100 hours -> about 50 hours; 21 days -> 10.5
days), rounded the way a person would say them, never "49.99999 hours":
minutes for short jobs, seconds for jobs under a minute. Without a unit (or
below the unit's own scale) hours and minutes for a working day, days and
hours for long runs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from decimal import ROUND_HALF_EVEN, Decimal
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple, Protocol

from babel.core import Locale
from babel.lists import format_list
from babel.numbers import (
    format_currency,
    format_decimal,
    get_currency_precision,
    get_currency_unit_pattern,
)

from bot.models import HOURS_PER_UNIT, Lang, TimeUnit
from bot.rendering.currency_names import currency_name
from bot.rendering.grammar import Case, fill

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

    def exact(self, value: float) -> str:
        """Up to two decimals ("1.25", "250.5"): a count the user wrote, as written."""
        return self._format(round(value, _GIVEN_DECIMALS), "#,##0.##")

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


def shown_amount(amount: float, currency: str) -> float:
    """The amount :meth:`NumberFormat.money` shows (Babel rounds half to even at the
    currency's decimals), so a saving said as a difference of shown amounts adds up."""
    step = Decimal(1).scaleb(-get_currency_precision(currency))
    return float(Decimal(str(round(amount, 6))).quantize(step, rounding=ROUND_HALF_EVEN))


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
# The fraction digits of a CLDR number pattern ("#,##0.00" -> "#,##0").
_WHOLE_DIGITS = re.compile(r"\.0+")
_LETTER_THEN_DIGIT = re.compile(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")


# Arabic names the currency, in the form its amount takes ("1,600 دولار أمريكي",
# "3 دولارات أمريكية", "15 ريالًا سعوديًا"): CLDR's Arabic symbols ("US$", "ر.س.")
# read as abbreviations there.
_CURRENCY_BY_NAME = frozenset({Lang.AR.value})


@lru_cache(maxsize=1024)
def _money(amount: float, currency: str, locale: str, arab: bool) -> str:
    """CLDR's currency format, without the ".00" of a whole amount ("$1,600")."""
    system = "arab" if arab else "latn"
    whole = round(amount, get_currency_precision(currency)) == round(amount)
    if locale in _CURRENCY_BY_NAME:
        text = _by_name(round(amount) if whole else amount, currency, locale, system)
    else:
        options: dict = {}
        if whole:
            pattern = _locale(locale).currency_formats["standard"].pattern
            options = {"format": _WHOLE_DIGITS.sub("", pattern), "currency_digits": False}
            amount = round(amount)
        text = format_currency(amount, currency, locale=locale, numbering_system=system, **options)
        text = _LETTER_THEN_DIGIT.sub("\u00a0", text)
    return text.translate(_ARABIC_INDIC) if arab else text


def _by_name(amount: float, currency: str, locale: str, system: str) -> str:
    """ "3 دولارات أمريكية": the amount with the currency's decimals (none when whole),
    then the name that agrees with the amount as shown, in CLDR's unit pattern."""
    whole = amount == int(amount)
    options = {"format": "#,##0", "currency_digits": False} if whole else {"format": "#,##0.00"}
    number = format_currency(amount, currency, locale=locale, numbering_system=system, **options)
    shown = round(amount, get_currency_precision(currency))
    name = currency_name(currency, shown, locale)
    return get_currency_unit_pattern(currency, count=shown, locale=locale).format(number, name)


# The smallest integer of each CLDR plural category in the languages we ship
# (Arabic 3-10 is "few", 11-99 "many"; 100 is "other" in both languages).
_CATEGORY_SAMPLE = {"zero": 0, "one": 1, "two": 2, "few": 3, "many": 11, "other": 100}


@lru_cache(maxsize=8)
def _locale(locale: str) -> Locale:
    return Locale.parse(locale)


def _nearest(value: float) -> int:
    """Round half up: 12.5 hours is 13, as people round, not 12 (Python's half-to-even)."""
    return math.floor(value + 0.5)


def shown_seconds(
    hours: float, *, as_given: bool = False, unit: TimeUnit | None = None, close: bool = True
) -> int:
    """The seconds a duration is said as, so sums of said durations add up.

    A time the user gave (or that was computed from what they gave, such as
    25 minutes x 40 epochs) is repeated as given: to the second below an hour,
    to the minute above; it is theirs, not an estimate. An estimate is rounded
    as a person would say it: to the second below a minute, to the minute below
    an hour, to five minutes below 10 hours, to the hour below 10 days, to the
    day above. A saving is said as the difference of the two shown times, so
    "20 hours -> about 13 hours" saves 7 hours, not 7 and a half, and a
    30-second job never "saves 1 minute".

    With the user's ``unit`` a time at that unit's scale is rounded in it
    (:func:`said_in`): an estimate to the half day, week or year, to the hour
    from two days up, to the minute below two hours; the user's own time as
    they wrote it (1.25 days, to two decimals). A ``close`` estimate leaves a unit
    its half steps say too far off (:func:`said_in`); a range's ends need not.
    """
    said = said_in(hours, unit, estimate=close and not as_given)
    if said is not None:
        return _nearest(_shown_count(hours, said, as_given) * HOURS_PER_UNIT[said] * 3600)
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


# The smallest time said in the user's own unit; below it the unit gives way to
# the next smaller one ("3 days" at ratio 4 is 18 hours, not "0.75 days").
# Hours are said alone from two days up (below, "7 hours and 20 minutes");
# minutes alone below two hours ("90 minutes"), hours and minutes above.
_UNIT_FLOOR_HOURS = {
    TimeUnit.YEARS: HOURS_PER_UNIT[TimeUnit.YEARS],
    TimeUnit.WEEKS: HOURS_PER_UNIT[TimeUnit.WEEKS],
    TimeUnit.DAYS: HOURS_PER_UNIT[TimeUnit.DAYS],
    TimeUnit.HOURS: 48.0,
}
_SMALLER = {
    TimeUnit.YEARS: TimeUnit.WEEKS,
    TimeUnit.WEEKS: TimeUnit.DAYS,
    TimeUnit.DAYS: TimeUnit.HOURS,
}
_MINUTES_ALONE_BELOW_HOURS = 2.0
# Days, weeks and years are said to the half ("10.5 days", Arabic "10 أيام ونصف");
# from this many up, whole ones (a half of 40 days is noise in an estimate).
_HALVES_BELOW = 20


# An estimate said to the half day, week or year may be this far off (a share of it);
# farther, it is said in the next smaller unit: 3 days at ratio 1.8 is "40 hours",
# not "1.5 days" (10% short), while 5 days at 2 stays "2.5 days".
_HALF_STEP_TOLERANCE = 0.05


def said_in(hours: float, unit: TimeUnit | None, estimate: bool = False) -> TimeUnit | None:
    """The unit a time is said in alone, for a user who wrote ``unit``; None when
    it is said the general way (hours and minutes, days and hours). An ``estimate``
    leaves a unit its half steps would say too far off (:data:`_HALF_STEP_TOLERANCE`)."""
    if unit is TimeUnit.MINUTES:
        return unit if 1 <= hours < _MINUTES_ALONE_BELOW_HOURS else None
    while unit is not None and (
        hours < _UNIT_FLOOR_HOURS[unit] or estimate and not _said_closely(hours, unit)
    ):
        unit = _SMALLER.get(unit)
    return unit


def _said_closely(hours: float, unit: TimeUnit) -> bool:
    """Whether ``hours`` said as :func:`_shown_count` says an estimate in ``unit`` is
    within :data:`_HALF_STEP_TOLERANCE` of it."""
    count = hours / HOURS_PER_UNIT[unit]
    shown = _shown_count(hours, unit, as_given=False)
    return abs(shown - count) <= _HALF_STEP_TOLERANCE * count


class Split(NamedTuple):
    """An estimate and the rest of the user's time (the saving), in seconds as said,
    and the unit both are said in (None: hours and minutes, days and hours)."""

    part: int
    rest: int
    unit: TimeUnit | None


def split_shown(total: float, part: float, unit: TimeUnit | None) -> Split:
    """Say ``part`` of the user's ``total`` hours and the rest so they add up.

    Each is rounded from its own unrounded value ("3 hours at ratio 1.5: about 2
    hours, saves 1 hour"), at the coarsest step where the two add up to the
    total as shown: in the user's unit, then each smaller one (hours also to
    their decimals), then to the minute. Where even that cannot add up (3 h 15 at ratio 2: 97.5 minutes
    each), the estimate is said to the minute and the saving is what is left
    (1 h 38 and 1 h 37), never one rounded up and the other down by a step.
    """
    shown = shown_seconds(total, as_given=True, unit=unit)
    for level, as_given in _levels(unit):
        if not as_given and level is not None and said_in(part, level) is not None:
            # The unit the estimate is said in there (a smaller one where the half steps
            # would be off), and the saving with it.
            level = said_in(part, level, estimate=True)
        said = shown_seconds(part, as_given=as_given, unit=level)
        rest = shown_seconds(total - part, as_given=as_given, unit=level)
        if 0 < said and said + rest == shown:
            return Split(said, rest, level)
    return _remainder(shown, part)


def _remainder(shown: int, part: float) -> Split:
    """One of the two said to the minute (the second below an hour), the other what
    is left of ``shown``: whichever order leaves a time that can be said exactly."""
    said = min(shown, shown_seconds(part, as_given=True))
    rest = shown_seconds(max(0.0, shown / 3600 - part), as_given=True)
    if _sayable(shown - said) or not _sayable(shown - rest):
        return Split(said, shown - said, None)
    return Split(shown - rest, rest, None)


def _sayable(seconds: int) -> bool:
    return shown_seconds(seconds / 3600, as_given=True) == seconds


def _levels(unit: TimeUnit | None) -> Iterator[tuple[TimeUnit | None, bool]]:
    """(unit, as_given) from the user's unit down to the general way, then to the minute;
    hours are tried as given too (to two decimals) before leaving them."""
    while unit is not None:
        yield unit, False
        if unit is TimeUnit.HOURS:  # "125.25 hours", before "5 days, 5 hours and 15 minutes"
            yield unit, True
        unit = _SMALLER.get(unit)
    yield None, False
    yield None, True


# A count the user wrote (or one computed from what they wrote) is said with up
# to this many decimals (1.25 days, 250.5 hours): what they gave, without the
# float noise of converting it to hours; minutes to a tenth (a time of 1-2 hours
# in minutes, "72 minutes", is a count of whole minutes, not "72.02").
_GIVEN_DECIMALS = 2
_GIVEN_DECIMALS_IN = {TimeUnit.MINUTES: 1}


def _shown_count(hours: float, unit: TimeUnit, as_given: bool) -> float:
    """How many ``unit`` a time is said as: the user's own as written, an estimate
    to the whole minute or hour, or to the half day, week or year."""
    count = hours / HOURS_PER_UNIT[unit]
    if as_given:
        return round(count, _GIVEN_DECIMALS_IN.get(unit, _GIVEN_DECIMALS))
    if unit in (TimeUnit.MINUTES, TimeUnit.HOURS) or count >= _HALVES_BELOW:
        return _nearest(count)
    return _nearest(count * 2) / 2


class Catalog(Protocol):
    """The gettext calls a duration needs (a Babel ``Translations``)."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str: ...


def duration(
    hours: float,
    fmt: NumberFormat,
    catalog: Catalog,
    *,
    as_given: bool = False,
    unit: TimeUnit | None = None,
    calendar: bool = False,
    case: Case = Case.NOMINATIVE,
    close: bool = True,
) -> str:
    """Say a duration the way people do, with plural forms from the catalog.

    ``unit`` is the one the user wrote their time in: at its scale the time is
    said in it alone (:func:`said_in`). ``calendar`` adds the days after a
    time said in hours when they help ("50 hours (about 2 days)").

    Rounded by :func:`shown_seconds` (estimates to a sensible step, the user's
    own time as given); seconds only below a minute or in a time the user
    gave, hours up to two days, then days and hours. A part of a compound has
    its own plural forms (context "compound"): Arabic says "ساعة واحدة" alone
    but "ساعة و30 دقيقة" in a compound. ``case`` is the one the sentence puts the
    duration in (:func:`bot.rendering.grammar.case_at`): each form has a genitive
    entry too (context "genitive"), since Arabic says «يومان» but «نحو يومين».
    """
    said = said_in(hours, unit, estimate=close and not as_given)
    if said is not None:
        text = _in_unit(_shown_count(hours, said, as_given), said, fmt, catalog, case)
        if calendar and said is TimeUnit.HOURS:  # "(أي يومين)" takes the case of what it explains
            days = _shown_count(hours, TimeUnit.DAYS, False)
            days = _in_unit(days, TimeUnit.DAYS, fmt, catalog, case)
            text = catalog.gettext("%(duration)s (about %(calendar)s)") % {
                "duration": text,
                "calendar": days,
            }
        return text
    total = shown_seconds(hours, as_given=as_given)
    if total == 0:
        return _alone("h", 0, catalog, case) % {"n": fmt.integer(0)}
    if (
        hours * 3600 < 1
    ):  # "أقل من ثانية" reads the same in every case  # "0.19 s" is not "1 second"
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
    if days and counts == [(days, "d"), (12, "h")]:  # "2.5 days", "يومان ونصف"
        return _and_a_half("d", days, catalog, case) % {"n": fmt.integer(days)}
    if len(counts) == 1:
        ((n, unit),) = counts
        return _alone(unit, n, catalog, case) % {"n": fmt.integer(n)}
    parts = [_in_compound(unit, n, catalog, case) % {"n": fmt.integer(n)} for n, unit in counts]
    return fmt.join(parts)


def duration_span(
    low: float,
    high: float,
    fmt: NumberFormat,
    catalog: Catalog,
    *,
    as_given: bool = False,
    unit: TimeUnit | None = None,
    case: Case = Case.NOMINATIVE,
) -> str:
    """A range of durations the way people write one: "15–20 hours" when both ends are
    said in one unit and the high end starts with its number (the unit is said once,
    in the high end's plural form: «15–20 ساعة»), else "%(low)s to %(high)s" (Arabic
    «من يومين إلى ٣ أيام», where a dual says no number). The same time at both ends
    (rounded alike) is said once. Its ends stay in the user's unit at half steps
    ("1.5–2 days"): a range is rough by nature (``close=False``)."""
    low_text = duration(low, fmt, catalog, as_given=as_given, unit=unit, case=case, close=False)
    high_text = duration(high, fmt, catalog, as_given=as_given, unit=unit, case=case, close=False)
    if low_text == high_text:
        return high_text
    low_one = _one_unit(low, low_text, fmt, catalog, as_given=as_given, unit=unit, case=case)
    high_one = _one_unit(high, high_text, fmt, catalog, as_given=as_given, unit=unit, case=case)
    if low_one and high_one and low_one[0] is high_one[0] and high_text.startswith(high_one[1]):
        return f"{low_one[1]}–{high_text}"
    return fill(
        catalog.gettext("%(low)s to %(high)s"),
        {
            end: (
                lambda c, h=hours: duration(
                    h, fmt, catalog, as_given=as_given, unit=unit, case=c, close=False
                )
            )
            for end, hours in (("low", low), ("high", high))
        },
        fmt.lang,
    )


def _one_unit(
    hours: float,
    text: str,
    fmt: NumberFormat,
    catalog: Catalog,
    *,
    as_given: bool,
    unit: TimeUnit | None,
    case: Case,
) -> tuple[TimeUnit, str] | None:
    """(unit, its count as written) when ``text``, the said ``hours``, is a count of one
    unit ("30 hours", "1.5 days"), else None ("1 day and 6 hours")."""
    seconds = shown_seconds(hours, as_given=as_given, unit=unit, close=False)
    for one in (TimeUnit.WEEKS, TimeUnit.DAYS, TimeUnit.HOURS, TimeUnit.MINUTES):
        count = seconds / (HOURS_PER_UNIT[one] * 3600)
        if count < 1 or round(count, _GIVEN_DECIMALS) != count:
            continue
        if _in_unit(count, one, fmt, catalog, case) == text:
            number = fmt.integer(int(count)) if count == int(count) else fmt.exact(count)
            return one, number
    return None


_UNIT_LETTER = {
    TimeUnit.MINUTES: "m",
    TimeUnit.HOURS: "h",
    TimeUnit.DAYS: "d",
    TimeUnit.WEEKS: "w",
    TimeUnit.YEARS: "y",
}


def _in_unit(count: float, unit: TimeUnit, fmt: NumberFormat, catalog: Catalog, case: Case) -> str:
    """ "10.5 days": a whole count and a half or a quarter have their own forms
    (Arabic says "10 أيام ونصف", "يوم وربع"); any other fraction is a number with
    its CLDR plural form."""
    letter = _UNIT_LETTER[unit]
    whole = math.floor(count)
    n = {"n": fmt.integer(int(whole))}
    if count == whole:
        return _alone(letter, int(whole), catalog, case) % n
    fraction = _FRACTIONS.get(round(count - whole, _GIVEN_DECIMALS))
    if fraction and whole >= 1 and letter in _FRACTION_FORMS:
        return fraction(letter, int(whole), catalog, case) % n
    return _alone(letter, fmt.plural_count(count), catalog, case) % {"n": fmt.exact(count)}


# Literal msgids in each call so `pybabel extract` finds them; the genitive
# entries differ from the nominative ones in the Arabic dual only.
def _alone(unit: str, n: int, catalog: Catalog, case: Case) -> str:
    if case is Case.GENITIVE:
        return {
            "y": lambda: catalog.npgettext("genitive", "%(n)s year", "%(n)s years", n),
            "w": lambda: catalog.npgettext("genitive", "%(n)s week", "%(n)s weeks", n),
            "d": lambda: catalog.npgettext("genitive", "%(n)s day", "%(n)s days", n),
            "h": lambda: catalog.npgettext("genitive", "%(n)s hour", "%(n)s hours", n),
            "m": lambda: catalog.npgettext("genitive", "%(n)s minute", "%(n)s minutes", n),
            "s": lambda: catalog.npgettext("genitive", "%(n)s second", "%(n)s seconds", n),
        }[unit]()
    return {
        "y": lambda: catalog.ngettext("%(n)s year", "%(n)s years", n),
        "w": lambda: catalog.ngettext("%(n)s week", "%(n)s weeks", n),
        "d": lambda: catalog.ngettext("%(n)s day", "%(n)s days", n),
        "h": lambda: catalog.ngettext("%(n)s hour", "%(n)s hours", n),
        "m": lambda: catalog.ngettext("%(n)s minute", "%(n)s minutes", n),
        "s": lambda: catalog.ngettext("%(n)s second", "%(n)s seconds", n),
    }[unit]()


_FRACTION_FORMS = frozenset("dwy")  # hours and minutes say their fractions as minutes


def _and_a_half(unit: str, n: int, catalog: Catalog, case: Case) -> str:
    """``n`` and a half units: English writes the decimal ("2.5 days"), Arabic the
    word ("يومان ونصف"); the catalog picks the form for the whole ``n``."""
    if case is Case.GENITIVE:
        return {
            "y": lambda: catalog.npgettext(
                "and a half, genitive", "%(n)s.5 years", "%(n)s.5 years", n
            ),
            "w": lambda: catalog.npgettext(
                "and a half, genitive", "%(n)s.5 weeks", "%(n)s.5 weeks", n
            ),
            "d": lambda: catalog.npgettext(
                "and a half, genitive", "%(n)s.5 days", "%(n)s.5 days", n
            ),
        }[unit]()
    return {
        "y": lambda: catalog.npgettext("and a half", "%(n)s.5 years", "%(n)s.5 years", n),
        "w": lambda: catalog.npgettext("and a half", "%(n)s.5 weeks", "%(n)s.5 weeks", n),
        "d": lambda: catalog.npgettext("and a half", "%(n)s.5 days", "%(n)s.5 days", n),
    }[unit]()


def _and_a_quarter(unit: str, n: int, catalog: Catalog, case: Case) -> str:
    """ "2.25 days" / "يومان وربع", like :func:`_and_a_half`."""
    if case is Case.GENITIVE:
        return {
            "y": lambda: catalog.npgettext(
                "and a quarter, genitive", "%(n)s.25 years", "%(n)s.25 years", n
            ),
            "w": lambda: catalog.npgettext(
                "and a quarter, genitive", "%(n)s.25 weeks", "%(n)s.25 weeks", n
            ),
            "d": lambda: catalog.npgettext(
                "and a quarter, genitive", "%(n)s.25 days", "%(n)s.25 days", n
            ),
        }[unit]()
    return {
        "y": lambda: catalog.npgettext("and a quarter", "%(n)s.25 years", "%(n)s.25 years", n),
        "w": lambda: catalog.npgettext("and a quarter", "%(n)s.25 weeks", "%(n)s.25 weeks", n),
        "d": lambda: catalog.npgettext("and a quarter", "%(n)s.25 days", "%(n)s.25 days", n),
    }[unit]()


def _and_three_quarters(unit: str, n: int, catalog: Catalog, case: Case) -> str:
    """ "3.75 days" / "3 أيام وثلاثة أرباع", like :func:`_and_a_half`."""
    if case is Case.GENITIVE:
        return {
            "y": lambda: catalog.npgettext(
                "and three quarters, genitive", "%(n)s.75 years", "%(n)s.75 years", n
            ),
            "w": lambda: catalog.npgettext(
                "and three quarters, genitive", "%(n)s.75 weeks", "%(n)s.75 weeks", n
            ),
            "d": lambda: catalog.npgettext(
                "and three quarters, genitive", "%(n)s.75 days", "%(n)s.75 days", n
            ),
        }[unit]()
    return {
        "y": lambda: catalog.npgettext("and three quarters", "%(n)s.75 years", "%(n)s.75 years", n),
        "w": lambda: catalog.npgettext("and three quarters", "%(n)s.75 weeks", "%(n)s.75 weeks", n),
        "d": lambda: catalog.npgettext("and three quarters", "%(n)s.75 days", "%(n)s.75 days", n),
    }[unit]()


_FRACTIONS = {0.25: _and_a_quarter, 0.5: _and_a_half, 0.75: _and_three_quarters}


def _in_compound(unit: str, n: int, catalog: Catalog, case: Case) -> str:
    if case is Case.GENITIVE:
        return {
            "d": lambda: catalog.npgettext("compound, genitive", "%(n)s day", "%(n)s days", n),
            "h": lambda: catalog.npgettext("compound, genitive", "%(n)s hour", "%(n)s hours", n),
            "m": lambda: catalog.npgettext(
                "compound, genitive", "%(n)s minute", "%(n)s minutes", n
            ),
            "s": lambda: catalog.npgettext(
                "compound, genitive", "%(n)s second", "%(n)s seconds", n
            ),
        }[unit]()
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
        if match.lastgroup == "code":
            return f"{FSI}{stripped}{PDI}{tail}"
        return " ".join(one(piece) for piece in _term_and_number(stripped)) + tail

    def one(piece: str) -> str:
        if arab_digits and not _LETTER.search(piece):
            return _to_arabic_indic(piece)
        return f"{FSI}{piece}{PDI}"

    return _SEGMENT.sub(wrap, text)


_LETTER = re.compile(r"[A-Za-z]")
# A term ending in a digit, then a number ("FP32 0", "BF16 2", "A100 80 GB"): two
# numbers side by side in one isolate read as one ("FP32 0" as a name), so the
# number is a run of its own. A name's number after letters stays in it ("RTX 4090").
_TERM_ENDS_IN_DIGIT = re.compile(r"[A-Za-z]\S*\d$")


def _term_and_number(run: str) -> list[str]:
    """``run`` split where a term that ends in a digit is followed by a number."""
    pieces = [[]]
    for word in run.split(" "):
        last = pieces[-1][-1] if pieces[-1] else ""
        if word[:1].isdigit() and _TERM_ENDS_IN_DIGIT.search(last):
            pieces.append([])
        pieces[-1].append(word)
    return [" ".join(words) for words in pieces]


_SEPARATOR_BETWEEN_DIGITS = re.compile(r"(?<=\d)([.,])(?=\d)")


def _to_arabic_indic(run: str) -> str:
    run = _SEPARATOR_BETWEEN_DIGITS.sub(lambda m: "٫" if m.group(1) == "." else "٬", run)
    return run.translate(_ARABIC_INDIC)
