"""Load the compiled gettext catalogs (``locales/<lang>/LC_MESSAGES/messages.mo``).

An installed wheel carries them inside the package as ``bot/locales`` (see
``setup.py``); an editable install or a checkout reads the repository's
``locales/`` folder directly, so ``pip install -e .`` needs no copy step.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Protocol

from babel.support import Translations

import bot
from bot.models import Lang
from bot.rendering.numbers import NumberFormat

DOMAIN = "messages"


def locales_dir(domain: str = DOMAIN) -> Path:
    """``bot/locales`` in an installed wheel, the repository's ``locales/`` otherwise."""
    package = Path(bot.__file__).resolve().parent
    for candidate in (package / "locales", package.parent / "locales"):
        if (candidate / "en" / "LC_MESSAGES" / f"{domain}.mo").is_file():
            return candidate
    raise FileNotFoundError(
        f"compiled catalogs not found next to {package}; run `pybabel compile -d locales -D {domain}`"
    )


@cache
def translations(lang: Lang, domain: str = DOMAIN) -> Translations:
    """The ``domain`` catalog for ``lang`` (messages, records, slack).

    A missing one is a packaging bug, so it fails loudly.
    """
    catalog = Translations.load(str(locales_dir(domain)), locales=[lang.value], domain=domain)
    if not isinstance(catalog, Translations):
        raise FileNotFoundError(
            f"no compiled {lang.value} {domain} catalog in {locales_dir(domain)}"
        )
    return catalog


class Phrases(Protocol):
    """What a module that words one part of a reply needs from the reply being written.

    One language, one digit style, one markup (Slack mrkdwn or plain text);
    ``atom`` marks an already formatted value (an amount of money) that Arabic
    isolation must keep whole.
    """

    fmt: NumberFormat
    _: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]

    def bold(self, text: str) -> str: ...

    def echo(self, text: str) -> str: ...

    def atom(self, text: str) -> str: ...
