"""advise() for memory questions and for estimates that come with a price."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.advice import advise
from bot.advice.estimate import MEMORY_SOURCES
from bot.advice.memory import Method, Recipe, Suggestion
from bot.advice.notes import Note
from bot.models import Duration, Intent, Kind, Lang, Price, Query, Reason, TimeUnit


def memory(**fields) -> Query:
    return Query(intent=Intent.MEMORY, lang=Lang.EN, **fields)


def priced(hours: float = 100.0, **fields) -> Query:
    fp32 = Duration(value=hours, unit=TimeUnit.HOURS, hours=hours)
    return Query(intent=Intent.ESTIMATE, lang=Lang.EN, fp32=fp32, **fields)


def usd(amount: float, per_gpu: bool = True) -> Price:
    return Price(amount=amount, currency="USD", per_gpu=per_gpu)


def _option(m, method, recipe):
    return next(o for o in m.options if (o.setup.method, o.setup.recipe) == (method, recipe))


def test_7b_adam_does_not_fit_one_a100_80gb():
    advice = advise(memory(params=7e9, optimizer="adam", gpu="A100", gpu_memory_gb=80))
    assert advice.kind is Kind.MEMORY and advice.reason is None
    m = advice.memory
    assert m.asked.bytes_per_param.total == 18  # torch.amp: 4 + 4 + 8 + 2
    assert m.asked.model_states_gb == pytest.approx(126)  # 7e9 x 18 B
    assert _option(m, Method.FULL, Recipe.FP32).model_states_gb == pytest.approx(112)
    assert m.fits is False and m.gpus_needed == 2
    assert m.suggestions[0] is Suggestion.ZERO_FSDP
    assert advice.sources == list(MEMORY_SOURCES)
    assert advice.facts["gpu_memory_given"] == 1


def test_340m_adam_fits_with_room_for_activations():
    advice = advise(memory(params=340e6, optimizer="adamw", gpu="A100"))
    m = advice.memory
    assert m.fits is True and m.asked.model_states_gb == pytest.approx(6.12)
    assert m.suggestions == []
    assert m.gpu_memory_gb == 80  # the largest A100 when no size is named
    assert advice.facts["gpu_memory_given"] == 0


@pytest.mark.parametrize(
    ("optimizer", "fp32", "bf16"), [("sgd_momentum", 12, 6), ("sgd", 8, 4), (None, 16, 8)]
)
def test_sgd_bytes_per_parameter(optimizer, fp32, bf16):
    m = advise(memory(params=1e9, optimizer=optimizer)).memory
    assert _option(m, Method.FULL, Recipe.FP32).bytes_per_param.total == fp32
    assert _option(m, Method.FULL, Recipe.MASTER).bytes_per_param.total == fp32  # no saving
    assert _option(m, Method.FULL, Recipe.AMP).bytes_per_param.total == fp32 + 2
    assert _option(m, Method.FULL, Recipe.BF16).bytes_per_param.total == bf16
    assert m.fits is None  # no GPU named


def test_sgd_7b_fits_where_adam_does_not():
    # 7e9 x 8 B = 56 GB of 63 usable on 80 GB; Adam's 126 GB does not.
    assert advise(memory(params=7e9, optimizer="sgd", gpu="A100", memory_recipe="fp32")).memory.fits


def test_the_method_and_model_the_reader_found_are_sized():
    advice = advise(
        memory(params=13e9, gpu="RTX 4090", memory_method="qlora", weight_precision="nf4")
    )
    assert advice.memory.method is Method.QLORA and advice.memory.fits is True
    assert "https://arxiv.org/abs/2305.14314" in advice.sources
    served = advise(
        memory(
            params=70e9,
            gpu="A100",
            num_gpus=2,
            memory_method="inference",
            weight_precision="fp16",
            sized_model="llama270b",
        )
    )
    assert served.memory.model == "Llama-2-70B" and served.memory.fits is True
    assert "https://arxiv.org/abs/2307.09288" in served.sources


def test_memory_without_params_says_what_is_missing():
    advice = advise(memory(gpu="A100"))
    assert advice.kind is Kind.ERROR and advice.reason is Reason.NO_PARAMS


@pytest.mark.parametrize("params", [0.0, -5.0, float("inf")])
def test_memory_with_impossible_params_is_no_params(params):
    assert advise(memory(params=params)).reason is Reason.NO_PARAMS


def test_memory_with_unknown_optimizer():
    assert advise(memory(params=1e9, optimizer="lion")).reason is Reason.UNKNOWN_OPTIMIZER


def test_estimate_with_price_costs_both_runs_and_the_saving():
    advice = advise(priced(100, ratio=2, price=usd(2.5), num_gpus=8))
    cost = advice.cost
    assert advice.kind is Kind.ESTIMATE and cost.currency == "USD" and cost.num_gpus == 8
    assert (cost.fp32_cost, cost.mp_cost, cost.saving) == pytest.approx((2000, 1000, 1000))
    assert advice.cost_low is None and advice.cost_high is None


def test_price_for_the_whole_job_is_not_multiplied_by_gpus():
    cost = advise(priced(100, ratio=2, price=usd(10, per_gpu=False), num_gpus=8)).cost
    assert (cost.fp32_cost, cost.mp_cost) == pytest.approx((1000, 500))


def test_range_with_price_costs_both_ends():
    advice = advise(priced(100, price=Price(amount=10, currency="SAR")))
    assert advice.kind is Kind.RANGE and advice.cost is None
    fast, slow = advice.cost_low, advice.cost_high
    assert fast.currency == slow.currency == "SAR"  # the written currency, never converted
    assert fast.mp_cost == pytest.approx(1000 / 2.5)
    assert slow.mp_cost == pytest.approx(1000 / 1.2)
    assert fast.saving > slow.saving > 0


def test_preset_with_price_uses_the_suggested_ratio():
    advice = advise(priced(100, gpu="A100", model="BERT", price=Price(amount=3, currency="EUR")))
    assert advice.kind is Kind.PRESET
    assert advice.cost.mp_cost == pytest.approx(300 / advice.ratio)


def test_unreadable_price_keeps_the_estimate_and_says_why():
    advice = advise(priced(100, ratio=2, price=Price(amount=5, currency="XYZ")))
    assert advice.kind is Kind.ESTIMATE and advice.mp_hours == 50
    assert advice.cost is None and advice.notes[0] == Note.PRICE_UNREADABLE
    assert advice.facts["currency"] == "XYZ"


@given(
    hours=st.floats(min_value=0.01, max_value=876_000),
    ratio=st.floats(min_value=1.0, max_value=10.0),
    amount=st.floats(min_value=0, max_value=1e4),
    gpus=st.integers(min_value=1, max_value=4096),
)
def test_cost_is_time_times_rate(hours, ratio, amount, gpus):
    cost = advise(priced(hours, ratio=ratio, price=usd(amount), num_gpus=gpus)).cost
    assert cost.fp32_cost == pytest.approx(hours * amount * gpus)
    assert cost.mp_cost + cost.saving == pytest.approx(cost.fp32_cost)


def test_the_gpu_count_the_user_named_is_the_one_judged():
    """'13B on 2 x A100 40GB': not 'one A100' but the user's two, per GPU, and how many."""
    from bot.conversation import answer, to_json
    from bot.models import Channel

    got = to_json(answer("memory 13B adam on 2 x A100 40GB", Channel.DM))
    assert "Not on your 2 × A100 (40 GB each)" in got["text"]
    assert "104 GB per GPU" in got["text"] and "at least 7 GPUs" in got["text"]
    from bot.models import Lang
    from bot.rendering import render

    ar = render(answer("memory 13B adam on 2 x A100 40GB", Channel.DM).advice, Lang.AR).text
    ar = ar.replace("\u2068", "").replace("\u2069", "")  # the bidi isolates around Latin runs
    assert "بطاقاتك" in ar and "104" in ar and "7 بطاقات على الأقل" in ar


def test_a_tf32_figure_equal_to_the_headline_is_not_said():
    """GeForce RTX 30/40: the TF32 Tensor rate equals the FP32 rate, so 'against strict
    FP32 it would be about X' would only repeat the headline."""
    from bot.advice.prediction import Factor, Setup, predict

    for gpu in ("RTX 4090", "RTX 3090"):
        p = predict(Setup(gpu=gpu, family="language_model"))
        note = next(f for f in p.factors if f.code is Factor.TF32_BASELINE)
        other = note.params.get("fp32_ratio")
        assert other is None or abs(other / p.ratio - 1) >= 0.05
