"""Fair sharing at intake: per-user and per-workspace limits, and each job's turn.

One user flooding the bot must not make everyone else wait. At intake (the
process that acks) each request spends a token of its user's bucket and of its
workspace's (a burst, then a steady rate: ``USER_REQUESTS_*``,
``TEAM_REQUESTS_*``). A request past either is still acked and still gets a
job, but its work is the translated "slow down" reply (:mod:`bot.slack.rooms.limits`),
never silence. The buckets live in the intake process's memory, so the limits
are per replica.

Every job also gets a *turn* (start-time fair queuing): a user's first job
waiting takes the time of its ack, each further one of theirs ``TURN_STEP_S``
after the one before.
Workers claim in turn order, so a user's backlog queues behind everyone
else's next job instead of in front of it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.settings import Settings

# How far apart one user's jobs are put in the claim order (a few jobs' work).
TURN_STEP_S = 0.01
# Buckets and turns of users idle this long are forgotten (bounded memory).
FORGET_AFTER_S = 600.0


@dataclass
class Bucket:
    """A token bucket: ``burst`` tokens, refilled at ``per_s``."""

    burst: float
    per_s: float
    tokens: float
    at: float

    def wait(self, moment: float) -> float:
        """0 if a token is there now; else the seconds until one will be."""
        self.tokens = min(self.burst, self.tokens + (moment - self.at) * self.per_s)
        self.at = moment
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.per_s


class IntakeLimits:
    def __init__(self, settings: Settings) -> None:
        self._user = (settings.user_requests_burst, settings.user_requests_per_minute / 60)
        self._team = (settings.team_requests_burst, settings.team_requests_per_minute / 60)
        self._buckets: dict[tuple, Bucket] = {}
        self._turns: dict[tuple, float] = {}
        self._lock = threading.Lock()
        self._swept = time.monotonic()

    def admit(self, team: str | None, user: str | None) -> float:
        """0 when the request may be answered (a token of each bucket taken); else how
        long its user should wait (nothing taken: a flooder refused by their own
        limit does not spend their workspace's)."""
        moment = time.monotonic()
        with self._lock:
            self._sweep(moment)
            buckets = [self._bucket(("team", team), self._team, moment)]
            if user is not None:
                buckets.append(self._bucket(("user", team, user), self._user, moment))
            wait = max(bucket.wait(moment) for bucket in buckets)
            if not wait:
                for bucket in buckets:
                    bucket.tokens -= 1
            return wait

    def turn(self, team: str | None, user: str | None) -> datetime:
        """The job's place in the claim order: the time of its ack, or a step after its
        user's previous job's turn if that is later."""
        moment = time.time()
        with self._lock:
            key = (team, user)
            turn = max(moment, self._turns.get(key, 0.0))
            self._turns[key] = turn + TURN_STEP_S
        return datetime.fromtimestamp(turn, UTC)

    def _bucket(self, key: tuple, shape: tuple[int, float], moment: float) -> Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            burst, per_s = shape
            bucket = self._buckets[key] = Bucket(burst, per_s, burst, moment)
        return bucket

    def _sweep(self, moment: float) -> None:
        if moment - self._swept < FORGET_AFTER_S:
            return
        self._swept = moment
        for key in [k for k, b in self._buckets.items() if moment - b.at > FORGET_AFTER_S]:
            del self._buckets[key]
        wall = time.time()
        for key in [k for k, turn in self._turns.items() if wall - turn > FORGET_AFTER_S]:
            del self._turns[key]
