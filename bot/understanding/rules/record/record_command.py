"""Read the team-measurement commands: ``record ...``, ``history [page]``, ``delete N``.

These are commands, not questions: a keyword first (``record``/``سجل``,
``history``/``سجل القياسات``, ``delete``/``احذف``). What follows ``record`` is
read by the question reader (:mod:`bot.understanding.rules.record.record_draft`)::

    record A100 BERT 8 GPUs bf16 fp32 420ms amp 190ms
    record V100 resnet50 fp32 367 img/s amp 1200 img/s
    record T4 ratio 1.9
    سجل A100 BERT على ٨ بطاقات fp32 ٤٢٠ مللي ثانية amp ١٩٠ مللي ثانية
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.models import Lang
from bot.records.models import RecordDraft
from bot.records.ratio import RecordReason
from bot.understanding.rules.record.record_draft import normalise_command, read_fields, read_record

__all__ = [
    "Command",
    "DeleteCommand",
    "HistoryCommand",
    "RecordCommand",
    "is_delete_without_id",
    "read_command",
    "read_fields",
    "read_record",
]


@dataclass(frozen=True)
class RecordCommand:
    """``record ...``: a draft that passed validation, or the reasons it did not."""

    lang: Lang
    draft: RecordDraft | None = None
    reasons: tuple[RecordReason, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class HistoryCommand:
    lang: Lang
    page: int = 1


@dataclass(frozen=True)
class DeleteCommand:
    lang: Lang
    record_id: int


Command = RecordCommand | HistoryCommand | DeleteCommand


def read_command(text: str) -> Command | None:
    """The records command in ``text``, or None when it is not one (then it is a question)."""
    clean = _as_typed(text)
    lang = Lang.AR if _ARABIC_LETTER.search(clean) else Lang.EN
    if m := _HISTORY.match(clean):
        return HistoryCommand(lang=lang, page=max(1, int(m["page"] or 1)))
    if m := _DELETE.match(clean):
        return DeleteCommand(lang=lang, record_id=int(m["id"]))
    if m := _RECORD.match(clean):
        result = read_record(clean[m.end() :])
        if isinstance(result, RecordDraft):
            return RecordCommand(lang=lang, draft=result)
        return RecordCommand(lang=lang, reasons=result)
    return None


def is_delete_without_id(text: str) -> bool:
    """ "delete abc", "delete", "احذف القياس": a delete command with no record number.

    Only the keyword with at most one more word, so that a sentence that opens
    with "remove" is still read as a question.
    """
    clean = _as_typed(text)
    return _DELETE.match(clean) is None and _DELETE_NEAR_MISS.match(clean) is not None


_ARABIC_LETTER = re.compile(r"[\u0621-\u064A]")
# "/mpestimate record ...": the slash command typed or pasted as a message (the line
# ``mpbot experiment`` prints, pasted into a DM, a thread or the console).
_SLASH_COMMAND = re.compile(r"^/mpestimate(?:\s+|$)", re.IGNORECASE)


def _as_typed(text: str) -> str:
    """The command's words, without the slash command they may be typed after."""
    return _SLASH_COMMAND.sub("", normalise_command(text), count=1)


# --- keywords ----------------------------------------------------------------------

_B = r"(?![\w])"  # end of a word (Arabic letters are \w too)
_RECORD = re.compile(rf"^(?:record|سجل|أضف قياسا|اضف قياسا){_B}\s*", re.IGNORECASE)
_HISTORY = re.compile(
    r"^(?:history|records|measurements|سجل القياسات|القياسات|قياسات الفريق|سجل الفريق|السجل)"
    r"(?:\s*(?:page|الصفحة|صفحة)?\s*#?(?P<page>\d{1,6}))?$",
    re.IGNORECASE,
)
_DELETE = re.compile(
    r"^(?:delete|remove|احذف|حذف|امسح)(?:\s+(?:record|القياس|قياس|رقم))?\s*#?(?P<id>\d{1,12})$",
    re.IGNORECASE,
)
_DELETE_NEAR_MISS = re.compile(
    r"^(?:delete|remove|احذف|حذف|امسح)(?:\s+(?:record|القياس|قياس|رقم))?(?:\s+#?[^\s\d]\S*)?$",
    re.IGNORECASE,
)
