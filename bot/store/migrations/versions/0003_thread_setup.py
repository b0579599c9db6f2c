"""Threads remember the setup named in them, and may have no FP32 time yet.

"What speedup for BERT on A100?" answered in a thread, then "it takes 36
hours": the follow-up is about BERT on A100, though no time was given before.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Batch mode: SQLite can only change a column's nullability by copying the table.
    with op.batch_alter_table("thread_estimates") as batch:
        batch.add_column(sa.Column("setup", sa.JSON, nullable=True))
        batch.alter_column("fp32_hours", existing_type=sa.Float, nullable=True)


def downgrade() -> None:
    # Threads that never had a time cannot stay once the time is required again.
    op.execute("DELETE FROM thread_estimates WHERE fp32_hours IS NULL")
    with op.batch_alter_table("thread_estimates") as batch:
        batch.alter_column("fp32_hours", existing_type=sa.Float, nullable=False)
        batch.drop_column("setup")
