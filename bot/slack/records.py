"""The team's measurements in Slack: record, history, delete, and the "Record my result" modal.

``/mpestimate record ...``, ``history [page]`` and ``delete N`` (and their
Arabic forms) are answered by :mod:`bot.records.service`, as in the console;
this module only adds Slack's chrome (blocks, buttons, the modal) and asks
Slack whether someone is a workspace admin; its listeners are in
:mod:`bot.slack.rooms.records`. History is an ephemeral message with "Newer" /
"Older" buttons and a delete button (with a confirmation) on each record;
deleting is allowed to the person who recorded it or a workspace admin
(``users.info``: ``is_admin``/``is_owner``), checked again on every click.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from slack_bolt import BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    ConfirmObject,
    InputBlock,
    MarkdownTextObject,
    NumberInputElement,
    Option,
    PlainTextInputElement,
    SectionBlock,
    StaticSelectElement,
)
from slack_sdk.models.views import View

from bot.models import Lang
from bot.records import RecordDraft, RecordReason
from bot.records.models import MAX_GPU_CHARS, MAX_MODEL_CHARS, Record, RecordPage
from bot.records.service import RecordsKind, TeamRecordsService
from bot.rendering.records import RecordWords
from bot.slack.labels import ADMIN_CHECK_FAILED, label
from bot.store import Store
from bot.store.records import DeleteOutcome
from bot.understanding import DeleteCommand, read_command

ACTION_RECORD = "mp_record_open"
ACTION_NEWER = "mp_records_newer"
ACTION_OLDER = "mp_records_older"
ACTION_DELETE = "mp_record_delete"
RECORD_MODAL = "mp_record_modal"
INPUT = "value"
GPU, MODEL, COUNT, PRECISION, FP32, MIXED, RATIO = (
    "rec_gpu",
    "rec_model",
    "rec_count",
    "rec_precision",
    "rec_fp32",
    "rec_mixed",
    "rec_ratio",
)
PRECISIONS = ("fp16", "bf16", "fp8")
log = logging.getLogger(__name__)


def record_button(lang: Lang) -> ButtonElement:
    """ "Record my result": opens the modal (placed under the experiment instructions)."""
    return ButtonElement(
        text=RecordWords(lang).labels().record_button, action_id=ACTION_RECORD, value=lang.value
    )


def with_record_button(message: dict, lang: Lang) -> dict:
    """``message`` with the "Record my result" button appended."""
    actions = ActionsBlock(elements=[record_button(lang)]).to_dict()
    return {**message, "blocks": [*message.get("blocks", []), actions]}


class TeamRecords:
    """Records commands and lookups as Slack messages; the listeners live in
    :mod:`bot.slack.rooms.records`."""

    def __init__(self, store: Store) -> None:
        self.service = TeamRecordsService(store.engine)

    def for_team(self, team_id: str | None) -> list[Record]:
        """The workspace's records for estimates; none (logged) when the database fails."""
        return self.service.for_team(team_id)

    # -- /mpestimate record | history | delete ------------------------------------
    def command(self, text: str, client: WebClient, context: BoltContext) -> dict | None:
        """The reply to a records command, or None when ``text`` is a question."""
        user_id = context.user_id
        try:
            reply = self.service.handle(
                text, context.team_id, user_id, is_admin=lambda: _is_admin(client, user_id)
            )
        except AdminCheckFailed:
            command = read_command(text)
            if not isinstance(command, DeleteCommand):  # only deleting asks Slack
                raise
            return text_reply(admin_check_failed(command.lang, command.record_id))
        if reply is None:
            return None
        if reply.kind is RecordsKind.HISTORY and reply.page is not None:
            return history_message(reply.page, reply.lang)
        message = text_reply(reply.text)
        return with_record_button(message, reply.lang) if reply.refused else message

    def add(self, team_id: str, user_id: str, draft: RecordDraft) -> Record:
        return self.service.add(team_id, user_id, draft)

    def delete(
        self, client: WebClient, team_id: str, user_id: str, record_id: int
    ) -> DeleteOutcome:
        """Recorder or workspace admin; Slack is asked only when it is someone else's."""
        return self.service.delete(team_id, user_id, record_id, lambda: _is_admin(client, user_id))

    def history(self, team_id: str, page: int, lang: Lang, notice: str | None = None) -> dict:
        return history_message(self.service.history(team_id, page), lang, notice)


def history_message(page: RecordPage, lang: Lang, notice: str | None = None) -> dict:
    """A page of records, each with a delete button, and Newer/Older buttons."""
    words = RecordWords(lang)
    labels = words.labels()
    summary = words.history(page)
    blocks: list[Block] = []
    if notice:
        blocks.append(_section(notice))
    if not page.records:
        blocks.append(_section(summary))
    else:
        blocks.append(_section(summary.splitlines()[0]))
        for record in page.records:
            delete = ButtonElement(
                text=labels.delete,
                action_id=ACTION_DELETE,
                value=_encode(lang, page.page, record.id),
                style="danger",
                confirm=ConfirmObject(
                    title=labels.confirm_title,
                    text=words.confirm_delete(record.id),
                    confirm=labels.delete,
                    deny=labels.confirm_keep,
                    style="danger",
                ),
            )
            blocks.append(
                SectionBlock(
                    text=MarkdownTextObject(text=words.history_line(record)), accessory=delete
                )
            )
    paging = []
    if page.page > 1:
        newer = _encode(lang, min(page.page - 1, page.pages))
        paging.append(ButtonElement(text=labels.newer, action_id=ACTION_NEWER, value=newer))
    if page.page < page.pages:
        older = _encode(lang, page.page + 1)
        paging.append(ButtonElement(text=labels.older, action_id=ACTION_OLDER, value=older))
    if paging:
        blocks.append(ActionsBlock(elements=paging))
    text = "\n".join([notice, summary] if notice else [summary])
    return {"text": text, "blocks": [block.to_dict() for block in blocks]}


def record_modal(lang: Lang) -> dict:
    labels = RecordWords(lang).labels()

    def text_input(
        block: str,
        label: str,
        *,
        optional: bool,
        max_length: int,
        hint: str | None = None,
        placeholder: str | None = None,
    ) -> InputBlock:
        return InputBlock(
            block_id=block,
            label=label,
            hint=hint,
            optional=optional,
            element=PlainTextInputElement(
                action_id=INPUT, max_length=max_length, placeholder=placeholder
            ),
        )

    precisions = [Option(value=p, text=p.upper()) for p in PRECISIONS]
    return View(
        type="modal",
        callback_id=RECORD_MODAL,
        private_metadata=lang.value,
        title=labels.modal_title,
        submit=labels.submit,
        close=labels.close,
        blocks=[
            text_input(
                GPU,
                labels.gpu,
                optional=True,
                max_length=MAX_GPU_CHARS,
                placeholder=labels.gpu_placeholder,
            ),
            text_input(
                MODEL,
                labels.model,
                optional=True,
                max_length=MAX_MODEL_CHARS,
                placeholder=labels.model_placeholder,
            ),
            InputBlock(
                block_id=COUNT,
                label=labels.num_gpus,
                optional=True,
                element=NumberInputElement(
                    action_id=INPUT, is_decimal_allowed=False, min_value=1, max_value=100_000
                ),
            ),
            InputBlock(
                block_id=PRECISION,
                label=labels.precision,
                optional=True,
                element=StaticSelectElement(action_id=INPUT, options=precisions),
            ),
            text_input(FP32, labels.fp32, optional=True, max_length=40, hint=labels.result_hint),
            text_input(MIXED, labels.mixed, optional=True, max_length=40, hint=labels.result_hint),
            text_input(RATIO, labels.ratio, optional=True, max_length=20, hint=labels.ratio_hint),
        ],
    ).to_dict()


def field_errors(reasons: tuple[RecordReason, ...], fields: dict, lang: Lang) -> dict[str, str]:
    """Each refusal under the field to fix, in the user's language."""
    words = RecordWords(lang)
    by_block: dict[str, list[RecordReason]] = {}
    for reason in reasons:
        by_block.setdefault(_block_for(reason, fields), []).append(reason)
    return {block: words.field_error(found) for block, found in by_block.items()}


def _block_for(reason: RecordReason, fields: dict) -> str:
    """The field to fix: the ratio when the stated ratio is what was refused."""
    if reason is RecordReason.MISSING_SETUP:
        return GPU
    if fields["ratio"]:
        if reason in (RecordReason.IMPLAUSIBLE, RecordReason.INCONSISTENT):
            return RATIO
        pair = fields["fp32"] and fields["mixed"]
        if reason in (RecordReason.NOT_POSITIVE, RecordReason.NOT_FINITE) and not pair:
            return RATIO  # no step times to check: the number checked was the ratio
        if reason is RecordReason.MISSING_PAIR and not (fields["fp32"] or fields["mixed"]):
            return RATIO  # a ratio was typed but could not be read
    if fields["fp32"] and not fields["mixed"]:
        return MIXED
    return FP32


def modal_values(view: dict) -> dict:
    values = view.get("state", {}).get("values", {})

    def element(block: str) -> dict:
        return values.get(block, {}).get(INPUT) or {}

    count = (element(COUNT).get("value") or "").strip()
    precision = (element(PRECISION).get("selected_option") or {}).get("value")
    return {
        "gpu": (element(GPU).get("value") or "").strip(),
        "model": (element(MODEL).get("value") or "").strip(),
        "num_gpus": int(count) if count.isdigit() else None,
        "precision": precision if precision in PRECISIONS else None,
        "fp32": (element(FP32).get("value") or "").strip(),
        "mixed": (element(MIXED).get("value") or "").strip(),
        "ratio": (element(RATIO).get("value") or "").strip(),
    }


def modal_lang(view: dict) -> Lang:
    metadata = view.get("private_metadata")
    return Lang(metadata) if metadata in (Lang.AR.value, Lang.EN.value) else Lang.EN


class AdminCheckFailed(Exception):
    """Slack could not say whether someone is a workspace admin (``users.info`` failed).

    Not the same as "not an admin": the person is told to try again, not refused.
    """


def _is_admin(client: WebClient, user_id: str) -> bool:
    """Workspace admins and owners may delete anyone's record."""
    try:
        user = client.users_info(user=user_id).get("user") or {}
    except SlackApiError as error:
        log.warning("users.info failed for user=%s: %s", user_id, error.response.get("error"))
        raise AdminCheckFailed from error
    except OSError as error:
        log.warning("users.info unreachable for user=%s: %s", user_id, type(error).__name__)
        raise AdminCheckFailed from error
    return bool(user.get("is_admin") or user.get("is_owner") or user.get("is_primary_owner"))


def admin_check_failed(lang: Lang, record_id: int) -> str:
    number = f"\u2068{record_id}\u2069" if lang is Lang.AR else str(record_id)
    return label(lang, ADMIN_CHECK_FAILED, record=number)


@dataclass(frozen=True)
class _Value:
    """A button's value: the language, the history page and (for delete) the record."""

    lang: Lang
    page: int
    record_id: int | None


def _encode(lang: Lang, page: int, record_id: int | None = None) -> str:
    return json.dumps({"l": lang.value, "p": page, "r": record_id}, separators=(",", ":"))


def decode_value(value: str | None) -> _Value:
    """Read a button value back; anything we did not write shows page 1 in English."""
    try:
        data = json.loads(value or "")
        record_id = data.get("r")
        return _Value(
            Lang(data["l"]),
            max(1, int(data["p"])),
            int(record_id) if record_id is not None else None,
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return _Value(Lang.EN, 1, None)


def _section(mrkdwn: str) -> SectionBlock:
    return SectionBlock(text=MarkdownTextObject(text=mrkdwn))


def text_reply(mrkdwn: str) -> dict:
    return {"text": mrkdwn, "blocks": [_section(mrkdwn).to_dict()]}
