"""Initial schema: event dedupe, thread context, user preferences, OAuth stores.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _slack_oauth_metadata() -> sa.MetaData:
    """Bolt's installation and state tables, as slack-sdk defines them."""
    metadata = sa.MetaData()
    SQLAlchemyInstallationStore.build_installations_table(metadata, "slack_installations")
    SQLAlchemyInstallationStore.build_bots_table(metadata, "slack_bots")
    SQLAlchemyOAuthStateStore.build_oauth_states_table(metadata, "slack_oauth_states")
    return metadata


def upgrade() -> None:
    op.create_table(
        "processed_events",
        sa.Column("event_id", sa.String(64), primary_key=True),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_processed_events_received_at", "processed_events", ["received_at"])
    op.create_table(
        "thread_estimates",
        sa.Column("team_id", sa.String(32), primary_key=True),
        sa.Column("channel_id", sa.String(32), primary_key=True),
        sa.Column("thread_ts", sa.String(32), primary_key=True),
        sa.Column("fp32_hours", sa.Float, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "user_prefs",
        sa.Column("team_id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("lang", sa.String(8), nullable=True),
        sa.Column("slack_locale", sa.String(16), nullable=True),
        sa.Column("locale_checked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    _slack_oauth_metadata().create_all(op.get_bind())


def downgrade() -> None:
    _slack_oauth_metadata().drop_all(op.get_bind())
    op.drop_table("user_prefs")
    op.drop_table("thread_estimates")
    op.drop_index("ix_processed_events_received_at", "processed_events")
    op.drop_table("processed_events")
