"""Real projects' level: Amdahl's law over the tuned figure, its share fitted by source."""

from __future__ import annotations

import math

import pytest

from bot.advice.catalog import PRACTICE, gpu_spec
from bot.advice.features import Job
from bot.advice.prediction import Setup, predict
from bot.advice.ratio_model import (
    PRIOR_SOURCES,
    Row,
    amdahl,
    practice_share,
    share_of,
)


def test_a_share_of_1_keeps_the_tuned_figure_and_0_gives_1x():
    assert amdahl(math.log(3.0), 1.0) == pytest.approx(math.log(3.0))
    assert amdahl(math.log(3.0), 0.0) == pytest.approx(0.0)
    # Half the time sped up 3x: 1 / (0.5 + 0.5 / 3) = 1.5x.
    assert math.exp(amdahl(math.log(3.0), 0.5)) == pytest.approx(1.5)


def test_share_of_inverts_amdahl_and_clips_slowdowns_to_no_gain():
    assert share_of(math.log(4.0), amdahl(math.log(4.0), 0.3)) == pytest.approx(0.3)
    assert share_of(math.log(4.0), math.log(0.5)) == 0.0  # a slowdown: nothing sped up
    assert share_of(math.log(1.01), math.log(1.0)) is None  # any share fits about 1x


def _row(source: str, gpu: str, tuned: float, share: float) -> tuple[Row, float]:
    job = Job(spec=gpu_spec(gpu), level=PRACTICE)
    return Row(job, amdahl(tuned, share), source, None), tuned  # type: ignore[arg-type]


def test_each_source_counts_once_and_the_pooled_share_is_pulled_towards_no_gap():
    tuned = math.log(3.0)
    # One thread with 20 slow rows, four with one row each at share 0.5.
    rows = [_row("big", "V100", tuned, 0.0) for _ in range(20)]
    rows += [_row(f"s{k}", "A100", tuned, 0.5) for k in range(4)]
    got = practice_share(rows)
    sources = 5
    median_share = 0.5  # the medians per source: 0, 0.5, 0.5, 0.5, 0.5
    assert got.pooled == pytest.approx(
        1.0 + (median_share - 1.0) * sources / (sources + PRIOR_SOURCES)
    )
    # V100's own share (one source saw 0) is pulled towards its segment's.
    assert 0.0 < got.at(gpu_spec("V100")) < got.per_segment["datacenter"] < got.pooled
    assert got.at(None) == got.pooled  # no GPU named


def test_the_spec_file_says_each_gpus_segment():
    assert gpu_spec("RTX 3090").segment == "consumer"
    assert gpu_spec("TITAN V").segment == "consumer"
    assert gpu_spec("RTX A6000").segment == "workstation"
    # Named in practice threads ("Quadro RTX 8000 / RTX 2080 Ti"): a known Turing card.
    quadro = gpu_spec("Quadro RTX 8000")
    assert quadro.segment == "workstation" and quadro.tensor_cores
    assert gpu_spec("RTX 8000") == quadro
    assert gpu_spec("A100").segment == gpu_spec("T4").segment == "datacenter"


def test_a_segment_keeps_its_own_share_and_an_unmeasured_gpu_of_it_gets_that():
    tuned = math.log(3.0)
    rows = [_row(f"desk{k}", "RTX 3090", tuned, 0.1) for k in range(6)]
    rows += [_row(f"dc{k}", "A100", tuned, 0.7) for k in range(6)]
    got = practice_share(rows)
    consumer, datacenter = got.per_segment["consumer"], got.per_segment["datacenter"]
    assert consumer < got.pooled < datacenter
    assert got.at(gpu_spec("RTX 4070")) == consumer  # no project on it: its segment's
    assert got.at(gpu_spec("H100")) == datacenter
    # Shrunk towards the pooled share, as if PRIOR_SOURCES sources had measured that.
    assert consumer == pytest.approx(got.pooled + (0.1 - got.pooled) * 6 / (6 + PRIOR_SOURCES))


def test_a_tensor_core_gpu_is_never_predicted_a_slowdown_and_the_gap_grows_with_the_tuned_figure():
    v100_bert = predict(Setup(gpu="V100", model="BERT"))
    a100_resnet = predict(Setup(gpu="A100", model="ResNet-50"))
    for p in (v100_bert, a100_resnet):
        assert p.projects is not None and 1.0 <= p.projects.ratio < p.ratio == p.tuned
    gap = {k: p.ratio / p.projects.ratio for k, p in (("v", v100_bert), ("a", a100_resnet))}
    assert gap["v"] > gap["a"]
