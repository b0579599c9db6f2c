"""The terminal's own workspace: the team's measurements in the local database.

``mpbot console`` and ``mpbot ask`` answer ``record``/``history``/``delete``
exactly as Slack does (:mod:`bot.records.service`), as one local workspace
and one user, and their estimates use those records first. The database is
the Slack app's (``DATABASE_URL``, a SQLite file by default), opened and
migrated the same way at startup, so records made here show up there.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

from sqlalchemy.exc import SQLAlchemyError

from bot.conversation import Turn, answer, to_json
from bot.models import Channel, Lang
from bot.records.service import RecordsReply, TeamRecordsService
from bot.settings import SettingsError, load_settings
from bot.store import make_engine, migrate

TEAM_ID = "local"
USER_ID = "console"


@dataclass(frozen=True)
class LocalTeam:
    """The records service for the local workspace; the only user may delete its records."""

    service: TeamRecordsService

    @classmethod
    def open(cls) -> LocalTeam | None:
        """None (said on stderr, names only) when the settings are invalid.

        When migrating fails the service still answers: estimates go on without
        team records and record commands say nothing was changed.
        """
        try:
            url = load_settings().database_url.get_secret_value()
        except SettingsError as error:
            print(f"mpbot: {error}", file=sys.stderr)
            return None
        engine = make_engine(url)
        try:
            migrate(engine)
        except SQLAlchemyError as error:
            print(f"warning: database unavailable ({type(error).__name__})", file=sys.stderr)
        return cls(TeamRecordsService(engine))

    def command(self, text: str) -> RecordsReply | None:
        """The answer to ``record``/``history``/``delete``, or None for a question."""
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
            team_records=self.service.for_team(TEAM_ID),
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
