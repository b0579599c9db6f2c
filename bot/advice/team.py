"""The team's own measured ratios, first when any applies to the setup asked about."""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.advice.catalog import family_of_model
from bot.advice.ratio_types import (
    Basis,
    Factor,
    FactorNote,
    Prediction,
    Setup,
    TeamRecord,
    joined_names,
)

# Smallest half-width (multiplicative) of a range built from records: a user's own
# framework, data loader and batch rarely reproduce one run exactly.
MIN_SPREAD = 1.2


def _round(value: float) -> float:
    return round(value, 2)


def _matches(record: TeamRecord, setup: Setup) -> bool:
    """A record applies when it names what the setup names: the same GPU, and the
    same model (or, with no model named, the same task family); a stated GPU
    count, precision or baseline must not disagree (a 1-GPU run says little
    about 8 GPUs). Names on both sides are canonical ("resnet50" is read as
    "ResNet-50" when the record is taken)."""
    if setup.gpu and record.gpu != setup.gpu:
        return False
    if setup.model:
        if record.model != setup.model:
            return False
    elif setup.family:
        if (record.family or family_of_model(record.model)) != setup.family:
            return False
    elif not setup.gpu:
        return False  # a count or a precision alone says nothing about which runs apply
    stated = [
        (setup.num_gpus, record.num_gpus),
        (setup.precision, record.precision),
        (setup.baseline, getattr(record, "baseline", None)),
    ]
    return not any(mine and theirs and mine != theirs for mine, theirs in stated)


# Factors that describe the user's setup rather than the published evidence.
_SETUP_FACTORS = frozenset({Factor.MULTI_GPU, Factor.PRECISION, Factor.FAMILY_PRIOR})


def team_prediction(
    setup: Setup, records: Sequence[TeamRecord], reference: Prediction
) -> Prediction | None:
    """The team's own ratios for this setup; runs on the same GPU count come
    before runs that did not say theirs."""
    matching = [r for r in records if r.ratio > 0 and _matches(r, setup)]
    if setup.num_gpus:
        same_count = [r for r in matching if r.num_gpus == setup.num_gpus]
        matching = same_count or matching
    if not matching:
        return None
    logs = [math.log(r.ratio) for r in matching]
    point = math.exp(sum(logs) / len(logs))
    low, high = (
        min(math.exp(min(logs)), point / MIN_SPREAD),
        max(math.exp(max(logs)), point * MIN_SPREAD),
    )
    return reference.model_copy(
        update={
            "ratio": _round(point),
            "low": _round(low),
            "high": _round(high),
            "basis": Basis.TEAM,
            "sources": [],
            # Notes about published rows (their match, their batches) stay on the reference.
            "factors": [
                FactorNote(
                    code=Factor.TEAM_RECORDS,
                    params={
                        "n": len(matching),
                        "ratio": _round(point),
                        # What was measured, so a V100-only question answered from
                        # ResNet-50 runs says so.
                        "models": joined_names(r.model for r in matching),
                        "gpus": joined_names(r.gpu for r in matching),
                    },
                ),
                *[f for f in reference.factors if f.code in _SETUP_FACTORS],
            ],
            "named": True,
            "reference": reference,
        }
    )
