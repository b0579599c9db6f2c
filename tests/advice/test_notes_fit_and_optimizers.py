"""Advice: which notes apply, what fits, which optimizers are refused."""

import pytest

from bot.advice import estimate
from bot.advice.estimate import advise
from bot.advice.memory import Recipe, estimate_memory
from bot.advice.notes import Note
from bot.advice.prediction import Basis, Prediction
from bot.models import Duration, Intent, Kind, Lang, Query, Reason, TimeUnit


def ask(hours: float | None = 100.0, lang: Lang = Lang.EN, **fields) -> Query:
    fp32 = None if hours is None else Duration(value=hours, unit=TimeUnit.HOURS, hours=hours)
    return Query(intent=fields.pop("intent", Intent.ESTIMATE), lang=lang, fp32=fp32, **fields)


# -- 15: a predicted slowdown says so first ------------------------------------
def _predicted(monkeypatch, ratio: float, low: float, high: float) -> None:
    prediction = Prediction(ratio=ratio, low=low, high=high, basis=Basis.MODELLED, named=True)
    monkeypatch.setattr(estimate, "predict", lambda setup: prediction)


def test_predicted_ratio_below_one_leads_with_the_slowdown_note(monkeypatch):
    _predicted(monkeypatch, 0.87, 0.54, 1.33)
    advice = advise(ask(48, model="Tacotron 2", gpu="RTX 3090"))
    assert advice.kind is Kind.PRESET and advice.mp_hours > advice.fp32_hours
    assert advice.notes[:2] == [Note.EXPECTED_SLOWDOWN, Note.NO_MEASUREMENT]


def test_predicted_speedup_has_no_slowdown_note(monkeypatch):
    _predicted(monkeypatch, 1.3, 0.9, 1.8)
    assert Note.EXPECTED_SLOWDOWN not in advise(ask(48, model="Tacotron 2", gpu="A100")).notes


def test_the_ratio_alone_for_a_slow_setup_also_warns(monkeypatch):
    _predicted(monkeypatch, 0.87, 0.54, 1.33)
    advice = advise(ask(None, intent=Intent.HELP, model="Tacotron 2", gpu="RTX 3090"))
    assert Note.EXPECTED_SLOWDOWN in advice.notes


# -- 16: the ResNet-50/V100 note only for ResNet-50 on V100 --------------------
@pytest.mark.parametrize(
    ("named", "expected"),
    [
        ({"model": "ResNet-50", "gpu": "V100"}, True),
        ({"gpu": "V100"}, False),  # "V100, 50h, ratio 2"
        ({"model": "ResNet-50", "gpu": "A100", "num_gpus": 8}, False),
        ({"model": "ResNet-50"}, False),
    ],
)
def test_resnet50_note_only_for_resnet50_on_v100(named, expected):
    for lang in Lang:
        advice = advise(ask(50, lang=lang, ratio=2, **named))
        assert (Note.RESNET50_V100 in advice.notes) is expected
        assert ("rule_of_thumb" in advice.facts) is expected


# -- 22: FP8 gets its own scaling note -----------------------------------------
def test_fp8_replaces_the_fp16_loss_scaling_note():
    for kind_fields in ({"ratio": 1.5}, {}):  # an estimate, and the typical range
        advice = advise(ask(30, precision="fp8", **kind_fields))
        assert Note.FP8_SCALING in advice.notes and Note.LOSS_SCALING not in advice.notes
    assert Note.LOSS_SCALING in advise(ask(30, precision="bf16", ratio=1.5)).notes
    assert Note.FP8_SCALING not in advise(ask(30, ratio=1.5)).notes


# -- 12: unknown optimizers are refused, never counted as Adam -----------------
@pytest.mark.parametrize("optimizer", ["lion", "adafactor", "rmsprop"])
def test_unknown_optimizer_is_refused_and_named(optimizer):
    query = Query(intent=Intent.MEMORY, lang=Lang.EN, params=7e9, optimizer=optimizer, gpu="A100")
    advice = advise(query)
    assert advice.kind is Kind.ERROR and advice.reason is Reason.UNKNOWN_OPTIMIZER
    assert advice.memory is None and advice.facts["optimizer"] == optimizer


# -- 13: "fits" keeps a margin for activations and the CUDA context -----------
def test_states_as_large_as_the_card_do_not_fit():
    # ZeRO's own example: 1.5B parameters with mixed-precision Adam need 24 GB.
    one = estimate_memory(1.5e9, "adam", gpu="L4", recipe=Recipe.MASTER)
    assert one.asked.model_states_gb == pytest.approx(24) and one.gpu_memory_gb == 24
    assert one.fits is False and one.gpus_needed == 2
    two = estimate_memory(1.5e9, "adam", gpu="L4", num_gpus=2, recipe=Recipe.MASTER)
    assert two.asked.per_gpu_gb == pytest.approx(12) and two.fits is True


def test_fit_boundary_is_the_reserve_and_the_cuda_context():
    usable = 80 * (1 - 0.2) - 1.0  # a fifth for activations, 1 GB for the CUDA context
    below = estimate_memory(usable * 0.99e9 / 18, "adam", gpu="A100")
    above = estimate_memory(usable * 1.01e9 / 18, "adam", gpu="A100")
    assert below.usable_gb == pytest.approx(usable)
    assert below.fits is True and above.fits is False


def test_fp8_on_a_gpu_without_fp8_says_which_precision_it_assumed():
    from bot.conversation import answer, to_json
    from bot.models import Channel

    got = to_json(answer("36h fp32 on A100 with fp8", Channel.DM))
    assert got["precision"] == "bf16"
    assert "FP8 is not accelerated on this GPU, so the estimate assumes BF16" in got["text"]
    arabic = to_json(answer("التدريب ٣٦ ساعة على A100 بدقة fp8", Channel.DM))["text"]
    assert "لذا يفترض التقدير \u2068BF16\u2069" in arabic


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("memory 7B optimizer: muon", "muon"),
        ("memory for 7B with frobnicator optimizer", "frobnicator"),
        ("memory 7B with lion", "lion"),
    ],
)
def test_an_optimizer_without_memory_figures_is_refused_by_name(text, name):
    from bot.conversation import answer, to_json
    from bot.models import Channel

    got = to_json(answer(text, Channel.DM))
    assert got["reason"] == "unknown_optimizer" and f"“{name}”" in got["text"]


@pytest.mark.parametrize(
    ("text", "optimizer", "state_bytes"),
    [
        ("memory 7B adamw8bit on A100 80GB", "adam8bit", 2),  # bitsandbytes: 1 byte a moment
        ("memory 7B 8-bit adam", "adam8bit", 2),
        ("memory 7B adamw 8bit", "adam8bit", 2),
        ("memory 7B paged adamw", "adam", 8),  # paged: Adam's states, moved to CPU when short
    ],
)
def test_8_bit_and_paged_adam_are_sized(text, optimizer, state_bytes):
    from bot.conversation import answer, to_json
    from bot.models import Channel

    got = to_json(answer(text, Channel.DM))
    assert got["kind"] == "memory" and got["memory"]["optimizer"] == optimizer
    assert got["memory"]["asked"]["bytes_per_param"]["optimizer_states"] == state_bytes


def test_a_known_optimizer_named_with_the_word_optimizer_is_kept():
    from bot.conversation import answer, to_json
    from bot.models import Channel

    for text in ("memory 7B with the adamw optimizer", "memory 7B, optimizer is adam"):
        assert to_json(answer(text, Channel.DM))["kind"] == "memory"


@pytest.mark.parametrize(
    "text",
    [
        "memory for 7B, optimizer states included",
        "how much memory does the optimizer take for 7B?",
        "memory for 7B, what optimizer should I use",
        "memory 7B with zero optimizer sharding",
    ],
)
def test_the_word_optimizer_in_a_plain_memory_question_names_no_optimizer(text):
    from bot.conversation import answer, to_json
    from bot.models import Channel

    assert to_json(answer(text, Channel.DM))["kind"] == "memory"


@pytest.mark.parametrize(
    ("text", "gpus", "size"),
    [
        ("memory for 7B adam on 4 x 80GB GPUs", 4, 80),
        ("memory for 7B on 8x 80GB", 8, 80),
        ("I have 2x 24GB cards, 7B model, will it fit?", 2, 24),
    ],
)
def test_a_count_times_a_memory_size_is_how_many_gpus_of_that_size(text, gpus, size):
    from bot.models import Channel
    from bot.understanding import understand

    query = understand(text, Channel.DM)
    assert (query.num_gpus, query.gpu_memory_gb) == (gpus, size)
