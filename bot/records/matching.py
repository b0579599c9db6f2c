"""Which of the team's records speak for a setup.

A record matches when it agrees with everything the setup names: the same GPU
and model (or task family) when the setup names them, and no conflict in GPU
count, precision or baseline when both sides state them. A setup that names
no GPU, model or family matches nothing: a GPU count or precision alone does
not say which measurements apply. Closer matches come first, then newer ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

from bot.records.models import Record


class SetupLike(Protocol):
    """What matching reads from a setup (``bot.advice.prediction.Setup`` fits)."""

    gpu: str | None
    model: str | None
    family: str | None
    num_gpus: int | None
    precision: str | None
    baseline: str | None


def matching_records(records: Iterable[Record], setup: SetupLike) -> list[Record]:
    """The records that apply to ``setup``, most specific and newest first."""
    if not (setup.gpu or setup.model or setup.family):
        return []
    found = [r for r in records if _matches(r, setup)]
    found.sort(key=lambda r: (_agreements(r, setup), r.created_at, r.id), reverse=True)
    return found


def same_name(a: str | None, b: str | None) -> bool:
    """Names agree ignoring case, spaces and punctuation ("ResNet-50" is "resnet50")."""
    return a is not None and b is not None and _key(a) == _key(b)


def _matches(record: Record, setup: SetupLike) -> bool:
    if setup.gpu and not same_name(record.gpu, setup.gpu):
        return False
    if setup.model:
        if not same_name(record.model, setup.model):
            return False
    elif setup.family and not same_name(record.family, setup.family):
        return False
    return all(
        _compatible(getattr(record, name), getattr(setup, name))
        for name in ("num_gpus", "precision", "baseline")
    )


def _compatible(ours: object, theirs: object) -> bool:
    if ours is None or theirs is None:
        return True
    if isinstance(ours, str) and isinstance(theirs, str):
        return same_name(ours, theirs)
    return ours == theirs


def _agreements(record: Record, setup: SetupLike) -> int:
    """How many stated fields the record shares with the setup (ties go to newer)."""
    return sum(
        1
        for name in ("gpu", "model", "family", "num_gpus", "precision", "baseline")
        if getattr(setup, name) is not None
        and getattr(record, name) is not None
        and _compatible(getattr(record, name), getattr(setup, name))
    )


def _key(name: str) -> str:
    return re.sub(r"[\W_]+", "", name.casefold())
