"""Messages per second through understand + advise + render, and p99 latency.

Runs every dev-corpus message through the full core pipeline on one core and
prints figures next to the issue's targets (>= 2,000 messages/s, p99 < 5 ms),
then the slowest kinds of message the cap still lets through (4,000
characters), next to a typical message timed in the same run.
A figure, not a test: these machines are noisy, so read it with that in mind.

    python bench/core_throughput.py [--rounds 20]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from bot.conversation import answer
from bot.models import MAX_MESSAGE_CHARS, Channel

# Repeating units that each keep one grammar path busy, cut to the cap.
_LARGEST_ACCEPTED = {
    "comma groups": "1,",
    "colons": ":a",
    "Arabic hours": "١٢٣ ساعة ",
    "broken mentions": "<@U1|",
    "number words": "and a half ",
    "ratios": "ratio 2 ",
}
_TYPICAL = "<@U012ABCDEF> my ResNet-50 run on 8 V100s takes 30 hours in FP32, AMP gives 2.1x"

_CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "messages_dev.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    cases = [json.loads(line) for line in _CORPUS.read_text(encoding="utf-8").splitlines() if line]
    messages = [(c["text"], Channel(c["channel"])) for c in cases]
    for text, channel in messages:  # warm caches (catalogs, data) outside the timing
        answer(text, channel)

    latencies: list[float] = []
    start = time.perf_counter()
    for _ in range(args.rounds):
        for text, channel in messages:
            t0 = time.perf_counter()
            answer(text, channel)
            latencies.append(time.perf_counter() - t0)
    elapsed = time.perf_counter() - start

    latencies.sort()
    rate = len(latencies) / elapsed
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
    print(f"messages: {len(latencies)} ({len(messages)} corpus x {args.rounds} rounds)")
    print(f"throughput: {rate:,.0f} messages/s (target >= 2,000; {rate / 2000:.2f}x target)")
    print(f"p50: {p50:.3f} ms   p99: {p99:.3f} ms (target < 5 ms; {p99 / 5:.2f} of target)")

    _print_largest_accepted()


def _best_ms(text: str, repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        answer(text, Channel.DM)
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def _print_largest_accepted() -> None:
    typical = _best_ms(_TYPICAL)
    print(f"largest accepted messages ({MAX_MESSAGE_CHARS:,} chars), best of 5:")
    print(f"  typical message: {typical:.3f} ms")
    for name, unit in _LARGEST_ACCEPTED.items():
        text = (unit * (MAX_MESSAGE_CHARS // len(unit) + 1))[:MAX_MESSAGE_CHARS]
        ms = _best_ms(text)
        print(f"  {name}: {ms:.2f} ms ({ms / typical:.0f}x typical)")


if __name__ == "__main__":
    main()
