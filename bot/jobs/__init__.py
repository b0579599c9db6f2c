"""Durable work: jobs taken before the ack, and an outbox of answers to deliver.

Slack never redelivers a slash command it got an ack for, so anything acked
must survive the process that acked it. Before ``mpbot serve`` acks a request,
the work it still needs (the listener's name and the request's already
verified, already parsed body) is committed to the bot's own database as a
job; worker processes of any replica claim jobs with a lease and answer them.
Each answer goes through an outbox row that is marked sent the moment Slack
takes it, so a job run twice (its worker died, its lease ran out) never sends
an accepted answer again, and an answer Slack refused for now (5xx, 429,
unreachable) is retried later instead of being slept on in a thread.

Why a small table of our own rather than a job library: the bot's database is
SQLite locally and PostgreSQL in production, and the well-kept queue for this
stack, procrastinate, is PostgreSQL only (its queue is PL/pgSQL functions and
LISTEN/NOTIFY). Two tables and one claim statement (``FOR UPDATE SKIP LOCKED``
on PostgreSQL, one atomic ``UPDATE ... RETURNING`` on SQLite) give both
databases the same semantics, under the same SQLAlchemy engine and Alembic
migrations as the rest of the store.

When the database cannot take a job before the ack, :mod:`bot.jobs.spool`
keeps it in a file until the database can.
"""

from bot.jobs.spool import Spool, SpooledJob
from bot.jobs.store import ClaimedJob, JobStore, OutboxRow, OutboxStore

__all__ = ["ClaimedJob", "JobStore", "OutboxRow", "OutboxStore", "Spool", "SpooledJob"]
