"""One resolver: non-overlapping candidates chosen by explicit priorities.

Priorities (higher first), the order a reader of the message would use:

1. ``name`` (digits inside a name never become a value), then a ``memory``
   size written with the card,
2. ``count`` (a number with its noun, "500 steps", is that count),
3. ``step_time`` / ``throughput`` (a rate with its unit),
4. ``time`` and ``ratio`` (values),
5. ``ignored`` (chatter gives way to anything else).

Within one priority the longer span wins (it read more of the message). Two
overlapping candidates with the same priority and span length but different
values are a tie: both are reported in ``ties`` and the caller answers
``ambiguous``. The pass is one sort plus one sweep over the tokens each
candidate covers, so it stays n log n in the number of candidates.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.understanding.resolving.candidates import (
    COUNT,
    IGNORED,
    MEMORY,
    NAME,
    RATIO,
    STEP_TIME,
    THROUGHPUT,
    TIME,
    Candidate,
)

PRIORITIES = {
    NAME: 50,
    MEMORY: 45,
    COUNT: 40,
    STEP_TIME: 30,
    THROUGHPUT: 30,
    TIME: 20,
    RATIO: 20,
    IGNORED: 0,
}


@dataclass
class Resolution:
    chosen: list[Candidate] = field(default_factory=list)
    rejected: list[Candidate] = field(default_factory=list)
    ties: list[tuple[Candidate, Candidate]] = field(default_factory=list)

    def of_kind(self, kind: str) -> list[Candidate]:
        return [c for c in self.chosen if c.kind == kind]


def _rank(c: Candidate) -> tuple[int, int, int]:
    return (PRIORITIES.get(c.kind, 0) + c.priority, c.end - c.start, -c.start)


def resolve(candidates: list[Candidate]) -> Resolution:
    """Pick non-overlapping candidates, best rank first; report ties."""
    out = Resolution()
    if len(candidates) < 2:  # nothing can overlap
        out.chosen = list(candidates)
        return out
    taken: dict[int, Candidate] = {}  # token index -> the chosen candidate covering it
    for cand in sorted(candidates, key=_rank, reverse=True):
        clash = next((taken[k] for k in range(cand.start, cand.end) if k in taken), None)
        if clash is None:
            out.chosen.append(cand)
            taken.update(dict.fromkeys(range(cand.start, cand.end), cand))
            continue
        if _rank(clash)[:2] == _rank(cand)[:2] and clash.value != cand.value:
            out.ties.append((clash, cand))
        out.rejected.append(cand)
    out.chosen.sort(key=lambda c: c.start)
    return out
