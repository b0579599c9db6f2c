"""``mpbot console``: chat in a terminal exactly as the bot answers in Slack."""

from __future__ import annotations

import sys

from bot.conversation import answer
from bot.models import Channel, Lang

_QUIT = {"quit", "exit", ":q", "خروج"}


def run_console(channel: Channel, lang: Lang | None) -> int:
    """Read messages line by line until EOF or ``quit``; works with piped stdin."""
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
        print(answer(line.rstrip("\n"), channel, preferred_lang=lang).reply.text, flush=True)
        if not interactive:
            print(flush=True)
