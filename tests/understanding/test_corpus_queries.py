"""Every dev corpus case, read at the Query level (independent of advice and rendering).

The kind is derived from the query the way the data README defines it:
a reason is an error, HELP is help, a ratio makes an estimate, a named GPU or
model a preset, and a time alone a range.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.models import Channel, Intent, Query
from bot.understanding import understand

_TESTS = Path(__file__).resolve().parent.parent
_SHARED = _TESTS.parent.parent / "shared" / "data" / "messages_dev.jsonl"
_CORPUS = _SHARED if _SHARED.exists() else _TESTS / "data" / "messages_dev.jsonl"
CASES = [json.loads(line) for line in _CORPUS.read_text(encoding="utf-8").splitlines() if line]


def kind_of(q: Query) -> str:
    if q.reason is not None:
        return "error"
    if q.intent == Intent.HELP:
        return "help"
    if q.ratio is not None:
        return "estimate"
    if q.gpu or q.model:
        return "preset"
    return "range"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict) -> None:
    q = understand(case["text"], Channel(case["channel"]))
    expect = case["expect"]
    got = q.model_dump(mode="json")
    assert kind_of(q) == expect["kind"], (case["text"], got)
    assert q.lang.value == case["lang"], (case["text"], got)
    if "fp32_hours" in expect:
        assert q.fp32 is not None and q.fp32.hours == pytest.approx(expect["fp32_hours"], abs=1e-3)
    if "ratio" in expect:
        assert q.ratio == pytest.approx(expect["ratio"], abs=1e-3), (case["text"], got)
    for key in ("gpu", "model", "reason"):
        if key in expect:
            assert got[key] == expect[key], (case["text"], key, got)


def test_corpus_is_complete() -> None:
    assert len(CASES) >= 160
