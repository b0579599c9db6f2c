"""Held-out reading checks: messages written as users write them, each with its expected reading.

Each table has the format of the dev corpus (``tests/data/messages_dev.jsonl``:
``text``, ``channel``, ``lang`` and ``expect`` with ``kind`` and, where they
matter, ``fp32_hours``, ``ratio``, ``gpu``, ``model`` and ``reason``). The
messages were written before the bot read them, in English and Arabic (MSA and
dialects), and are never read by a test: they measure the reader on phrasing
it was not tuned on. The target (issue 21) is at least 97% right on each.

    python bench/reading_probe.py [TABLE.jsonl ...]   # every misread is listed
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the reader of this tree, not an installed one

from bot.conversation import answer, to_json
from bot.models import Channel

TABLES = sorted((ROOT / "bench" / "data").glob("reading_*.jsonl"))
TARGET = 0.97
KEYS = ("kind", "lang", "fp32_hours", "ratio", "gpu", "model", "reason")


def misread(case: dict) -> dict:
    """The keys the bot's answer gets wrong, each as (expected, got); empty when it reads right."""
    got = to_json(answer(case["text"], Channel(case["channel"])))
    expect = {**case["expect"], "lang": case["lang"]}
    wrong = {}
    for key in KEYS:
        if key not in expect:
            continue
        want, have = expect[key], got[key]
        numeric = isinstance(want, float | int) and isinstance(have, float | int)
        if numeric and math.isclose(want, have, abs_tol=1e-3) or want == have:
            continue
        wrong[key] = (want, have)
    return wrong


def score(path: Path) -> tuple[int, int]:
    """Print each misread of the table and its figure; return (right, total)."""
    cases = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    right = 0
    for case in cases:
        wrong = misread(case)
        right += not wrong
        if wrong:
            shown = ", ".join(
                f"{k}: {want!r} expected, {have!r} read" for k, (want, have) in wrong.items()
            )
            print(f"  miss {case['id']} [{case['channel']}] {case['text']!r}\n      {shown}")
    print(
        f"{path.name}: {right}/{len(cases)} = {right / len(cases):.1%} read right (target {TARGET:.0%})"
    )
    return right, len(cases)


def main(argv: list[str]) -> int:
    for path in [Path(arg) for arg in argv] or TABLES:
        score(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
