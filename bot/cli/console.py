"""``mpbot console``: chat in a terminal exactly as the bot answers in Slack.

Team measurements (``record``, ``history``, ``delete N``) go to the local
workspace's records, which later estimates use first (:mod:`bot.cli.local`).
"""

from __future__ import annotations

import sys

from bot.cli.local import LocalTeam
from bot.models import Channel, Lang

_QUIT = {"quit", "exit", ":q", "خروج"}


def run_console(channel: Channel, lang: Lang | None) -> int:
    """Read messages line by line until EOF or ``quit``; works with piped stdin."""
    team = LocalTeam.open()
    if team is None:
        return 2
    interactive = sys.stdin.isatty()
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
        print(team.reply_text(line.rstrip("\n"), channel, lang), flush=True)
        if not interactive:
            print(flush=True)
