"""The team's own measurements: drafts, validated ratios, and which ones match a setup.

Pure and storage-free: the store (``bot.store.records``) persists :class:`Record`
rows and the Slack layer wires commands to it. The one exception is
:mod:`bot.records.service`, which ties the commands to the store for every
transport and so does I/O.
"""

from bot.records.models import (
    Measure,
    Record,
    RecordDraft,
    StepTime,
    StepUnit,
    Throughput,
)
from bot.records.ratio import RecordReason, Validation, validate

__all__ = [
    "Measure",
    "Record",
    "RecordDraft",
    "RecordReason",
    "StepTime",
    "StepUnit",
    "Throughput",
    "Validation",
    "validate",
]
