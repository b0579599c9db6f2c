""" "What is mixed precision?" gets a two-line definition in the user's language, with
the typical range the rest of the bot uses, never the usage list."""

from __future__ import annotations

import pytest

from bot.advice.ratio_model import TYPICAL_HIGH, TYPICAL_LOW
from bot.conversation import answer
from bot.models import Channel
from bot.rendering.numbers import FSI, PDI


def plain(text: str) -> str:
    return text.replace(FSI, "").replace(PDI, "")


@pytest.mark.parametrize(
    ("text", "opening"),
    [
        ("what is mixed precision?", "Mixed precision runs most of the training math in FP16"),
        ("how does amp work?", "Mixed precision runs most of the training math in FP16"),
        ("يعني ايه mixed precision اصلا؟", "الدقة المختلطة تُجري معظم حسابات التدريب"),
        ("ما هي الدقة المختلطة؟", "الدقة المختلطة تُجري معظم حسابات التدريب"),
    ],
)
@pytest.mark.parametrize("channel", list(Channel))
def test_a_definition_question_gets_two_lines(text, opening, channel):
    reply = plain(answer(text, channel).reply.text)
    lines = reply.split("\n")
    assert len(lines) == 2 and lines[0].startswith(opening), reply
    assert f"{TYPICAL_LOW}–{TYPICAL_HIGH}×" in lines[0]
    assert "/mpestimate" in lines[1]
