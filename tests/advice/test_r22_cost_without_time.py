"""A whole run's cost asked with no FP32 time is answered with what can be said.

"how much would bf16 save on 8 A100s at $2/h each?", «كم بنوفر بالـ bf16 على ٨ A100
بسعر ٢ دولار للساعة؟»: the GPUs are billed for the hours the run takes, so mixed
precision saves ``1 − 1/ratio`` of the bill, at the user's ratio, the one expected
for the setup, or across the typical range (kind ``cost``); the reply asks for the
FP32 time that turns the share into money. No ratio buttons: there is no FP32 time
for them to divide (bot/slack/blocks.py).
"""

from __future__ import annotations

import pytest

from bot.advice import advise
from bot.advice.notes import Note
from bot.conversation import answer, to_json
from bot.models import Channel, Kind
from bot.rendering.numbers import FSI, PDI
from bot.slack.asks import Ask
from bot.slack.blocks import reply_message
from bot.understanding import understand


def plain(text: str) -> str:
    return text.replace(FSI, "").replace(PDI, "")


SETUP_NAMED = [
    "how much would bf16 save on 8 A100s at $2/h each?",
    "what would amp save us on V100 at $1.5 per hour for ResNet-50?",
    "how much cheaper is bf16 on H100 at $4 per GPU-hour?",
    "كم بنوفر بالـ bf16 على ٨ A100 بسعر ٢ دولار للساعة؟",
    "كم سيوفر الـ amp على V100 بسعر ٣ دولار للساعة؟",
    "قديش بيوفر bf16 على H100 والساعة بـ ٤ دولار؟",
]


@pytest.mark.parametrize("text", SETUP_NAMED)
def test_a_named_setup_gives_the_share_of_the_bill(text):
    advice = advise(understand(text, Channel.DM))
    assert advice.kind is Kind.COST, advice
    assert advice.ratio and advice.saved_percent == pytest.approx(100 * (1 - 1 / advice.ratio))
    assert advice.facts["saved_percent_low"] < advice.saved_percent
    assert advice.facts["saved_percent_high"] > advice.saved_percent
    assert Note.ADD_TIME_FOR_MONEY in advice.notes


@pytest.mark.parametrize(
    ("text", "percent"),
    [
        ("at $2/h with a 2x speedup, how much do I save?", 50),
        ("amp is 1.25x faster, we pay $3 per hour: what's the saving?", 20),
        ("بسعر ٣ دولار للساعة والتسريع ٢، كم بوفر؟", 50),
        ("السعر ١٠ ريال بالساعة والنسبة ٤، كم بنوفر؟", 75),
    ],
)
def test_the_users_ratio_gives_its_share(text, percent):
    advice = advise(understand(text, Channel.DM))
    assert advice.kind is Kind.COST and advice.basis == "given"
    assert advice.saved_percent == pytest.approx(percent)


@pytest.mark.parametrize(
    "text",
    [
        "how much will amp save us at $2 per hour?",
        "how much money would mixed precision save at $5/h?",
        "كم رح نوفر مع amp والسعر ٥ ريال بالساعة؟",
        "كم التوفير بالدقة المختلطة إذا الساعة بـ ٢ دولار؟",
    ],
)
def test_nothing_named_gives_the_typical_share(text):
    advice = advise(understand(text, Channel.DM))
    assert advice.kind is Kind.COST and advice.basis == "typical"
    assert advice.facts["saved_percent_low"] == pytest.approx(100 * (1 - 1 / 1.2))
    assert advice.facts["saved_percent_high"] == pytest.approx(60)


def test_english_reply_says_the_share_and_asks_for_the_time():
    text = plain(answer("how much would bf16 save on 8 A100s at $2/h each?").reply.text)
    assert "8 × A100 in BF16: mixed precision should cut the bill by about 32%" in text
    assert "Add your FP32 training time to get the amounts" in text
    given = plain(answer("at $2/h with a 2x speedup, how much do I save?").reply.text)
    assert given.startswith("At a ratio of 2, mixed precision cuts the bill by 50%")


def test_arabic_reply_says_the_share_and_asks_for_the_time():
    text = plain(answer("كم بنوفر بالـ bf16 على ٨ A100 بسعر ٢ دولار للساعة؟").reply.text)
    assert "يُتوقع أن تخفّض الدقة المختلطة الفاتورة بنحو 32%" in text
    assert "أضف مدة التدريب بدقة FP32 لأحسب لك المبالغ" in text
    typical = plain(answer("كم رح نوفر مع amp والسعر ٥ ريال بالساعة؟").reply.text)
    assert typical.startswith("تخفّض الدقة المختلطة الفاتورة عادةً بنسبة 17%–60%")


def test_json_kind_is_cost():
    data = to_json(answer("how much would bf16 save on 8 A100s at $2/h each?"))
    assert data["kind"] == "cost" and data["fp32_hours"] is None
    assert data["saved_percent"] == pytest.approx(100 * (1 - 1 / data["ratio"]))


def test_with_a_time_it_is_an_estimate_with_money():
    advice = advise(understand("36 hours, bf16 on 8 A100s at $2/h each", Channel.DM))
    assert advice.kind is Kind.PRESET and advice.cost is not None


def test_block_kit_renders_it_without_ratio_buttons():
    turn = answer("how much would bf16 save on 8 A100s at $2/h each?")
    message = reply_message(
        turn, Ask(text="how much would bf16 save on 8 A100s at $2/h each?", channel=Channel.DM)
    )
    blocks = message["blocks"]
    assert "cut the bill" in blocks[0]["text"]["text"]
    actions = [e["action_id"] for b in blocks if b["type"] == "actions" for e in b["elements"]]
    assert not any(a.startswith("mp_ratio_") for a in actions)
    assert "mp_details" in actions
