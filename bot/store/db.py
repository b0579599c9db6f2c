"""Engine setup, migrations and the queries the Slack app needs."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, bindparam, create_engine, delete, event, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from bot.models import Lang
from bot.store.schema import processed_events, thread_estimates, user_prefs

MIGRATIONS = Path(__file__).with_name("migrations")
# Slack stops redelivering an event after about an hour; keep ids a bit longer.
EVENT_ID_TTL = timedelta(hours=2)
# Any constant works; it only has to be the same for every replica.
_MIGRATION_LOCK_ID = 7_270_001

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


def make_engine(url: str) -> Engine:
    """An engine for ``url``; plain ``postgresql://`` URLs use psycopg 3."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(parsed, connect_args={"timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(parsed, pool_pre_ping=True, pool_size=10, max_overflow=10)


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    """WAL lets readers run while another thread writes (the server is threaded).

    ``synchronous=NORMAL`` syncs the WAL at checkpoints instead of every commit:
    a commit survives the process being killed (what the jobs table must
    survive), only not a power cut, and each write holds the lock far shorter.
    """
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (safe with several replicas starting)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:id)"), {"id": _MIGRATION_LOCK_ID}
            )
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def connect(url: str) -> Store:
    """Open the database at ``url``, migrated and ready."""
    engine = make_engine(url)
    migrate(engine)
    return Store(engine)


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
    """Small, named queries; each opens its own short transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._inserts = itertools.count(1)

    def ping(self) -> bool:
        """True when the database answers (the health check)."""
        try:
            with self.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except SQLAlchemyError:
            return False
        return True

    # -- event dedupe -------------------------------------------------------

    def first_delivery(self, event_id: str) -> bool:
        """Record ``event_id``; False when some replica already recorded it."""
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
        with self.engine.begin() as connection:
            connection.execute(
                delete(processed_events).where(processed_events.c.received_at < moment)
            )

    # -- threads ------------------------------------------------------------

    def thread(self, team_id: str, channel_id: str, thread_ts: str) -> ThreadMemory | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                _THREAD, {"team_id": team_id, "channel_id": channel_id, "thread_ts": thread_ts}
            ).one_or_none()
        return ThreadMemory(row.fp32_hours, row.setup or {}) if row else None

    def remember_thread(
        self,
        team_id: str,
        channel_id: str,
        thread_ts: str,
        fp32_hours: float | None,
        setup: dict | None = None,
    ) -> None:
        self._upsert(
            thread_estimates,
            {"team_id": team_id, "channel_id": channel_id, "thread_ts": thread_ts},
            {"fp32_hours": fp32_hours, "setup": setup or None, "updated_at": _now()},
        )

    # -- users --------------------------------------------------------------

    def set_lang_preference(self, team_id: str, user_id: str, lang: Lang) -> None:
        self._upsert(
            user_prefs,
            {"team_id": team_id, "user_id": user_id},
            {"lang": lang.value, "updated_at": _now()},
        )

    def user_language(self, team_id: str, user_id: str) -> tuple[Lang | None, CachedLocale | None]:
        """The user's chosen language and cached Slack locale, in one query."""
        with self.engine.connect() as connection:
            row = connection.execute(
                _USER_LANGUAGE, {"team_id": team_id, "user_id": user_id}
            ).one_or_none()
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
            user_prefs,
            {"team_id": team_id, "user_id": user_id},
            {"slack_locale": locale, "locale_checked_at": now, "updated_at": now},
        )

    def _upsert(self, table, keys: dict, values: dict) -> None:
        """Insert or update one row in one statement (no read-then-write race)."""
        dialect = {"postgresql": postgresql, "sqlite": sqlite}.get(self.engine.dialect.name)
        if dialect is None:
            raise NotImplementedError(f"unsupported database: {self.engine.dialect.name}")
        statement = dialect.insert(table).values(**keys, **values)
        statement = statement.on_conflict_do_update(index_elements=list(keys), set_=values)
        with self.engine.begin() as connection:
            connection.execute(statement)


def _now() -> datetime:
    return datetime.now(UTC)
