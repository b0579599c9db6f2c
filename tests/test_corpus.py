"""Every message of the dev corpus is read and answered as expected.

The corpus ships in ``tests/data``; where ``../shared`` exists its copy is
used instead, so a newer corpus is picked up without a commit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel

_HERE = Path(__file__).parent
_SHARED = _HERE.parent.parent / "shared" / "data" / "messages_dev.jsonl"
_CORPUS = _SHARED if _SHARED.exists() else _HERE / "data" / "messages_dev.jsonl"
CASES = [json.loads(line) for line in _CORPUS.read_text(encoding="utf-8").splitlines() if line]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_corpus_case(case: dict) -> None:
    got = to_json(answer(case["text"], Channel(case["channel"])))
    expect = case["expect"]
    assert got["kind"] == expect["kind"], (case["text"], got)
    assert got["lang"] == case["lang"], (case["text"], got)
    for key in ("fp32_hours", "ratio"):
        if key in expect:
            assert got[key] == pytest.approx(expect[key], abs=1e-3), (case["text"], key, got)
    for key in ("gpu", "model", "reason"):
        if key in expect:
            assert got[key] == expect[key], (case["text"], key, got)
    assert got["text"].strip(), "every answer has words"


def test_corpus_is_the_full_dev_set() -> None:
    assert len(CASES) >= 160
