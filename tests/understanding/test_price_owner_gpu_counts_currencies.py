"""Whose a price is (a GPU's, a node's, the job's), GPU counts, and currencies.

A node's price is billed once per node, never once per GPU in it; an explicit
GPU total wins over its breakdown; Arabic duals count two; a currency sign
alone never makes the reply Arabic.
"""

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel, Lang
from bot.understanding import understand
from bot.understanding.text.normalise import normalise


def cost_of(text: str, channel: Channel = Channel.DM) -> dict:
    got = to_json(answer(text, channel))
    assert got["cost"] is not None, got["text"]
    return got


@pytest.mark.parametrize(
    ("text", "fp32_cost", "mp_cost"),
    [
        # Whole-machine words shortly before the price: the node's price, billed once.
        ("our 8xA100 node costs $25/hour, training 60h fp32, ratio 2", 1500, 750),
        ("training 60h fp32 on 8 A100s, ratio 2, the whole node is $25 an hour", 1500, 750),
        ("training 60h fp32 on 8 A100s, ratio 2, the instance is $25/h", 1500, 750),
        ("training 60h fp32 on 8 A100s, ratio 2, $25/hour per node", 1500, 750),
        (
            "تدريب ٦٠ ساعة fp32 على ٨ بطاقات A100 والنسبة ٢، الجهاز كامل بـ ٩٠ ريال في الساعة",
            5400,
            2700,
        ),
        ("تدريب ٦٠ ساعة fp32 على ٨ بطاقات والنسبة ٢، سعر السيرفر ٩٠ ريال بالساعة", 5400, 2700),
        ("تدريب ٦٠ ساعة fp32 على ٨ بطاقات والنسبة ٢، الخادم بـ ٩٠ ريال للساعة", 5400, 2700),
        # Still per GPU when nothing says whose it is, or when a GPU's price is said.
        ("training 60h fp32 on 8 A100s, ratio 2, $2/hour", 960, 480),
        ("training 60h fp32 on 8 A100s, ratio 2, each GPU costs $2/hour", 960, 480),
        # Counted nodes before the price are the job's size, not the price's owner.
        ("training 60h fp32 on 8 GPUs, ratio 2, at $2/hour", 960, 480),
    ],
)
def test_a_nodes_price_is_billed_once_per_node(text, fp32_cost, mp_cost) -> None:
    cost = cost_of(text)["cost"]
    assert (cost["fp32_cost"], cost["mp_cost"]) == pytest.approx((fp32_cost, mp_cost))


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("training 60h fp32 on 2 nodes of 8 A100, ratio 2, $25/hour per node", Lang.EN),
        (
            "تدريب ٦٠ ساعة fp32 على عقدتين في كل واحدة ٨ بطاقات A100 والنسبة ٢، ٢٥ دولار للساعة للعقدة",
            Lang.AR,
        ),
    ],
)
def test_a_per_node_price_on_several_nodes(text, lang) -> None:
    """2 nodes x $25 x 60 h = $3,000, and the details say it is billed per node."""
    got = cost_of(text)
    assert got["lang"] == lang and got["num_gpus"] == 16
    assert (got["cost"]["fp32_cost"], got["cost"]["mp_cost"]) == pytest.approx((3000, 1500))
    details = got["text"]
    if lang is Lang.EN:
        assert "per node-hour × 2 nodes" in details and "billed per node" in details
    else:
        assert "لكل عقدة" in details


def test_a_per_node_price_says_so_with_one_node() -> None:
    text = cost_of("our 8xA100 node costs $25/hour, training 60h fp32, ratio 2")["text"]
    assert "one whole node" in text and "per GPU-hour" not in text


def test_a_node_price_read_in_the_query() -> None:
    q = understand("training 60h fp32 on 2 nodes of 8 A100, ratio 2, $25/hour per node", Channel.DM)
    assert q.price is not None and q.price.per_node and q.price.nodes == 2
    assert q.price.per_gpu is False and q.num_gpus == 16


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("60h fp32 on 64 A100s (8 nodes x 8)", 64),  # an explicit total wins over its breakdown
        ("60h fp32 on 16 GPUs across 2 nodes", 16),
        ("2 nodes of 8 A100, 60h fp32", 16),
        ("2 nodes of 8 A100s, 60h fp32", 16),
        ("60h fp32, 8 GPUs per node, 4 nodes", 32),
        ("60h fp32 on 8 GPUs x 4 nodes", 32),
        ("60h fp32 on 4 nodes x 8 GPUs", 32),
        ("60h fp32 on 2 nodes, 16 GPUs in total", 16),
        ("نظام توصية على بطاقتين A10 ياخذ ١٠ ساعات", 2),
        ("التدريب ١٠ ساعات على بطاقتين A100", 2),
        ("التدريب ١٠ ساعات على كرتين 4090", 2),
        ("التدريب ١٠ ساعات على عقدتين في كل واحدة ٨ بطاقات A100", 16),
    ],
)
def test_gpu_counts(text, gpus) -> None:
    q = understand(text, Channel.DM)
    assert q.num_gpus == gpus and q.fp32 is not None and q.reason is None


@pytest.mark.parametrize(
    "text", ["memory 70B adam 64 H100", "memory 70B adam on 64 H100", "ذاكرة 70B adam على 64 H100"]
)
def test_memory_question_reads_the_gpu_count_before_a_gpu(text) -> None:
    got = to_json(answer(text, Channel.COMMAND))
    assert got["kind"] == "memory" and got["num_gpus"] == 64 and got["gpu"] == "H100"
    assert "at least 18" not in got["text"]


@pytest.mark.parametrize(
    ("text", "currency"),
    [
        ("fp32 10h ratio 2, E£200 per hour", "EGP"),
        ("fp32 10h ratio 2, US$3 per hour", "USD"),
        ("fp32 10h ratio 2, £3 per hour", "GBP"),
        ("fp32 10h ratio 2 بسعر ٢ دك للساعة", "KWD"),
        ("fp32 10h ratio 2 بسعر ١٠رس للساعة", "SAR"),
        ("fp32 10h ratio 2 بسعر ١٠ رق للساعة", "QAR"),
        ("fp32 10h ratio 2 بسعر ٢ د.ك للساعة", "KWD"),
        ("fp32 10h ratio 2 at 15﷼/h", "SAR"),
    ],
)
def test_currency_spellings(text, currency) -> None:
    q = understand(text, Channel.DM)
    assert q.price is not None and q.price.currency == currency and q.fp32.hours == 10


@pytest.mark.parametrize("word", ["دب", "دا", "جم"])
def test_bare_abbreviations_that_are_everyday_words_are_not_currencies(word) -> None:
    assert normalise(f"10 {word}") == f"10 {word}"


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("fp32 10h ratio 2 at 15﷼/h", Lang.EN),
        ("fp32 10h ratio 2 at 15 ﷼ per hour", Lang.EN),
        ("التدريب ١٠ ساعات والنسبة ٢ بسعر ١٥ ﷼ للساعة", Lang.AR),
    ],
)
def test_a_currency_sign_does_not_choose_the_language(text, lang) -> None:
    q = understand(text, Channel.DM)
    assert q.lang is lang and q.price is not None and q.price.currency == "SAR"


def test_rial_sign_normalisation_is_idempotent() -> None:
    once = normalise("15﷼/h ٢ دك")
    assert normalise(once) == once and "﷼" in once


@pytest.mark.parametrize(
    ("text", "per_gpu", "per_node"),
    [
        ("fp32 10h ratio 2, the node at $2.5 per GPU-hour on 8 GPUs", True, False),
        ("fp32 10h ratio 2, each GPU at $25/hour per node", False, True),
        ("fp32 10h ratio 2, the server costs $500 a day for the cluster", False, False),
        ("fp32 10h ratio 2 on 2 nodes at $25/hour", None, False),
        ("fp32 10h ratio 2, an 8-GPU node costs $25/hour", False, True),
    ],
)
def test_whose_price_said_after_it_wins(text, per_gpu, per_node) -> None:
    q = understand(text, Channel.DM)
    assert q.price is not None and q.price.per_gpu is per_gpu and q.price.per_node is per_node


@pytest.mark.parametrize("nodes", ["1e300", "100000000000"])
def test_an_absurd_node_count_never_breaks_the_reply(nodes) -> None:
    got = to_json(answer(f"fp32 10h ratio 2, $25/h per node on {nodes} nodes", Channel.DM))
    assert got["fp32_hours"] == 10 and got["text"]


@pytest.mark.parametrize(
    ("text", "ratio", "price"),
    [
        ("100 2 $3", 2, 3),
        ("100h 2 $3/h", 2, 3),
        ("١٠٠ ٢ $٣", 2, 3),
        ("100 1.5 $2.5", 1.5, 2.5),
        ("100h ratio 2 at 2.5$/h", 2, 2.5),
    ],
)
def test_a_currency_symbol_belongs_to_the_number_it_leads(text, ratio, price):
    q = understand(text, Channel.COMMAND)
    assert q.ratio == ratio and q.price.amount == price


def test_a_compound_gpu_count_inside_the_price_keeps_its_owner():
    q = understand("fp32 10h ratio 2 on 8 GPUs, $24/h per 8-GPU node", Channel.DM)
    assert q.price.per_node and q.price.amount == 24


@pytest.mark.parametrize(
    "text",
    [
        "100h fp32 ratio 2 on 8 GPUs, the whole job costs $500",
        "our FP32 run costs $500, 100h, ratio 2",
        "100h ratio 2, $500 in total",
        "التدريب ١٠٠ ساعة والنسبة ٢ والتدريب كامل يكلف ٥٠٠ دولار",
    ],
)
def test_the_price_of_the_whole_run_is_not_hourly(text):
    q = understand(text, Channel.DM)
    assert q.price.per_run and q.price.amount == 500


@pytest.mark.parametrize(
    "text", ["100h ratio 2 at $2/h for the job", "training costs $2 per hour, 100h"]
)
def test_a_price_with_a_period_stays_a_rate(text):
    assert not understand(text, Channel.DM).price.per_run


def test_each_after_a_price_belongs_to_the_counted_nodes():
    q = understand("100h ratio 2 on 4 nodes at $25/hour each", Channel.DM)
    assert q.price.per_node and q.price.nodes == 4


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("8 V100 40h fp32", 8),
        ("40h 8 A100", 8),
        ("٨ V100 و٤٠ ساعة FP32", 8),
        ("4 A100, 40 hours fp32, with amp?", 4),
    ],
)
def test_a_number_before_a_gpu_is_a_count_when_the_time_has_its_unit(text, gpus):
    q = understand(text, Channel.MENTION)
    assert q.num_gpus == gpus and q.ratio is None and q.fp32.hours == 40


def test_a_bare_number_before_a_gpu_in_a_command_is_still_the_time():
    q = understand("100 V100", Channel.COMMAND)
    assert q.fp32.hours == 100 and q.num_gpus is None
    assert understand("fp32 10h, ratio 2 A100", Channel.DM).ratio == 2


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("4 nodes, 32 H100s, 50h fp32", 32),  # a second fact: the total
        ("training on 4 nodes at $25/hour each, 32 H100s, 50h fp32", 32),
        ("4 nodes and 8 GPUs per node, 60h", 32),
        ("2 nodes of 8 A100, 60h fp32", 16),
        ("4 nodes with 8 GPUs each, 60h", 32),
    ],
)
def test_a_gpu_count_after_the_nodes_is_per_node_only_when_tied_to_them(text, gpus):
    assert understand(text, Channel.DM).num_gpus == gpus


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("100h ratio 2, $1.5k total", 1500),
        ("100h ratio 2 at $2k per week", 2000),
        ("100h ratio 2 at 2k EUR a week", 2000),
    ],
)
def test_thousands_of_money_are_a_price_not_parameters(text, amount):
    assert understand(text, Channel.DM).price.amount == amount


@pytest.mark.parametrize(
    "text",
    [
        "$1.5k total for a 30h fp32 run, ratio 2",
        "$1.5k for a 30h run, ratio 2",
        "it costs $1.5k for the whole 30h fp32 run, ratio 2",
    ],
)
def test_the_price_of_a_run_said_with_its_time(text):
    q = understand(text, Channel.DM)
    assert q.fp32.hours == 30 and q.ratio == 2 and q.price.per_run and q.price.amount == 1500
