"""Memory-fit verdicts: the bot beside the old 16-bytes rule, on hand-worked questions.

Four tables of questions in English and Arabic (MSA and dialects) across full
fine-tune, LoRA, QLoRA, 8-bit optimizers, inference and sharding, each with the
verdict worked out by hand: ``tests/data/memory_verdicts.jsonl`` (the test table),
``bench/data/memory_verdicts_heldout.jsonl`` (written before the bot was run on
it) and ``bench/data/memory_verdicts_heldout2.jsonl`` (a second set written before
the memory code was read) and ``bench/data/memory_verdicts_heldout3.jsonl`` (a
third, likewise written before the bot answered it). The baseline, measured in the same run on the same readings, is the rule
the bot used before: Adam's 16 bytes per parameter for any method, split across
the GPUs named, fitting within 80% of the card. Target (issue 19): >= 95% right.

    python bench/memory_verdicts.py
"""

from __future__ import annotations

import json
from pathlib import Path

from bot.conversation import answer, to_json
from bot.models import Channel

ROOT = Path(__file__).resolve().parent.parent
TABLES = {
    "test table": ROOT / "tests" / "data" / "memory_verdicts.jsonl",
    "held-out": ROOT / "bench" / "data" / "memory_verdicts_heldout.jsonl",
    "held-out 2": ROOT / "bench" / "data" / "memory_verdicts_heldout2.jsonl",
    "held-out 3": ROOT / "bench" / "data" / "memory_verdicts_heldout3.jsonl",
}
TARGET = 0.95


def old_rule(memory: dict | None) -> bool | None:
    """16 bytes per parameter whatever the method, sharded over the GPUs named, 80% usable."""
    if not memory or not memory.get("gpu_memory_gb"):
        return None
    states = memory["params"] * 16 / 1e9 / memory["num_gpus"]
    return states <= 0.8 * memory["gpu_memory_gb"]


def score(path: Path) -> tuple[int, int, int, list[str]]:
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    bot = rule = 0
    misses = []
    for row in rows:
        got = to_json(answer(row["text"], Channel.DM))
        memory = got.get("memory") if got["kind"] == "memory" else None
        right = memory is not None and memory["fits"] is row["fits"]
        bot += right
        rule += old_rule(memory) is row["fits"]
        if not right:
            misses.append(f"  miss: {row['text']} (kind {got['kind']})")
    return bot, rule, len(rows), misses


def main() -> None:
    for name, path in TABLES.items():
        bot, rule, n, misses = score(path)
        print(
            f"{name:10}  {n} questions  bot {bot}/{n} = {bot / n:.0%}  "
            f"old 16-byte rule {rule}/{n} = {rule / n:.0%}  target {TARGET:.0%}"
        )
        for miss in misses:
            print(miss)


if __name__ == "__main__":
    main()
