"""Rule measured_pair_for_job: a small FP32-vs-mixed experiment and the job to
estimate in one message: the pair gives the ratio, the third time is the job's."""

from __future__ import annotations

import pytest

from bot.models import Channel
from bot.understanding.parse import understand
from tests.understanding.readings import check_reading


@pytest.mark.parametrize(
    ("text", "hours", "ratio"),
    [
        ("fp32: 12h / amp: 7h, how much for 100h job?", 100, 12 / 7),
        (
            "on a small run fp32 took 2 hours and amp took 1 hour; the full training is 100 hours",
            100,
            2,
        ),
        ("جربت ساعتين بالـfp32 و٧٠ دقيقة مع amp، كم للتدريب الكامل ١٠٠ ساعة؟", 100, 120 / 70),
        (
            "في تجربة صغيرة: fp32 أخذ ١٢ ساعة والـbf16 أخذ ٧ ساعات. التدريب الكامل ٢٠٠ ساعة",
            200,
            12 / 7,
        ),
    ],
)
def test_a_measured_pair_estimates_the_job_named_beside_it(text, hours, ratio):
    check_reading(text, "dm", hours, ratio, None)
    assert understand(text, Channel.DM).read_by["ratio"][0] == "measured_pair_for_job"


def test_three_times_without_precisions_are_still_asked_about():
    check_reading("10h 20h 30h", "dm", None, None, "ambiguous")
