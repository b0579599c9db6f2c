"""Issue 21, the reader: messages the way people really write them.

One table per class, each with phrasings of our own in English and Arabic
(MSA and dialects, both digit forms): address words after a thanks or greeting,
a question mark between two guessed ratios, a mixed precision's bare ratio
beside an FP32 time with its unit, a price per node.
"""

from __future__ import annotations

import pytest
from readings import check_reading

from bot.advice.cost import billed_nodes, default_gpus_per_node
from bot.conversation import answer, to_json
from bot.models import Channel, Price

ADDRESS_AFTER_CHATTER = [
    ("thanks boss, 100 2", "dm", 100, 2, None),
    ("cheers mate 100h 2x", "dm", 100, 2, None),
    ("hey guys, 80 1.5", "dm", 80, 1.5, None),
    ("thx bro 64h 1.9", "dm", 64, 1.9, None),
    ("hi team 120 2.5", "command", 120, 2.5, None),
    ("60 2 thanks buddy", "dm", 60, 2, None),
    ("شكرا يا باشا ١٠٠ ٢", "dm", 100, 2, None),
    ("تسلم يا غالي، ٥٠ ساعة و ١.٥", "dm", 50, 1.5, None),
    ("مرحبا يا شباب ٨٠ ١٫٥", "dm", 80, 1.5, None),
    ("يعطيك العافية يا معلم، 70 2", "dm", 70, 2, None),
    ("٩٠ ٢ مشكور يا اخوي", "dm", 90, 2, None),
]


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), ADDRESS_AFTER_CHATTER)
def test_address_words_after_a_greeting_or_thanks_are_chatter(
    text, channel, hours, ratio, reason
) -> None:
    check_reading(text, channel, hours, ratio, reason)


@pytest.mark.parametrize("text", ["thanks man", "cheers mate", "شكرا يا معلم", "تسلم يا غالي"])
def test_a_thanks_with_an_address_alone_stays_small_talk(text) -> None:
    check_reading(text, "dm", None, None, "help")


GUESSES_ACROSS_A_QUESTION_MARK = [
    ("1.5? maybe 2", "dm", None, None, "ambiguous", ["1.5", "2"]),
    ("is it 1.5? or 2?", "dm", None, None, "ambiguous", ["1.5", "2"]),
    ("100h, 1.7? or maybe 2?", "dm", 100, None, "ambiguous", ["1.7", "2"]),
    ("speedup 1.3?? perhaps 1.6", "dm", None, None, "ambiguous", ["1.3", "1.6"]),
    ("١.٥؟ يمكن ٢", "dm", None, None, "ambiguous", ["1.5", "2"]),
    ("النسبة ١٫٨؟ ولا ٢؟", "dm", None, None, "ambiguous", ["1.8", "2"]),
    ("٤٠ ساعة، ١٫٥؟ أو يمكن ٢", "dm", 40, None, "ambiguous", ["1.5", "2"]),
]


@pytest.mark.parametrize(
    ("text", "channel", "hours", "ratio", "reason", "cands"), GUESSES_ACROSS_A_QUESTION_MARK
)
def test_a_question_mark_between_guesses_asks_which(
    text, channel, hours, ratio, reason, cands
) -> None:
    check_reading(text, channel, hours, ratio, reason, cands)


def test_a_question_mark_alone_offers_nothing() -> None:
    check_reading("100h 2?", "dm", 100, 2, None)


MIXED_PRECISION_RATIO = [
    ("fp32 takes 40 hours, with amp 1.7", "dm", 40, 1.7, None),
    ("our baseline is 3 days; bf16 1.8", "dm", 72, 1.8, None),
    ("fp32 run 40h, mixed precision ~1.6?", "dm", 40, 1.6, None),
    ("with amp 1.5, 40 hours", "dm", 40, 1.5, None),
    ("fp16 2.2 and the full run is 90 hours", "dm", 90, 2.2, None),
    ("الـ fp32 ياخذ ٤٠ ساعة، مع amp ١.٧", "dm", 40, 1.7, None),
    ("التدريب ٥٠ ساعة، مع الدقة المختلطة ١٫٦", "dm", 50, 1.6, None),
    ("بالـ bf16 ١.٥ والتدريب ٣ ايام", "dm", 72, 1.5, None),
]


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), MIXED_PRECISION_RATIO)
def test_a_bare_number_after_a_mixed_precision_is_its_ratio(
    text, channel, hours, ratio, reason
) -> None:
    check_reading(text, channel, hours, ratio, reason)


PER_NODE_PRICES = [
    # text, nodes billed, FP32 cost
    ("$30/h per node of 8 GPUs, 40 hours, ratio 2", 1, 1200),
    ("16 GPUs, $30/h per node of 8 GPUs, 40 hours, ratio 2", 2, 2400),
    ("16 GPUs at $30/h per node, 40 hours, ratio 2", 2, 2400),
    ("32 GPUs, 40h, ratio 2, $25 an hour per node", 4, 4000),
    ("24 GPUs, $40/h per node with 4 GPUs, 40h ratio 2", 6, 9600),
    ("16 GPUs, $30/h per 8-GPU node, 40h ratio 2", 2, 2400),
    ("2 nodes, $30/h per node, 40h ratio 2", 2, 2400),
    ("40 hours fp32 ratio 2, ٣٠ دولار للنود", 1, 1200),
    ("التدريب ٤٠ ساعة والنسبة ٢ على ١٦ كرت، والسعر ٣٠ دولار للنود", 2, 2400),
    ("على ١٦ كرت، ٣٠ دولار للعقدة اللي فيها ٨ كروت، ٤٠ ساعة والنسبة ٢", 2, 2400),
    ("٤٠ ساعة والنسبة ٢ على ٣٢ بطاقة، السيرفر ب ٢٠ دولار بالساعة", 4, 3200),
]


@pytest.mark.parametrize(("text", "nodes", "cost"), PER_NODE_PRICES)
def test_a_per_node_price_bills_nodes_not_gpus(text, nodes, cost) -> None:
    got = to_json(answer(text, Channel.DM))
    assert got["kind"] == "estimate", got
    assert got["cost"]["num_gpus"] == 1 and got["cost"]["num_nodes"] == nodes, got
    assert got["cost"]["fp32_cost"] == pytest.approx(cost), got


def test_a_per_gpu_price_still_bills_each_gpu() -> None:
    got = to_json(answer("16 GPUs $2/h per GPU 40h ratio 2", Channel.DM))
    assert got["cost"]["num_gpus"] == 16 and got["cost"]["fp32_cost"] == pytest.approx(1280)


def test_the_usual_node_size_is_data() -> None:
    price = Price(amount=10, currency="USD", per_gpu=False, per_node=True)
    assert billed_nodes(price, default_gpus_per_node() * 2 + 1) == 3
    assert billed_nodes(price.model_copy(update={"gpus_per_node": 4}), 8) == 2
    assert billed_nodes(price.model_copy(update={"nodes": 5}), 8) == 5
