"""Best-effort database work: never longer than a budget, skipped for a while after a failure.

The core needs no database; the bot's memory (language choices, thread
context, event ids) only makes its answers better. So no database call on a
user's path may cost more than a small budget: each runs on a small thread
pool and is waited for at most ``budget_s``. When one fails or runs out of
time, the database is *degraded*: calls return their fallback at once (and
log once) until ``retry_after_s`` has passed or a health check finds the
database back. A frozen server therefore costs one budget per retry period,
not one per request, and threads stuck in it stay bounded.

Only the database's own time counts as its failure: a call still waiting for
a pool thread when its budget runs out (a burst, every thread busy with calls
that do answer) gets its fallback, but the database is not marked degraded,
so one busy moment does not send the next ``retry_after_s`` of requests past it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TypeVar

from sqlalchemy.exc import SQLAlchemyError

# One per HTTP request thread (bot.slack.server.THREADS), so a burst's calls do
# not queue behind each other; stuck ones are few (see above).
THREADS = 16
# A database error's own words are useful ("attempt to write a readonly database"); keep them short.
REASON_CHARS = 160
T = TypeVar("T")
log = logging.getLogger(__name__)


class Gate:
    def __init__(self, budget_s: float, retry_after_s: float) -> None:
        self.budget_s = budget_s
        self.retry_after_s = retry_after_s
        self._pool = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="mpbot-db")
        self._lock = threading.Lock()
        self._retry_at = 0.0
        self._reason: str | None = None

    @property
    def degraded(self) -> str | None:
        """Why the database is being skipped, or None while it works."""
        with self._lock:
            return self._reason

    def run(
        self, what: str, call: Callable[[], T], fallback: T, *, budget_s: float | None = None
    ) -> T:
        """``call()``, or ``fallback`` when the database is degraded, fails or is too slow."""
        with self._lock:
            if self._reason is not None and time.monotonic() < self._retry_at:
                return fallback
        return self.attempt(what, call, fallback, budget_s=budget_s)

    def bounded(self, what: str, call: Callable[[float], T], fallback: T) -> T:
        """``call(budget_s)`` in this thread, for a call that keeps to the budget itself
        (raising :class:`TimeoutError` past it), as a write handed to SQLite's writer
        thread does: no pool thread in between. Otherwise as :meth:`run`."""
        with self._lock:
            if self._reason is not None and time.monotonic() < self._retry_at:
                return fallback

        def late() -> None:
            self._failed(what, f"no answer within {self.budget_s:g} s")

        return self._settled(what, lambda: call(self.budget_s), fallback, late)

    def attempt(
        self, what: str, call: Callable[[], T], fallback: T, *, budget_s: float | None = None
    ) -> T:
        """``call()`` even while degraded (a health check); success ends the degraded state."""
        budget = self.budget_s if budget_s is None else budget_s
        future = self._pool.submit(call)

        def late() -> None:
            if future.cancel():  # it never started: the pool was busy, not the database
                log.warning(
                    "%s: every database thread busy for %g s; this call skipped", what, budget
                )
            else:
                self._failed(what, f"no answer within {budget:g} s")

        return self._settled(what, lambda: future.result(timeout=budget), fallback, late)

    def _settled(self, what: str, get: Callable[[], T], fallback: T, late: Callable[[], None]) -> T:
        """``get()``'s result, or ``fallback`` after ``late()`` past the budget or a
        database error (which degrades the gate); a success ends the degraded state."""
        try:
            result = get()
        except (TimeoutError, FutureTimeout):
            late()
            return fallback
        except SQLAlchemyError as error:
            self._failed(what, error_reason(error))
            return fallback
        self._worked()
        return result

    def _failed(self, what: str, reason: str) -> None:
        with self._lock:
            self._reason = reason
            self._retry_at = time.monotonic() + self.retry_after_s
        log.warning(
            "database unavailable (%s: %s); answering without it (degraded) for %g s",
            what,
            reason,
            self.retry_after_s,
        )

    def _worked(self) -> None:
        with self._lock:
            was, self._reason = self._reason, None
        if was is not None:
            log.info("database back after: %s", was)


def error_reason(error: SQLAlchemyError) -> str:
    """The error's kind and its driver's first line (no SQL, no parameters)."""
    original = getattr(error, "orig", None)
    detail = str(original).strip().splitlines()[0] if original is not None and str(original) else ""
    reason = f"{type(error).__name__}: {detail}" if detail else type(error).__name__
    return reason[:REASON_CHARS]
