"""``mpbot ask``: answer one message, or a JSON Lines stream, for scripts and checks.

``record``/``history``/``delete N`` are answered as in Slack, for the local
workspace (:mod:`bot.cli.local`); with ``--json`` they print one object each
too, with ``kind`` ``record``, ``history`` or ``error``.
"""

from __future__ import annotations

import json
import sys

from bot.cli.local import LocalTeam
from bot.models import Channel, Lang


def run_ask(text: str | None, channel: Channel, lang: Lang | None, *, as_json: bool) -> int:
    """With ``text`` answer it; otherwise answer each stdin line, in order."""
    team = LocalTeam.open()
    if team is None:
        return 2
    if text is not None:
        _emit(team, text, channel, lang, as_json)
        return 0
    status = 0
    for raw in sys.stdin:
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
        except json.JSONDecodeError:
            _emit_error("not a JSON value", as_json)
            status = 1
            continue
        message, where = _unpack(item, channel)
        if message is None:
            _emit_error('expected a JSON string or an object with "text"', as_json)
            status = 1
            continue
        _emit(team, message, where, lang, as_json)
    return status


def _unpack(item: object, default: Channel) -> tuple[str | None, Channel]:
    if isinstance(item, str):
        return item, default
    if isinstance(item, dict) and isinstance(item.get("text"), str):
        try:
            return item["text"], Channel(item.get("channel") or default)
        except ValueError:
            return item["text"], default
    return None, default


def _emit(team: LocalTeam, text: str, channel: Channel, lang: Lang | None, as_json: bool) -> None:
    if as_json:
        print(team.reply_json(text, channel, lang), flush=True)
    else:
        print(team.reply_text(text, channel, lang), flush=True)


def _emit_error(message: str, as_json: bool) -> None:
    """A malformed input line still gets exactly one output line."""
    if as_json:
        print(json.dumps({"kind": "error", "reason": "bad_input", "text": message}), flush=True)
    else:
        print(f"error: {message}", flush=True)
