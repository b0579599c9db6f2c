"""``mpbot console``: chat in a terminal exactly as the bot answers in Slack.

Team measurements (``record``, ``history``, ``delete N``) go to the local
workspace's records, which later estimates use first (:mod:`bot.cli.local`).
The session is one conversation, like a Slack thread: "and with ratio 2.5?" or
"it takes 36 hours" builds on what was said before.
"""

from __future__ import annotations

import sys

from bot.cli.local import LocalTeam
from bot.conversation import carried_over
from bot.models import Channel, Intent, Lang

_QUIT = {"quit", "exit", ":q", "خروج"}


def run_console(channel: Channel, lang: Lang | None) -> int:
    """Read messages line by line until EOF or ``quit``; works with piped stdin."""
    team = LocalTeam.open()
    interactive = sys.stdin.isatty()
    hours: float | None = None  # what the conversation said before, as a thread keeps it
    setup: dict = {}
    if interactive:
        print("mpestimate console. Type a message (e.g. `100 2`, `٤٨ ساعة`), `quit` to leave.")
    while True:
        if interactive:
            print("> ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            return 0
        if line.strip().lower() in _QUIT:
            return 0
        if not interactive and not line.strip():
            continue
        text = line.rstrip("\n")
        if (recorded := team.command(text)) is not None:
            print(recorded.plain, flush=True)
        else:
            turn = team.answer(text, channel, lang, thread_hours=hours, thread_setup=setup)
            print(turn.reply.text, flush=True)
            if turn.query.intent is Intent.SET_LANG and turn.query.lang_choice is not None:
                lang = turn.query.lang_choice  # `lang ar` lasts the session, as Slack stores it
            if (carried := carried_over(turn, hours)) is not None:
                hours, setup = carried
        if not interactive:
            print(flush=True)
