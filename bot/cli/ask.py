"""``mpbot ask``: answer one message, or one per stdin line, for scripts and checks.

Each stdin line is one message: plain text (``100 2``), or JSON Lines (a JSON
string, or an object with ``text`` and optionally ``channel``) for text that
needs escaping. Every input line, an empty one included, gets exactly one
output line, in order, so answers can be zipped back to their questions.

``record``/``history``/``delete N`` are answered as in Slack, for the local
workspace (:mod:`bot.cli.local`); with ``--json`` they print one object each
too, with ``kind`` ``record``, ``history`` or ``error``.

``--explain`` prints, instead of the answer, what the reader saw and chose
with the names of its rules (:mod:`bot.understanding.explain`): for the text,
or for each stdin line, each explanation followed by an empty line.
"""

from __future__ import annotations

import json
import sys

from bot.cli.local import LocalTeam
from bot.cli.terminal import for_terminal
from bot.models import Channel, Lang
from bot.rendering.hints import ask_hint

# Exit status when ``ask`` is typed at a terminal with no message (a usage error).
NO_MESSAGE = 2

# A line is read as JSON when it starts like a JSON string or object does;
# anything else (``100 2``, ``٤٨ ساعة``) is the message itself.
_JSON_START = ('"', "{")


def run_ask(
    text: str | None, channel: Channel, lang: Lang | None, *, as_json: bool, explain: bool = False
) -> int:
    """With ``text`` answer it; otherwise answer each stdin line, in order.

    At a terminal with no text there is nothing to read: a hint, not a silent wait."""
    if text is None and sys.stdin.isatty():
        print(ask_hint(lang or Lang.EN), file=sys.stderr, flush=True)
        return NO_MESSAGE
    if explain:
        return _explain(text, channel, lang)
    team = LocalTeam.open()
    if text is not None:
        answer = _answer(team, text, channel, lang, as_json)
        print(answer if as_json else for_terminal(answer, sys.stdout), flush=True)
        return 0
    status = 0
    for raw in sys.stdin:
        message, where, problem = read_line(raw.rstrip("\r\n"), channel)
        if problem is not None:
            print(_error_line(problem, as_json), flush=True)
            status = 1
            continue
        answer = _answer(team, message, where, lang, as_json)
        # One line per input: a plain answer's lines are joined into one.
        print(answer if as_json else for_terminal(" ".join(answer.splitlines()), sys.stdout))
        sys.stdout.flush()
    return status


def _explain(text: str | None, channel: Channel, lang: Lang | None) -> int:
    """What the reader saw and chose, for ``text`` or for each stdin line."""
    from bot.understanding.explain import explain

    if text is not None:
        print(explain(text, channel, lang), flush=True)
        return 0
    status = 0
    for raw in sys.stdin:
        message, where, problem = read_line(raw.rstrip("\r\n"), channel)
        if problem is not None:
            print(_error_line(problem, as_json=False), flush=True)
            status = 1
        else:
            print(explain(message, where, lang), flush=True)
        print(flush=True)
    return status


def read_line(line: str, default: Channel) -> tuple[str, Channel, str | None]:
    """(message, channel, problem): a plain-text line is the message; a JSON one is
    unpacked; a malformed JSON line is a problem, said in its own output line."""
    if not line.lstrip().startswith(_JSON_START):
        return line, default, None
    try:
        item = json.loads(line)
    except json.JSONDecodeError:
        return "", default, "not a JSON value"
    if isinstance(item, str):
        return item, default, None
    if isinstance(item, dict) and isinstance(item.get("text"), str):
        try:
            return item["text"], Channel(item.get("channel") or default), None
        except ValueError:
            return item["text"], default, None
    return "", default, 'expected a JSON string or an object with "text"'


def _answer(team: LocalTeam, text: str, channel: Channel, lang: Lang | None, as_json: bool) -> str:
    if as_json:
        return team.reply_json(text, channel, lang)
    return team.reply_text(text, channel, lang)


def _error_line(message: str, as_json: bool) -> str:
    """A malformed input line still gets exactly one output line."""
    if as_json:
        return json.dumps({"kind": "error", "reason": "bad_input", "text": message})
    return f"error: {message}"
