"""Rendering: Advice -> a Reply in one language (plain text and Slack mrkdwn parts)."""

from bot.rendering.numbers import Digits
from bot.rendering.reply import render

__all__ = ["Digits", "render"]
