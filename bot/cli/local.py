"""The terminal's own workspace: the team's measurements in the local database.

``mpbot console`` and ``mpbot ask`` answer ``record``/``history``/``delete``
exactly as Slack does (:mod:`bot.records.service`), as one local workspace
and one user, and their estimates use those records first. The database is
the Slack app's (``DATABASE_URL``; without it a SQLite file in the user's data
directory), migrated the same way, so records made here show up there.

The database is opened only when an answer needs it: a records command, or a
prediction that looks at the team's records. ``mpbot ask "100 2"`` gives its
ratio, so it never imports SQLAlchemy, Alembic or the store, and starts fast.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.conversation import Turn, answer, to_json
from bot.models import Channel, Lang
from bot.understanding import read_command

if TYPE_CHECKING:
    from bot.records.models import Record
    from bot.records.service import RecordsReply, TeamRecordsService

TEAM_ID = "local"
USER_ID = "console"


class LazyRecords(Sequence):
    """The local team's records, read from the database the first time advice looks.

    An estimate with a given ratio never looks, so it never opens the database.
    """

    def __init__(self, load: Callable[[], Sequence[Record]]) -> None:
        self._load = load
        self._records: list[Record] | None = None

    def _all(self) -> list[Record]:
        if self._records is None:
            self._records = list(self._load())
        return self._records

    def __getitem__(self, index):  # type: ignore[override]
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())


class LocalTeam:
    """The records service for the local workspace; the only user may delete its records."""

    def __init__(self) -> None:
        self._service: TeamRecordsService | None = None

    @classmethod
    def open(cls) -> LocalTeam:
        """The local workspace; its database is opened on first need (see module doc)."""
        return cls()

    @property
    def service(self) -> TeamRecordsService:
        """Settings read, database opened and migrated (only when behind), once.

        Invalid settings end the command with status 2, saying which (never the
        value). When migrating fails the service still answers: estimates go on
        without team records and record commands say nothing was changed.
        """
        if self._service is None:
            self._service = _open_service()
        return self._service

    def _records(self) -> Sequence[Record]:
        """The team's records; none without opening anything when the local SQLite
        file does not exist yet (a new user has recorded nothing)."""
        if self._service is None and not _database_exists():
            return []
        return self.service.for_team(TEAM_ID)

    def command(self, text: str) -> RecordsReply | None:
        """The answer to ``record``/``history``/``delete``, or None for a question."""
        if read_command(text) is None:  # a question: no database needed to say so
            return None
        return self.service.handle(text, TEAM_ID, USER_ID, is_admin=lambda: False)

    def answer(
        self,
        text: str,
        channel: Channel,
        lang: Lang | None,
        *,
        thread_hours: float | None = None,
        thread_setup: dict | None = None,
    ) -> Turn:
        """A question, answered with the local team's records first (and, in the
        console, what the conversation said before, as in a Slack thread)."""
        return answer(
            text,
            channel,
            preferred_lang=lang,
            thread_fp32_hours=thread_hours,
            thread_setup=thread_setup,
            team_records=LazyRecords(self._records),
        )

    def reply_text(self, text: str, channel: Channel, lang: Lang | None) -> str:
        """What the console prints for one message."""
        if (reply := self.command(text)) is not None:
            return reply.plain
        return self.answer(text, channel, lang).reply.text

    def reply_json(self, text: str, channel: Channel, lang: Lang | None) -> str:
        """One JSON object on one line: a records answer or an estimate's fields."""
        reply = self.command(text)
        data = reply.to_json() if reply is not None else to_json(self.answer(text, channel, lang))
        return json.dumps(data, ensure_ascii=False)


def _database_url() -> str:
    """``DATABASE_URL`` (or the user-data default); invalid settings raise
    ``SettingsError``, which ends the command (``bot.cli.main``)."""
    from bot.settings import load_settings

    return load_settings().database_url.get_secret_value()


# A SQLite URL naming a file (not ``sqlite://`` or ``:memory:``), as SQLAlchemy writes them.
_SQLITE_FILE = re.compile(r"sqlite(?:\+\w+)?:///(?!:memory:)(?P<path>[^?]+)")


def _database_exists() -> bool:
    """False only for a SQLite file that is not there: a server database is assumed to be."""
    match = _SQLITE_FILE.fullmatch(_database_url().split("?", 1)[0])
    return match is None or Path(match["path"]).exists()


def _open_service() -> TeamRecordsService:
    from sqlalchemy.exc import SQLAlchemyError

    from bot.records.service import TeamRecordsService
    from bot.store import make_engine

    engine = make_engine(_database_url())
    try:
        migrate_if_behind(engine)
    except SQLAlchemyError as error:
        print(f"warning: database unavailable ({type(error).__name__})", file=sys.stderr)
    return TeamRecordsService(engine)


def migrate_if_behind(engine) -> bool:
    """Upgrade the schema only when its revision is not the newest; True if it ran.

    Alembic's upgrade takes a lock and walks the scripts even when there is
    nothing to do; a read of the stored revision is enough to know.
    """
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from bot.store import migrate
    from bot.store.db import MIGRATIONS

    heads = set(ScriptDirectory(str(MIGRATIONS)).get_heads())
    with engine.connect() as connection:
        current = set(MigrationContext.configure(connection).get_current_heads())
    if current == heads:
        return False
    migrate(engine)
    return True
