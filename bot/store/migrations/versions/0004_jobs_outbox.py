"""Durable work: jobs taken before the ack, and the outbox of their answers.

See :mod:`bot.jobs` for why these are tables of our own.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "jobs",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("work", sa.String(200), nullable=False),
        sa.Column("request", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        # A job's id keys its answers in the outbox, so it is never used again
        # (SQLite would otherwise hand a deleted row's id to the next job).
        sqlite_autoincrement=True,
    )
    op.create_index("ix_jobs_lease_until", "jobs", ["lease_until"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("job_id", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("target", sa.Text, nullable=False),
        sa.Column("message", sa.JSON, nullable=False),
        sa.Column("team_id", sa.String(32), nullable=True),
        sa.Column("enterprise_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
        sa.UniqueConstraint("job_id", "seq", name="uq_outbox_job_seq"),
    )
    op.create_index("ix_outbox_next_at", "outbox", ["next_at"])


def downgrade() -> None:
    op.drop_table("outbox")
    op.drop_table("jobs")
