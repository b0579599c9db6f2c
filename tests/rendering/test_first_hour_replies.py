"""A new user's first words get a short reply in kind (two lines, never the usage
list), and a bare number's reading says the hours were assumed."""

from __future__ import annotations

import pytest

from bot.conversation import answer
from bot.models import Channel, Lang

HELP_FIRST_LINE = "I estimate training time with mixed precision"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("hi", "`/mpestimate 100 2`"),
        ("hello there", "`/mpestimate 100 2`"),
        ("مرحبا", "`/mpestimate ٤٨ ساعة ٢`"),
        ("السلام عليكم", "أهلًا"),
        ("how much faster is mixed precision?", "3.04×"),
        ("what speedup can I expect?", "1.2–2.5×"),
        ("كم أسرع الدقة المختلطة؟", "1.2"),
        ("how much will it cost?", "price per hour"),
        ("كم التكلفة؟", "لحساب التكلفة"),
    ],
)
def test_first_words_get_two_lines(text, words):
    reply = answer(text, Channel.DM).reply
    lines = reply.text.strip().splitlines()
    assert len(lines) == 2, reply.text
    assert words in reply.text.replace("\u2068", "").replace("\u2069", "")
    assert HELP_FIRST_LINE not in reply.text


def test_help_keeps_the_whole_usage():
    assert len(answer("help", Channel.DM).reply.text.splitlines()) > 10
    assert len(answer("مساعدة", Channel.DM).reply.text.splitlines()) > 10


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("42", "I read “42” as the FP32 time in hours (no unit given)."),
        ("100 2", "“100” as the FP32 time in hours (no unit given)"),
        ("٣٦", "«٣٦» مدةً للتدريب بدقة FP32 بالساعات (لم تُذكر الوحدة)"),
        ("٤٨ ٢", "بالساعات (لم تُذكر الوحدة)"),
    ],
)
def test_a_bare_number_says_its_unit_was_assumed(text, said):
    lang = Lang.AR if text[0] > "9" else Lang.EN  # bare numbers answer in the stored choice
    text_out = (
        answer(text, Channel.COMMAND, preferred_lang=lang)
        .reply.text.replace("\u2068", "")
        .replace("\u2069", "")
    )
    assert said in text_out


def test_a_time_with_its_unit_assumes_nothing():
    assert "no unit given" not in answer("36h 2", Channel.COMMAND).reply.text
