"""Memory and cost answers in both languages: headline, fit, table, money, plurals, bidi, JSON."""

from __future__ import annotations

import re

import pytest
from babel.numbers import format_currency

from bot.advice import advise
from bot.conversation import Turn, to_json
from bot.models import Duration, Intent, Kind, Lang, Price, Query, Reason, TimeUnit
from bot.rendering import render
from bot.rendering.numbers import FSI, PDI

ISOLATED = re.compile(f"{FSI}[^{PDI}]*{PDI}")
URL = re.compile(r"https?://\S+")
CURRENCIES = ["USD", "EUR", "SAR", "AED", "EGP", "QAR", "KWD"]


def memory(**fields) -> Query:
    return Query(intent=Intent.MEMORY, lang=Lang.EN, **fields)


def priced(hours: float = 100.0, **fields) -> Query:
    fp32 = Duration(value=hours, unit=TimeUnit.HOURS, hours=hours)
    return Query(intent=Intent.ESTIMATE, lang=Lang.EN, fp32=fp32, **fields)


def english_outside_isolates(text: str) -> str:
    return "".join(re.findall(r"[A-Za-z]+", URL.sub("", ISOLATED.sub("", text))))


BIG = memory(params=7e9, optimizer="adam", gpu="A100", gpu_memory_gb=80)
SMALL = memory(params=340e6, optimizer="adam", gpu="A100")
SHARDED = memory(params=7e9, optimizer="adam", gpu="A100", num_gpus=8)
SGD = memory(params=7e9, optimizer="sgd", gpu="A100")
NO_GPU = memory(params=1.5e9, optimizer="sgd_momentum")
COSTED = priced(100, ratio=2, price=Price(amount=2.5, currency="USD", per_gpu=True), num_gpus=8)
# "$60 a day on 8 GPUs": a daily price that does not say whose it is.
DAILY = priced(100, ratio=2, price=Price(amount=60, currency="USD", period_hours=24), num_gpus=8)
RANGED = priced(100, price=Price(amount=10, currency="SAR"))
OFFLOADED = memory(params=13e9, gpu="RTX 3090", memory_recipe="master", sharding="zero3_offload")
OFFLOADED_PAIR = memory(
    params=7e9, gpu="RTX 4090", num_gpus=2, memory_recipe="master", sharding="zero2_offload"
)
ANSWERS = [BIG, SMALL, SHARDED, SGD, NO_GPU, COSTED, RANGED, OFFLOADED, OFFLOADED_PAIR]


@pytest.mark.parametrize("lang", list(Lang))
@pytest.mark.parametrize("query", ANSWERS)
def test_answers_stay_short(query, lang):
    reply = render(advise(query), lang)
    assert reply.summary and "\n" not in reply.summary
    assert len(reply.notes) == 1 and "\n" not in reply.notes[0]
    assert reply.details  # the rest waits behind Details
    assert "\n\n" not in reply.text and "*" not in reply.text


@pytest.mark.parametrize("query", ANSWERS)
def test_arabic_has_no_english_outside_isolates(query):
    for digits in ("latn", "arab"):
        assert english_outside_isolates(render(advise(query), Lang.AR, digits=digits).text) == ""


def test_7b_adam_on_a100_english():
    reply = render(advise(BIG), Lang.EN)
    assert reply.kind is Kind.MEMORY
    assert reply.summary.startswith("*7B parameters, full fine-tune with Adam*: with torch.amp")
    assert "18 bytes per parameter (*126 GB*)" in reply.summary
    assert "2 more than plain FP32's 16" in reply.summary
    assert "activations roughly halve" in reply.summary
    assert reply.notes == [
        (
            "Does not fit on one A100 (80 GB): it needs 126 GB, and 63 GB are usable once 20% "
            "is kept for activations and 1 GB for the CUDA context. Sharded with ZeRO-3/FSDP it "
            "needs at least 2 GPUs. LoRA (BF16 base) would fit: 14.4 GB per GPU."
        )
    ]
    rows = [d for d in reply.details if d.startswith("• ")]
    assert rows == [
        "• *Full fine-tune, FP32*: 112 GB (104 GiB), 112 GB per GPU: does not fit",
        "• *Full fine-tune, torch.amp*: 126 GB (117 GiB), 126 GB per GPU: does not fit",
        (
            "• *Full fine-tune, an FP32 master copy (ZeRO, DeepSpeed)*: 112 GB (104 GiB), "
            "112 GB per GPU: does not fit"
        ),
        "• *Full fine-tune, pure BF16*: 56 GB (52.2 GiB), 56 GB per GPU: fits",
        "• *LoRA (BF16 base)*: 14.4 GB (13.5 GiB), 14.4 GB per GPU: fits",
        "• *QLoRA (4-bit NF4 base)*: 4.1 GB (3.82 GiB), 4.1 GB per GPU: fits",
    ]
    text = reply.text
    assert "Activation checkpointing" in text and "smaller batch" in text
    assert "weights 4 + gradients 4 + FP32 master copy 0 + optimizer states 8 + 16-bit" in text
    assert "https://arxiv.org/abs/1910.02054" in text
    assert "Assumed" not in text  # the user named 80GB


def test_7b_adam_on_a100_arabic_plurals():
    reply = render(advise(BIG), Lang.AR)
    assert f"18{PDI} بايتًا لكل معلمة" in reply.summary  # 18: the "many" form
    assert "مليار" in reply.summary
    assert "بطاقتين على الأقل" in reply.notes[0]  # 2 GPUs: the dual
    arab = render(advise(BIG), Lang.AR, digits="arab")
    assert "١٨ بايتًا" in arab.summary and "١٢٦" in arab.summary


def test_fits_and_sharded_and_sgd():
    small = render(advise(SMALL), Lang.EN)
    assert small.notes[0].startswith(
        "Fits on one A100 (80 GB): 6.12 GB plus 1 GB for the CUDA context, leaving 72.9 GB"
    )
    assert "Assumed the 80 GB A100" in small.text
    sharded = render(advise(SHARDED), Lang.EN).notes[0]
    assert "Fits on your 8 × A100 (80 GB each) with ZeRO-3/FSDP: 14 GB per GPU" in sharded
    sgd = render(advise(SGD), Lang.EN)
    assert "10 bytes per parameter (*70 GB*)" in sgd.summary  # torch.amp SGD: 4 + 4 + 2
    assert f"10{PDI} بايتات لكل معلمة" in render(advise(SGD), Lang.AR).summary  # 3-10: "few"
    assert sgd.notes[0].startswith("Does not fit on one A100")  # 70 of 63 usable GB


def test_cpu_offload_says_what_sits_in_cpu_memory():
    one = render(advise(OFFLOADED), Lang.EN)
    assert one.notes[0].startswith("Fits on one RTX 3090 (24 GB): 2 GB plus 1 GB")
    assert "With CPU offload, 208 GB of the model states sit in CPU memory" in one.text
    arabic = render(advise(OFFLOADED), Lang.AR).text
    assert "208 GB" in arabic and "من حالات النموذج في ذاكرة المعالج المركزي" in arabic
    pair = render(advise(OFFLOADED_PAIR), Lang.EN).notes[0]
    assert "with ZeRO-Offload (optimizer side in CPU memory): 14 GB per GPU" in pair
    pair_ar = render(advise(OFFLOADED_PAIR), Lang.AR).notes[0]
    assert "حالات المُحسِّن في ذاكرة المعالج المركزي" in pair_ar


def test_without_a_gpu_it_asks_for_one():
    reply = render(advise(NO_GPU), Lang.EN)
    assert "14 bytes per parameter" in reply.summary and "SGD with momentum" in reply.summary
    assert reply.notes[0].startswith("Name a GPU")


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        (memory(gpu="A100"), Reason.NO_PARAMS),
        (memory(params=1e9, optimizer="lion"), Reason.UNKNOWN_OPTIMIZER),
    ],
)
@pytest.mark.parametrize("lang", list(Lang))
def test_memory_errors_say_what_to_type(query, reason, lang):
    advice = advise(query)
    reply = render(advice, lang)
    assert advice.reason is reason and reply.kind is Kind.ERROR
    assert "`/mpestimate memory 7B adam on A100 80GB`" in reply.notes[0]
    if lang is Lang.AR:
        assert english_outside_isolates(reply.text) == ""


def test_cost_line_english():
    reply = render(advise(COSTED), Lang.EN)
    assert reply.notes[0].startswith(
        "Cost: $2,000 in FP32 → *$1,000* with mixed precision (saves $1,000)."
    )
    assert reply.details[0] == (
        "$2.50 per GPU-hour × 8 GPUs = $20 per hour. "
        "Amounts stay in USD, the currency you wrote (no exchange rates)."
    )


def test_a_daily_price_is_shown_per_hour_and_its_owner_assumption_said():
    reply = render(advise(DAILY), Lang.EN)
    assert reply.notes[0].startswith("Cost: $2,000 in FP32 → *$1,000*")
    assert reply.details[0] == (
        "$60 a day is $2.50 an hour. $2.50 per GPU-hour × 8 GPUs = $20 per hour. "
        "If that price is for all the GPUs together, write “per node” after it. "
        "Amounts stay in USD, the currency you wrote (no exchange rates)."
    )


@pytest.mark.parametrize(
    ("period_hours", "english", "arabic"),
    [
        (24, "a day is", "في اليوم، أي"),
        (168, "a week is", "في الأسبوع، أي"),
        (730, "730 hours", "730"),
    ],
)
def test_each_period_is_worded_in_both_languages(period_hours, english, arabic):
    query = priced(100, ratio=2, price=Price(amount=100, currency="SAR", period_hours=period_hours))
    assert english in render(advise(query), Lang.EN).details[0]
    detail = render(advise(query), Lang.AR).details[0]
    assert arabic in detail and english_outside_isolates(detail) == ""


def test_a_whole_run_price_is_the_fp32_cost_in_text_and_json():
    from bot.conversation import answer
    from bot.models import Channel

    got = to_json(answer("100h fp32 ratio 2 on 8 GPUs, the whole job costs $500", Channel.DM))
    assert got["cost"]["fp32_cost"] == 500 and got["cost"]["mp_cost"] == 250
    assert got["cost"]["price_per_hour"] == 5 and got["cost"]["price_period_hours"] == 100
    assert "$500 for the whole FP32 run is $5 an hour." in got["text"]


def test_arabic_says_how_to_price_the_whole_machine():
    detail = render(advise(DAILY), Lang.AR).details[0]
    assert "«للعقدة»" in detail and "بطاقات" in detail


def test_cost_range_english():
    reply = render(advise(RANGED), Lang.EN)
    assert reply.notes[0].startswith(
        "Cost: SAR\xa01,000 in FP32 → *SAR\xa0400*–*SAR\xa0833.33* with mixed precision "
        "(saves SAR\xa0166.67–SAR\xa0600)."
    )


@pytest.mark.parametrize("currency", CURRENCIES)
@pytest.mark.parametrize("lang", list(Lang))
def test_cost_in_each_currency_uses_babel_in_the_readers_locale(currency, lang):
    query = priced(10, ratio=2, price=Price(amount=12.3456, currency=currency))
    line = render(advise(query), lang).notes[0]
    if lang is Lang.AR:  # the currency by name ("دولار أمريكي"), the whole amount in one isolate
        expected = format_currency(123.456, currency, locale=lang.value, format_type="name")
        expected = f"{FSI}{expected}{PDI}"
    else:  # CLDR currency spacing: "SAR 123.46", not Babel's "SAR123.46"
        expected = format_currency(123.456, currency, locale=lang.value)
        expected = expected.replace(currency, f"{currency}\xa0")
    assert expected in line


def test_kwd_keeps_three_decimals_in_both_languages():
    query = priced(10, ratio=2, price=Price(amount=1.2345, currency="KWD"))
    assert "KWD\xa012.345 in FP32" in render(advise(query), Lang.EN).notes[0]
    arabic = render(advise(query), Lang.AR)
    assert "12.345 دينار كويتي" in arabic.notes[0]
    assert "١٢٫٣٤٥ دينار كويتي" in render(advise(query), Lang.AR, digits="arab").notes[0]


def test_arabic_cost_sentence():
    line = render(advise(COSTED), Lang.AR).notes[0]
    assert line.startswith("التكلفة: ")
    assert f"{FSI}2,000 دولار أمريكي{PDI}" in line  # a whole amount without ".00"
    assert "توفير" in line


def test_unreadable_currency_is_said_and_escaped():
    query = priced(10, ratio=2, price=Price(amount=1, currency="<!channel>"))
    reply = render(advise(query), Lang.EN)
    assert "&lt;!channel&gt;" in reply.notes[0] and "<!channel>" not in reply.notes[0]


def turn(query: Query) -> Turn:
    advice = advise(query)
    return Turn(query=query, advice=advice, reply=render(advice, query.lang))


def test_json_memory_and_cost_objects():
    data = to_json(turn(BIG))
    assert data["kind"] == "memory" and data["cost"] is None
    m = data["memory"]
    assert m["fits"] is False and m["gpus_needed"] == 2 and m["method"] == "full"
    assert m["asked"]["bytes_per_param"]["total"] == 18
    options = {(o["setup"]["method"], o["setup"]["recipe"]): o for o in m["options"]}
    assert options[("full", "master")]["bytes_per_param"]["total"] == 16
    assert options[("lora", "amp")]["fits"] is True
    costed = to_json(turn(COSTED))
    assert costed["memory"] is None
    assert costed["cost"] == {
        "currency": "USD",
        "num_gpus": 8,
        "num_nodes": 1,
        "price_per_hour": 2.5,
        "price_period_hours": 1.0,
        "fp32_cost": 2000.0,
        "mp_cost": 1000.0,
        "mp_cost_low": None,
        "mp_cost_high": None,
        "saving": 1000.0,
        "saving_low": None,
        "saving_high": None,
    }
    ranged = to_json(turn(RANGED))["cost"]
    assert ranged["mp_cost"] is None
    assert ranged["mp_cost_low"] == pytest.approx(400) and ranged["saving_high"] == pytest.approx(
        600
    )
    assert "theoretical" in costed["notes"] and costed["factors"] == []
