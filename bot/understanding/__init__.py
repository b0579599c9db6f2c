"""Understanding: raw message text (as Slack delivers it) -> a typed Query."""

from bot.understanding.parse import understand

__all__ = ["understand"]
