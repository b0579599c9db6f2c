"""A ratio above the cap (as record refuses) is too_large, worded with the cap in both languages."""

from __future__ import annotations

import pytest

from bot.advice.estimate import MAX_RATIO, advise
from bot.models import Channel, Duration, Intent, Kind, Lang, Query, Reason, TimeUnit
from bot.records.ratio import PLAUSIBLE_HIGH
from bot.rendering import render
from bot.understanding import understand


def ask(ratio: float) -> Query:
    fp32 = Duration(value=100, unit=TimeUnit.HOURS, hours=100)
    return Query(intent=Intent.ESTIMATE, lang=Lang.EN, fp32=fp32, ratio=ratio)


def test_the_cap_matches_what_team_records_accept():
    assert MAX_RATIO == PLAUSIBLE_HIGH == 20


@pytest.mark.parametrize("ratio", [20.01, 21, 1000])
def test_a_ratio_above_the_cap_is_too_large(ratio):
    advice = advise(ask(ratio))
    assert advice.kind is Kind.ERROR and advice.reason is Reason.TOO_LARGE
    assert advice.mp_hours is None


def test_the_cap_itself_is_still_an_estimate():
    advice = advise(ask(20))
    assert advice.kind is Kind.ESTIMATE and advice.mp_hours == 5


@pytest.mark.parametrize(
    ("text", "words"),
    [("100 1000", "at most about 20×"), ("١٠٠ ساعة بنسبة ١٠٠٠", "بأكثر من 20×")],
)
def test_the_refusal_names_the_ratio_limit_in_the_users_language(text, words):
    query = understand(text, Channel.COMMAND)
    reply = render(advise(query), query.lang)
    assert reply.kind is Kind.ERROR
    assert words in reply.text.replace("\u2068", "").replace("\u2069", "")
    assert "1,000" not in reply.text and "100%" not in reply.text


def test_an_absurd_ratio_far_beyond_any_number_format_is_refused_cleanly():
    query = understand("100 hours, speedup 1e308", Channel.MENTION)
    reply = render(advise(query), Lang.EN)
    assert advise(query).reason is Reason.TOO_LARGE
    assert "20×" in reply.text
