"""``mpbot console``: chat in a terminal exactly as the bot answers in Slack.

Team measurements (``record``, ``history``, ``delete N``) go to the local
workspace's records, which later estimates use first (:mod:`bot.cli.local`).
The session is one conversation, like a Slack thread: "and with ratio 2.5?" or
"it takes 36 hours" builds on what was said before.

In a terminal it behaves like one: line editing and history through
``readline`` where the platform has it (history kept in the user's data
directory), Ctrl-D or Ctrl-C leave without a traceback, and answers are
printed without the invisible bidi controls (:mod:`bot.cli.terminal`).
Piped stdin is read line by line, each answer followed by a blank line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from bot.cli.local import LocalTeam
from bot.cli.terminal import for_terminal
from bot.conversation import carried_over
from bot.models import Channel, Intent, Lang

_QUIT = {"quit", "exit", ":q", "خروج"}
BANNER = (
    "mpestimate console. Type a message (e.g. `100 2`, `٤٨ ساعة ٢`, `help`).\n"
    "To leave: `quit` (`خروج`), Ctrl-D or Ctrl-C."
)
PROMPT = "> "
HISTORY_FILE = "console_history"
HISTORY_LENGTH = 1000


def run_console(channel: Channel, lang: Lang | None) -> int:
    """Read messages until EOF, ``quit``, Ctrl-D or Ctrl-C; works with piped stdin."""
    team = LocalTeam.open()
    interactive = sys.stdin.isatty()
    read = _line_editor() if interactive else _piped_line
    if interactive:
        print(BANNER, flush=True)
    try:
        _converse(team, channel, lang, read)
    except (KeyboardInterrupt, EOFError):
        if interactive:
            print(flush=True)  # the prompt's line ends, the shell's starts clean
    return 0


def _converse(
    team: LocalTeam,
    channel: Channel,
    lang: Lang | None,
    read: Callable[[], str | None],
) -> None:
    hours: float | None = None  # what the conversation said before, as a thread keeps it
    setup: dict = {}
    while (text := read()) is not None:
        if text.strip().lower() in _QUIT:
            return
        if not text.strip():
            continue  # an empty line (Enter on an empty prompt) asks nothing
        if (recorded := team.command(text)) is not None:
            _say(recorded.plain)
        else:
            turn = team.answer(text, channel, lang, thread_hours=hours, thread_setup=setup)
            _say(turn.reply.text)
            if turn.query.intent is Intent.SET_LANG and turn.query.lang_choice is not None:
                lang = turn.query.lang_choice  # `lang ar` lasts the session, as Slack stores it
            if (carried := carried_over(turn, hours)) is not None:
                hours, setup = carried
        print(flush=True)


def _say(text: str) -> None:
    print(for_terminal(text, sys.stdout), flush=True)


def _piped_line() -> str | None:
    line = sys.stdin.readline()
    return line.rstrip("\n") if line else None


def _line_editor() -> Callable[[], str | None]:
    """``input`` with readline's editing and a history file, where readline exists."""
    try:
        import readline
    except ImportError:  # e.g. Windows without pyreadline: plain input still works
        return lambda: input(PROMPT)
    history = _history_path()
    if history is not None:
        try:
            readline.read_history_file(history)
        except OSError:
            pass  # the first session has none yet
        readline.set_history_length(HISTORY_LENGTH)
        import atexit

        atexit.register(_save_history, readline, history)
    return lambda: input(PROMPT)


def _history_path() -> Path | None:
    """``console_history`` in the user's data directory; None if it cannot be made."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("mpestimate", appauthor=False))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder / HISTORY_FILE


def _save_history(readline, history: Path) -> None:
    try:
        readline.write_history_file(history)
    except OSError:
        pass  # a read-only home loses the history, never the session
