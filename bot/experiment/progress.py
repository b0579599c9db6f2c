"""A one-line progress bar on stderr, drawn only for a person at a terminal.

Logs and ``--json`` pipes stay clean: when stderr is not a terminal nothing
is drawn. (No progress-bar library is a dependency; this is a dozen lines.)
"""

from __future__ import annotations

import sys
from typing import TextIO


class Progress:
    def __init__(self, total: int, stream: TextIO | None = None, width: int = 30) -> None:
        self.total, self.done, self.width = max(total, 1), 0, width
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.label = ""

    def phase(self, label: str) -> None:
        self.label = label
        self._draw()

    def tick(self) -> None:
        self.done = min(self.done + 1, self.total)
        self._draw()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * (self.width + 60) + "\r")
            self.stream.flush()

    def _draw(self) -> None:
        if not self.enabled:
            return
        filled = self.width * self.done // self.total
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} {self.label:<28.28}")
        self.stream.flush()
