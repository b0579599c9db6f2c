"""Typed candidates: what one rule read, where, and as what.

Every newer rule emits :class:`Candidate` values instead of overwriting token
roles; :mod:`bot.understanding.resolving.resolve` then picks the ones that hold
together. A candidate keeps the rule's name so a reading can explain itself
(``mpbot ask --explain``, the Details line, ``Query.readings``).
"""

from __future__ import annotations

from dataclasses import dataclass

# Kinds of value a candidate can be.
TIME = "time"  # an FP32 training time, in hours
RATIO = "ratio"  # a reduction ratio (FP32 time / mixed time)
COUNT = "count"  # a count that is never a value (steps, GPUs, epochs)
STEP_TIME = "step_time"  # seconds per step, with a precision
THROUGHPUT = "throughput"  # work per second (it/s, samples/s), with a precision
NAME = "name"  # a GPU or model name, or digits inside one (ResNeXt-101 32x8d)
MEMORY = "memory"  # a GPU memory size written with the card (A100 40GB, a 24GB 4090)
PRICE = "price"  # money ($3/h, ٥٠ دينار): the price of the run
SETUP = "setup"  # a number that describes the setup: a date, clock time, id, dimension
VALUE = "value"  # a number a setup rule leaves to the time and ratio rules (8 hours, 2x)
IGNORED = "ignored"  # chatter and noise around a command


@dataclass(slots=True)
class Candidate:
    """One reading of tokens ``start``..``end`` (exclusive) by rule ``rule``.

    ``priority``: higher wins an overlap (see resolve.PRIORITIES); ``text`` is
    the span as written (normalised), for explanations.
    """

    kind: str
    start: int
    end: int
    value: float | str
    rule: str
    text: str = ""
    priority: int = 0
    precision: str = ""  # "fp32" or "mixed" for step times and throughputs
    role: str = ""  # the role the tokens of a chosen candidate take ("gpu", "model", ...)

    def overlaps(self, other: Candidate) -> bool:
        return self.start < other.end and other.start < self.end

    def mark(self, tokens: list, *, keep_roles: bool = False) -> None:
        """Give the tokens of this (chosen) candidate its role and rule, so the
        passes that come later never read them again (``keep_roles``: a token an
        earlier pass marked keeps its role)."""
        for tok in tokens[self.start : self.end]:
            if keep_roles and tok.role:
                continue
            tok.role = self.role or self.kind
            tok.extra["rule"] = self.rule

    def describe(self) -> str:
        """ "0.9 s/it -> step_time 0.9 (step_rate, fp32)": one line for --explain."""
        value = f"{self.value:g}" if isinstance(self.value, float) else str(self.value)
        extra = f", {self.precision}" if self.precision else ""
        return f"{self.text or '?'} -> {self.kind} {value} ({self.rule}{extra})"
