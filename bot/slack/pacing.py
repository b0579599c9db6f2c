"""Posts paced per channel within Slack's limit, shared fairly among the channel's users.

Slack takes about one ``chat.postMessage`` a second per channel, with short
bursts; past that it answers 429. Sending as fast as the jobs end made one
flooding user draw over a thousand 429s, and everyone else's answers in that
channel waited behind their retries. So before a post each worker reserves
its slot: at most ``CHANNEL_BURST`` posts in any ``CHANNEL_WINDOW_S`` per
channel, and at most ``USER_SHARE`` of them one user's, so a flooder's
answers always leave room for everyone else's. A post whose slot is more
than ``SLEEP_MAX_S`` away waits in the outbox (``next_at``), holding no
thread; a nearer one waits in its thread, so it leaves on time. A 429 still
waits its ``Retry-After`` (:mod:`bot.slack.outbox`).

The slots are shared by the replica's worker processes through a small SQLite
file in its spool folder (one writer at a time, microseconds each). Other
replicas keep their own: with several replicas a channel may get a burst more,
and Slack's 429s with ``Retry-After`` cover the rest. A file that cannot be
used turns pacing off (WARNING, once).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from pathlib import Path

# Slack: "1 message per second per channel", bursts allowed: 3 in 3 s, and a
# margin for the time a post takes to reach Slack.
CHANNEL_BURST = 3
CHANNEL_WINDOW_S = 3.3
# Of a channel's window, at most this many posts for one user.
USER_SHARE = 2
# A slot this near is waited for in the job's thread; a later one in the outbox.
SLEEP_MAX_S = 0.5
# Reservations older than this are forgotten.
KEEP_S = 10.0
FILE = "channel-pace.sqlite"
log = logging.getLogger(__name__)


def first_slot(taken: list[tuple[str, float]], user: str | None, moment: float) -> float:
    """The earliest time from ``moment`` on for ``user``'s next post, given the
    channel's reserved ``(user, time)`` slots."""
    times = sorted(at for _, at in taken)
    mine = sorted(at for who, at in taken if who == user)
    later = {at + CHANNEL_WINDOW_S for at in times if at + CHANNEL_WINDOW_S > moment}
    for slot in sorted({moment, *later}):
        if _fits(times, slot, CHANNEL_BURST) and _fits(mine, slot, USER_SHARE):
            return slot
    return max(later)  # not reached: past every window, every slot fits


def _fits(times: list[float], slot: float, most: int) -> bool:
    """No window of ``CHANNEL_WINDOW_S`` that holds ``slot`` holds more than ``most``."""
    with_slot = sorted([*times, slot])
    for index, begin in enumerate(with_slot):
        if begin > slot:
            break
        inside = [at for at in with_slot[index:] if at < begin + CHANNEL_WINDOW_S]
        if slot in inside and len(inside) > most:
            return False
    return True


class ChannelPacer:
    """Slot reservations for one replica (its spool ``folder``)."""

    def __init__(self, folder: Path) -> None:
        self._path = folder / FILE
        self._local = threading.local()
        self._off = False

    def reserve(self, channel: str | None, user: str | None) -> float:
        """Seconds until this post may go (0: now); its slot is taken."""
        if not channel or self._off:
            return 0.0
        moment = time.time()
        try:
            connection = self._connection()
            connection.execute("BEGIN IMMEDIATE")
            try:
                taken = connection.execute(
                    "SELECT user, at FROM slots WHERE channel = ? AND at > ?",
                    (channel, moment - KEEP_S),
                ).fetchall()
                slot = first_slot(taken, user, moment)
                connection.execute(
                    "INSERT INTO slots (channel, user, at) VALUES (?, ?, ?)", (channel, user, slot)
                )
                connection.execute("DELETE FROM slots WHERE at < ?", (moment - KEEP_S,))
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
        except (sqlite3.Error, OSError) as error:
            self._off = True
            log.warning("posts not paced per channel: %s (%s)", self._path, type(error).__name__)
            return 0.0
        return max(0.0, slot - moment)

    def _connection(self) -> sqlite3.Connection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self._path, timeout=1.0, isolation_level=None)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute(
                "CREATE TABLE IF NOT EXISTS slots (channel TEXT, user TEXT, at REAL)"
            )
            connection.execute("CREATE INDEX IF NOT EXISTS slots_channel ON slots (channel, at)")
            self._local.connection = connection
        return connection
