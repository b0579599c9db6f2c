"""The duration pass emits time candidates and the one resolver picks them; a
range or a list never takes a token another duration read."""

from __future__ import annotations

import pytest

from bot.understanding.context import mark_context
from bot.understanding.rules.time.durations import find_durations
from bot.understanding.text.normalise import normalise
from bot.understanding.text.tokens import tokenize


def _durations(text: str):
    tokens = tokenize(normalise(text))
    return find_durations(tokens), tokens


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("2 days 6 hours", [54.0]),
        ("يومين و٦ ساعات", [54.0]),
        ("12-15 h", [12.0, 15.0]),
        ("بين ١٠ و ١٢ ساعة", [10.0, 12.0]),
        ("10, 11, 12 hours", [10.0, 11.0, 12.0]),
    ],
)
def test_each_duration_is_a_time_candidate_chosen_and_marked(text, hours):
    found, tokens = _durations(text)
    assert [q.hours for q in found] == hours
    for q in found:
        assert all(t.role for t in tokens[q.start : q.end])
        assert any(t.extra.get("rule") == "duration" for t in tokens[q.start : q.end])


def test_a_multiplier_keeps_its_own_role_inside_the_product():
    tokens = tokenize(normalise("2 x 8 hours"))
    mark_context(tokens)
    found = find_durations(tokens)
    assert [q.hours for q in found] == [16.0] and found[0].start == 0
    assert [t.role for t in tokens] == ["multiplier", "time", "time", "time"]


def test_glued_minutes_are_not_taken_again_as_a_range_start():
    found, _ = _durations("36h30 - 40 hours")
    assert [round(q.hours, 2) for q in found] == [36.5, 40.0]
