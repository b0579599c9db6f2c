"""A time said with its unit word and no digit ("a day", «يومين») offered beside
another number ("or two", «أو ثلاثة») is as meant as that number: both stay
candidates and the reply asks which (rule ``alternatives``), never taking one."""

from __future__ import annotations

import pytest

from bot.models import Channel, Reason
from bot.understanding.parse import understand


@pytest.mark.parametrize(
    ("text", "between"),
    [
        ("a day or two on A100, ratio 2", {1, 2}),
        ("training takes a day or 2", {1, 2}),
        ("an hour or two, ratio 2", {1, 2}),
        ("يومين أو ثلاثة والمعامل ٢", {2, 3}),
        ("ساعتين او ثلاث والمعامل ٢", {2, 3}),
        ("التدريب ياخذ يومين ولا ثلاثة", {2, 3}),
        ("يوم ولا يومين", {1, 2}),
    ],
)
def test_a_unit_word_and_a_number_offered_as_alternatives_are_asked_about(text, between):
    query = understand(text, Channel.DM)
    assert query.reason is Reason.AMBIGUOUS, query
    assert {float(c) for c in query.candidates} == {float(b) for b in between}


@pytest.mark.parametrize(
    ("text", "hours", "ratio"),
    [
        ("a day, ratio 2", 24, 2),
        ("ياخذ ساعتين والمعامل ٢", 2, 2),
        ("٣ ايام والمعامل ٢", 72, 2),
    ],
)
def test_a_unit_word_alone_is_still_the_time(text, hours, ratio):
    query = understand(text, Channel.DM)
    assert query.fp32 is not None and query.fp32.hours == pytest.approx(hours)
    assert query.ratio == pytest.approx(ratio)


@pytest.mark.parametrize("text", ["يومين أو ثلاثة والمعامل ٢", "٤٠ ساعة، ٨ والمعامل ٢"])
def test_a_noun_glued_to_wa_or_al_counts_nothing_before_it(text):
    """«والمعامل» is "and the ratio", never three parameters."""
    assert understand(text, Channel.DM).params is None
