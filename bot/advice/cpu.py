"""Mixed precision on a CPU: rule ``cpu_device`` (docs/advice.md).

The ratio model is fitted on GPU runs; none of its evidence speaks for a CPU,
where the gain hangs on one fact the message rarely gives: whether the CPU has
BF16 instructions. So the answer is its own, from ``data/cpu_device.toml``: no
gain to count on, a range from the slowdowns reported without the instructions
to the gains published with them, and the one-line check that tells which.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from bot.advice.ratio_types import Basis, Factor, FactorNote, Prediction, ProjectsRange, Setup

DATA = Path(__file__).parent / "data" / "cpu_device.toml"


@cache
def _data() -> dict:
    with DATA.open("rb") as f:
        return tomllib.load(f)


def cpu_prediction(setup: Setup) -> Prediction:
    """The CPU's answer; every run it stands on is a reported one, so the projects'
    range is the same. The precision is BF16 unless the user said otherwise."""
    data = _data()
    ratio, low, high = data["ratio"], data["low"], data["high"]
    precision = (setup.precision or data["precision"]).lower()
    gain_low, gain_high = data["gain_with_instructions"]
    params = {"precision": precision, "gain_low": gain_low, "gain_high": gain_high}
    return Prediction(
        named=True,
        ratio=ratio,
        low=low,
        high=high,
        basis=Basis.REPORTED,
        precision=precision,
        baseline="fp32",
        sources=list(data["sources"]),
        factors=[FactorNote(code=Factor.CPU_DEVICE, params=params)],
        projects=ProjectsRange(ratio=ratio, low=low, high=high),
    )
