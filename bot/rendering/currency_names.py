"""Currency names that agree with their amount ("3 دولارات أمريكية", "15 ريالًا سعوديًا").

Arabic inflects the noun after a number by the number's plural category (zero,
one, two, few, many, other). Babel always chooses that category from CLDR's
plural rules, and CLDR names each category for a few currencies only (EGP,
MAD, TND, ...); for the rest it has the singular alone, so
``currency_names_<locale>.toml`` supplies the missing forms, keyed by currency
code and category. CLDR's own names are used wherever they exist.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from babel.core import Locale
from babel.numbers import get_currency_name

_DATA = Path(__file__).with_name("currency_names_{locale}.toml")


def currency_name(code: str, amount: float, locale: str) -> str:
    """``code``'s name for ``amount`` as shown (a whole 3, a fraction 1.5: "other")."""
    category = Locale.parse(locale).plural_form(amount)
    supplied = _supplement(locale).get(code, {}).get(category)
    return supplied or get_currency_name(code, amount, locale)


@cache
def _supplement(locale: str) -> dict[str, dict[str, str]]:
    """The forms CLDR lacks for ``locale``; none where no file exists (English)."""
    path = Path(str(_DATA).format(locale=locale))
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        return tomllib.load(f)
