"""Table definitions the store queries (the migrations own their creation)."""

from __future__ import annotations

from sqlalchemy import JSON, Column, DateTime, Float, MetaData, String, Table

metadata = MetaData()

# One row per Events API delivery we accepted; a redelivery finds its row.
processed_events = Table(
    "processed_events",
    metadata,
    Column("event_id", String(64), primary_key=True),
    Column("received_at", DateTime(timezone=True), nullable=False, index=True),
)

# The FP32 time of the bot's latest estimate in a thread (or a DM), so a
# follow-up like "and with ratio 2.5?" can reuse it, and the setup named in a
# thread (GPU, model, ...), so "it takes 36 hours" after "what speedup for
# BERT on A100?" is about BERT on A100.
thread_estimates = Table(
    "thread_estimates",
    metadata,
    Column("team_id", String(32), primary_key=True),
    Column("channel_id", String(32), primary_key=True),
    Column("thread_ts", String(32), primary_key=True),
    Column("fp32_hours", Float, nullable=True),
    Column("setup", JSON, nullable=True),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# A user's chosen reply language, and their Slack locale as last seen.
user_prefs = Table(
    "user_prefs",
    metadata,
    Column("team_id", String(32), primary_key=True),
    Column("user_id", String(32), primary_key=True),
    Column("lang", String(8), nullable=True),
    Column("slack_locale", String(16), nullable=True),
    Column("locale_checked_at", DateTime(timezone=True), nullable=True),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
