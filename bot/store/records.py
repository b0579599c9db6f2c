"""The team's measurements in the database: add, page through, look up, delete.

Functions take the store's engine (``Store.engine``) and open one short
transaction each, like the rest of the store, so any replica can serve any
request. Every query is scoped to one workspace (``team_id``): a record id
from another workspace is simply not found.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from enum import StrEnum

from sqlalchemy import (
    CheckConstraint,
    Column,
    DateTime,
    Engine,
    Float,
    Integer,
    String,
    Table,
    bindparam,
    delete,
    func,
    select,
)
from sqlalchemy.sql.elements import BindParameter

from bot.records.models import (
    SECONDS_PER_STEP_UNIT,
    Measure,
    Record,
    RecordDraft,
    RecordPage,
)
from bot.records.ratio import Validation
from bot.store.schema import metadata

PAGE_SIZE = 10
# Estimates read at most this many of a workspace's newest records.
MATCH_WINDOW = 500

team_records = Table(
    "team_records",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("team_id", String(32), nullable=False),
    Column("user_id", String(32), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("gpu", String(32)),
    Column("model", String(60)),
    Column("family", String(32)),
    Column("num_gpus", Integer),
    Column("precision", String(8)),
    Column("baseline", String(8)),
    Column("ratio", Float, nullable=False),
    Column("measure", String(16), nullable=False),
    Column("fp32_value", Float),
    Column("mixed_value", Float),
    Column("unit", String(32)),
    CheckConstraint("ratio > 0", name="ck_team_records_ratio_positive"),
)


class DeleteOutcome(StrEnum):
    DELETED = "deleted"
    FORBIDDEN = "forbidden"  # neither the recorder nor a workspace admin
    NOT_FOUND = "not_found"


def add_record(
    engine: Engine, team_id: str, user_id: str, draft: RecordDraft, checked: Validation
) -> Record:
    """Store a validated draft and return it with its id and time."""
    if not checked.ok or checked.ratio is None or checked.measure is None:
        raise ValueError(f"refusing to store an invalid record: {checked.reasons}")
    fp32, mixed, unit = _numbers(draft, checked)
    values = {
        "team_id": team_id,
        "user_id": user_id,
        "created_at": datetime.now(UTC),
        "gpu": draft.gpu,
        "model": draft.model,
        "family": draft.family,
        "num_gpus": draft.num_gpus,
        "precision": draft.precision,
        "baseline": draft.baseline,
        "ratio": checked.ratio,
        "measure": checked.measure.value,
        "fp32_value": fp32,
        "mixed_value": mixed,
        "unit": unit,
    }
    with engine.begin() as connection:
        new_id = connection.execute(
            team_records.insert().values(**values).returning(team_records.c.id)
        ).scalar_one()
    return Record(id=new_id, **values)


def get_record(engine: Engine, team_id: str, record_id: int) -> Record | None:
    with engine.connect() as connection:
        row = connection.execute(
            select(team_records).where(
                team_records.c.team_id == team_id, team_records.c.id == record_id
            )
        ).one_or_none()
    return _record(row) if row else None


def list_records(engine: Engine, team_id: str, page: int = 1, size: int = PAGE_SIZE) -> RecordPage:
    """One page of the workspace's records, newest first (a page past the end is empty)."""
    page = max(1, page)
    with engine.connect() as connection:
        total = connection.execute(
            select(func.count()).select_from(team_records).where(team_records.c.team_id == team_id)
        ).scalar_one()
        rows = connection.execute(
            _newest_first(team_id).limit(size).offset((page - 1) * size)
        ).all()
    return RecordPage(
        records=[_record(r) for r in rows],
        page=page,
        pages=max(1, math.ceil(total / size)),
        total=total,
    )


def records_for_team(engine: Engine, team_id: str, limit: int = MATCH_WINDOW) -> list[Record]:
    """The workspace's newest records, for matching against a setup."""
    with engine.connect() as connection:
        rows = connection.execute(_FOR_TEAM, {"team_id": team_id, "limit": limit}).all()
    return [_record(r) for r in rows]


def delete_record(
    engine: Engine, team_id: str, record_id: int, user_id: str, *, is_admin: bool
) -> DeleteOutcome:
    """Delete when ``user_id`` recorded it or is a workspace admin, in one statement."""
    allowed = team_records.c.team_id == team_id
    condition = [allowed, team_records.c.id == record_id]
    if not is_admin:
        condition.append(team_records.c.user_id == user_id)
    with engine.begin() as connection:
        if connection.execute(delete(team_records).where(*condition)).rowcount:
            return DeleteOutcome.DELETED
        exists = connection.execute(
            select(team_records.c.id).where(allowed, team_records.c.id == record_id)
        ).first()
    return DeleteOutcome.FORBIDDEN if exists else DeleteOutcome.NOT_FOUND


def _newest_first(team_id: str | BindParameter):
    return (
        select(team_records)
        .where(team_records.c.team_id == team_id)
        .order_by(team_records.c.created_at.desc(), team_records.c.id.desc())
    )


# Read for every estimate, so built once (building a select costs more than
# running it on SQLite).
_FOR_TEAM = _newest_first(bindparam("team_id")).limit(bindparam("limit"))


def _numbers(
    draft: RecordDraft, checked: Validation
) -> tuple[float | None, float | None, str | None]:
    """The user's own pair, kept for history (none for a stated ratio)."""
    if checked.measure is Measure.STEP_TIME and draft.fp32_step and draft.mixed_step:
        # Both in the FP32 side's unit, so "420 ms vs 190 ms" reads as one comparison.
        unit = draft.fp32_step.unit
        mixed = draft.mixed_step.seconds / SECONDS_PER_STEP_UNIT[unit]
        return draft.fp32_step.value, mixed, unit.value
    if checked.measure is Measure.THROUGHPUT and draft.fp32_throughput and draft.mixed_throughput:
        unit = draft.fp32_throughput.unit or draft.mixed_throughput.unit or None
        return draft.fp32_throughput.value, draft.mixed_throughput.value, unit
    return None, None, None


def _record(row) -> Record:
    created = row.created_at
    if created.tzinfo is None:  # SQLite hands back naive datetimes (stored as UTC)
        created = created.replace(tzinfo=UTC)
    return Record.model_validate({**row._mapping, "created_at": created})
