"""Placeholder until the parser lands."""

from bot.models import Channel, Intent, Lang, Query


def understand(text: str, channel: Channel, *, preferred_lang: Lang | None = None) -> Query:
    return Query(intent=Intent.HELP, lang=preferred_lang or Lang.EN)
