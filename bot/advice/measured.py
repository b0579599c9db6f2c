"""Published tuned rows for the model a user named, moved to the user's GPU count and batch.

When a benchmark table measured the very model on the very GPU, its figures
are the tuned figure (the fit's per-model offset is shrunk and would blur
Tacotron 2's 0.84x on A100 into a gain). The rows at the user's framework speak,
each moved to the user's GPU count and batch by the fitted slopes, and each source
(one table) counts once: the median of its rows, then the median over sources.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import median

from bot.advice.catalog import TUNED, Measurement
from bot.advice.features import batch_change, framework_key
from bot.advice.ratio_model import Model

MAX_SOURCES = 5


@dataclass(frozen=True)
class Match:
    """The rows that matched, their adjusted log median, and what picked them."""

    rows: tuple[Measurement, ...]
    log_ratio: float
    framework_matched: bool | None  # None: no framework named


def is_3d(published_model: str) -> bool:
    """ "3D U-Net", "nnU-Net 3D": a published model on volumes."""
    return re.search(r"\b3d\b", published_model, re.IGNORECASE) is not None


def _source(url: str) -> str:
    return url.split("#", 1)[0]


def _at_count(rows: Sequence[Measurement], num_gpus: int) -> list[Measurement]:
    """Each source's rows at the user's GPU count where it measured that count, else all
    of its rows (moved there by the fitted slope): scaling is not always smooth (NCF on
    8x A100 0.81x against 1.07-1.54x on fewer), so a table's own figure at the count
    comes first."""
    by_source: dict[str, list[Measurement]] = {}
    for m in rows:
        by_source.setdefault(_source(m.source_url), []).append(m)
    out = []
    for mine in by_source.values():
        same = [m for m in mine if (m.num_gpus or 1) == num_gpus]
        out += same or mine
    return out


def _per_source(rows: Sequence[Measurement], adjusted: Sequence[float]) -> float:
    """The median over sources of each source's median: one table that measured many
    configurations (NVIDIA's BERT at 1 to 256 GPUs) weighs what a table of a few does,
    and one source's odd row (Lambda's 8x A100 BERT-large, 2.97x against its 2.0-2.3x
    on fewer GPUs) does not answer for every other source's setups."""
    by_source: dict[str, list[float]] = {}
    for m, value in zip(rows, adjusted, strict=True):
        by_source.setdefault(_source(m.source_url), []).append(value)
    return median(median(values) for values in by_source.values())


def match(
    model_name: str,
    gpu: str,
    baseline: str,
    *,
    rows: Iterable[Measurement],
    model: Model,
    num_gpus: int | None = None,
    framework: str | None = None,
    batch: float | None = None,
    dimensions: int | None = None,
) -> Match | None:
    """The tuned rows of this model on this GPU and baseline, adjusted; None when none."""
    rows = [
        m
        for m in rows
        if m.level == TUNED and m.model == model_name and m.gpu == gpu and m.baseline == baseline
    ]
    if dimensions in (2, 3):
        # A 3D U-Net (volumes) runs 3.2-4.0x on V100 where the 2D U-Nets run 0.9-3.1x.
        same = [m for m in rows if is_3d(m.published_model) == (dimensions == 3)]
        rows = same or rows
    if not rows:
        return None
    matched = None
    if framework:
        # BERT on A100: TF1 1.67x, PyTorch 1.84x, PaddlePaddle 2.29x: the user's own first.
        same = [m for m in rows if framework_key(m.framework) == framework_key(framework)]
        matched, rows = bool(same), same or rows
    if num_gpus:
        rows = _at_count(rows, num_gpus)
    adjusted = []
    for m in rows:
        shift = 0.0
        if num_gpus and m.num_gpus:
            shift += model.term("gpus") * (math.log2(num_gpus) - math.log2(m.num_gpus))
        theirs = batch_change(m.batch_fp32, m.batch_amp)
        if batch is not None and theirs is not None:
            shift += model.term("batch") * (batch - theirs)
        adjusted.append(math.log(m.speedup or 1.0) + shift)
    return Match(tuple(rows), _per_source(rows, adjusted), matched)


def sources(rows: Iterable[Measurement]) -> list[str]:
    """The most-cited table lines first."""
    counts: dict[str, int] = {}
    for m in rows:
        counts[m.source_url] = counts.get(m.source_url, 0) + 1
    return sorted(counts, key=lambda url: -counts[url])[:MAX_SOURCES]
