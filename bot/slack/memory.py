"""What a thread (or a DM) said before: its latest FP32 time and the setup it named.

A follow-up such as "and with ratio 2.5?" reuses the FP32 time of the bot's
last answer in that thread. A DM's top level is one conversation (``DM_THREAD``).
"""

from __future__ import annotations

from bot.conversation import Turn, carried_over
from bot.store import Store
from bot.store.db import ThreadMemory

# A DM is one conversation: follow-ups outside a thread share this key.
DM_THREAD = "-"


class Threads:
    def __init__(self, store: Store) -> None:
        self.store = store

    def recall(self, team_id: str, channel_id: str, key: str | None) -> ThreadMemory | None:
        """The thread's memory; None for a message outside any thread we keep."""
        return self.store.thread(team_id, channel_id, key) if key else None

    def remember(
        self,
        turn: Turn,
        team_id: str,
        channel_id: str,
        roots: list[str],
        hours: float | None,
    ) -> None:
        """Keep the thread's latest FP32 time and what it named, for the next follow-up.

        A DM's top level keeps the time only: it is many separate questions, where
        "36 hours" should not mean the last model asked about. A thread started
        under one of those messages is about that message alone, so each top-level
        turn is also kept whole under its own ts and its answer's.
        """
        carried = carried_over(turn, hours)
        if carried is None:
            return
        latest, setup = carried
        for root in roots:
            kept = {} if root == DM_THREAD else setup
            if latest is not None or kept:
                self.store.remember_thread(team_id, channel_id, root, latest, kept)
