"""Ratio arithmetic and the reasons a measurement is refused."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.records import RecordDraft, RecordReason, StepTime, Throughput, validate
from bot.records.models import Measure, StepUnit


def draft(**values) -> RecordDraft:
    return RecordDraft(gpu="A100", **values)


def test_step_times_give_fp32_over_mixed():
    checked = validate(draft(fp32_step=StepTime(value=420), mixed_step=StepTime(value=190)))
    assert checked.ok and checked.measure is Measure.STEP_TIME
    assert checked.ratio == pytest.approx(420 / 190)


def test_step_time_units_are_converted():
    checked = validate(
        draft(
            fp32_step=StepTime(value=0.42, unit=StepUnit.SECONDS),
            mixed_step=StepTime(value=190_000, unit=StepUnit.MICROSECONDS),
        )
    )
    assert checked.ratio == pytest.approx(420 / 190)


def test_throughputs_give_mixed_over_fp32():
    checked = validate(
        draft(
            fp32_throughput=Throughput(value=367, unit="img/s"),
            mixed_throughput=Throughput(value=1200, unit="img/s"),
        )
    )
    assert checked.measure is Measure.THROUGHPUT
    assert checked.ratio == pytest.approx(1200 / 367)


def test_a_stated_ratio_is_taken_as_is_and_slowdowns_are_kept():
    assert validate(draft(ratio=1.9)).ratio == 1.9
    assert validate(draft(ratio=0.84)).ratio == 0.84  # Tacotron 2 on A100 got slower


@given(
    fp32=st.floats(min_value=1e-3, max_value=1e4),
    speedup=st.floats(min_value=0.25, max_value=15),
)
def test_step_times_and_throughputs_agree(fp32, speedup):
    """The same run written as step times or as throughputs has the same ratio."""
    mixed = fp32 / speedup
    by_time = validate(draft(fp32_step=StepTime(value=fp32), mixed_step=StepTime(value=mixed)))
    by_rate = validate(
        draft(
            fp32_throughput=Throughput(value=1 / fp32), mixed_throughput=Throughput(value=1 / mixed)
        )
    )
    assert by_time.ratio == pytest.approx(speedup, rel=1e-9)
    assert by_rate.ratio == pytest.approx(speedup, rel=1e-9)


@pytest.mark.parametrize(
    ("values", "reason"),
    [
        ({"fp32_step": StepTime(value=420)}, RecordReason.MISSING_PAIR),
        (
            {"fp32_step": StepTime(value=420), "mixed_throughput": Throughput(value=3)},
            RecordReason.MISSING_PAIR,
        ),
        (
            {"fp32_step": StepTime(value=0), "mixed_step": StepTime(value=3)},
            RecordReason.NOT_POSITIVE,
        ),
        ({"ratio": -2.0}, RecordReason.NOT_POSITIVE),
        ({"ratio": math.nan}, RecordReason.NOT_FINITE),
        (
            {"fp32_step": StepTime(value=math.inf), "mixed_step": StepTime(value=3)},
            RecordReason.NOT_FINITE,
        ),
        ({"ratio": 0.19}, RecordReason.IMPLAUSIBLE),
        ({"ratio": 20.5}, RecordReason.IMPLAUSIBLE),
        (
            {
                "fp32_throughput": Throughput(value=400, unit="img/s"),
                "mixed_throughput": Throughput(value=900, unit="tokens/s"),
            },
            RecordReason.UNIT_MISMATCH,
        ),
        (
            {"fp32_step": StepTime(value=420), "mixed_step": StepTime(value=190), "ratio": 3.0},
            RecordReason.INCONSISTENT,
        ),
    ],
)
def test_refusals_have_stable_reasons(values, reason):
    checked = validate(draft(**values))
    assert not checked.ok and checked.ratio is None
    assert checked.reasons == (reason,)


def test_the_plausible_band_is_inclusive():
    assert validate(draft(ratio=0.2)).ok and validate(draft(ratio=20)).ok


def test_a_rounded_stated_ratio_next_to_its_numbers_is_fine():
    checked = validate(
        draft(fp32_step=StepTime(value=420), mixed_step=StepTime(value=190), ratio=2.2)
    )
    assert checked.ok and checked.ratio == pytest.approx(2.2105, rel=1e-3)


def test_every_problem_is_reported_at_once():
    checked = validate(RecordDraft(ratio=25.0))
    assert checked.reasons == (RecordReason.MISSING_SETUP, RecordReason.IMPLAUSIBLE)
    assert validate(RecordDraft()).reasons == (
        RecordReason.MISSING_SETUP,
        RecordReason.MISSING_PAIR,
    )
