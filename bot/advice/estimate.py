"""Placeholder until the estimator lands."""

from bot.models import Advice, Kind, Query


def advise(query: Query) -> Advice:
    return Advice(kind=Kind.HELP)
