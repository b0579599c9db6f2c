"""The jobs and outbox tables (created by migration 0004)."""

from __future__ import annotations

from sqlalchemy import JSON, Column, DateTime, Integer, String, Table, Text, UniqueConstraint

from bot.store.schema import metadata

# Work acked but not finished. A row nobody claimed, or whose lease is past, is free to
# claim; a finished job's row is deleted. An unclaimed row's lease_until is its turn in
# the claim order (bot.slack.fairness): no schema change, and its index gives the order.
jobs = Table(
    "jobs",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # The listener that does the work, by its qualified name.
    Column("work", String(200), nullable=False),
    # {"body", "payload", "context"}: what the listener is given, tokens left out.
    Column("request", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("lease_until", DateTime(timezone=True), nullable=True, index=True),
    Column("claimed_by", String(64), nullable=True),
    Column("attempts", Integer, nullable=False, default=0),
    # Never reused: the id keys the job's answers in the outbox.
    sqlite_autoincrement=True,
)

# One row per answer a job sends, numbered in the order the job sends them, so a
# job run again finds the answers it already sent (``done_at``) and skips them.
outbox = Table(
    "outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("job_id", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    # "response_url" (target: the URL) or "api" (target: the Web API method).
    Column("kind", String(16), nullable=False),
    Column("target", Text, nullable=False),
    Column("message", JSON, nullable=False),
    # Whose token an "api" row is sent with (the token itself is never stored).
    Column("team_id", String(32), nullable=True),
    Column("enterprise_id", String(32), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("next_at", DateTime(timezone=True), nullable=False, index=True),
    Column("lease_until", DateTime(timezone=True), nullable=True),
    Column("claimed_by", String(64), nullable=True),
    Column("attempts", Integer, nullable=False, default=0),
    # Set once Slack took the row, or refused it for good; ``result`` is what it answered.
    Column("done_at", DateTime(timezone=True), nullable=True),
    Column("result", JSON, nullable=True),
    UniqueConstraint("job_id", "seq", name="uq_outbox_job_seq"),
)
