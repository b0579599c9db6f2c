"""Team measurements for any transport: read a command, use the store, word the reply.

``record ...``, ``history [page]`` and ``delete N`` mean the same in Slack, in
``mpbot console`` and in ``mpbot ask``, so the steps they share live here once:
read the command (:func:`bot.understanding.read_command`), validate and
store, list or delete (:mod:`bot.store.records`), and word the answer in the
user's language (:mod:`bot.rendering.records`). Each transport only adds its
own chrome (Slack's buttons and modal, the CLI's plain text and JSON) and says
who is asking and whether they are a workspace admin.

Unlike the rest of :mod:`bot.records`, this module does I/O with the
database: it is *not* part of the pure advice room, and nothing in
``bot.advice`` may import it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from bot.models import Lang
from bot.records.models import Record, RecordDraft, RecordPage
from bot.records.ratio import RecordReason, validate
from bot.rendering.records import RecordWords
from bot.store.records import (
    DeleteOutcome,
    add_record,
    delete_record,
    get_record,
    list_records,
    records_for_team,
)
from bot.understanding import (
    DeleteCommand,
    HistoryCommand,
    RecordCommand,
    read_command,
)

log = logging.getLogger(__name__)


class RecordsKind(StrEnum):
    """The JSON ``kind`` of a records answer."""

    RECORD = "record"  # stored or deleted one record
    HISTORY = "history"  # a page of records
    ERROR = "error"  # refused, not found, not allowed, or the database failed


@dataclass(frozen=True)
class RecordsReply:
    """A records answer before any transport's chrome: Slack mrkdwn plus what it is about."""

    kind: RecordsKind
    lang: Lang
    text: str  # Slack mrkdwn (user text escaped)
    record: Record | None = None  # stored, or (by id) deleted
    deleted_id: int | None = None
    page: RecordPage | None = None
    reasons: tuple[RecordReason, ...] = field(default_factory=tuple)
    outcome: DeleteOutcome | None = None
    unavailable: bool = False  # the database did not answer

    @property
    def refused(self) -> bool:
        """A ``record ...`` that was not stored (the reply says what to type)."""
        return bool(self.reasons)

    @property
    def plain(self) -> str:
        """The reply as plain text, for a terminal."""
        return plain_text(self.text)

    def to_json(self) -> dict:
        """One object per answer: ``kind``, ``lang``, ``text`` and what it is about."""
        data: dict = {"kind": self.kind.value, "lang": self.lang.value, "text": self.plain}
        if self.record is not None:
            data.update(self.record.model_dump(mode="json"))
            data["action"] = "recorded"
        if self.deleted_id is not None:
            data.update({"id": self.deleted_id, "action": "deleted"})
        if self.page is not None:
            data.update(
                {
                    "records": [r.model_dump(mode="json") for r in self.page.records],
                    "page": self.page.page,
                    "pages": self.page.pages,
                    "total": self.page.total,
                }
            )
        if self.kind is RecordsKind.ERROR:
            data["reason"] = _error_reason(self)
            data["reasons"] = [r.value for r in self.reasons]
        return data


class TeamRecordsService:
    """The workspace's measurements on one database, for any transport."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def for_team(self, team_id: str | None) -> list[Record]:
        """The workspace's records for estimates; none (logged) when the database fails."""
        if not team_id:
            return []
        try:
            return records_for_team(self.engine, team_id)
        except SQLAlchemyError as error:
            log.warning("team records unavailable (team=%s): %s", team_id, type(error).__name__)
            return []

    def handle(
        self, text: str, team_id: str, user_id: str, *, is_admin: Callable[[], bool]
    ) -> RecordsReply | None:
        """The answer to a records command, or None when ``text`` is a question.

        ``is_admin`` is asked only when someone deletes another person's record.
        """
        parsed = read_command(text)
        if parsed is None:
            return None
        words = RecordWords(parsed.lang)
        try:
            if isinstance(parsed, HistoryCommand):
                page = self.history(team_id, parsed.page)
                return RecordsReply(
                    RecordsKind.HISTORY, parsed.lang, words.history(page), page=page
                )
            if isinstance(parsed, DeleteCommand):
                outcome = self.delete(team_id, user_id, parsed.record_id, is_admin)
                return deletion_reply(words, outcome, parsed.record_id)
            if isinstance(parsed, RecordCommand) and parsed.draft is not None:
                record = self.add(team_id, user_id, parsed.draft)
                return RecordsReply(
                    RecordsKind.RECORD, parsed.lang, words.recorded(record), record=record
                )
        except SQLAlchemyError as error:
            log.warning("team records unavailable (team=%s): %s", team_id, type(error).__name__)
            return RecordsReply(
                RecordsKind.ERROR, parsed.lang, words.unavailable(), unavailable=True
            )
        assert isinstance(parsed, RecordCommand)
        return RecordsReply(
            RecordsKind.ERROR, parsed.lang, words.refused(parsed.reasons), reasons=parsed.reasons
        )

    def add(self, team_id: str, user_id: str, draft: RecordDraft) -> Record:
        return add_record(self.engine, team_id, user_id, draft, validate(draft))

    def delete(
        self, team_id: str, user_id: str, record_id: int, is_admin: Callable[[], bool]
    ) -> DeleteOutcome:
        """The recorder, or a workspace admin (asked only when it is someone else's)."""
        record = get_record(self.engine, team_id, record_id)
        if record is None:
            return DeleteOutcome.NOT_FOUND
        admin = record.user_id != user_id and is_admin()
        return delete_record(self.engine, team_id, record_id, user_id, is_admin=admin)

    def history(self, team_id: str, page: int) -> RecordPage:
        return list_records(self.engine, team_id, page)


def deletion_reply(words: RecordWords, outcome: DeleteOutcome, record_id: int) -> RecordsReply:
    """Deleted, not yours to delete, or no such record, in the user's language."""
    if outcome is DeleteOutcome.DELETED:
        return RecordsReply(
            RecordsKind.RECORD, words.lang, words.deleted(record_id), deleted_id=record_id
        )
    text = (
        words.delete_forbidden(record_id)
        if outcome is DeleteOutcome.FORBIDDEN
        else words.not_found(record_id)
    )
    return RecordsReply(RecordsKind.ERROR, words.lang, text, outcome=outcome)


def _error_reason(reply: RecordsReply) -> str:
    if reply.unavailable:
        return "unavailable"
    if reply.outcome is not None:
        return reply.outcome.value
    return "refused"


_DATE = re.compile(r"<!date\^\d+\^[^|>]*\|([^>]*)>")
_MENTION = re.compile(r"<@([^>|]+)>")
_BOLD = re.compile(r"\*([^*\n]+)\*")


def plain_text(mrkdwn: str) -> str:
    """Slack mrkdwn from :class:`RecordWords` as terminal text.

    Dates show Babel's fallback, mentions become ``@user``, bold marks go, and
    the escaped ``& < >`` of echoed user text are shown as typed (a terminal
    pings nobody). Code marks stay: they show what to type.
    """
    text = _DATE.sub(r"\1", mrkdwn)
    text = _MENTION.sub(r"@\1", text)
    text = _BOLD.sub(r"\1", text)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
