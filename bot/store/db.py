"""Engine setup, migrations and the queries the Slack app needs.

The bot's memory here is a convenience the answers can do without: every
query a user's request makes goes through the store's :class:`Gate`, so a
slow, frozen, read-only or missing database costs at most a small budget and
the answer goes out without it (degraded: default language, no thread memory,
dedupe on this replica only), said in the log, never to the user.
"""

from __future__ import annotations

import itertools
import logging
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, bindparam, create_engine, delete, event, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError, OperationalError

from bot.database_url import engine_url
from bot.files import private_sqlite
from bot.models import Lang
from bot.settings import Settings
from bot.startup import SettingsError
from bot.store.gate import Gate
from bot.store.schema import processed_events, thread_estimates, user_prefs
from bot.store.tokens import TokenCipher, cipher_for
from bot.store.writes import sqlite_file

MIGRATIONS = Path(__file__).with_name("migrations")
# Slack stops redelivering an event after about an hour; keep ids a bit longer.
EVENT_ID_TTL = timedelta(hours=2)
# Any constant works; it only has to be the same for every replica.
_MIGRATION_LOCK_ID = 7_270_001
# Migrations may wait for another replica's, and copy tables: not bound by the
# per-statement timeout the requests get.
_MIGRATION_STATEMENT_TIMEOUT = "5min"
# Event ids this replica took lately: a retry landing here is caught without the
# database, and while the database is down dedupe still works on this replica.
RECENT_EVENTS_KEPT = 20_000
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DatabaseLimits:
    """How long the database may make anything wait (``DATABASE_*`` settings)."""

    connect_timeout_s: float = 2.0
    statement_timeout_s: float = 2.0
    lock_timeout_s: float = 1.0
    # SQLite has one writer at a time: a write waits its turn this long. Longer
    # than a PostgreSQL lock wait, since many threads queue for that one lock;
    # the best-effort calls are bounded by their budgets whatever it is.
    sqlite_busy_timeout_s: float = 10.0
    # Best-effort reads and writes on the way to an answer.
    budget_s: float = 1.0
    # The event dedupe insert, which runs before the ack.
    dedupe_budget_s: float = 0.2
    # After a failure, how long requests skip the database before trying again.
    retry_after_s: float = 10.0

    @classmethod
    def of(cls, settings: Settings) -> DatabaseLimits:
        return cls(
            connect_timeout_s=settings.database_connect_timeout_s,
            statement_timeout_s=settings.database_statement_timeout_s,
            lock_timeout_s=settings.database_lock_timeout_s,
            sqlite_busy_timeout_s=settings.database_sqlite_busy_timeout_s,
            budget_s=settings.database_budget_s,
            dedupe_budget_s=settings.dedupe_budget_s,
            retry_after_s=settings.database_retry_after_s,
        )


# The reads every message does, built once: constructing a select costs more
# than running it on SQLite (~80 of ~140 us), and the compiled form is cached.
_USER_LANGUAGE = select(
    user_prefs.c.lang, user_prefs.c.slack_locale, user_prefs.c.locale_checked_at
).where(user_prefs.c.team_id == bindparam("team_id"), user_prefs.c.user_id == bindparam("user_id"))
_THREAD = select(thread_estimates.c.fp32_hours, thread_estimates.c.setup).where(
    thread_estimates.c.team_id == bindparam("team_id"),
    thread_estimates.c.channel_id == bindparam("channel_id"),
    thread_estimates.c.thread_ts == bindparam("thread_ts"),
)


def make_engine(url: str, limits: DatabaseLimits = DatabaseLimits()) -> Engine:
    """An engine for ``url`` whose waits are bounded; plain ``postgresql://`` URLs use psycopg 3.

    SQLite: its busy timeout. PostgreSQL: libpq's
    ``connect_timeout`` (whole seconds, at least 2), the server's
    ``statement_timeout`` and ``lock_timeout``, and the pool's checkout wait.
    """
    parsed = engine_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(parsed, connect_args={"timeout": limits.sqlite_busy_timeout_s})
        file = sqlite_file(engine)
        if file is not None:  # 0600 before SQLite creates it (or its -wal and -shm)
            _create_sqlite(file)
        event.listen(engine, "connect", _sqlite_pragmas(limits))
        return engine
    options = (
        f"-c statement_timeout={_ms(limits.statement_timeout_s)}"
        f" -c lock_timeout={_ms(limits.lock_timeout_s)}"
    )
    args = {"connect_timeout": max(2, math.ceil(limits.connect_timeout_s)), "options": options}
    pooling = {"pool_pre_ping": True, "pool_timeout": limits.connect_timeout_s}
    return create_engine(parsed, connect_args=args, pool_size=10, max_overflow=10, **pooling)


def _create_sqlite(file: Path) -> None:
    """The database file made (0600, its folders 0700), or a :class:`SettingsError`
    naming the path: a folder that cannot be made or written to is a setting to fix,
    not a fault to serve through (the file holds no secret, so its path may be said)."""
    try:
        private_sqlite(file)
    except OSError as error:
        why = error.strerror or type(error).__name__
        raise SettingsError(
            f"DATABASE_URL: cannot create the SQLite database file {file}: {why}"
        ) from None


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


def _sqlite_pragmas(limits: DatabaseLimits):
    def on_connect(dbapi_connection, _record) -> None:
        """WAL lets readers run while another thread writes (the server is threaded).

        ``synchronous=NORMAL`` syncs the WAL at checkpoints instead of every
        commit: a commit survives the process being killed (what the jobs table
        must survive), only not a power cut, and each write holds the lock shorter.
        """
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout={_ms(limits.sqlite_busy_timeout_s)}")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        finally:
            cursor.close()

    return on_connect


def migrate(engine: Engine, tokens: Callable[[], TokenCipher] | None = None) -> None:
    """Bring the schema to the newest revision (safe with several replicas starting).

    ``tokens`` gives the cipher for stored Slack tokens, asked only by a
    migration that has tokens to encrypt (else the environment's settings decide).
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["tokens"] = tokens
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(
                text(f"SET LOCAL statement_timeout = '{_MIGRATION_STATEMENT_TIMEOUT}'")
            )
            connection.execute(text("SET LOCAL lock_timeout = 0"))
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:id)"), {"id": _MIGRATION_LOCK_ID}
            )
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def connect(url: str, limits: DatabaseLimits = DatabaseLimits()) -> Store:
    """Open the database at ``url``, migrated and ready."""
    engine = make_engine(url, limits)
    migrate(engine)
    return Store(engine, limits)


def connect_or_degrade(
    url: str,
    limits: DatabaseLimits = DatabaseLimits(),
    tokens: Callable[[], TokenCipher] | None = None,
) -> Store:
    """As :func:`connect`, but a database that cannot be reached does not stop the start.

    The bot answers without it (degraded); each health check tries the
    migration again, so the schema is in place as soon as the database is.
    """
    engine = make_engine(url, limits)
    store = Store(engine, limits, migrated=False, tokens=tokens)
    if not store.ping():
        log.error("database unreachable at startup; serving degraded until it answers")
    return store


def open_store(settings: Settings) -> Store:
    """The app's store: bounded waits from the settings, and no start blocked by the database."""
    return connect_or_degrade(
        settings.database_url.get_secret_value(),
        DatabaseLimits.of(settings),
        lambda: cipher_for(settings),
    )


@dataclass
class CachedLocale:
    """What users.info said last time; ``locale`` is None when it had none."""

    locale: str | None
    checked_at: datetime


@dataclass(frozen=True)
class ThreadMemory:
    """What a thread said before: its latest FP32 time and the setup it named."""

    fp32_hours: float | None
    setup: dict


class Store:
    """Small, named queries; each opens its own short transaction.

    The queries a user's request makes are best-effort (see the module's
    docstring): they return their fallback while :attr:`degraded`.
    """

    def __init__(
        self,
        engine: Engine,
        limits: DatabaseLimits = DatabaseLimits(),
        *,
        migrated: bool = True,
        tokens: Callable[[], TokenCipher] | None = None,
    ) -> None:
        self.engine = engine
        self.tokens = tokens
        self.limits = limits
        self.gate = Gate(limits.budget_s, limits.retry_after_s)
        self._inserts = itertools.count(1)
        self._migrated = migrated
        self._recent: OrderedDict[str, datetime] = OrderedDict()
        self._recent_lock = threading.Lock()

    @property
    def degraded(self) -> str | None:
        """Why requests are answered without the database right now, or None."""
        return self.gate.degraded

    def ping(self) -> bool:
        """True when the database answers a real query in time (the health check).

        A success ends a degraded period at once; a database left unmigrated by
        a start without it is migrated here.
        """
        return self.gate.attempt("health check", self._probe, False)

    def _probe(self) -> bool:
        """A real write (dropping expired event ids): a read-only database fails it too."""
        if not self._migrated:
            migrate(self.engine, self.tokens)
            self._migrated = True
        file = sqlite_file(self.engine)
        if file is not None and not file.exists():  # deleted under us: open connections hide it
            raise OperationalError("health check", {}, Exception(f"{file} is gone"))
        self.forget_events_before(_now() - EVENT_ID_TTL)
        return True

    # -- event dedupe -------------------------------------------------------

    def first_delivery(self, event_id: str) -> bool:
        """Record ``event_id``; False when this or another replica already took it.

        This runs before the ack, so the database gets ``dedupe_budget_s``;
        past it (or while degraded) only this replica's memory decides.
        """
        with self._recent_lock:
            if event_id in self._recent:
                return False
            self._recent[event_id] = _now()
            while len(self._recent) > RECENT_EVENTS_KEPT:
                self._recent.popitem(last=False)
        return self.gate.run(
            "event dedupe",
            lambda: self._record_event(event_id),
            True,
            budget_s=self.limits.dedupe_budget_s,
        )

    def _record_event(self, event_id: str) -> bool:
        now = _now()
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    processed_events.insert().values(event_id=event_id, received_at=now)
                )
        except IntegrityError:
            return False
        if next(self._inserts) % 500 == 0:
            self.forget_events_before(now - EVENT_ID_TTL)
        return True

    def forget_events_before(self, moment: datetime) -> None:
        with self._recent_lock:
            while self._recent and next(iter(self._recent.values())) < moment:
                self._recent.popitem(last=False)
        with self.engine.begin() as connection:
            connection.execute(
                delete(processed_events).where(processed_events.c.received_at < moment)
            )

    # -- threads ------------------------------------------------------------

    def thread(self, team_id: str, channel_id: str, thread_ts: str) -> ThreadMemory | None:
        """What the thread said before; None when nothing (or the database is unavailable)."""

        def read() -> ThreadMemory | None:
            with self.engine.connect() as connection:
                row = connection.execute(
                    _THREAD, {"team_id": team_id, "channel_id": channel_id, "thread_ts": thread_ts}
                ).one_or_none()
            return ThreadMemory(row.fp32_hours, row.setup or {}) if row else None

        return self.gate.run("thread read", read, None)

    def remember_thread(
        self,
        team_id: str,
        channel_id: str,
        thread_ts: str,
        fp32_hours: float | None,
        setup: dict | None = None,
    ) -> None:
        self._upsert(
            "thread write",
            thread_estimates,
            {"team_id": team_id, "channel_id": channel_id, "thread_ts": thread_ts},
            {"fp32_hours": fp32_hours, "setup": setup or None, "updated_at": _now()},
        )

    # -- users --------------------------------------------------------------

    def set_lang_preference(self, team_id: str, user_id: str, lang: Lang) -> None:
        self._upsert(
            "language choice",
            user_prefs,
            {"team_id": team_id, "user_id": user_id},
            {"lang": lang.value, "updated_at": _now()},
        )

    def user_language(self, team_id: str, user_id: str) -> tuple[Lang | None, CachedLocale | None]:
        """The user's chosen language and cached Slack locale, in one query.

        (None, None) when the database is unavailable: the reply's own words or
        the default language decide, as for a new user.
        """

        def read():
            with self.engine.connect() as connection:
                return connection.execute(
                    _USER_LANGUAGE, {"team_id": team_id, "user_id": user_id}
                ).one_or_none()

        row = self.gate.run("preference read", read, None)
        if row is None:
            return None, None
        chosen = Lang(row.lang) if row.lang else None
        if row.locale_checked_at is None:
            return chosen, None
        checked = row.locale_checked_at
        if checked.tzinfo is None:  # SQLite hands back naive datetimes
            checked = checked.replace(tzinfo=UTC)
        return chosen, CachedLocale(locale=row.slack_locale, checked_at=checked)

    def cache_locale(self, team_id: str, user_id: str, locale: str | None) -> None:
        now = _now()
        self._upsert(
            "locale cache",
            user_prefs,
            {"team_id": team_id, "user_id": user_id},
            {"slack_locale": locale, "locale_checked_at": now, "updated_at": now},
        )

    def _upsert(self, what: str, table, keys: dict, values: dict) -> None:
        """Insert or update one row in one statement (no read-then-write race); best-effort."""
        dialect = {"postgresql": postgresql, "sqlite": sqlite}.get(self.engine.dialect.name)
        if dialect is None:
            raise NotImplementedError(f"unsupported database: {self.engine.dialect.name}")
        statement = dialect.insert(table).values(**keys, **values)
        statement = statement.on_conflict_do_update(index_elements=list(keys), set_=values)

        def write() -> None:
            with self.engine.begin() as connection:
                connection.execute(statement)

        self.gate.run(what, write, None)


def _now() -> datetime:
    return datetime.now(UTC)
