"""Times written with a colon, a glued minute part, a decimal comma or an error
bar; a deadline someone needs met; a list of epoch times.

"36:30 hours" is 36.5 h (an hour word after H:MM makes it a duration; "10:30"
alone stays a clock time). "36h30" is 36.5 h. "+/-" and "+-" are "±". "1,5 days"
is 1.5 days (one comma, one or two digits), "1,200" stays 1200. A duration
someone needs or must meet ("need it done in 40h", "لازم يخلص خلال") is a
deadline, never the FP32 time (convention 4).

(text, channel, FP32 hours or None, ratio or None, reason or None, candidates).
"""

import pytest
from readings import check_reading

CASES = [
    ("fp32 takes 36:30 hours, ratio 2", "mention", 36.5, 2, None),
    ("fp32 36:30h, ratio 2", "mention", 36.5, 2, None),
    ("التدريب بالـ fp32 ياخذ ٣٦:٣٠ ساعة، والنسبة ٢", "mention", 36.5, 2, None),
    ("36h30 2", "command", 36.5, 2, None),
    ("fp32 takes 36h30, ratio 2", "mention", 36.5, 2, None),
    # A clock time without an hour word is no duration.
    ("fp32 takes 36h, started at 10:30, ratio 2", "mention", 36, 2, None),
    # Error bars.
    ("fp32 takes 36h +/- 2h, ratio 2", "mention", 36, 2, None),
    ("fp32 takes 36h +- 2h, ratio 2", "mention", 36, 2, None),
    ("fp32 takes 36h±2h, ratio 2", "mention", 36, 2, None),
    # Deadlines.
    ("fp32 run takes 60h, we need it done in 40h, ratio 1.8", "mention", 60, 1.8, None),
    ("fp32 takes 60h and we need it in 40h, ratio 1.8", "mention", 60, 1.8, None),
    ("fp32 takes 60h, it has to finish in 2 days, ratio 1.8", "mention", 60, 1.8, None),
    ("fp32 takes 60h, it has to finish within 2 days, ratio 1.8", "mention", 60, 1.8, None),
    (
        "التدريب بالـ fp32 ياخذ ٦٠ ساعة ولازم يخلص خلال ٤٠ ساعة، النسبة ١٫٨",
        "mention",
        60,
        1.8,
        None,
    ),
    ("التدريب بالـ fp32 ياخذ ٦٠ ساعة ونحتاجه خلال يومين، النسبة ١٫٨", "mention", 60, 1.8, None),
    ("التدريب بالـ fp32 ياخذ ٦٠ ساعة ونحتاجه في يومين، النسبة ١٫٨", "mention", 60, 1.8, None),
    # ... while "done in 40h" with no need is the run's own time.
    ("the fp32 run is done in 40h, ratio 2", "mention", 40, 2, None),
    # Decimal commas.
    ("fp32 takes 1,5 days, ratio 2", "mention", 36, 2, None),
    ("fp32 takes ١,٥ days, ratio 2", "mention", 36, 2, None),
    ("fp32 takes 2,50 hours, ratio 2", "mention", 2.5, 2, None),
    ("fp32 takes 1,200 hours, ratio 2", "mention", 1200, 2, None),
    ("fp32 takes 36 hours, ratio 1,8", "mention", 36, 1.8, None),
]


@pytest.mark.parametrize(("text", "channel", "hours", "ratio", "reason"), CASES)
def test_reading(text, channel, hours, ratio, reason) -> None:
    check_reading(text, channel, hours, ratio, reason, candidates=())


def test_listed_epoch_times_add_up() -> None:
    """Epochs run one after another, so the times listed for them add up to the
    run's FP32 time, as a compound's pieces do (convention 2) and as one epoch's
    time times the epoch count does: 10+11+12+10+11+13+12+10+11 = 100 h. The
    word "epochs" is what says they are sequential parts of one run."""
    text = "fp32 epochs took 10, 11, 12, 10, 11, 13, 12, 10, 11 hours"
    check_reading(text, "mention", 100, None, None, candidates=())
    check_reading(text + ", ratio 2", "mention", 100, 2, None, candidates=())
    check_reading(
        "fp32 took 10, 11 and 12 hours per epoch, ratio 2", "mention", 33, 2, None, candidates=()
    )
    check_reading(
        "الحقب بالـ fp32 أخذت ١٠، ١١، ١٢ ساعة، والنسبة ٢", "mention", 33, 2, None, candidates=()
    )


def test_listed_times_of_nothing_are_all_candidates() -> None:
    """Without epochs the listed times may be runs or GPUs: which one is the FP32
    time cannot be known, so every one is offered (convention 11)."""
    check_reading(
        "fp32 runs took 10, 11, 12 hours",
        "mention",
        None,
        None,
        "ambiguous",
        candidates=["10", "11", "12"],
    )
    # Two numbers and a comma are no list: "ratio 2, 36 hours".
    check_reading("ratio 2, 36 hours fp32", "mention", 36, 2, None, candidates=())
