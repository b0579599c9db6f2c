"""Memory-fit questions across full fine-tune, LoRA, QLoRA, inference and sharding, in
English and Arabic (MSA and dialects), with verdicts worked out by hand (the ``why`` of
each row in tests/data/memory_verdicts.jsonl): read, advised and answered end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel

ROWS = [
    json.loads(line)
    for line in (Path(__file__).parent.parent / "data" / "memory_verdicts.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.strip()
]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["text"][:48])
def test_the_verdict_is_the_one_worked_out_by_hand(row):
    got = to_json(answer(row["text"], Channel.DM))
    assert got["kind"] == "memory", got["text"]
    assert got["memory"]["fits"] is row["fits"], (row["why"], got["text"])
    if "gpus_needed" in row:
        assert got["memory"]["gpus_needed"] == row["gpus_needed"]


def test_the_table_covers_every_method_and_both_languages():
    methods = set()
    for row in ROWS:
        methods.add(to_json(answer(row["text"], Channel.DM))["memory"]["method"])
    assert methods == {"full", "lora", "qlora", "inference"}
    arabic = [r for r in ROWS if any("\u0600" <= c <= "\u06ff" for c in r["text"])]
    assert len(arabic) >= 15 and len(ROWS) - len(arabic) >= 30
    assert sum(r["fits"] for r in ROWS) >= 20 and sum(not r["fits"] for r in ROWS) >= 20
