"""The store when the database is slow, frozen, read-only or gone: bounded waits, fallbacks, logs.

A "frozen" PostgreSQL here is a socket that accepts connections and never
answers (its listen backlog completes the TCP handshake), the way a hung
server or a half-open network path looks to a client.
"""

from __future__ import annotations

import logging
import time

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from bot.models import Lang
from bot.store import DatabaseLimits, Store, connect, connect_or_degrade, make_engine

FAST = DatabaseLimits(
    connect_timeout_s=2,
    statement_timeout_s=0.5,
    lock_timeout_s=0.3,
    sqlite_busy_timeout_s=0.7,
    retry_after_s=30,
)


def _timed(call):
    started = time.monotonic()
    result = call()
    return result, time.monotonic() - started


def test_a_frozen_database_costs_the_dedupe_its_budget_then_nothing(frozen_url, caplog):
    store = Store(make_engine(frozen_url, FAST), FAST)
    first, waited = _timed(lambda: store.first_delivery("Ev1"))
    assert first is True and waited < FAST.dedupe_budget_s + 0.3
    # Degraded now: the next calls do not wait at all, and say nothing to the caller.
    again, waited = _timed(lambda: store.first_delivery("Ev2"))
    assert again is True and waited < 0.05
    assert store.user_language("T1", "U1") == (None, None)
    assert store.thread("T1", "C1", "1.1") is None
    store.remember_thread("T1", "C1", "1.1", 12.0)
    assert store.degraded and "within" in store.degraded
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings and "degraded" in warnings[0].getMessage()
    assert not any(r.exc_info for r in caplog.records)


def test_dedupe_still_catches_a_retry_on_this_replica_while_degraded(frozen_url):
    store = Store(make_engine(frozen_url, FAST), FAST)
    assert store.first_delivery("Ev1") is True
    assert store.first_delivery("Ev1") is False


def test_health_check_of_a_frozen_database_answers_within_the_budget(frozen_url):
    store = Store(make_engine(frozen_url, FAST), FAST, migrated=False)
    healthy, waited = _timed(store.ping)
    assert healthy is False and waited < FAST.budget_s + 0.3


def test_start_without_the_database_serves_degraded(refused_url, frozen_url):
    for url in (refused_url, frozen_url):
        store, waited = _timed(lambda url=url: connect_or_degrade(url, FAST))
        assert store.degraded is not None and waited < FAST.connect_timeout_s + 1
    with pytest.raises(OperationalError):  # connect() itself still insists
        connect(refused_url, FAST)


def test_a_read_only_sqlite_database_still_reads_and_refuses_writes_quietly(tmp_path, caplog):
    path = tmp_path / "bot.db"
    writable = connect(f"sqlite:///{path}")
    writable.set_lang_preference("T1", "U1", Lang.AR)
    writable.engine.dispose()
    read_only = Store(make_engine(f"sqlite:///file:{path}?mode=ro&uri=true"))
    assert read_only.user_language("T1", "U1")[0] is Lang.AR
    read_only.set_lang_preference("T1", "U1", Lang.EN)  # no exception reaches the caller
    assert "readonly" in (read_only.degraded or "")
    assert "readonly" in caplog.text


def test_a_deleted_sqlite_file_fails_the_health_check(tmp_path):
    path = tmp_path / "bot.db"
    store = connect(f"sqlite:///{path}")
    assert store.ping() is True
    for leftover in tmp_path.glob("bot.db*"):
        leftover.unlink()
    assert store.ping() is False
    assert "gone" in store.degraded


def test_the_database_coming_back_ends_the_degraded_period(tmp_path):
    path = tmp_path / "bot.db"
    store = connect(f"sqlite:///{path}", FAST)
    path.rename(tmp_path / "away.db")
    assert store.ping() is False and store.degraded
    (tmp_path / "away.db").rename(path)
    assert store.ping() is True and store.degraded is None


def test_postgresql_sessions_carry_the_statement_and_lock_timeouts(database_url):
    if not database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL settings")
    engine = make_engine(database_url, FAST)
    with engine.connect() as connection:
        assert connection.execute(text("SHOW statement_timeout")).scalar() == "500ms"
        assert connection.execute(text("SHOW lock_timeout")).scalar() == "300ms"
    engine.dispose()


def test_sqlite_connections_wait_at_most_the_busy_timeout(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}", FAST)
    with engine.connect() as connection:
        assert connection.execute(text("PRAGMA busy_timeout")).scalar() == 700
    engine.dispose()
