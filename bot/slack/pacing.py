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

A slot is booked for one post (its key) and booked again every time that post
is about to leave: after a wait in its thread, when it comes due in the
outbox, and before a retry after a 429; it leaves only on a booking that
says "now", checked against the posts that have left. Each booking plans the
channel's waiting posts again in the order they first asked, from that
moment on, so a worker running late (a busy machine) or a post that met a
429 neither crowds the window past Slack's limit nor goes to the back of
the line, and a new post from another user still finds room beside a flood.

The slots are shared by the replica's worker processes through a small SQLite
file in its spool folder (one writer at a time, microseconds each; threads of
one process take turns before they reach it). Other replicas keep their own:
with several replicas a channel may get a burst more, and Slack's 429s with
``Retry-After`` cover the rest. A file that is busy for longer than
``BUSY_S`` defers that one post by ``BUSY_DEFER_S`` (it is never sent
unpaced for it); a file that cannot be used at all turns pacing off
(WARNING, once).
"""

from __future__ import annotations

import bisect
import logging
import sqlite3
import threading
import time
from pathlib import Path

from bot.files import private_sqlite

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
# How long a post waits for the pace file another process holds, and how far
# it is put off when the file stays busy longer (it then comes due again).
BUSY_S = 5.0
BUSY_DEFER_S = 1.0
# The file's layout: an older file's reservations are dropped (they last seconds).
LAYOUT = 2
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
    """No window of ``CHANNEL_WINDOW_S`` holds ``slot`` and more than ``most`` posts in all:
    every ``most + 1`` neighbours in time, ``slot`` among them, span a window or more."""
    place = bisect.bisect_right(times, slot)

    def at(index: int) -> float:  # the times with ``slot`` put in its place
        return times[index] if index < place else slot if index == place else times[index - 1]

    for first in range(max(0, place - most), min(place, len(times) - most) + 1):
        if at(first + most) < at(first) + CHANNEL_WINDOW_S:
            return False
    return True


def plan(
    left: list[tuple[str | None, float]],
    waiting: list[tuple[str, str | None]],
    moment: float,
) -> dict[str, float]:
    """Each waiting ``(post, user)``'s slot, in the order given (the order they first
    asked), around the posts that have ``left`` and each other."""
    schedule = list(left)
    slots = {}
    for post, user in waiting:
        slots[post] = first_slot(schedule, user, moment)
        schedule.append((user, slots[post]))
    return slots


class ChannelPacer:
    """Slot reservations for one replica (its spool ``folder``)."""

    def __init__(self, folder: Path) -> None:
        self._path = folder / FILE
        self._local = threading.local()
        self._turn = threading.Lock()
        self._off = False

    def reserve(self, channel: str | None, user: str | None, post: str) -> float:
        """Seconds until ``post`` may go (0: now); its slot is taken, any earlier one of
        its own given up. ``user`` None: the user its earlier booking named."""
        if not channel or self._off:
            return 0.0
        try:
            with self._turn:
                moment = time.time()
                slot = self._book(self._connection(), channel, user, post, moment)
        except sqlite3.OperationalError as error:
            if not _busy(error):
                return self._turn_off(error)
            log.info("pace file busy; post %s put off %.1f s", post, BUSY_DEFER_S)
            return BUSY_DEFER_S
        except (sqlite3.Error, OSError) as error:
            return self._turn_off(error)
        return max(0.0, slot - moment)

    @staticmethod
    def _book(
        connection: sqlite3.Connection, channel: str, user: str | None, post: str, moment: float
    ) -> float:
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.execute("DELETE FROM slots WHERE at < ?", (moment - KEEP_S,))
            rows = connection.execute(
                "SELECT post, user, at, asked FROM slots WHERE channel = ?", (channel,)
            ).fetchall()
            earlier = next((row for row in rows if row[0] == post), None)
            if earlier is None:
                asked = connection.execute("SELECT coalesce(max(asked), 0) + 1 FROM slots")
                asked = asked.fetchone()[0]
                connection.execute(
                    "INSERT INTO slots (channel, user, post, at, asked) VALUES (?, ?, ?, ?, ?)",
                    (channel, user, post, moment, asked),
                )
            else:
                user, asked = user if user is not None else earlier[1], earlier[3]
            others = [row for row in rows if row[0] != post]
            left = [(who, at) for _, who, at, _ in others if at <= moment]
            waiting = [(key, who, order) for key, who, at, order in others if at > moment]
            waiting.append((post, user, asked))
            waiting.sort(key=lambda row: row[2])
            slots = plan(left, [(key, who) for key, who, _ in waiting], moment)
            connection.executemany(
                "UPDATE slots SET at = ? WHERE post = ?", [(at, key) for key, at in slots.items()]
            )
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        return slots[post]

    def _turn_off(self, error: BaseException) -> float:
        self._off = True
        log.warning("posts not paced per channel: %s (%s)", self._path, type(error).__name__)
        return 0.0

    def _connection(self) -> sqlite3.Connection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            private_sqlite(self._path)  # 0600, its -wal and -shm too (bot.files)
            connection = sqlite3.connect(self._path, timeout=BUSY_S, isolation_level=None)
            connection.execute("PRAGMA journal_mode=WAL")
            if connection.execute("PRAGMA user_version").fetchone()[0] != LAYOUT:
                connection.execute("DROP TABLE IF EXISTS slots")
                connection.execute(f"PRAGMA user_version = {LAYOUT}")
            connection.execute(
                "CREATE TABLE IF NOT EXISTS slots"
                " (channel TEXT, user TEXT, post TEXT, at REAL, asked INTEGER)"
            )
            connection.execute("CREATE INDEX IF NOT EXISTS slots_channel ON slots (channel, at)")
            connection.execute("CREATE INDEX IF NOT EXISTS slots_post ON slots (post)")
            self._local.connection = connection
        return connection


def _busy(error: sqlite3.OperationalError) -> bool:
    """Another process holds the file (it lets go in microseconds, unless it is stalled)."""
    text = str(error).lower()
    return "locked" in text or "busy" in text
