"""The practice measurements (what users saw in their own projects) stay usable as evidence.

The file is read by the prediction and its evaluation; these checks guard its shape and
value ranges, and that it keeps the slowdowns and no-gain cases it exists to record.
"""

import csv
import math
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "bot" / "advice" / "data" / "practice_measurements.csv"

COLUMNS = [
    "gpu",
    "gpu_count",
    "model",
    "model_family",
    "framework",
    "precision",
    "baseline",
    "batch_fp32",
    "batch_amp",
    "reported",
    "measure",
    "ratio",
    "conversion",
    "source_url",
    "setup_issue",
    "notes",
]
FAMILIES = {
    "cnn",
    "transformer/nlp",
    "detection",
    "segmentation",
    "speech",
    "gan",
    "rnn",
    "diffusion",
    "mlp",
    "other",
}
MEASURES = {"throughput", "step_time", "epoch_time", "total_time", "percent_claim"}
CONVERSIONS = {
    "time_ratio",
    "rate_ratio",
    "stated_ratio",
    "pct_faster",
    "pct_slower",
    "pct_less_time",
    "per_sample_rate_ratio",
    "per_sample_time_ratio",
}


@pytest.fixture(scope="module")
def rows():
    with DATA.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        assert reader.fieldnames == COLUMNS
        return list(reader)


def test_has_enough_rows(rows):
    assert len(rows) >= 60


def test_every_row_has_a_source_url(rows):
    assert all(row["source_url"].startswith("https://") for row in rows)


def test_ratios_are_positive_and_finite(rows):
    for row in rows:
        ratio = float(row["ratio"])
        assert math.isfinite(ratio) and ratio > 0, row


def test_categorical_columns_use_the_documented_values(rows):
    for row in rows:
        assert row["model_family"] in FAMILIES, row
        assert row["measure"] in MEASURES, row
        assert row["conversion"] in CONVERSIONS, row
        assert row["precision"] in {"fp16", "bf16"}, row
        assert row["baseline"] in {"fp32", "tf32", "fp32?"}, row
        assert row["setup_issue"] in {"yes", "no"}, row
        assert int(row["gpu_count"]) >= 1, row


def test_every_row_quotes_what_was_reported(rows):
    assert all(row["reported"].strip() and row["gpu"].strip() for row in rows)


def test_keeps_slowdowns_and_no_gain_cases(rows):
    low = [row for row in rows if float(row["ratio"]) < 1.05]
    assert len(low) >= 10
    assert any(float(row["ratio"]) < 1.0 for row in rows)
