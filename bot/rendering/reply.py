"""Placeholder until rendering lands."""

from bot.models import Advice, Lang, Reply


def render(advice: Advice, lang: Lang) -> Reply:
    return Reply(lang=lang, kind=advice.kind, summary="help", text="help")
