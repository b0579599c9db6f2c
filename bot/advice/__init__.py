"""Advice: a typed Query -> numbers and notes (pure functions, no I/O)."""

from bot.advice.estimate import advise

__all__ = ["advise"]
