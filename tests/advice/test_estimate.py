"""advise(): the kind of answer, its arithmetic and which notes apply."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.advice import estimate
from bot.advice.estimate import advise
from bot.advice.notes import Note
from bot.advice.prediction import Basis, Factor, FactorNote, Prediction
from bot.models import MAX_MESSAGE_CHARS, Duration, Intent, Kind, Lang, Query, Reason, TimeUnit


def ask(hours: float | None = 100.0, **fields) -> Query:
    fp32 = None if hours is None else Duration(value=hours, unit=TimeUnit.HOURS, hours=hours)
    return Query(intent=fields.pop("intent", Intent.ESTIMATE), lang=Lang.EN, fp32=fp32, **fields)


def test_estimate_arithmetic():
    advice = advise(ask(100, ratio=2))
    assert advice.kind is Kind.ESTIMATE
    assert (advice.fp32_hours, advice.ratio, advice.mp_hours) == (100, 2, 50)
    assert advice.saved_hours == pytest.approx(50)
    assert advice.saved_percent == pytest.approx(50)
    assert advice.basis == "given"
    assert advice.ratio_low is None and advice.mp_hours_low is None


@given(
    hours=st.floats(min_value=1e-3, max_value=876_000, allow_nan=False),
    ratio=st.floats(min_value=1.0, max_value=estimate.MAX_RATIO, allow_nan=False),
)
def test_estimate_is_fp32_over_ratio(hours, ratio):
    advice = advise(ask(hours, ratio=ratio))
    assert advice.mp_hours * ratio == pytest.approx(hours)
    assert advice.mp_hours + advice.saved_hours == pytest.approx(hours)
    assert advice.saved_percent == pytest.approx(100 * (1 - 1 / ratio), abs=1e-9)


def test_ratio_one_saves_nothing():
    advice = advise(ask(10, ratio=1))
    assert advice.saved_hours == 0 and advice.saved_percent == 0


@pytest.mark.parametrize(
    ("ratio", "flagged"), [(2.5, False), (2.51, True), (3.4, True), (1.2, False)]
)
def test_double_check_only_above_typical(ratio, flagged):
    assert (Note.DOUBLE_CHECK in advise(ask(ratio=ratio)).notes) is flagged


def test_every_estimate_carries_the_guide_notes():
    notes = advise(ask(ratio=1.8)).notes
    for code in (Note.THEORETICAL, Note.MEMORY, Note.LOSS_SCALING, Note.VALIDATE):
        assert code in notes


def test_range_when_nothing_is_named():
    advice = advise(ask(100, num_gpus=8, precision="bf16"))
    assert advice.kind is Kind.RANGE
    assert advice.ratio is None and advice.mp_hours is None
    assert (advice.ratio_low, advice.ratio_high) == (1.2, 2.5)
    assert advice.mp_hours_low == pytest.approx(100 / 2.5)
    assert advice.mp_hours_high == pytest.approx(100 / 1.2)
    assert advice.notes[0] == Note.RATIO_GUIDE
    assert advice.basis == "typical"


@pytest.mark.parametrize(
    "named", [{"gpu": "A100"}, {"model": "BERT"}, {"gpu": "V100", "model": "ResNet-50"}]
)
def test_preset_when_something_is_named(named):
    advice = advise(ask(100, **named))
    assert advice.kind is Kind.PRESET
    assert advice.ratio_low <= advice.ratio <= advice.ratio_high
    assert advice.mp_hours == pytest.approx(100 / advice.ratio)
    assert advice.mp_hours_low == pytest.approx(100 / advice.ratio_high)
    assert advice.mp_hours_high == pytest.approx(100 / advice.ratio_low)
    assert advice.basis in {b.value for b in Basis}
    assert (advice.gpu, advice.model) == (named.get("gpu"), named.get("model"))


def test_preset_copies_prediction_sources_and_factors(monkeypatch):
    prediction = Prediction(
        ratio=3.0,
        low=2.6,
        high=3.5,
        basis=Basis.MEASURED,
        sources=["https://example.org/table#L1"],
        factors=[FactorNote(code=Factor.MEASURED_MATCH, params={"n": 3, "models": "ResNet-50"})],
        named=True,
    )
    monkeypatch.setattr(estimate, "predict", lambda setup: prediction)
    advice = advise(ask(90, model="ResNet-50", gpu="V100"))
    assert advice.ratio == 3.0 and advice.mp_hours == pytest.approx(30)
    assert advice.sources == ["https://example.org/table#L1"]
    assert [(f.code, f.params) for f in advice.factors] == [
        ("measured_match", {"n": 3, "models": "ResNet-50"})
    ]
    # A predicted 3x stands on its tables: no "double-check a ratio above 2.5" note.
    assert advice.notes[0] == Note.RESNET50_V100 and Note.DOUBLE_CHECK not in advice.notes
    assert Note.NO_MEASUREMENT not in advice.notes


def test_named_but_unmatched_says_so(monkeypatch):
    typical = Prediction(ratio=1.73, low=1.2, high=2.5, basis=Basis.TYPICAL, named=False)
    monkeypatch.setattr(estimate, "predict", lambda setup: typical)
    advice = advise(ask(100, gpu="MI300X"))
    assert advice.kind is Kind.PRESET
    assert advice.notes[0] == Note.NO_MEASUREMENT
    assert (advice.ratio_low, advice.ratio_high) == (1.2, 2.5)


def test_resnet50_v100_honesty_note_and_its_numbers():
    advice = advise(ask(ratio=2.1, model="ResNet-50", gpu="V100"))
    assert Note.RESNET50_V100 in advice.notes
    assert advice.facts["rule_of_thumb"] == 2.1
    assert (advice.facts["published_low"], advice.facts["published_high"]) == (2.9, 3.6)
    assert Note.RESNET50_V100 not in advise(ask(ratio=2.1, gpu="A100")).notes
    assert Note.RESNET50_V100 not in advise(ask(ratio=2.1, gpu="V100", model="BERT")).notes
    assert Note.RESNET50_V100 not in advise(ask(ratio=2.1, gpu="V100")).notes
    assert Note.RESNET50_V100 not in advise(ask(ratio=2.1, model="ResNet-50")).notes


@pytest.mark.parametrize("reason", list(Reason))
def test_errors_copy_reason_and_candidates(reason):
    advice = advise(ask(None, reason=reason, candidates=["100", "200"], ratio=0.5))
    assert advice.kind is Kind.ERROR and advice.reason is reason
    assert advice.candidates == ["100", "200"]
    assert advice.mp_hours is None and advice.ratio is None


def test_error_notes():
    assert advise(ask(reason=Reason.AMBIGUOUS)).notes == [Note.WHICH_NUMBER]
    slow = advise(ask(reason=Reason.RATIO_BELOW_ONE, ratio=0.8))
    assert slow.notes == [Note.SLOWDOWN] and slow.facts["ratio"] == 0.8
    assert advise(ask(reason=Reason.TOO_LONG)).facts["limit"] == MAX_MESSAGE_CHARS


def test_estimate_without_time_is_no_numbers():
    advice = advise(ask(None, ratio=2))
    assert advice.kind is Kind.ERROR and advice.reason is Reason.NO_NUMBERS


def test_help_and_language_choice():
    assert advise(Query(intent=Intent.HELP, lang=Lang.AR)).kind is Kind.HELP
    chosen = advise(Query(intent=Intent.SET_LANG, lang=Lang.EN, lang_choice=Lang.AR))
    assert chosen.kind is Kind.HELP
    assert chosen.notes == [Note.LANG_SET] and chosen.facts["lang"] == "ar"


def test_advice_numbers_are_finite():
    advice = advise(ask(876_000, ratio=estimate.MAX_RATIO))
    assert all(
        math.isfinite(v) for v in (advice.mp_hours, advice.saved_hours, advice.saved_percent)
    )
