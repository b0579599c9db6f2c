"""Team measurements: one row per recorded FP32 vs mixed-precision result.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "team_records",
        # A surrogate key the database hands out: parallel inserts never collide.
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("team_id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("gpu", sa.String(32), nullable=True),
        sa.Column("model", sa.String(60), nullable=True),
        sa.Column("family", sa.String(32), nullable=True),
        sa.Column("num_gpus", sa.Integer, nullable=True),
        sa.Column("precision", sa.String(8), nullable=True),
        sa.Column("baseline", sa.String(8), nullable=True),
        sa.Column("ratio", sa.Float, nullable=False),
        sa.Column("measure", sa.String(16), nullable=False),
        sa.Column("fp32_value", sa.Float, nullable=True),
        sa.Column("mixed_value", sa.Float, nullable=True),
        sa.Column("unit", sa.String(32), nullable=True),
        sa.CheckConstraint("ratio > 0", name="ck_team_records_ratio_positive"),
    )
    # History pages and estimate look-ups both read one workspace, newest first.
    op.create_index("ix_team_records_team_created", "team_records", ["team_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_team_records_team_created", "team_records")
    op.drop_table("team_records")
