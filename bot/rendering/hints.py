"""Short hints for the command line, worded through the gettext catalogs."""

from __future__ import annotations

from bot.models import Lang
from bot.rendering.i18n import translations


def ask_hint(lang: Lang) -> str:
    """One line for ``mpbot ask`` typed with no message at a terminal: without it the
    command would wait on stdin with nothing on screen."""
    _ = translations(lang).gettext
    return _(
        'Ask with the message after the command, e.g. `mpbot ask "100 hours on V100, '
        'how long with AMP?"`, or pipe messages in, one per line.'
    )
