"""One way to check a message's reading against a case table (hours, ratio, reason)."""

from __future__ import annotations

import pytest

from bot.models import Channel, Intent
from bot.understanding import understand


def check_reading(text, channel, hours, ratio, reason, candidates=None):
    """``reason`` "help" expects a help reading; otherwise an estimate with that
    reason code (or None), FP32 hours and ratio (None: absent), and the listed
    candidates when ``candidates`` is given."""
    q = understand(text, Channel(channel))
    if reason == "help":
        assert q.intent == Intent.HELP, q
        return
    assert q.intent == Intent.ESTIMATE, q
    assert (q.reason.value if q.reason else None) == reason, q
    if hours is None:
        assert q.fp32 is None, q
    else:
        assert q.fp32 is not None and q.fp32.hours == pytest.approx(hours), q
    assert q.ratio == (pytest.approx(ratio) if ratio is not None else None), q
    if candidates is not None:
        assert q.candidates == list(candidates), q
