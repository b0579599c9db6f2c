"""Text for a terminal: the reply without invisible bidi controls.

Replies carry Unicode isolates (U+2066-2069) around Latin runs in Arabic
lines, and Babel's amounts carry direction marks, so Slack lays them out
right. Many terminals draw them as boxes or marks, and a number copied from
the screen carries them along, so text written to a terminal leaves them out.
JSON output and Slack keep them: their readers lay the text out themselves.
"""

from __future__ import annotations

import re
from typing import TextIO

# Isolates (LRI, RLI, FSI, PDI), embeddings and overrides (LRE..RLO), and the
# marks (LRM, RLM, ALM).
BIDI_CONTROLS = re.compile("[\u2066-\u2069\u202a-\u202e\u200e\u200f\u061c]")


def without_bidi_controls(text: str) -> str:
    return BIDI_CONTROLS.sub("", text)


def for_terminal(text: str, stream: TextIO) -> str:
    """``text`` as ``stream`` should show it: bare when it is a terminal, as is otherwise."""
    try:
        interactive = stream.isatty()
    except (AttributeError, ValueError):  # a closed or stand-in stream
        interactive = False
    return without_bidi_controls(text) if interactive else text
